// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// Collapsed operand dim 0: reduction on the operand. Offset dim 1 taken whole: pass-through.
// Indices batch dim 0 to result dim 0; the index vector dim needs replication.
func.func @gather_rows(%x: tensor<16x8xf32>, %idx: tensor<4x1xi32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [k, l])->([k, j]) {i=16, j=8, k=4, l=1} reduction={i} need_replication={l}}}
  %g = hlo.gather %x[%idx], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// An implicit index vector dim has no factor.
func.func @gather_implicit_index_vector(%x: tensor<16x8xf32>, %idx: tensor<4xui32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [k])->([k, j]) {i=16, j=8, k=4} reduction={i}}}
  %g = hlo.gather %x[%idx], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 indices_are_sorted : (tensor<16x8xf32>, tensor<4xui32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// A size-1 offset dim that is not collapsed: reduction on the operand, and the result dim
// gets its own size-1 factor.
func.func @gather_size1_offset(%x: tensor<16x8xf32>, %idx: tensor<4x1xi32>) -> tensor<4x1x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k], [l, m])->([l, j, k]) {i=16, j=1, k=8, l=4, m=1} reduction={i} need_replication={m}}}
  %g = hlo.gather %x[%idx], slice_sizes = [1, 8], offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x1x8xf32>
  return %g : tensor<4x1x8xf32>
}

// -----

// Explicit batching: operand dim 0, indices dim 0 and result dim 2 share a factor. The
// partial windows of dims 1 and 2 need replication and are blocked.
func.func @gather_batching(%x: tensor<3x10x6xf32>, %idx: tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j, k], [i, l, m])->([j, k, i, l]) {i=3, j=10, k=6, l=5, m=2} need_replication={j, k, m} blocked={j, k}}}
  %g = hlo.gather %x[%idx], slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return %g : tensor<2x3x3x5xf32>
}

// -----

// A known combiner (add): the update batch dim is a reduction factor of indices and updates.
func.func @scatter_add(%x: tensor<16x8xf32>, %idx: tensor<4x1xi32>, %u: tensor<4x8xf32>) -> tensor<16x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [k, l], [k, j])->([i, j]) {i=16, j=8, k=4, l=1} reduction={k} need_replication={l}}}
  %r = hlo.scatter(%x) indices(%idx) updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<16x8xf32>
}

// -----

// Overwriting is not a reduction: the update batch dim needs replication.
func.func @scatter_overwrite(%x: tensor<16xf32>, %idx: tensor<4xi32>, %u: tensor<4xf32>) -> tensor<16xf32> {
  // expected-remark @+1 {{sharding rule: ([i], [j], [j])->([i]) {i=16, j=4} need_replication={j}}}
  %r = hlo.scatter(%x) indices(%idx) updates(%u), inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 unique_indices : (tensor<16xf32>, tensor<4xi32>, tensor<4xf32>) -> tensor<16xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  }
  return %r : tensor<16xf32>
}

// -----

// A size-1 window dim that is not inserted: inputs and results pass through, the updates
// get a size-1 factor. max is a known combiner, with its operands either way round.
func.func @scatter_size1_window(%x: tensor<16x8xf32>, %idx: tensor<4x1xi32>, %u: tensor<4x1x8xf32>) -> tensor<16x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k], [l, m], [l, j, k])->([i, k]) {i=16, j=1, k=8, l=4, m=1} reduction={l} need_replication={m}}}
  %r = hlo.scatter(%x) indices(%idx) updates(%u), update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x1x8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.max %b, %a : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<16x8xf32>
}

// -----

// Two inputs and explicit batching: inputs, indices, updates and results share the batch
// factor; the partial window of dim 1 needs replication and is blocked.
func.func @scatter_variadic_batching(%x: tensor<3x10xf32>, %y: tensor<3x10xi32>, %idx: tensor<3x4x1xi32>, %u: tensor<3x4x2xf32>, %v: tensor<3x4x2xi32>) -> (tensor<3x10xf32>, tensor<3x10xi32>) {
  // expected-remark @+1 {{sharding rule: ([i, j], [i, j], [i, k, l], [i, k, j], [i, k, j])->([i, j], [i, j]) {i=3, j=10, k=4, l=1} reduction={k} need_replication={j, l} blocked={j}}}
  %r:2 = hlo.scatter(%x, %y) indices(%idx) updates(%u, %v), update_window_dims = [2], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 indices_are_sorted unique_indices : (tensor<3x10xf32>, tensor<3x10xi32>, tensor<3x4x1xi32>, tensor<3x4x2xf32>, tensor<3x4x2xi32>) -> (tensor<3x10xf32>, tensor<3x10xi32>) update {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %s = hlo.add %a, %b : tensor<f32>
    %t = hlo.add %ai, %bi : tensor<i32>
    hlo.return %s, %t : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<3x10xf32>, tensor<3x10xi32>
}
