// `tessel viz` inside a program `tessel partition` wrote: --value names its values; with
// --global_layouts each local piece of a global value is drawn as that global value (its
// global type and sharding kept on the op), anything else is a per-device value shown with
// its local type, in text and JSON; without --value only the global arguments and results
// are drawn. The kept layouts change nothing for `tessel run` or the HLO export. And
// -o/--output: the drawing, in any format, goes to a file instead of standard output.
// RUN: rm -rf %t && split-file %s %t
// RUN: tessel partition %t/mlp.mlir --global_layouts -o %t/layouts.mlir 2> /dev/null
// RUN: tessel partition %t/mlp.mlir -o %t/plain.mlir 2> /dev/null
// RUN: FileCheck %s --check-prefix=KEPT < %t/layouts.mlir
// RUN: cd %t && tessel viz layouts.mlir --value=%%0,%%1,result0 | FileCheck %s --check-prefix=INSIDE --strict-whitespace
// RUN: cd %t && tessel viz layouts.mlir --value=%%0,%%1 --format=json | FileCheck %s --check-prefix=JSON --strict-whitespace
// RUN: cd %t && tessel viz plain.mlir --value=5:10 | FileCheck %s --check-prefix=PLAIN
// RUN: cd %t && tessel viz layouts.mlir | FileCheck %s --check-prefix=BOUNDARY
// RUN: tessel run %t/layouts.mlir --check --reference=%t/mlp.mlir --print_limit=0 | FileCheck %s --check-prefix=RAN
// RUN: tessel partition %t/mlp.mlir --global_layouts --format=hlo 2> /dev/null | FileCheck %s --check-prefix=HLO
// -o and --output, in text and HTML, and a file that cannot be written.
// RUN: cd %t && tessel viz layouts.mlir --value=%%1 -o %t/one.txt > %t/stdout.txt
// RUN: test ! -s %t/stdout.txt
// RUN: cd %t && tessel viz layouts.mlir --value=%%1 | diff - %t/one.txt
// RUN: cd %t && tessel viz layouts.mlir --value=%%1 --format=html --output=%t/one.html
// RUN: FileCheck %s --check-prefix=OUT-HTML < %t/one.html
// RUN: cd %t && tessel viz layouts.mlir --value=%%1 --color=auto -o %t/auto.txt
// RUN: cmp %t/one.txt %t/auto.txt
// RUN: sh -c 'tessel viz %t/layouts.mlir -o %t/no/such/dir/x.txt; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-DIR

// mlp.mlir: x (16x8) rows over "data", w (8x4) rows over "model", on data=2 x model=2.
// The partitioner gathers w over "model" (%0: a local 8x4 that is no piece of a global
// value the partitioner tracked), then the dot (%1) and tanh (%2) compute the local rows
// of y and tanh(y), 16x4 with rows over "data": pieces of 16 / 2 = 8 rows, devices
// 2*d + m (m = 0, 1) holding piece d.
// KEPT: %1 = hlo.dot_general {{.*}}{tessel.global_layouts = [{sharding = #tessel.sharding<@mesh, [{"data"}, {}]>, type = tensor<16x4xf32>}]} : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>

// INSIDE:      %0 = tessel.all_gather at layouts.mlir:4:10: tensor<8x4xf32> on each partition
// INSIDE-NEXT: {{  }}a per-device value: each partition computes its own tensor<8x4xf32>, which is not the piece of a global value with a known layout
// INSIDE-EMPTY:
// INSIDE-NEXT: %1 = hlo.dot_general at layouts.mlir:5:10: tensor<16x4xf32> #tessel.sharding<@mesh, [{"data"}, {}]> (each partition holds tensor<8x4xf32>)
// INSIDE-NEXT: {{  }}dim 0: 16 over "data" (2 pieces of 8)
// INSIDE-NEXT: {{  }}dim 1: 4, whole
// INSIDE-NEXT: {{  }}+------------------+
// INSIDE-NEXT: {{  }}|       0,1        |
// INSIDE-NEXT: {{  }}|    [0:8, 0:4]    |
// INSIDE-NEXT: {{  }}+------------------+
// INSIDE-NEXT: {{  }}|       2,3        |
// INSIDE-NEXT: {{  }}|   [8:16, 0:4]    |
// INSIDE-NEXT: {{  }}+------------------+
// INSIDE-NEXT: {{  }}each tile is held by 2 devices
// INSIDE-EMPTY:
// INSIDE-NEXT: result0: tensor<16x4xf32> #tessel.sharding<@mesh, [{"data"}, {}]> (each partition holds tensor<8x4xf32>)

