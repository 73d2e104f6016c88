// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// Kept dim pass-through; reduced dim a reduction factor of the input only. The reducer
// region is not visited.
func.func @reduce(%x: tensor<4x8xf32>, %zero: tensor<f32>) -> tensor<4xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [])->([i]) {i=4, j=8} reduction={j}}}
  %r = hlo.reduce(%x) init(%zero) dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// -----

// Two inputs share every factor; the init values map to none.
func.func @reduce_variadic(%x: tensor<4x8x2xf32>, %n: tensor<4x8x2xi32>, %z: tensor<f32>, %zi: tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>) {
  // expected-remark @+1 {{sharding rule: ([i, j, k], [i, j, k], [], [])->([j], [j]) {i=4, j=8, k=2} reduction={i, k}}}
  %r:2 = hlo.reduce(%x, %n) init(%z, %zi) dimensions = [0, 2] : (tensor<4x8x2xf32>, tensor<4x8x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>) reducer {
  ^bb0(%a: tensor<f32>, %ca: tensor<i32>, %b: tensor<f32>, %cb: tensor<i32>):
    %s = hlo.add %a, %b : tensor<f32>
    %c = hlo.add %ca, %cb : tensor<i32>
    hlo.return %s, %c : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

// A 2x2 window on both dims: permutation factors of the larger (input) extent.
func.func @reduce_window(%x: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<3x5xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [])->([i, j]) {i=4, j=6} permutation={i, j}}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2, 2] : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<3x5xf32>
}

// -----

// Window 1, stride 1, no dilation or padding on dim 0: pass-through there.
func.func @reduce_window_trivial_dim(%x: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<4x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [])->([i, j]) {i=4, j=6} permutation={j}}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [1, 2], window_strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [0, 0]] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.max %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<4x3xf32>
}

// -----

// Padding alone makes a dim windowed even with a window of 1.
func.func @reduce_window_padded(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<6xf32> {
  // expected-remark @+1 {{sharding rule: ([i], [])->([i]) {i=6} permutation={i}}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [1], padding = [[1, 1]] : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<6xf32>
}

// -----

// Operand and result share permutation factors; the source gets need-replication factors.
func.func @select_and_scatter(%x: tensor<4x4xf32>, %src: tensor<2x2xf32>, %z: tensor<f32>, %p: tensor<i1>) -> tensor<4x4xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k], [j, l], [])->([i, k]) {i=4, j=2, k=4, l=2} need_replication={j, l} permutation={i, k}}}
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

// A trivial window on dim 0 is pass-through for operand, source and result.
func.func @select_and_scatter_trivial_dim(%x: tensor<4x4xf32>, %src: tensor<4x2xf32>, %z: tensor<f32>, %p: tensor<i1>) -> tensor<4x4xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [i, k], [])->([i, j]) {i=4, j=4, k=2} need_replication={k} permutation={j}}}
  %r = hlo.select_and_scatter(%x, %src, %z) window_dimensions = [1, 2], window_strides = [1, 2] : (tensor<4x4xf32>, tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  }
  return %r : tensor<4x4xf32>
}
