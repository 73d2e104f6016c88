// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=2]>

// The reducer reads the function's scalar %s. The reduced dim is gathered (a reducer of
// two ops takes the rule path), and the local reducer reads the local argument.
// CHECK-LABEL: func @reducer_reads_argument
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32> {{.*}}, %[[S:.*]]: tensor<f32>
// CHECK: %[[G:.*]] = tessel.all_gather %[[X]] over @mesh ["x"] dim = 1 : (tensor<4x3xf32>) -> tensor<4x6xf32>
// CHECK: hlo.reduce(%[[G]])
// CHECK: hlo.mul %{{.*}}, %[[S]] : tensor<f32>
func.func @reducer_reads_argument(%x: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}, %s: tensor<f32>) -> tensor<4xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x) init(%z) dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.mul %b, %s : tensor<f32>
    %t = hlo.add %a, %m : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// The value read comes from a split argument: the region reads its local, replicated form.
// CHECK-LABEL: func @reducer_reads_split_value
// CHECK-SAME: (%[[X:.*]]: tensor<2x6xf32> {{.*}}, %[[V:.*]]: tensor<1xf32>
// CHECK: %[[W:.*]] = tessel.all_gather %[[V]] over @mesh ["x"] dim = 0 : (tensor<1xf32>) -> tensor<2xf32>
// CHECK: %[[SLICE:.*]] = hlo.slice %[[W]]
// CHECK: %[[S:.*]] = hlo.reshape %[[SLICE]]
// CHECK: hlo.reduce(
// CHECK: hlo.mul %{{.*}}, %[[S]] : tensor<f32>
func.func @reducer_reads_split_value(%x: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %v: tensor<2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %first = hlo.slice %v [0:1] : (tensor<2xf32>) -> tensor<1xf32>
  %s = hlo.reshape %first : (tensor<1xf32>) -> tensor<f32>
  %r = hlo.reduce(%x) init(%z) dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.mul %b, %s : tensor<f32>
    %t = hlo.add %a, %m : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  return %r : tensor<4xf32>
}
