// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=3]>

// A sum over a dimension split unevenly (7 over 3): the padding of the last shard is set to
// the identity 0, each device sums its shard, and one all_reduce adds the shards. The
// op's init (0) is the identity: nothing more.
// CHECK-LABEL: func @sum_over_split
// CHECK-SAME: (%[[A:.*]]: tensor<3x6xf32>
// CHECK: %[[ZERO:.*]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: hlo.constant dense<[3, 3, 1]> : tensor<3xi32>
// CHECK: %[[MASKED:.*]] = hlo.select {{.*}}, %[[A]], {{.*}} : tensor<3x6xi1>, tensor<3x6xf32>
// CHECK: %[[LOCAL:.*]] = hlo.reduce(%[[MASKED]]) init(%[[ZERO]]) dimensions = [0] : (tensor<3x6xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK: %[[SUM:.*]] = tessel.all_reduce %[[LOCAL]] over @mesh ["x"] kind = sum : tensor<6xf32>
// CHECK-NOT: tessel.all_gather
// CHECK: return %[[SUM]] : tensor<6xf32>
func.func @sum_over_split(%a: tensor<7x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>}) {
  %zero = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0.0> : tensor<f32>
  %0 = hlo.reduce(%a) init(%zero) dimensions = [0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<7x6xf32>, tensor<f32>) -> tensor<6xf32> reducer {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = hlo.add %x, %y : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// A max with init 3 over dim 1 split on "y", dim 0 kept split on "x": local max from the
// identity (the lowest i32), all_reduce max over "y" only, then the init once.
// CHECK-LABEL: func @max_with_init
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xi32>
// CHECK: %[[LOWEST:.*]] = hlo.constant dense<-2147483648> : tensor<i32>
// CHECK: %[[LOCAL:.*]] = hlo.reduce(%[[A]]) init(%[[LOWEST]]) dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
// CHECK: %[[MAX:.*]] = tessel.all_reduce %[[LOCAL]] over @mesh ["y"] kind = max : tensor<2xi32>
// CHECK: %[[INITS:.*]] = hlo.broadcast_in_dim {{.*}} -> tensor<2xi32>
// CHECK: %[[RESULT:.*]] = hlo.max %[[MAX]], %[[INITS]] : tensor<2xi32>
// CHECK: return %[[RESULT]] : tensor<2xi32>
func.func @max_with_init(%a: tensor<4x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %init = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<3> : tensor<i32>
  %0 = hlo.reduce(%a) init(%init) dimensions = [1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<4x6xi32>, tensor<i32>) -> tensor<4xi32> reducer {
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = hlo.max %x, %y : tensor<i32>
    hlo.return %s : tensor<i32>
  }
  return %0 : tensor<4xi32>
}

// -----

// A row statistic of a row-split matrix whose result is wanted whole: each device reduces
// its rows and only the 8 reduced values are gathered, not the 8x64 matrix.
tessel.mesh @mesh = <["x"=4]>
// CHECK-LABEL: func.func @kept_dim_stays_split
// CHECK: %[[R:.*]] = hlo.reduce(%{{.*}}) init(%{{.*}}) dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK: tessel.all_gather %[[R]] over @mesh ["x"] dim = 0 : (tensor<8xf32>) -> tensor<32xf32>
// CHECK-NOT: tessel.all_gather
func.func @kept_dim_stays_split(%a: tensor<32x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>}) {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%a) init(%z) dimensions = [1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<32xf32>
}
