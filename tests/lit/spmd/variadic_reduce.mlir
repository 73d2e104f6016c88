// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Argmax over dim 1 split on "y", dim 0 kept split on "x": each device reduces its 2x4
// shard, the (value, index) partials get a leading dim of 1 and are gathered over "y"
// along it, and a second reduce with the same reducer and inits combines the two pairs.
// The inputs are never gathered.
// CHECK-LABEL: func @argmax_over_split
// CHECK-SAME: (%[[V:.*]]: tensor<2x4xf32> {{.*}}, %[[I:.*]]: tensor<2x4xi32>
// CHECK: %[[NINF:.*]] = hlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: %[[ZERO:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NOT: tessel.
// CHECK: %[[LOCAL:.*]]:2 = hlo.reduce(%[[V]], %[[I]]) init(%[[NINF]], %[[ZERO]]) dimensions = [1] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) reducer {
// CHECK: hlo.compare GT
// CHECK: hlo.return
// CHECK: %[[V1:.*]] = hlo.reshape %[[LOCAL]]#0 : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK: %[[VS:.*]] = tessel.all_gather %[[V1]] over @mesh ["y"] dim = 0 : (tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[I1:.*]] = hlo.reshape %[[LOCAL]]#1 : (tensor<2xi32>) -> tensor<1x2xi32>
// CHECK: %[[IS:.*]] = tessel.all_gather %[[I1]] over @mesh ["y"] dim = 0 : (tensor<1x2xi32>) -> tensor<2x2xi32>
// CHECK: %[[FULL:.*]]:2 = hlo.reduce(%[[VS]], %[[IS]]) init(%[[NINF]], %[[ZERO]]) dimensions = [0] : (tensor<2x2xf32>, tensor<2x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) reducer {
// CHECK: hlo.compare GT
// CHECK: hlo.return
// CHECK-NOT: tessel.
// CHECK: return %[[FULL]]#0, %[[FULL]]#1 : tensor<2xf32>, tensor<2xi32>
func.func @argmax_over_split(
    %v: tensor<4x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>},
    %i: tensor<4x8xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>},
        tensor<4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %ninf = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0> : tensor<i32>
  %r:2 = hlo.reduce(%v, %i) init(%ninf, %zero) dimensions = [1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>]>} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) reducer {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : tensor<f32>
    %eq = hlo.compare EQ, %av, %bv : tensor<f32>
    %lt = hlo.compare LT, %ai, %bi : tensor<i32>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %sv = hlo.select %gt, %av, %bv : tensor<i1>, tensor<f32>
    %si = hlo.select %pick, %ai, %bi : tensor<i1>, tensor<i32>
    hlo.return %sv, %si : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Both reduced dims split, dim 0 on "x" and dim 1 on "y": one all_gather over both axes
// stacks the four devices' partials along the new leading dim.
// CHECK-LABEL: func @both_axes
// CHECK-SAME: (%[[V:.*]]: tensor<2x3x5xf32> {{.*}}, %[[I:.*]]: tensor<2x3x5xi32>
// CHECK: %[[LOCAL:.*]]:2 = hlo.reduce(%[[V]], %[[I]]) init(%{{.*}}, %{{.*}}) dimensions = [0, 1] : (tensor<2x3x5xf32>, tensor<2x3x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
// CHECK: %[[V1:.*]] = hlo.reshape %[[LOCAL]]#0 : (tensor<5xf32>) -> tensor<1x5xf32>
// CHECK: %[[VS:.*]] = tessel.all_gather %[[V1]] over @mesh ["x", "y"] dim = 0 : (tensor<1x5xf32>) -> tensor<4x5xf32>
// CHECK: %[[I1:.*]] = hlo.reshape %[[LOCAL]]#1 : (tensor<5xi32>) -> tensor<1x5xi32>
// CHECK: %[[IS:.*]] = tessel.all_gather %[[I1]] over @mesh ["x", "y"] dim = 0 : (tensor<1x5xi32>) -> tensor<4x5xi32>
// CHECK: %[[FULL:.*]]:2 = hlo.reduce(%[[VS]], %[[IS]]) init(%{{.*}}, %{{.*}}) dimensions = [0] : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
// CHECK-NOT: tessel.
// CHECK: return %[[FULL]]#0, %[[FULL]]#1 : tensor<5xf32>, tensor<5xi32>
func.func @both_axes(
    %v: tensor<4x6x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}, {}]>},
    %i: tensor<4x6x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}, {}]>})
    -> (tensor<5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>},
        tensor<5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>}) {
  %ninf = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0> : tensor<i32>
  %r:2 = hlo.reduce(%v, %i) init(%ninf, %zero) dimensions = [0, 1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<4x6x5xf32>, tensor<4x6x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>) reducer {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : tensor<f32>
    %eq = hlo.compare EQ, %av, %bv : tensor<f32>
    %lt = hlo.compare LT, %ai, %bi : tensor<i32>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %sv = hlo.select %gt, %av, %bv : tensor<i1>, tensor<f32>
    %si = hlo.select %pick, %ai, %bi : tensor<i1>, tensor<i32>
    hlo.return %sv, %si : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}

// -----

tessel.mesh @mesh = <["x"=3]>

// 7 split over 3 (shards of 3, 3 and 1 valid columns): before the local reduce the padding
// of each input is replaced by that input's init (-inf for the values, 0 for the indices),
// so it can never win.
// CHECK-LABEL: func @uneven
// CHECK-SAME: (%[[V:.*]]: tensor<4x3xf32> {{.*}}, %[[I:.*]]: tensor<4x3xi32>
// CHECK: %[[NINF:.*]] = hlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: %[[ZERO:.*]] = hlo.constant dense<0> : tensor<i32>
// CHECK: hlo.constant dense<[3, 3, 1]> : tensor<3xi32>
// CHECK: %[[NINFS:.*]] = hlo.broadcast_in_dim %[[NINF]], dims = [] : (tensor<f32>) -> tensor<4x3xf32>
// CHECK: %[[VM:.*]] = hlo.select %{{.*}}, %[[V]], %[[NINFS]] : tensor<4x3xi1>, tensor<4x3xf32>
// CHECK: %[[ZEROS:.*]] = hlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<i32>) -> tensor<4x3xi32>
// CHECK: %[[IM:.*]] = hlo.select %{{.*}}, %[[I]], %[[ZEROS]] : tensor<4x3xi1>, tensor<4x3xi32>
// CHECK: %[[LOCAL:.*]]:2 = hlo.reduce(%[[VM]], %[[IM]]) init(%[[NINF]], %[[ZERO]]) dimensions = [1] : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK: tessel.all_gather %{{.*}} over @mesh ["x"] dim = 0 : (tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK: tessel.all_gather %{{.*}} over @mesh ["x"] dim = 0 : (tensor<1x4xi32>) -> tensor<3x4xi32>
// CHECK: %[[FULL:.*]]:2 = hlo.reduce(%{{.*}}, %{{.*}}) init(%[[NINF]], %[[ZERO]]) dimensions = [0] : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK: return %[[FULL]]#0, %[[FULL]]#1 : tensor<4xf32>, tensor<4xi32>
func.func @uneven(
    %v: tensor<4x7xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
    %i: tensor<4x7xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>},
        tensor<4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>}) {
  %ninf = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0> : tensor<i32>
  %r:2 = hlo.reduce(%v, %i) init(%ninf, %zero) dimensions = [1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : (tensor<4x7xf32>, tensor<4x7xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) reducer {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : tensor<f32>
    %eq = hlo.compare EQ, %av, %bv : tensor<f32>
    %lt = hlo.compare LT, %ai, %bi : tensor<i32>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %sv = hlo.select %gt, %av, %bv : tensor<i1>, tensor<f32>
    %si = hlo.select %pick, %ai, %bi : tensor<i1>, tensor<i32>
    hlo.return %sv, %si : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Declined: the results must not be partial (unreduced over "x") for an arbitrary reducer,
// so the rule path makes the reduced dim whole: it gathers both inputs along dim 1 and
// reduces once.
// CHECK-LABEL: func @declined_unreduced_result
// CHECK-SAME: (%[[V:.*]]: tensor<4x4xf32> {{.*}}, %[[I:.*]]: tensor<4x4xi32>
// CHECK: %[[VW:.*]] = tessel.all_gather %[[V]] over @mesh ["x"] dim = 1 : (tensor<4x4xf32>) -> tensor<4x8xf32>
// CHECK: %[[IW:.*]] = tessel.all_gather %[[I]] over @mesh ["x"] dim = 1 : (tensor<4x4xi32>) -> tensor<4x8xi32>
// CHECK: hlo.reduce(%[[VW]], %[[IW]]) init(%{{.*}}, %{{.*}}) dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK-NOT: hlo.reduce
func.func @declined_unreduced_result(
    %v: tensor<4x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
    %i: tensor<4x8xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4xf32>, tensor<4xi32>) {
  %ninf = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0> : tensor<i32>
  %r:2 = hlo.reduce(%v, %i) init(%ninf, %zero) dimensions = [1] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}], unreduced={"x"}>, <@mesh, [{}]>]>} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) reducer {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : tensor<f32>
    %eq = hlo.compare EQ, %av, %bv : tensor<f32>
    %lt = hlo.compare LT, %ai, %bi : tensor<i32>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %sv = hlo.select %gt, %av, %bv : tensor<i1>, tensor<f32>
    %si = hlo.select %pick, %ai, %bi : tensor<i1>, tensor<i32>
    hlo.return %sv, %si : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Declined: the result splits its kept dim over "x", the axis of the reduced dim, so no
// reduced dim can stay split; the rule path moves "x" from dim 0 to dim 1 of both inputs
// (one all_to_all each) and reduces the whole dim 0 locally. No partials are gathered.
// CHECK-LABEL: func @declined_axis_taken_by_kept_dim
// CHECK-SAME: (%[[V:.*]]: tensor<2x6xf32> {{.*}}, %[[I:.*]]: tensor<2x6xi32>
// CHECK: %[[VW:.*]] = tessel.all_to_all %[[V]] over @mesh ["x"] split_dim = 1 concat_dim = 0 : (tensor<2x6xf32>) -> tensor<4x3xf32>
// CHECK: %[[IW:.*]] = tessel.all_to_all %[[I]] over @mesh ["x"] split_dim = 1 concat_dim = 0 : (tensor<2x6xi32>) -> tensor<4x3xi32>
// CHECK: %[[R:.*]]:2 = hlo.reduce(%[[VW]], %[[IW]]) init(%{{.*}}, %{{.*}}) dimensions = [0] : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
// CHECK-NOT: tessel.
// CHECK: return %[[R]]#0, %[[R]]#1 : tensor<3xf32>, tensor<3xi32>
func.func @declined_axis_taken_by_kept_dim(
    %v: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
    %i: tensor<4x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>},
        tensor<6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %ninf = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0xFF800000> : tensor<f32>
  %zero = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} dense<0> : tensor<i32>
  %r:2 = hlo.reduce(%v, %i) init(%ninf, %zero) dimensions = [0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>]>} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>) reducer {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : tensor<f32>
    %eq = hlo.compare EQ, %av, %bv : tensor<f32>
    %lt = hlo.compare LT, %ai, %bi : tensor<i32>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %sv = hlo.select %gt, %av, %bv : tensor<i1>, tensor<f32>
    %si = hlo.select %pick, %ai, %bi : tensor<i1>, tensor<i32>
    hlo.return %sv, %si : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xi32>
}
