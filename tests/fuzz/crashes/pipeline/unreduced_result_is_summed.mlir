// An unannotated result that returns a value constrained to unreduced axes is returned as
// partial sums; tessel run could not assemble it ("sharding has unreduced axes") and now sums
// the partial values (runtime/sharded_tensors.h).
// options: combine-collectives
module {
  tessel.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<2x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {?}]>}, %arg1: tensor<1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", ?}]>}, %arg2: tensor<1x3xi32>, %arg3: tensor<1xi32>, %arg4: tensor<2x3xi32>) -> (tensor<1xi32>, tensor<1x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, tensor<1x3xi32>) {
    %0:2 = hlo.sort(%arg1, %arg3) dimension = 0 is_stable : tensor<1xi32>, tensor<1xi32> comparator {
    ^bb0(%arg5: tensor<i32>, %arg6: tensor<i32>, %arg7: tensor<i32>, %arg8: tensor<i32>):
      %5 = hlo.compare LT, %arg5, %arg6 : tensor<i32>
      hlo.return %5 : tensor<i1>
    }
    %1 = tessel.sharding_constraint %0#1 <@mesh, [{?}], unreduced={"x"}> : tensor<1xi32>
    %2 = tessel.sharding_constraint %1 <@mesh, [{"x"}]> : tensor<1xi32>
    %3 = hlo.dot_general %arg0, %arg4, lhs_contract = [0], rhs_contract = [0] : (tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<1x3xi32>
    %4 = hlo.mul %3, %arg2 : tensor<1x3xi32>
    return %1, %4, %3 : tensor<1xi32>, tensor<1x3xi32>, tensor<1x3xi32>
  }
}

