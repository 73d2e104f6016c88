// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @reduce_sum
func.func @reduce_sum(%x: tensor<4x8xf32>, %zero: tensor<f32>) -> tensor<4xf32> {
  // CHECK: hlo.reduce(%{{.*}}) init(%{{.*}}) dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[S:.*]] = hlo.add %[[A]], %[[B]] : tensor<f32>
  // CHECK-NEXT: hlo.return %[[S]] : tensor<f32>
  %r = hlo.reduce(%x) init(%zero) dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// -----

// Two inputs reduced together (a sum and a count) over every dimension.
// CHECK-LABEL: func @reduce_variadic_all_dims
func.func @reduce_variadic_all_dims(%x: tensor<4x8xf32>, %n: tensor<4x8xi32>, %z: tensor<f32>, %zi: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  // CHECK: hlo.reduce(%{{.*}}, %{{.*}}) init(%{{.*}}, %{{.*}}) dimensions = [0, 1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>) reducer {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
  %r:2 = hlo.reduce(%x, %n) init(%z, %zi) dimensions = [0, 1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>) reducer {
  ^bb0(%a: tensor<f32>, %ca: tensor<i32>, %b: tensor<f32>, %cb: tensor<i32>):
    %s = hlo.add %a, %b : tensor<f32>
    %c = hlo.add %ca, %cb : tensor<i32>
    hlo.return %s, %c : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

// -----

// No reduced dimension: the result keeps the input shape.
// CHECK-LABEL: func @reduce_no_dims
func.func @reduce_no_dims(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // CHECK: dimensions = [] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %r = hlo.reduce(%x) init(%z) dimensions = [] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// -----

// Only the required window dimensions; strides, dilations and padding default.
// CHECK-LABEL: func @reduce_window_minimal
func.func @reduce_window_minimal(%x: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<3x5xf32> {
  // CHECK: hlo.reduce_window(%{{.*}}) init(%{{.*}}) window_dimensions = [2, 2] : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32> reducer {
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2, 2] : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<3x5xf32>
}

// -----

// Every optional attribute, written in a different order than printed.
// dim 0: base 5 dilated by 2 -> 9, padded 1+9+1 = 11, window 3 dilated by 1 -> 3,
//        (11 - 3) / 2 + 1 = 5.
// dim 1: base 6 -> 6, padded 0+6+2 = 8, window 2 dilated by 3 -> 4, (8 - 4) / 1 + 1 = 5.
// CHECK-LABEL: func @reduce_window_all_attrs
func.func @reduce_window_all_attrs(%x: tensor<5x6xf32>, %z: tensor<f32>) -> tensor<5x5xf32> {
  // CHECK: window_dimensions = [3, 2], window_strides = [2, 1], base_dilations = [2, 1], window_dilations = [1, 3], padding = {{\[}}[1, 1], [0, 2]] : (tensor<5x6xf32>, tensor<f32>) -> tensor<5x5xf32>
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [3, 2], padding = [[1, 1], [0, 2]], window_dilations = [1, 3], base_dilations = [2, 1], window_strides = [2, 1] : (tensor<5x6xf32>, tensor<f32>) -> tensor<5x5xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<5x5xf32>
}

// -----

// A window larger than the padded input gives an empty dimension.
// CHECK-LABEL: func @reduce_window_empty_output
func.func @reduce_window_empty_output(%x: tensor<2xf32>, %z: tensor<f32>) -> tensor<0xf32> {
  // CHECK: window_dimensions = [3] : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32>
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [3] : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return %r : tensor<0xf32>
}

// -----

// CHECK-LABEL: func @select_and_scatter
func.func @select_and_scatter(%x: tensor<4x4xf32>, %src: tensor<2x2xf32>, %z: tensor<f32>, %p: tensor<i1>) -> tensor<4x4xf32> {
  // CHECK: hlo.select_and_scatter(%{{.*}}, %{{.*}}, %{{.*}}) window_dimensions = [2, 2], window_strides = [2, 2] : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32> select {
  // CHECK: hlo.return %{{.*}} : tensor<i1>
  // CHECK: } scatter {
  // CHECK: hlo.add
  %r = hlo.select_and_scatter(%x, %src, %z) window_dimensions = [2, 2], window_strides = [2, 2] : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// Padding present, strides absent: each padded dimension is 1+4+1 = 6, window 3, stride 1,
// so the source is 4x4.
// CHECK-LABEL: func @select_and_scatter_padding
func.func @select_and_scatter_padding(%x: tensor<4x4xf32>, %src: tensor<4x4xf32>, %z: tensor<f32>, %p: tensor<i1>) -> tensor<4x4xf32> {
  // CHECK: window_dimensions = [3, 3], padding = {{\[}}[1, 1], [1, 1]] : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %r = hlo.select_and_scatter(%x, %src, %z) window_dimensions = [3, 3], padding = [[1, 1], [1, 1]] : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  }
  return %r : tensor<4x4xf32>
}
