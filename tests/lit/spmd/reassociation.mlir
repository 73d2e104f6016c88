// RUN: tessel-opt %s --tessel-propagate --tessel-partition | FileCheck %s

// A parallel transformer block: attention-like and MLP-like branches, each column- then
// row-parallel, added before the residual. The two partial sums are added first and
// all-reduced once.
tessel.mesh @mesh = <["x"=4]>
// CHECK-LABEL: func.func @parallel_block
// CHECK: %[[A:.*]] = hlo.dot_general %{{.*}}, %arg2
// CHECK: %[[M:.*]] = hlo.dot_general %{{.*}}, %arg4
// CHECK-NEXT: %[[S:.*]] = hlo.add %[[A]], %[[M]] : tensor<8x16xf32>
// CHECK-NEXT: %[[R:.*]] = tessel.all_reduce %[[S]] over @mesh ["x"] kind = sum : tensor<8x16xf32>
// CHECK-NEXT: hlo.add %arg0, %[[R]]
// CHECK-NOT: tessel.all_reduce
func.func @parallel_block(%x: tensor<8x16xf32>,
                          %w1: tensor<16x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
                          %w2: tensor<32x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                          %v1: tensor<16x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
                          %v2: tensor<32x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %t = hlo.tanh %h : tensor<8x32xf32>
  %a = hlo.dot_general %t, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %g = hlo.dot_general %x, %v1, lhs_contract = [1], rhs_contract = [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %s = hlo.logistic %g : tensor<8x32xf32>
  %m = hlo.dot_general %s, %v2, lhs_contract = [1], rhs_contract = [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %am = hlo.add %a, %m : tensor<8x16xf32>
  %r = hlo.add %x, %am : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}


// A scaled branch (the attention output times 0.5, transposed twice) added to an unscaled
// one: the first all_reduce moves after the scaling and the transposes, and the two partial
// sums are added before one all_reduce.
// CHECK-LABEL: func.func @scaled_branch
// CHECK: hlo.mul
// CHECK: %[[S:.*]] = hlo.add
// CHECK-NEXT: tessel.all_reduce %[[S]] over @mesh ["x"] kind = sum : tensor<8x16xf32>
// CHECK-NOT: tessel.all_reduce
// CHECK: return
func.func @scaled_branch(%x: tensor<8x16xf32>,
                         %w1: tensor<16x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
                         %w2: tensor<32x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                         %v1: tensor<16x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
                         %v2: tensor<32x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %t = hlo.tanh %h : tensor<8x32xf32>
  %a = hlo.dot_general %t, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %half = hlo.constant dense<0.5> : tensor<f32>
  %halves = hlo.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %as = hlo.mul %a, %halves : tensor<8x16xf32>
  %at = hlo.transpose %as, permutation = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %att = hlo.transpose %at, permutation = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %g = hlo.dot_general %x, %v1, lhs_contract = [1], rhs_contract = [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %s = hlo.logistic %g : tensor<8x32xf32>
  %m = hlo.dot_general %s, %v2, lhs_contract = [1], rhs_contract = [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %sum = hlo.add %att, %m : tensor<8x16xf32>
  return %sum : tensor<8x16xf32>
}
