// `tessel viz`: the tile pictures of the MLP example and of a small 2x3 mesh program
// (uneven and empty tiles, partial sums, rank 3), values picked by --value (SSA name, argN,
// LINE:COL, LINE:COL#K), JSON, a --mesh override, HLO input, help, and every error: bad
// input (exit 1) and bad command lines (exit 2).
// RUN: rm -rf %t && split-file %s %t
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir --value=%%x --value=%%h | FileCheck %s --check-prefix=MLP --strict-whitespace
// RUN: cd %t && tessel viz grid.mlir | FileCheck %s --check-prefix=GRID --strict-whitespace
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir --value=%%w1 --format=json | FileCheck %s --check-prefix=JSON --strict-whitespace
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir --value=%%h --mesh=data=3,model=2 | FileCheck %s --check-prefix=MESH --strict-whitespace
// RUN: cd %t && tessel viz grid.mlir --function=sorted --value=20:10 | FileCheck %s --check-prefix=BOTH-RESULTS
// RUN: cd %t && tessel viz grid.mlir --function=sorted --value=grid.mlir:20:10#1,arg1 | FileCheck %s --check-prefix=ONE-RESULT
// RUN: tessel viz %S/../../corpus/mlp.gspmd.hlo --value=arg2 | FileCheck %s --check-prefix=HLO
// RUN: tessel viz --help | FileCheck %s --check-prefix=HELP
// RUN: tessel --help | FileCheck %s --check-prefix=TOP

// The Megatron MLP on 4x2 devices: x is split by rows over "data" and replicated over
// "model"; the hidden activations are split both ways.
// MLP: %x = arg0: tensor<16x64xf32> #tessel.sharding<@mesh, [{"data"}, {}]>
// MLP-NEXT: {{  }}dim 0: 16 over "data" (4 pieces of 4)
// MLP-NEXT: {{  }}dim 1: 64, whole
// MLP-NEXT: {{  }}+------------------+
// MLP-NEXT: {{  }}|       0,1        |
// MLP-NEXT: {{  }}|   [0:4, 0:64]    |
// MLP-NEXT: {{  }}+------------------+
// MLP-NEXT: {{  }}|       2,3        |
// MLP-NEXT: {{  }}|   [4:8, 0:64]    |
// MLP-NEXT: {{  }}+------------------+
// MLP-NEXT: {{  }}|       4,5        |
// MLP-NEXT: {{  }}|   [8:12, 0:64]   |
// MLP-NEXT: {{  }}+------------------+
// MLP-NEXT: {{  }}|       6,7        |
// MLP-NEXT: {{  }}|  [12:16, 0:64]   |
// MLP-NEXT: {{  }}+------------------+
// MLP-NEXT: {{  }}each tile is held by 2 devices
// MLP-EMPTY:
// MLP-NEXT: %h = hlo.dot_general at mlp.mlir:11:8: tensor<16x256xf32> #tessel.sharding<@mesh, [{"data"}, {"model"}]>
// MLP-NEXT: {{  }}dim 0: 16 over "data" (4 pieces of 4)
// MLP-NEXT: {{  }}dim 1: 256 over "model" (2 pieces of 128)
// MLP-NEXT: {{  }}+------------------+------------------+
// MLP-NEXT: {{  }}|        0         |        1         |
// MLP-NEXT: {{  }}|   [0:4, 0:128]   |  [0:4, 128:256]  |
// MLP-NEXT: {{  }}+------------------+------------------+
// MLP-NEXT: {{  }}|        2         |        3         |
// MLP-NEXT: {{  }}|   [4:8, 0:128]   |  [4:8, 128:256]  |
// MLP-NEXT: {{  }}+------------------+------------------+
// MLP-NEXT: {{  }}|        4         |        5         |
// MLP-NEXT: {{  }}|  [8:12, 0:128]   | [8:12, 128:256]  |
// MLP-NEXT: {{  }}+------------------+------------------+
// MLP-NEXT: {{  }}|        6         |        7         |
// MLP-NEXT: {{  }}|  [12:16, 0:128]  | [12:16, 128:256] |
// MLP-NEXT: {{  }}+------------------+------------------+

