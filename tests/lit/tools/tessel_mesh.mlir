// `--mesh` on `tessel partition`, `run` and `explain`: new sizes for the program's one mesh,
// a mesh for a program without one, and every way to get it wrong.
// RUN: split-file %s %t
// RUN: tessel partition %t/mlp.mlir --mesh=model=4,data=2 | FileCheck %s --check-prefix=RESIZED
// RUN: tessel explain %t/mlp.mlir --mesh=data=2,model=4 | FileCheck %s --check-prefix=EXPLAIN
// RUN: tessel run %t/mlp.mlir --check --mesh=data=3,model=5 --print_limit=0 | FileCheck %s --check-prefix=UNEVEN
// RUN: tessel run %t/nomesh.mlir --check --mesh=x=3 --print_limit=0 | FileCheck %s --check-prefix=DECLARED
// RUN: sh -c 'tessel partition %t/mlp.mlir --mesh=data=0; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: sh -c 'tessel partition %t/mlp.mlir --mesh=data=x,model=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NOT-NUMBER
// RUN: sh -c 'tessel partition %t/mlp.mlir --mesh=data=2,data=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=DUPLICATE
// RUN: sh -c 'tessel run %t/mlp.mlir --mesh=data; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-SIZE
// RUN: sh -c 'tessel explain %t/mlp.mlir --mesh==2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-NAME
// RUN: sh -c 'tessel partition %t/mlp.mlir --mesh=data=2,model=2,pipe=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: sh -c 'tessel partition %t/mlp.mlir --mesh=data=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: sh -c 'tessel partition %t/two_meshes.mlir --mesh=x=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: sh -c 'tessel partition %t/device_ids.mlir --mesh=x=4; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=IDS
// RUN: tessel partition %t/device_ids.mlir --mesh=x=2 | FileCheck %s --check-prefix=KEPT-IDS
// RUN: sh -c 'tessel partition %t/sub_axis.mlir --mesh=x=3; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SUB-AXIS

// The axes keep the mesh's order whatever the flag's order; the shards follow the sizes.
// RESIZED: tessel.mesh @mesh = <["data"=2, "model"=4]>
// RESIZED: func.func @main(%arg0: tensor<8x64xf32> {{.*}}, %arg1: tensor<64x64xf32>

// EXPLAIN: %x = arg0: #tessel.sharding<@mesh, [{"data"}, {}]>

// Sizes that do not divide the dims are fine: uneven splits.
// UNEVEN: check: ran the partitioned program on 15 partitions
// UNEVEN: check: result 0 f32[16,256] matches

// A program without a mesh gets one and runs replicated on its devices.
// DECLARED: check: ran the partitioned program on 3 partitions
// DECLARED: check: result 0 f32[4] matches

// ZERO: tessel partition: --mesh: the size of axis 'data' must be a positive integer, got '0'
// ZERO-NEXT: see 'tessel partition --help' for usage
// ZERO-NEXT: exit=2
// NOT-NUMBER: tessel partition: --mesh: the size of axis 'data' must be a positive integer, got 'x'
// NOT-NUMBER: exit=2
// DUPLICATE: tessel partition: --mesh: axis 'data' is given twice
// DUPLICATE: exit=2
// NO-SIZE: tessel run: --mesh: 'data' is not NAME=SIZE (e.g. --mesh=data=4,model=2)
// NO-SIZE: exit=2
// NO-NAME: tessel explain: --mesh: '=2' is not NAME=SIZE
// NO-NAME: exit=2

// UNKNOWN: tessel partition: --mesh: mesh @mesh (axes 'data', 'model') has no axis 'pipe'
// UNKNOWN-NEXT: exit=1
// MISSING: tessel partition: --mesh: mesh @mesh (axes 'data', 'model'): axis 'model' is missing from --mesh
// MISSING-NEXT: exit=1
// TWO: tessel partition: --mesh: the program declares 2 meshes (@a, @b); --mesh needs at most one
// TWO-NEXT: exit=1
// IDS: tessel partition: --mesh: mesh @mesh (axes 'x') lists explicit device ids, which fit only its own axis sizes
// IDS-NEXT: exit=1
// KEPT-IDS: tessel.mesh @mesh = <["x"=2], device_ids=[1, 0]>
// SUB-AXIS: tessel partition: --mesh: the program is invalid with the new mesh:
// SUB-AXIS: exit=1

//--- mlp.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(
    %x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w1: tensor<64x256xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>})
    -> tensor<16x256xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  return %h : tensor<16x256xf32>
}

//--- nomesh.mlir
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = hlo.add %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

//--- two_meshes.mlir
tessel.mesh @a = <["x"=2]>
tessel.mesh @b = <["x"=4]>
func.func @main(%x: tensor<4xf32> {tessel.sharding = #tessel.sharding<@a, [{"x"}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- device_ids.mlir
tessel.mesh @mesh = <["x"=2], device_ids=[1, 0]>
func.func @main(%x: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- sub_axis.mlir
tessel.mesh @mesh = <["x"=4]>
func.func @main(%x: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(1)2}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
