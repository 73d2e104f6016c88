// RUN: tessel-opt %s --tessel-propagate | FileCheck %s

tessel.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func @forward
// CHECK-SAME: -> (tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
func.func @forward(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8x4xf32> {
  // CHECK: hlo.exp %{{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
  %0 = hlo.exp %a : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// The result's sharding reaches the operands.
// CHECK-LABEL: func @backward
// CHECK-SAME: %arg0: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}
// CHECK-SAME: %arg1: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}
func.func @backward(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>)
    -> (tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}) {
  // CHECK: hlo.add {{.*}}[<@mesh, [{"x"}, {"y"}]>]
  %0 = hlo.add %a, %b : tensor<8x4xf32>
  // CHECK: hlo.exp {{.*}}[<@mesh, [{"x"}, {"y"}]>]
  %1 = hlo.exp %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// Closed annotated dimensions are kept as written; the sum combines both.
// CHECK-LABEL: func @closed
// CHECK-SAME: %arg0: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}
// CHECK-SAME: %arg1: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>}
func.func @closed(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                  %b: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>})
    -> tensor<8x4xf32> {
  // CHECK: hlo.add {{.*}}[<@mesh, [{"x"}, {"y"}]>]
  %0 = hlo.add %a, %b : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Open dimensions take what flows into them; the annotation keeps its `?`.
// CHECK-LABEL: func @open
// CHECK-SAME: %arg0: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {?}]>}
func.func @open(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {?}]>},
                %b: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{?}, {"y"}]>})
    -> tensor<8x4xf32> {
  // CHECK: hlo.add {{.*}}[<@mesh, [{"x"}, {"y"}]>]
  %0 = hlo.add %a, %b : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Uneven splits are fine: 6 elements over 4 devices.
// CHECK-LABEL: func @uneven
func.func @uneven(%a: tensor<6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<6xf32> {
  // CHECK: hlo.exp {{.*}}[<@mesh, [{"x"}]>]
  %0 = hlo.exp %a : tensor<6xf32>
  return %0 : tensor<6xf32>
}

// A value nothing reaches is replicated.
// CHECK-LABEL: func @unreached
func.func @unreached(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: hlo.exp {{.*}}[<@mesh, [{}]>]
  %0 = hlo.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The sharding joins an op's other attributes, in name order; ops without any share one
// dictionary per sharding, which must not leak another op's attributes.
// CHECK-LABEL: func @other_attributes
func.func @other_attributes(
    %a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8x4xf32> {
  // CHECK: hlo.exp %{{.*}} {tessel.sharding = #tessel.sharding_per_value<{{.*}}>} : tensor
  %0 = hlo.exp %a : tensor<8x4xf32>
  // CHECK: hlo.exp %{{.*}} {aaa.note = "first", tessel.sharding = {{.*}}, zzz.note = 1 : i64} :
  %1 = hlo.exp %0 {zzz.note = 1 : i64, aaa.note = "first"} : tensor<8x4xf32>
  // CHECK: hlo.exp %{{.*}} {tessel.sharding = #tessel.sharding_per_value<{{.*}}>} : tensor
  %2 = hlo.exp %1 : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