// Every value of @main: cells are sized by their extents (the short last column), device 2
// and 5 hold nothing of %b, the holders of a %p tile hold partial sums, and %c draws its two
// split dims with dim 0 as ":".
// GRID: %a = arg0: tensor<4x7xf32> #tessel.sharding<@grid, [{"x"}, {"y"}]>
// GRID-NEXT: {{  }}dim 0: 4 over "x" (2 pieces of 2)
// GRID-NEXT: {{  }}dim 1: 7 over "y" (3 pieces of 3; [6:7] holds 1 of 3 columns, padded)
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+
// GRID-NEXT: {{  }}|          0           |          1           |     2      |
// GRID-NEXT: {{  }}|      [0:2, 0:3]      |      [0:2, 3:6]      | [0:2, 6:7] |
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+
// GRID-NEXT: {{  }}|          3           |          4           |     5      |
// GRID-NEXT: {{  }}|      [2:4, 0:3]      |      [2:4, 3:6]      | [2:4, 6:7] |
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+
// GRID-EMPTY:
// GRID-NEXT: %b = arg1: tensor<2x5xf32> #tessel.sharding<@grid, [{"y"}, {}]>
// GRID-NEXT: {{  }}dim 0: 2 over "y" (3 pieces of 1; piece 2 is empty, all padding)
// GRID-NEXT: {{  }}dim 1: 5, whole
// GRID-NEXT: {{  }}+------------------+
// GRID-NEXT: {{  }}|       0,3        |
// GRID-NEXT: {{  }}|    [0:1, 0:5]    |
// GRID-NEXT: {{  }}+------------------+
// GRID-NEXT: {{  }}|       1,4        |
// GRID-NEXT: {{  }}|    [1:2, 0:5]    |
// GRID-NEXT: {{  }}+------------------+
// GRID-NEXT: {{  }}|       2,5        |
// GRID-NEXT: {{  }}| [2:2, 0:5] empty |
// GRID-NEXT: {{  }}+------------------+
// GRID-NEXT: {{  }}each tile is held by 2 devices
// GRID-NEXT: {{  }}devices 2,5 hold an empty tile (padding only)
// GRID-EMPTY:
// GRID-NEXT: %p = arg2: tensor<6xf32> #tessel.sharding<@grid, [{"x"}], unreduced={"y"}>
// GRID-NEXT: {{  }}dim 0: 6 over "x" (2 pieces of 3)
// GRID-NEXT: {{  }}+------------------+------------------+
// GRID-NEXT: {{  }}|       0-2        |       3-5        |
// GRID-NEXT: {{  }}|      [0:3]       |      [3:6]       |
// GRID-NEXT: {{  }}+------------------+------------------+
// GRID-NEXT: {{  }}each tile is held by 3 devices
// GRID-NEXT: {{  }}partial sums over "y": the holders of a tile add up to its value
// GRID-EMPTY:
// GRID-NEXT: %c = arg3: tensor<2x4x6xf32> #tessel.sharding<@grid, [{}, {"x"}, {"y"}]>
// GRID-NEXT: {{  }}dim 0: 2, whole
// GRID-NEXT: {{  }}dim 1: 4 over "x" (2 pieces of 2)
// GRID-NEXT: {{  }}dim 2: 6 over "y" (3 pieces of 2)
// GRID-NEXT: {{  }}+------------------+------------------+------------------+
// GRID-NEXT: {{  }}|        0         |        1         |        2         |
// GRID-NEXT: {{  }}|  [:, 0:2, 0:2]   |  [:, 0:2, 2:4]   |  [:, 0:2, 4:6]   |
// GRID-NEXT: {{  }}+------------------+------------------+------------------+
// GRID-NEXT: {{  }}|        3         |        4         |        5         |
// GRID-NEXT: {{  }}|  [:, 2:4, 0:2]   |  [:, 2:4, 2:4]   |  [:, 2:4, 4:6]   |
// GRID-NEXT: {{  }}+------------------+------------------+------------------+
// GRID-EMPTY:
// GRID-NEXT: %neg = hlo.neg at grid.mlir:11:10: tensor<4x7xf32> #tessel.sharding<@grid, [{"x"}, {"y"}]>
// GRID-NEXT: {{  }}dim 0: 4 over "x" (2 pieces of 2)
// GRID-NEXT: {{  }}dim 1: 7 over "y" (3 pieces of 3; [6:7] holds 1 of 3 columns, padded)
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+
// GRID-NEXT: {{  }}|          0           |          1           |     2      |
// GRID-NEXT: {{  }}|      [0:2, 0:3]      |      [0:2, 3:6]      | [0:2, 6:7] |
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+
// GRID-NEXT: {{  }}|          3           |          4           |     5      |
// GRID-NEXT: {{  }}|      [2:4, 0:3]      |      [2:4, 3:6]      | [2:4, 6:7] |
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+
// GRID-EMPTY:
// GRID-NEXT: %sum = hlo.add at grid.mlir:12:10: tensor<4x7xf32> #tessel.sharding<@grid, [{"x"}, {"y"}]>
// GRID-NEXT: {{  }}dim 0: 4 over "x" (2 pieces of 2)
// GRID-NEXT: {{  }}dim 1: 7 over "y" (3 pieces of 3; [6:7] holds 1 of 3 columns, padded)
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+
// GRID-NEXT: {{  }}|          0           |          1           |     2      |
// GRID-NEXT: {{  }}|      [0:2, 0:3]      |      [0:2, 3:6]      | [0:2, 6:7] |
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+
// GRID-NEXT: {{  }}|          3           |          4           |     5      |
// GRID-NEXT: {{  }}|      [2:4, 0:3]      |      [2:4, 3:6]      | [2:4, 6:7] |
// GRID-NEXT: {{  }}+----------------------+----------------------+------------+