// JSON:      {"title": "%0 = tessel.all_gather at layouts.mlir:4:10", "names": ["%0", "4:10"], "type": "tensor<8x4xf32>", "sharding": null, "local_type": "tensor<8x4xf32>",
// JSON-NEXT: {{^     }}"layout": null, "per_device": true, "note": "a per-device value: each partition computes its own tensor<8x4xf32>, which is not the piece of a global value with a known layout"},
// JSON-NEXT: {{^    }}{"title": "%1 = hlo.dot_general at layouts.mlir:5:10", "names": ["%1", "5:10"], "type": "tensor<16x4xf32>", "sharding": "#tessel.sharding<@mesh, [{\"data\"}, {}]>", "local_type": "tensor<8x4xf32>",
// JSON-NEXT: {{^     }}"layout": {"dims": [{"size": 16, "axes": ["data"], "pieces": 2, "piece_size": 8}, {"size": 4, "axes": [], "pieces": 1, "piece_size": 4}], "unreduced": [], "devices": [
// JSON-NEXT: {{^       }}{"device": 0, "ranges": {{\[\[}}0, 8], [0, 4{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{^       }}{"device": 1, "ranges": {{\[\[}}0, 8], [0, 4{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{^       }}{"device": 2, "ranges": {{\[\[}}8, 16], [0, 4{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{^       }}{"device": 3, "ranges": {{\[\[}}8, 16], [0, 4{{\]\]}}, "empty": false, "partial_sum_group": 0}
// JSON-NEXT: {{^     }}]}}

// Partitioned without --global_layouts: every value inside is per-device, and the message
// says how to keep the layouts.
// PLAIN:      %1 = hlo.dot_general at plain.mlir:5:10: tensor<8x4xf32> on each partition
// PLAIN-NEXT: a per-device value: each partition computes its own tensor<8x4xf32>, which is not the piece of a global value with a known layout ('tessel partition --global_layouts' keeps the global layouts of the values that are)

// BOUNDARY:     %arg0 = arg0: tensor<16x8xf32> #tessel.sharding<@mesh, [{"data"}, {}]> (each partition holds tensor<8x8xf32>)
// BOUNDARY-NOT: hlo.dot_general
// BOUNDARY:     %arg1 = arg1: tensor<8x4xf32> #tessel.sharding<@mesh, [{"model"}, {}]> (each partition holds tensor<4x4xf32>)
// BOUNDARY-NOT: hlo.dot_general
// BOUNDARY:     result0: tensor<16x4xf32>

// RAN: ran the partitioned program on 4 partitions
// RAN: check: result 0 f32[16,4] matches

// HLO-NOT: global_layouts
// HLO:     dot(

// OUT-HTML: <!DOCTYPE html>
// OUT-HTML: <g class="tile" id="v0-r1-c0" data-devices="2,3" data-ranges="[8:16, 0:4]"

// NO-DIR: tessel viz: cannot write {{.*}}no/such/dir/x.txt: No such file or directory
// NO-DIR: exit=1

//--- mlp.mlir
tessel.mesh @mesh = <["data"=2, "model"=2]>
func.func @main(%x: tensor<16x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %t = hlo.tanh %y : tensor<16x4xf32>
  return %t : tensor<16x4xf32>
}
