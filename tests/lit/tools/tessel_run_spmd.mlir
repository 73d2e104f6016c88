// `tessel run --partitions=4` on a hand-written SPMD program: every partition gets the
// whole inputs, takes its quarter of the contraction dimension with partition_id and
// dynamic_slice, multiplies, and all-reduces the partial products. Each partition's result
// equals the one-device @reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tessel run %s --function=reference --seed=3 > %t/reference.txt
// RUN: tessel run %s --seed=3 --partitions=4 --output_dir=%t/out > %t/spmd.txt
// RUN: cat %t/reference.txt %t/spmd.txt | FileCheck %s
// CHECK:      result 0: s32[2,2] [[PRODUCT:\{\{-47, 0\}, \{-97, 81\}\}]]
// CHECK-NEXT: partition 0:
// CHECK-NEXT:   result 0: s32[2,2] [[PRODUCT]]
// CHECK-NEXT:   result 1: u32[] 0
// CHECK-NEXT: partition 1:
// CHECK-NEXT:   result 0: s32[2,2] [[PRODUCT]]
// CHECK-NEXT:   result 1: u32[] 1
// CHECK-NEXT: partition 2:
// CHECK-NEXT:   result 0: s32[2,2] [[PRODUCT]]
// CHECK-NEXT:   result 1: u32[] 2
// CHECK-NEXT: partition 3:
// CHECK-NEXT:   result 0: s32[2,2] [[PRODUCT]]
// CHECK-NEXT:   result 1: u32[] 3
// CHECK-NEXT: wrote {{.*}}result_p0_0.npy
// CHECK-NEXT: wrote {{.*}}result_p0_1.npy
// CHECK-NEXT: wrote {{.*}}result_p1_0.npy
// CHECK-NEXT: wrote {{.*}}result_p1_1.npy
// CHECK-NEXT: wrote {{.*}}result_p2_0.npy
// CHECK-NEXT: wrote {{.*}}result_p2_1.npy
// CHECK-NEXT: wrote {{.*}}result_p3_0.npy
// CHECK-NEXT: wrote {{.*}}result_p3_1.npy

// The saved per-partition files hold what was printed.
// RUN: tessel run %s --function=show --inputs=%t/out/result_p2_0.npy,%t/out/result_p2_1.npy | FileCheck %s --check-prefix=SAVED
// SAVED:      result 0: s32[2,2] {{[{][{]}}-47, 0}, {-97, 81{{[}][}]}}
// SAVED-NEXT: result 1: u32[] 2

// The seeded inputs, from which the product above was checked by hand, e.g. element [0, 0]:
// 3*5 + -4*-2 + -6*1 + 4*-4 + -8*-8 + 7*-8 + -5*0 + 7*-8 = -47.
// RUN: tessel run %s --function=inputs --seed=3 | FileCheck %s --check-prefix=INPUTS
// INPUTS:      result 0: s32[2,8] {{[{][{]}}3, -4, -6, 4, -8, 7, -5, 7}, {-5, -8, 8, -2, 6, 3, 7, 4{{[}][}]}}
// INPUTS-NEXT: result 1: s32[8,2] {{[{][{]}}5, -6}, {-2, -3}, {1, 3}, {-4, -8}, {-8, 2}, {-8, 7}, {0, -6}, {-8, -1{{[}][}]}}

tessel.mesh @mesh = <["x"=4]>

func.func @main(%x: tensor<2x8xi32>, %w: tensor<8x2xi32>) -> (tensor<2x2xi32>, tensor<ui32>) {
  %id = tessel.partition_id : tensor<ui32>
  %id32 = hlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %two = hlo.constant dense<2> : tensor<i32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %start = hlo.mul %id32, %two : tensor<i32>
  %xs = hlo.dynamic_slice %x, %zero, %start, sizes = [2, 2] : (tensor<2x8xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  %ws = hlo.dynamic_slice %w, %start, %zero, sizes = [2, 2] : (tensor<8x2xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  %partial = hlo.dot_general %xs, %ws, lhs_contract = [1], rhs_contract = [0] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %sum = tessel.all_reduce %partial over @mesh ["x"] kind = sum : tensor<2x2xi32>
  return %sum, %id : tensor<2x2xi32>, tensor<ui32>
}

func.func @reference(%x: tensor<2x8xi32>, %w: tensor<8x2xi32>) -> tensor<2x2xi32> {
  %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<2x8xi32>, tensor<8x2xi32>) -> tensor<2x2xi32>
  return %d : tensor<2x2xi32>
}

func.func @inputs(%x: tensor<2x8xi32>, %w: tensor<8x2xi32>) -> (tensor<2x8xi32>, tensor<8x2xi32>) {
  return %x, %w : tensor<2x8xi32>, tensor<8x2xi32>
}

func.func @show(%a: tensor<2x2xi32>, %b: tensor<ui32>) -> (tensor<2x2xi32>, tensor<ui32>) {
  return %a, %b : tensor<2x2xi32>, tensor<ui32>
}
