// RUN: tessel-opt %s --tessel-hierarchical-all-reduce -split-input-file | FileCheck %s

// Over a 2 x 3 mesh one ring takes 2 x 5 steps; a reduce_scatter over "x" (1 step), an
// all_reduce over "y" of the half (4 steps) and an all_gather over "x" (1 step) send the
// same bytes in 6.
tessel.mesh @mesh = <["x"=2, "y"=3]>
// CHECK-LABEL: func.func @matrix
// CHECK: %[[S:.*]] = tessel.reduce_scatter %arg0 over @mesh ["x"] dim = 0 kind = sum : (tensor<24x16xf32>) -> tensor<12x16xf32>
// CHECK-NEXT: %[[R:.*]] = tessel.all_reduce %[[S]] over @mesh ["y"] kind = sum : tensor<12x16xf32>
// CHECK-NEXT: %[[G:.*]] = tessel.all_gather %[[R]] over @mesh ["x"] dim = 0 : (tensor<12x16xf32>) -> tensor<24x16xf32>
// CHECK-NEXT: return %[[G]]
func.func @matrix(%g: tensor<24x16xf32>) -> tensor<24x16xf32> {
  %r = tessel.all_reduce %g over @mesh ["x", "y"] kind = sum : tensor<24x16xf32>
  return %r : tensor<24x16xf32>
}

// -----

// The largest dimension is scattered, zero-padded to a multiple of the axis and sliced
// back; the kind is kept.
tessel.mesh @mesh = <["x"=2, "y"=3]>
// CHECK-LABEL: func.func @uneven_max
// CHECK: %[[P:.*]] = hlo.pad %arg0, %{{.*}}, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<3x7xi32>, tensor<i32>) -> tensor<3x8xi32>
// CHECK-NEXT: %[[S:.*]] = tessel.reduce_scatter %[[P]] over @mesh ["x"] dim = 1 kind = max : (tensor<3x8xi32>) -> tensor<3x4xi32>
// CHECK-NEXT: %[[R:.*]] = tessel.all_reduce %[[S]] over @mesh ["y"] kind = max : tensor<3x4xi32>
// CHECK-NEXT: %[[G:.*]] = tessel.all_gather %[[R]] over @mesh ["x"] dim = 1 : (tensor<3x4xi32>) -> tensor<3x8xi32>
// CHECK-NEXT: hlo.slice %[[G]] [0:3, 0:7]
func.func @uneven_max(%g: tensor<3x7xi32>) -> tensor<3x7xi32> {
  %r = tessel.all_reduce %g over @mesh ["x", "y"] kind = max : tensor<3x7xi32>
  return %r : tensor<3x7xi32>
}

// -----

// A scalar is all-reduced over one axis after the other.
tessel.mesh @mesh = <["x"=4, "y"=2]>
// CHECK-LABEL: func.func @scalar
// CHECK: %[[A:.*]] = tessel.all_reduce %arg0 over @mesh ["x"] kind = sum : tensor<f32>
// CHECK-NEXT: tessel.all_reduce %[[A]] over @mesh ["y"] kind = sum : tensor<f32>
func.func @scalar(%g: tensor<f32>) -> tensor<f32> {
  %r = tessel.all_reduce %g over @mesh ["x", "y"] kind = sum : tensor<f32>
  return %r : tensor<f32>
}

// -----

// An all_reduce over one axis, and one of predicates, are left alone.
tessel.mesh @mesh = <["x"=2, "y"=2]>
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: tessel.all_reduce %arg0 over @mesh ["x"] kind = sum : tensor<8xf32>
// CHECK-NEXT: tessel.all_reduce %arg1 over @mesh ["x", "y"] kind = max : tensor<8xi1>
// CHECK-NEXT: return
func.func @left_alone(%a: tensor<8xf32>, %p: tensor<8xi1>) -> (tensor<8xf32>, tensor<8xi1>) {
  %r = tessel.all_reduce %a over @mesh ["x"] kind = sum : tensor<8xf32>
  %q = tessel.all_reduce %p over @mesh ["x", "y"] kind = max : tensor<8xi1>
  return %r, %q : tensor<8xf32>, tensor<8xi1>
}
