// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// linalg.matmul through its indexing maps: the init operand is an operand too.
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k], [k, j], [i, j])->([i, j]) {i=4, j=16, k=8} reduction={k}}}
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Parallel loops pass through, reduction loops reduce; the body is not visited.
func.func @generic_row_sum(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [i])->([i]) {i=4, j=8} reduction={j}}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A transposing map: operand dim 0 follows loop d1.
func.func @generic_transpose(%x: tensor<8x4xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([j, i], [i, j])->([i, j]) {i=4, j=8}}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x4xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A 1-D convolution: the input dim indexed by d0 + d1 is not a projected permutation and
// gets a need-replication factor of its own.
func.func @generic_conv1d(%x: tensor<10xf32>, %k: tensor<3xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark @+1 {{sharding rule: ([k], [j], [i])->([i]) {i=8, j=3, k=10} reduction={j} need_replication={k}}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %k : tensor<10xf32>, tensor<3xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A diagonal read: the second dim indexed by the same loop cannot share its factor.
func.func @generic_diagonal(%x: tensor<4x4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [i])->([i]) {i=4, j=4} need_replication={j}}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Buffer semantics: rules describe tensor values, so the op is opaque.
func.func @generic_on_buffers(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-remark @+1 {{no sharding rule (opaque): buffer semantics: sharding rules describe tensor values}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

func.func @generic_dynamic(%x: tensor<?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  // expected-remark @+1 {{no sharding rule (opaque): factor sizes need static shapes, and an operand or result is dynamic}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
