// A program `tessel partition` wrote runs as a file: global inputs cut into each
// partition's piece, global results assembled, --check against the source with
// --reference, and the partition count checked.
// RUN: split-file %s %t
// RUN: tessel partition %t/mlp.mlir -o %t/part.mlir
// RUN: FileCheck %s --check-prefix=MARK < %t/part.mlir
// The partitioned file and its source give the same global result on the same seed.
// RUN: tessel run %t/mlp.mlir --seed=5 --print_limit=6 > %t/single.txt
// RUN: tessel run %t/part.mlir --seed=5 --print_limit=6 | FileCheck %s --check-prefix=GLOBAL
// RUN: tessel run %t/part.mlir --seed=5 --print_limit=6 | grep '^result' | diff - %t/single.txt
// RUN: tessel run %t/part.mlir --check --reference=%t/mlp.mlir --print_limit=0 | FileCheck %s --check-prefix=CHECKED
// Uneven: 3 x 2 devices for 16 rows.
// RUN: tessel partition %t/mlp.mlir --mesh=data=3,model=2 -o %t/part6.mlir
// RUN: tessel run %t/part6.mlir --check --reference=%t/mlp.mlir --print_limit=0 | FileCheck %s --check-prefix=UNEVEN
// Global .npy inputs, and results written whole.
// RUN: rm -rf %t/in %t/out && tessel run %t/mlp.mlir --function=make_inputs --output_dir=%t/in > /dev/null
// RUN: tessel run %t/part.mlir --inputs=%t/in/result_0.npy,%t/in/result_1.npy --output_dir=%t/out --print_limit=0 | FileCheck %s --check-prefix=NPY
// RUN: sh -c 'tessel run %t/part.mlir --inputs=%t/in/result_1.npy,%t/in/result_1.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NPY-SHAPE
// Mistakes.
// RUN: sh -c 'tessel run %t/part.mlir --partitions=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: sh -c 'tessel run %t/part.mlir --partitions=4 --print_limit=0; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SAME-COUNT
// RUN: sh -c 'tessel run %t/part.mlir --check; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-REFERENCE
// RUN: sh -c 'tessel run %t/part.mlir --check --reference=%t/part6.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=PARTITIONED-REFERENCE
// RUN: sh -c 'tessel run %t/part.mlir --check --reference=%t/other.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=OTHER-REFERENCE
// RUN: sh -c 'tessel run %t/mlp.mlir --reference=%t/mlp.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-CHECK
// RUN: sh -c 'tessel run %t/bad_mark.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD-MARK
// RUN: sh -c 'tessel run %t/mark_not_dict.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NOT-DICT
// RUN: sh -c 'tessel run %t/mark_no_count.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-COUNT
// RUN: sh -c 'tessel run %t/mark_not_types.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NOT-TYPES
// RUN: sh -c 'tessel run %t/mark_too_many.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TOO-MANY
// viz draws the partitioned file's global arguments and results.
// RUN: tessel viz %t/part6.mlir --value=arg0,result0 | FileCheck %s --check-prefix=VIZ
// RUN: sh -c 'tessel viz %t/part.mlir --mesh=data=4; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=VIZ-MESH

// VIZ:      %arg0 = arg0: tensor<16x8xf32> #tessel.sharding<@mesh, [{"data"}, {}]>
// VIZ-NEXT:   dim 0: 16 over "data" (3 pieces of 6; [12:16] holds 4 of 6 rows, padded)
// VIZ:      result0: tensor<16x4xf32> #tessel.sharding<@mesh, [{"data"}, {}]>
// VIZ:      [12:16, 0:4]
// VIZ-MESH: tessel viz: {{.*}}part.mlir is already partitioned; --mesh, --in_shardings and --out_shardings act before partitioning
// VIZ-MESH: exit=1

// MARK: module attributes {tessel.partitioned = {num_partitions = 4 : i64, parameter_types = [tensor<16x8xf32>, tensor<8x4xf32>], result_types = [tensor<16x4xf32>]}}
// MARK: func.func @main(%arg0: tensor<8x8xf32>

// GLOBAL:      ran the partitioned program on 4 partitions; results assembled from their pieces
// GLOBAL-NEXT: result 0: f32[16,4]

// CHECKED:      ran the partitioned program on 4 partitions
// CHECKED:      check: ran {{.*}}mlp.mlir on one device
// CHECKED-NEXT: check: result 0 f32[16,4] matches

// UNEVEN:      ran the partitioned program on 6 partitions
// UNEVEN:      check: result 0 f32[16,4] matches

// NPY: ran the partitioned program on 4 partitions
// NPY: result 0: f32[16,4]
// NPY: wrote {{.*}}out/result_0.npy

// NPY-SHAPE: tessel run: {{.*}}result_1.npy: argument 0 of @main
// NPY-SHAPE: exit=1

// COUNT: tessel run: {{.*}}part.mlir was partitioned for 4 devices; --partitions=2 would run
// COUNT-SAME: a different number of them (drop --partitions)
// COUNT: exit=1
// SAME-COUNT: ran the partitioned program on 4 partitions
// SAME-COUNT: exit=0
// NO-REFERENCE: tessel run: {{.*}}part.mlir is already partitioned: --check needs --reference=SOURCE, the program it was partitioned from, to compare with
// NO-REFERENCE: exit=1
// PARTITIONED-REFERENCE: tessel run: --reference={{.*}}part6.mlir is partitioned too; give the program before partitioning
// PARTITIONED-REFERENCE: exit=1
// OTHER-REFERENCE: tessel run: --reference={{.*}}other.mlir: @main does not have the global signature {{.*}}part.mlir was partitioned from
// OTHER-REFERENCE: exit=1
// NO-CHECK: tessel run: --reference needs --check
// NO-CHECK: exit=2
// BAD-MARK: tessel run: module attribute tessel.partitioned needs parameter_types, one type per entry function parameter
// BAD-MARK: exit=1
// NOT-DICT: tessel run: module attribute tessel.partitioned must be a dictionary
// NOT-DICT: exit=1
// NO-COUNT: tessel run: module attribute tessel.partitioned needs num_partitions, an integer >= 1
// NO-COUNT: exit=1
// NOT-TYPES: tessel run: module attribute tessel.partitioned parameter_types must hold types
// NOT-TYPES: exit=1
// TOO-MANY: tessel run: {{.*}}mark_too_many.mlir: the program runs on 2048 devices, more than the 1024 partitions (threads) a local run starts
// TOO-MANY: exit=1

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
func.func @make_inputs() -> (tensor<16x8xf32>, tensor<8x4xf32>) {
  %a = hlo.iota dim = 0 : tensor<16x8xf32>
  %b = hlo.iota dim = 1 : tensor<8x4xf32>
  return %a, %b : tensor<16x8xf32>, tensor<8x4xf32>
}
//--- other.mlir
func.func @main(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}
//--- bad_mark.mlir
module attributes {tessel.partitioned = {num_partitions = 2 : i64}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
//--- mark_not_dict.mlir
module attributes {tessel.partitioned = 2 : i64} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
//--- mark_no_count.mlir
module attributes {tessel.partitioned = {parameter_types = [tensor<4xf32>], result_types = [tensor<4xf32>]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
//--- mark_not_types.mlir
module attributes {tessel.partitioned = {num_partitions = 2 : i64, parameter_types = [3 : i64], result_types = [tensor<4xf32>]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
//--- mark_too_many.mlir
module attributes {tessel.partitioned = {num_partitions = 2048 : i64, parameter_types = [tensor<4xf32>], result_types = [tensor<4xf32>]}} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
