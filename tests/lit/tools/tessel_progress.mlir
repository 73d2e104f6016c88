// Progress on standard error: one line rewritten in place on a terminal (cleared before
// results are printed), a line per stage with TESSEL_PROGRESS=1, nothing with --quiet or
// when standard error is not a terminal.
// RUN: env TESSEL_PROGRESS=1 tessel run %s --check --print_limit=0 2>&1 >/dev/null | FileCheck %s --check-prefix=STAGES
// RUN: env TESSEL_PROGRESS=1 tessel partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=PARTITION
// RUN: env TESSEL_PROGRESS=1 tessel run %s --check --print_limit=0 --quiet 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: tessel run %s --check --print_limit=0 2>&1 | FileCheck %s --check-prefix=QUIET
// A terminal (script gives the command one): the line is cleared before the results.
// RUN: sh -c 'script -qec "tessel run %s --print_limit=0" /dev/null < /dev/null | cat -v' | FileCheck %s --check-prefix=TTY
// RUN: sh -c 'script -qec "tessel run %s --print_limit=0 --quiet" /dev/null < /dev/null | cat -v' | FileCheck %s --check-prefix=TTY-QUIET

// STAGES:      tessel run: loading {{.*}}tessel_progress.mlir
// STAGES-NEXT: tessel run: drawing the inputs
// STAGES-NEXT: tessel run: running on one device
// STAGES-NEXT: tessel run: partitioning
// STAGES-NEXT: tessel run: running the partitioned program (2 partitions)
// STAGES-NOT: {{.}}

// PARTITION:      tessel partition: loading
// PARTITION-NEXT: tessel partition: propagating and partitioning
// PARTITION-NEXT: tessel partition: writing

// QUIET-NOT: tessel run:
// QUIET: check: result 0 f32[8,4] matches

// TTY: {{\^\[\[K}}result 0: f32[8,4]
// TTY-QUIET-NOT: {{\^\[\[K}}
// TTY-QUIET: result 0: f32[8,4]
// TTY-QUIET-NOT: {{\^\[\[K}}

tessel.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %e = hlo.exp %a : tensor<8x4xf32>
  return %e : tensor<8x4xf32>
}
