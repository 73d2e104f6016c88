// `tessel viz --color`: with `always` the cells of each tile are drawn on a background per
// set of devices holding it (the same set, the same colour, in every value) and a legend
// follows the grid; `never`, and `auto` when standard output is not a terminal, print the
// plain text byte for byte; `auto` on a terminal colours unless TERM is dumb or NO_COLOR is
// set (`script` gives the command a terminal); a bad value is a usage error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir --value=%%x,%%h,%%w1 --color=always | sed 's/\x1b/ESC/g' | FileCheck %s --check-prefix=ALWAYS
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir --color=never > %t/never.txt
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir > %t/plain.txt
// RUN: cmp %t/never.txt %t/plain.txt
// RUN: cd %S/../../../examples/mlp && sh -c 'TERM=xterm-256color tessel viz mlp.mlir --color=auto' > %t/piped.txt
// RUN: cmp %t/piped.txt %t/plain.txt
// RUN: not grep -q "$(printf '\033')" %t/plain.txt
// RUN: cd %S/../../../examples/mlp && sh -c 'env -u NO_COLOR TERM=xterm script -qec "tessel viz mlp.mlir --value=%%x" /dev/null' | sed 's/\x1b/ESC/g' | FileCheck %s --check-prefix=TERMINAL
// RUN: cd %S/../../../examples/mlp && sh -c 'NO_COLOR=1 TERM=xterm script -qec "tessel viz mlp.mlir --value=%%x" /dev/null' | sed 's/\x1b/ESC/g' | FileCheck %s --check-prefix=NO-COLOR
// RUN: cd %S/../../../examples/mlp && sh -c 'env -u NO_COLOR TERM=dumb script -qec "tessel viz mlp.mlir --value=%%x" /dev/null' | sed 's/\x1b/ESC/g' | FileCheck %s --check-prefix=NO-COLOR
// RUN: sh -c 'cd %S/../../../examples/mlp && tessel viz mlp.mlir --color=sometimes; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: tessel viz --help | FileCheck %s --check-prefix=HELP

// Values come in the function's order. %x's row blocks are held by {0,1}, {2,3}, ...: the
// first four colours; %w1's column tiles, held by {0,2,4,6} and {1,3,5,7}, the next two;
// %h's eight tiles the remaining six and then, the palette of twelve used up, its first two
// again. The legend lists the colours of the drawn tiles.
// ALWAYS:      %x = arg0: tensor<16x64xf32>
// ALWAYS:      +------------------+
// ALWAYS-NEXT: |ESC[48;5;153;38;5;16m       0,1        ESC[0m|
// ALWAYS-NEXT: |ESC[48;5;153;38;5;16m   [0:4, 0:64]    ESC[0m|
// ALWAYS-NEXT: +------------------+
// ALWAYS-NEXT: |ESC[48;5;223;38;5;16m       2,3        ESC[0m|
// ALWAYS:      legend: ESC[48;5;153;38;5;16m  ESC[0m 0,1  ESC[48;5;223;38;5;16m  ESC[0m 2,3  ESC[48;5;157;38;5;16m  ESC[0m 4,5  ESC[48;5;218;38;5;16m  ESC[0m 6,7
// ALWAYS-NEXT: each tile is held by 2 devices
// ALWAYS:      %w1 = arg1
// ALWAYS:      |ESC[48;5;229;38;5;16m     0,2,4,6      ESC[0m|ESC[48;5;183;38;5;16m     1,3,5,7      ESC[0m|
// ALWAYS:      %h = hlo.dot_general
// ALWAYS:      |ESC[48;5;116;38;5;16m        0         ESC[0m|ESC[48;5;216;38;5;16m        1         ESC[0m|
// ALWAYS:      |ESC[48;5;153;38;5;16m        6         ESC[0m|ESC[48;5;223;38;5;16m        7         ESC[0m|

// TERMINAL:    |ESC[48;5;153;38;5;16m       0,1        ESC[0m|
// TERMINAL:    legend:

// NO-COLOR:     |       0,1        |
// NO-COLOR-NOT: ESC

// BAD:      tessel viz: --color must be auto, always or never, got 'sometimes'
// BAD-NEXT: see 'tessel viz --help' for usage
// BAD-NEXT: exit=2

// HELP: usage: tessel viz FILE {{.*}} [--color=auto|always|never]
// HELP: --color (default: auto)
