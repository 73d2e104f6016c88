// `tessel partition`, `tessel explain` and `tessel run --check` on annotated programs.
// RUN: split-file %s %t
// RUN: tessel partition %t/mlp.mlir | FileCheck %s --check-prefix=PARTITION
// RUN: tessel partition %t/mlp.mlir --output=%t/out.mlir && FileCheck %s --check-prefix=PARTITION < %t/out.mlir
// RUN: tessel explain %t/mlp.mlir | FileCheck %s --check-prefix=EXPLAIN
// RUN: tessel run %t/mlp.mlir --check --print_limit=0 | FileCheck %s --check-prefix=CHECK-MLP
// RUN: tessel run %t/uneven.mlir --check --seed=3 --print_limit=0 2>&1 | FileCheck %s --check-prefix=CHECK-UNEVEN
// RUN: sh -c 'tessel run %t/nomesh.mlir --check; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-MESH
// RUN: sh -c 'tessel run %t/mlp.mlir --check --partitions=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CHECK-USAGE
// RUN: tessel run %t/mlp.mlir --check --print_limit=0 --rtol=0.01 --atol=0.5 | FileCheck %s --check-prefix=TOLERANCE
// RUN: sh -c 'tessel run %t/mlp.mlir --rtol=0.01; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TOLERANCE-USAGE
// RUN: sh -c 'tessel run %t/mlp.mlir --check --atol=-1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TOLERANCE-NEGATIVE
// RUN: tessel partition %t/mlp.mlir --timing --output=%t/timed.mlir 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: sh -c 'tessel partition %t/mlp.mlir >&-; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CLOSED-STDOUT
// RUN: sh -c 'tessel partition %t/mlp.mlir --output=%t; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: sh -c 'tessel report %t/mlp.mlir >&-; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CLOSED-REPORT
// RUN: sh -c 'tessel report %t/mlp.mlir --mesh=data=100000,model=100000; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=HUGE-MESH
// RUN: sh -c 'tessel verify %t/huge.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=HUGE-TENSOR
// RUN: sh -c 'tessel run %t/mlp.mlir --check --mesh=data=1000,model=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CHECK-TOO-MANY
// RUN: sh -c 'tessel report %t/huge_mesh.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=HUGE-MESH-TEXT
// RUN: sh -c 'tessel explain %t/mlp.mlir >&-; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CLOSED-EXPLAIN

// The Megatron MLP: each partition holds a quarter of the batch and half the hidden units;
// the second dot's partial sums are all-reduced over "model".
// PARTITION: func.func @main(%arg0: tensor<4x64xf32> {{.*}}, %arg1: tensor<64x128xf32> {{.*}}, %arg2: tensor<128x64xf32>
// PARTITION: hlo.dot_general {{.*}} -> tensor<4x128xf32>
// PARTITION: hlo.max {{.*}} : tensor<4x128xf32>
// PARTITION: hlo.dot_general {{.*}} -> tensor<4x64xf32>
// PARTITION: tessel.all_reduce {{.*}} over @mesh ["model"] kind = sum : tensor<4x64xf32>
// PARTITION-NOT: tessel.all_gather

// TIMING: timing: load {{[0-9.]+}} s, propagate {{[0-9.]+}} s, partition {{[0-9.]+}} s, print {{[0-9.]+}} s, total {{[0-9.]+}} s; peak memory {{[0-9.]+}} MiB; cpu: load {{[0-9.]+}} s, propagate {{[0-9.]+}} s, partition {{[0-9.]+}} s, print {{[0-9.]+}} s, total {{[0-9.]+}} s

// A program that cannot be written in full is an error, not an empty success.
// CLOSED-STDOUT: tessel partition: cannot write standard output: Bad file descriptor
// CLOSED-STDOUT: exit=1
// UNWRITABLE: tessel partition: cannot write {{.*}}: Is a directory
// UNWRITABLE: exit=1
// Sizes that cannot exist are refused with their location, not wrapped or allocated.
// HUGE-MESH: tessel report: --mesh: mesh has more than 1048576 devices (at axis "model" of size 100000)
// HUGE-MESH: exit=1
// HUGE-TENSOR: tessel verify: {{.*}}huge.mlir:2:8: error: a result of type 'tensor<99999999999x99999999999xf32>' would hold more than 2^63 - 1 bytes
// HUGE-TENSOR: exit=1
// CHECK-TOO-MANY: tessel run: --check runs one local partition (thread) per mesh device; the mesh has 2000 devices, more than 1024 (use --backend=mpi to spread them over processes)
// CHECK-TOO-MANY: exit=1
// HUGE-MESH-TEXT: huge_mesh.mlir:1:21: error: {{.*}}mesh has more than 1048576 devices (at axis "x" of size 4294967296)
// HUGE-MESH-TEXT: exit=1

