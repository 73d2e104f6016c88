// `tessel explain --shard_weight_update`: after the propagated shardings, what
// weight-update sharding changed (the momentum argument, the update ops, the gradient left
// unreduced, the reshard it inserted) and, for every gradient, how it sharded the update or
// why it left it alone.
// RUN: tessel explain %s --shard_weight_update | FileCheck %s
// RUN: tessel explain %s | FileCheck %s --check-prefix=PLAIN

// CHECK: %m = arg2: #tessel.sharding<@mesh, [{"data"}, {}]>
// CHECK-NEXT: dimension 0: "data" (added after propagation)
// CHECK-NEXT: changed by weight-update sharding (propagation gave #tessel.sharding<@mesh, [{}, {}]>)
// CHECK: hlo.dot_general at {{.*}}tessel_explain_weight_update.mlir:32:8: #tessel.sharding<@mesh, [{}, {}], unreduced={"data"}>
// CHECK-NEXT: replicated: no sharding reached it
// CHECK-NEXT: changed by weight-update sharding (propagation gave #tessel.sharding<@mesh, [{}, {}]>)
// CHECK-NEXT: weight-update sharding splits the update of this gradient over {"data"} along dimension 0: 2 ops
// CHECK: %g = tessel.reshard at {{.*}}: #tessel.sharding<@mesh, [{"data"}, {}]>
// CHECK-NEXT: inserted by weight-update sharding (the gradient's reduce_scatter)
// CHECK: %h = hlo.dot_general at {{.*}}tessel_explain_weight_update.mlir:36:8:
// CHECK-NEXT: replicated: no sharding reached it
// CHECK-NEXT: weight-update sharding leaves the update of this gradient alone: operand 1 of 'hlo.add'

// PLAIN-NOT: weight-update sharding

tessel.mesh @mesh = <["data"=2]>
func.func @main(%x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
                %m: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
                %v: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
                %a: tensor<4x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
                %b: tensor<2x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %nm = hlo.add %m, %g : tensor<4x6xf32>
  %nw = hlo.sub %w, %nm : tensor<4x6xf32>
  %ab = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  %h = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %u = hlo.add %h, %ab : tensor<4x6xf32>
  %nv = hlo.sub %v, %u : tensor<4x6xf32>
  return %y, %nw, %nm, %nv : tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}