// Every device's index ranges, for programs.
// JSON: {
// JSON-NEXT: {{  }}"file": "mlp.mlir",
// JSON-NEXT: {{  }}"function": "main",
// JSON-NEXT: {{  }}"values": [
// JSON-NEXT: {{    }}{"title": "%w1 = arg1", "names": ["%w1", "arg1"], "type": "tensor<64x256xf32>", "sharding": "#tessel.sharding<@mesh, [{}, {\"model\"}]>",
// JSON-NEXT: {{     }}"layout": {"dims": [{"size": 64, "axes": [], "pieces": 1, "piece_size": 64}, {"size": 256, "axes": ["model"], "pieces": 2, "piece_size": 128}], "unreduced": [], "devices": [
// JSON-NEXT: {{       }}{"device": 0, "ranges": {{\[\[}}0, 64], [0, 128{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{       }}{"device": 1, "ranges": {{\[\[}}0, 64], [128, 256{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{       }}{"device": 2, "ranges": {{\[\[}}0, 64], [0, 128{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{       }}{"device": 3, "ranges": {{\[\[}}0, 64], [128, 256{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{       }}{"device": 4, "ranges": {{\[\[}}0, 64], [0, 128{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{       }}{"device": 5, "ranges": {{\[\[}}0, 64], [128, 256{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{       }}{"device": 6, "ranges": {{\[\[}}0, 64], [0, 128{{\]\]}}, "empty": false, "partial_sum_group": 0},
// JSON-NEXT: {{       }}{"device": 7, "ranges": {{\[\[}}0, 64], [128, 256{{\]\]}}, "empty": false, "partial_sum_group": 0}
// JSON-NEXT: {{     }}]}}
// JSON-NEXT: {{  }}]
// JSON-NEXT: }

// --mesh: three "data" devices split 16 rows unevenly.
// MESH: %h = hlo.dot_general at mlp.mlir:11:8: tensor<16x256xf32> #tessel.sharding<@mesh, [{"data"}, {"model"}]>
// MESH-NEXT: {{  }}dim 0: 16 over "data" (3 pieces of 6; [12:16] holds 4 of 6 rows, padded)
// MESH-NEXT: {{  }}dim 1: 256 over "model" (2 pieces of 128)
// MESH-NEXT: {{  }}+------------------+------------------+
// MESH-NEXT: {{  }}|        0         |        1         |
// MESH-NEXT: {{  }}|   [0:6, 0:128]   |  [0:6, 128:256]  |
// MESH-NEXT: {{  }}+------------------+------------------+
// MESH-NEXT: {{  }}|        2         |        3         |
// MESH-NEXT: {{  }}|  [6:12, 0:128]   | [6:12, 128:256]  |
// MESH-NEXT: {{  }}+------------------+------------------+
// MESH-NEXT: {{  }}|        4         |        5         |
// MESH-NEXT: {{  }}|  [12:16, 0:128]  | [12:16, 128:256] |
// MESH-NEXT: {{  }}+------------------+------------------+