// CLOSED-REPORT: tessel report: cannot write standard output: Bad file descriptor
// CLOSED-REPORT: exit=1
// CLOSED-EXPLAIN: tessel explain: cannot write standard output: Bad file descriptor
// CLOSED-EXPLAIN: exit=1

// Each value by its source name, and each axis with the annotation it came from: the
// product's rows split like %x, its columns like %w1.
// EXPLAIN: %x = arg0: #tessel.sharding<@mesh, [{"data"}, {}]>
// EXPLAIN-NEXT: dimension 0: "data" from argument 0 of @main (%x)
// EXPLAIN: %h = hlo.dot_general at {{.*}}mlp.mlir:7:8: #tessel.sharding<@mesh, [{"data"}, {"model"}]>
// EXPLAIN-NEXT: dimension 0: "data" from argument 0 of @main (%x) via hlo.dot_general ({{.*}}mlp.mlir:7:8)
// EXPLAIN-NEXT: dimension 1: "model" from argument 1 of @main (%w1) via hlo.dot_general ({{.*}}mlp.mlir:7:8)
// EXPLAIN: %zero = hlo.constant at {{.*}}mlp.mlir:8:11: #tessel.sharding<@mesh, []>
// EXPLAIN-NEXT: replicated: no sharding reached it
// EXPLAIN: %relu = hlo.max at {{.*}}mlp.mlir:10:11: #tessel.sharding<@mesh, [{"data"}, {"model"}]>
// EXPLAIN: %y = hlo.dot_general at {{.*}}mlp.mlir:11:8: #tessel.sharding<@mesh, [{"data"}, {}]>

// CHECK-MLP: result 0: f32[16,64]
// CHECK-MLP: check: ran the partitioned program on 8 partitions
// CHECK-MLP: check: result 0 f32[16,64] matches

// Uneven splits (5 rows over 3 devices, 7 columns over 2) and an integer reduction.
// CHECK-UNEVEN: check: ran the partitioned program on 6 partitions
// CHECK-UNEVEN: check: result 0 s32[5,7] matches exactly
// CHECK-UNEVEN: check: result 1 s32[5] matches exactly

// NO-MESH: tessel run: --check needs a program with a tessel.mesh to partition
// NO-MESH: exit=1

// CHECK-USAGE: tessel run: --check runs the single-device program and partitions it itself; drop --partitions
// CHECK-USAGE: exit=2

// --check prints the tolerance it used; --rtol and --atol set it.
// TOLERANCE: check: result 0 f32[16,64] matches (max abs difference {{.*}}; tolerance 0.5{{[0-9]*}} + 0.01 * |expected|)
// TOLERANCE-USAGE: tessel run: --rtol and --atol need --check
// TOLERANCE-USAGE: exit=2
// TOLERANCE-NEGATIVE: tessel run: --rtol and --atol must not be negative, got 0.0001 and -1
// TOLERANCE-NEGATIVE: exit=2

//--- mlp.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(
    %x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w1: tensor<64x256xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>},
    %w2: tensor<256x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
    -> tensor<16x64xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
  %relu = hlo.max %h, %zeros : tensor<16x256xf32>
  %y = hlo.dot_general %relu, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

//--- uneven.mlir
tessel.mesh @mesh = <["a"=3, "b"=2]>
func.func @main(%x: tensor<5x7xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"a"}, {"b"}]>},
                %y: tensor<5x7xi32>) -> (tensor<5x7xi32>, tensor<5xi32>) {
  %s = hlo.add %x, %y : tensor<5x7xi32>
  %m = hlo.mul %s, %x : tensor<5x7xi32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %r = hlo.reduce(%m) init(%zero) dimensions = [1] : (tensor<5x7xi32>, tensor<i32>) -> tensor<5xi32> reducer {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %t = hlo.add %p, %q : tensor<i32>
    hlo.return %t : tensor<i32>
  }
  return %m, %r : tensor<5x7xi32>, tensor<5xi32>
}

//--- nomesh.mlir
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- huge.mlir
func.func @main(%x: tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999xf32> {
  %y = hlo.add %x, %x : tensor<99999999999x99999999999xf32>
  return %y : tensor<99999999999x99999999999xf32>
}

//--- huge_mesh.mlir
tessel.mesh @mesh = <["x"=4294967296, "y"=4294967296]>
func.func @main(%x: tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x2xf32> {
  return %x : tensor<8x2xf32>
}
