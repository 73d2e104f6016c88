// RUN: tessel-opt %s --tessel-propagate --tessel-partition -split-input-file | FileCheck %s
// RUN: tessel-opt %s --tessel-propagate --tessel-partition=strategy-remarks -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// The contracting dimension is split and the user wants rows split: the dot runs on the
// operands as they are and its partial sum is reduce-scattered onto the rows, where the
// result-first strategy would all_to_all x and all_gather w.
tessel.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @row_parallel
// CHECK-SAME: %[[X:.*]]: tensor<64x32xf32> {{.*}}, %[[W:.*]]: tensor<32x16xf32>
// CHECK: %[[D:.*]] = hlo.dot_general %[[X]], %[[W]], lhs_contract = [1], rhs_contract = [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
// CHECK-NEXT: %[[S:.*]] = tessel.reduce_scatter %[[D]] over @mesh ["x"] dim = 0 kind = sum : (tensor<64x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT: return %[[S]]
// CHECK-NOT: tessel.all_gather
// CHECK-NOT: tessel.all_to_all
// REMARK: remark: strategy: operand 0 [{}, {"x"}], operand 1 [{"x"}, {}] with reduce_scatter over x ({{.*}} us, 2048 bytes sent); runner-up: operand 0 [{"x"}, {}], operand 1 [{}, {}] with all_to_all over x, all_gather over x ({{.*}} us, 6144 bytes sent)
func.func @row_parallel(%x: tensor<64x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
                        %w: tensor<64x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<64x16xf32> {
  %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<64x64xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
  %c = tessel.sharding_constraint %d <@mesh, [{"x"}, {}]> : tensor<64x16xf32>
  return %c : tensor<64x16xf32>
}

// -----

// A weight gradient contracting the split batch, kept split over its rows (ZeRO): one
// reduce_scatter of the local partial gradient.
tessel.mesh @mesh = <["x"=4]>
// CHECK-LABEL: func.func @zero_gradient
// CHECK: %[[G:.*]] = hlo.dot_general %{{.*}}, %{{.*}}, lhs_contract = [0], rhs_contract = [0] : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT: tessel.reduce_scatter %[[G]] over @mesh ["x"] dim = 0 kind = sum : (tensor<32x16xf32>) -> tensor<8x16xf32>
// CHECK-NOT: tessel.all_reduce
// REMARK: remark: strategy: operand 0 [{"x"}, {}], operand 1 [{"x"}, {}] with reduce_scatter over x
func.func @zero_gradient(%a: tensor<32x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                         %d: tensor<32x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<32x16xf32> {
  %g = hlo.dot_general %a, %d, lhs_contract = [0], rhs_contract = [0] : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  %c = tessel.sharding_constraint %g <@mesh, [{"x"}, {}]> : tensor<32x16xf32>
  return %c : tensor<32x16xf32>
}

// -----

// Gathering both operands would compute the gradient on every device, redundantly; it would
// be faster here (one all_gather step against two of an all_reduce) but sends more bytes,
// so the partial sum is all-reduced as before.
tessel.mesh @mesh = <["x"=2]>
// CHECK-LABEL: func.func @replicated_gradient
// CHECK: %[[G:.*]] = hlo.dot_general %{{.*}}, %{{.*}}, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: tessel.all_reduce %[[G]] over @mesh ["x"] kind = sum : tensor<4x4xf32>
// CHECK-NOT: tessel.all_gather
// REMARK: remark: strategy: operand 0 [{"x"}, {}], operand 1 [{"x"}, {}] with all_reduce over x ({{.*}} us, 64 bytes sent); runner-up: operand 0 [{}, {}], operand 1 [{}, {}] with all_gather over x ({{.*}} us, 128 bytes sent)
func.func @replicated_gradient(%a: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<4x4xf32> {
  %g = hlo.dot_general %a, %a, lhs_contract = [0], rhs_contract = [0] : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
