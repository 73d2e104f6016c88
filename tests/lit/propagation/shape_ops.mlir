// RUN: tessel-opt %s --tessel-propagate | FileCheck %s

tessel.mesh @mesh = <["x"=4, "y"=2]>

// Reshape 8 -> 2x4: axis x (4 devices) splits into its major half for the 2 and its minor
// half for the 4.
// CHECK-LABEL: func @reshape_split
func.func @reshape_split(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>})
    -> tensor<2x4xf32> {
  // CHECK: hlo.reshape {{.*}}[<@mesh, [{"x":(1)2}, {"x":(2)2}]>]
  %0 = hlo.reshape %a : (tensor<8xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// Reshape 4x2 -> 8 with both dims split: the axes merge into one dimension.
// CHECK-LABEL: func @reshape_merge
func.func @reshape_merge(%a: tensor<4x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8xf32> {
  // CHECK: hlo.reshape {{.*}}[<@mesh, [{"x", "y"}]>]
  %0 = hlo.reshape %a : (tensor<4x2xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A minor dim cannot be split while the major one it merges with is not fully split.
// CHECK-LABEL: func @reshape_minor_only
func.func @reshape_minor_only(%a: tensor<4x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>})
    -> tensor<8xf32> {
  // CHECK: hlo.reshape {{.*}}[<@mesh, [{}]>]
  %0 = hlo.reshape %a : (tensor<4x2xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func @transpose
func.func @transpose(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<4x8xf32> {
  // CHECK: hlo.transpose {{.*}}[<@mesh, [{"y"}, {"x"}]>]
  %0 = hlo.transpose %a, permutation = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Broadcast: the operand's dimension maps to result dimension 1.
// CHECK-LABEL: func @broadcast
func.func @broadcast(%a: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>})
    -> tensor<8x4xf32> {
  // CHECK: hlo.broadcast_in_dim {{.*}}[<@mesh, [{}, {"y"}]>]
  %0 = hlo.broadcast_in_dim %a, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Reduce drops the reduced dimension from the result.
// CHECK-LABEL: func @reduce
func.func @reduce(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8xf32> {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  // CHECK: hlo.reduce{{.*}}[<@mesh, [{"x"}]>]
  // The reducer computes on single elements and is not annotated.
  // CHECK: hlo.add %{{[a-z0-9]+}}, %{{[a-z0-9]+}} : tensor<f32>
  %0 = hlo.reduce(%a) init(%zero) dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<8xf32>
}