// LINE:COL (as 'tessel explain' prints it) names all results of the op there.
// (A sort keeps its operands' split of the sorted dimension: the partitioner moves it or
// gathers it for the sort itself. The keys' "y" reaches the values through the sort.)
// BOTH-RESULTS:      %s#0 = hlo.sort at grid.mlir:20:10 result 0: tensor<8xf32> #tessel.sharding<@grid, [{"y"}]>
// BOTH-RESULTS:      %s#1 = hlo.sort at grid.mlir:20:10 result 1: tensor<8xi32> #tessel.sharding<@grid, [{"y"}]>
// BOTH-RESULTS-NOT:  = {{.*}}:

// ONE-RESULT:      %v = arg1: tensor<8xi32> #tessel.sharding<@grid, [{"y"}]>
// ONE-RESULT-NEXT:   dim 0: 8 over "y" (3 pieces of 3; [6:8] holds 2 of 3 elements, padded)
// ONE-RESULT:        each tile is held by 2 devices
// ONE-RESULT-EMPTY:
// ONE-RESULT-NEXT: %s#1 = hlo.sort at grid.mlir:20:10 result 1: tensor<8xi32> #tessel.sharding<@grid, [{"y"}]>
// ONE-RESULT-NOT:  result 0

// HLO text has no SSA names: argN and LINE:COL.
// HLO:      arg2: tensor<128xf32> #tessel.sharding<@mesh, [{"axis_1"}]>
// HLO-NEXT:   dim 0: 128 over "axis_1" (2 pieces of 64)
// HLO-NEXT:   +------------------+------------------+
// HLO-NEXT:   |     0,2,4,6      |     1,3,5,7      |
// HLO-NEXT:   |      [0:64]      |     [64:128]     |

// HELP:      usage: tessel viz FILE [--function=main] [--value=NAME,...] [--mesh=NAME=SIZE,...] [--format=text|json|html|svg] [--color=auto|always|never]
// HELP:      flags:
// HELP-NEXT:   --function (default: main)
// HELP:        --value
// HELP:        --mesh
// HELP:        --format (default: text)

// TOP:      report    Estimate per-device memory, communication and step time.
// TOP-NEXT: viz       Draw which device holds which tile of each value.

// Bad input: exit 1, the file named.
// RUN: sh -c 'cd %t && tessel viz grid.mlir --value=%%a,%%nope; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-VALUE
// UNKNOWN-VALUE: tessel viz: grid.mlir: @main has no value '%nope' (names: argN, the name in the source (%name in MLIR text, the instruction name in HLO text), or LINE:COL[#K] of an op)
// UNKNOWN-VALUE-NEXT: exit=1
// RUN: sh -c 'cd %t && tessel viz grid.mlir --value=%%pp; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TYPO-VALUE
// TYPO-VALUE: tessel viz: grid.mlir: @main has no value '%pp'; did you mean '%p'? (names:
// TYPO-VALUE-NEXT: exit=1
// RUN: sh -c 'cd %t && tessel viz grid.mlir --value=99:1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-PLACE
// UNKNOWN-PLACE: tessel viz: grid.mlir: @main has no value '99:1'
// UNKNOWN-PLACE: exit=1
// RUN: sh -c 'tessel viz %t/missing.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tessel viz: cannot read '{{.*}}missing.mlir': No such file or directory
// MISSING-NEXT: exit=1
// RUN: sh -c 'tessel viz %t/syntax.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: tessel viz: {{.*}}syntax.mlir:2:19: error: expected SSA operand
// SYNTAX: exit=1
// RUN: sh -c 'tessel viz %t/spmd.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=PARTITIONED
// PARTITIONED: tessel viz: {{.*}}spmd.mlir is already partitioned (it has collectives or partition_id) and has no tessel.partitioned mark to say what its global values are; viz draws the shardings of a program before partitioning, or of the arguments and results of a program 'tessel partition' wrote
// PARTITIONED-NEXT: exit=1
// RUN: sh -c 'tessel viz %t/grid.mlir --function=nope; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
// NO-FUNCTION: tessel viz: {{.*}}grid.mlir: no function @nope (functions: @main, @sorted)
// NO-FUNCTION-NEXT: exit=1
// RUN: sh -c 'tessel viz %t/grid.mlir --mesh=x=2,z=3; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MESH-AXIS
// MESH-AXIS: tessel viz: --mesh: mesh @grid (axes 'x', 'y') has no axis 'z'
// MESH-AXIS-NEXT: exit=1

// Bad command lines: exit 2 and a pointer to the help.
// RUN: sh -c 'tessel viz %t/grid.mlir --bogus; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD-FLAG
// BAD-FLAG: tessel viz: unknown flag --bogus for 'tessel viz'
// BAD-FLAG-NEXT: see 'tessel viz --help' for usage
// BAD-FLAG-NEXT: exit=2
// RUN: sh -c 'tessel viz %t/grid.mlir --format=table; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: tessel viz: --format must be text, json, html or svg, got 'table'
// FORMAT-NEXT: see 'tessel viz --help' for usage
// FORMAT-NEXT: exit=2
// RUN: sh -c 'tessel viz %t/grid.mlir --mesh=x=0,y=3; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MESH-VALUE
// MESH-VALUE: tessel viz: --mesh: the size of axis 'x' must be a positive integer, got '0'
// MESH-VALUE-NEXT: see 'tessel viz --help' for usage
// MESH-VALUE-NEXT: exit=2
// RUN: sh -c 'tessel viz %t/grid.mlir %t/grid.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TWO-FILES
// TWO-FILES: tessel viz: expected one FILE, got 2 arguments
// TWO-FILES-NEXT: see 'tessel viz --help' for usage
// TWO-FILES-NEXT: exit=2
// RUN: sh -c 'tessel viz %t/grid.mlir --value; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-VALUE
// NO-VALUE: tessel viz: flag --value needs a value
// NO-VALUE-NEXT: see 'tessel viz --help' for usage
// NO-VALUE-NEXT: exit=2

//--- grid.mlir
// A 2x3 mesh: an uneven 2-D split, more devices than rows (an empty tile), partial sums
// over "y", and a rank-3 value; the ops take the first argument's sharding.
tessel.mesh @grid = <["x"=2, "y"=3]>

func.func @main(
    %a: tensor<4x7xf32> {tessel.sharding = #tessel.sharding<@grid, [{"x"}, {"y"}]>},
    %b: tensor<2x5xf32> {tessel.sharding = #tessel.sharding<@grid, [{"y"}, {}]>},
    %p: tensor<6xf32> {tessel.sharding = #tessel.sharding<@grid, [{"x"}], unreduced={"y"}>},
    %c: tensor<2x4x6xf32> {tessel.sharding = #tessel.sharding<@grid, [{}, {"x"}, {"y"}]>})
    -> tensor<4x7xf32> {
  %neg = hlo.neg %a : tensor<4x7xf32>
  %sum = hlo.add %neg, %a : tensor<4x7xf32>
  return %sum : tensor<4x7xf32>
}

// Two results of one op: LINE:COL names both, LINE:COL#K one.
func.func @sorted(
    %k: tensor<8xf32> {tessel.sharding = #tessel.sharding<@grid, [{"y"}]>},
    %v: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %s:2 = hlo.sort(%k, %v) dimension = 0 is_stable : tensor<8xf32>, tensor<8xi32> comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %t = hlo.compare LT, %a, %b : tensor<f32>
    hlo.return %t : tensor<i1>
  }
  return %s#0, %s#1 : tensor<8xf32>, tensor<8xi32>
}
//--- syntax.mlir
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, : tensor<4xf32>
  return %0 : tensor<4xf32>
}
//--- spmd.mlir
tessel.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tessel.all_reduce %x over @mesh ["x"] kind = sum : tensor<4xf32>
  return %0 : tensor<4xf32>
}
