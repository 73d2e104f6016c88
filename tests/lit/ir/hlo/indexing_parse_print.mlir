// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// Row lookup: each index picks one row of 8.
// CHECK-LABEL: func @gather_rows
func.func @gather_rows(%x: tensor<16x8xf32>, %idx: tensor<4x1xi32>) -> tensor<4x8xf32> {
  // CHECK: hlo.gather %{{.*}}[%{{.*}}], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  %g = hlo.gather %x[%idx], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// Implicit trailing index vector dimension (index_vector_dim = indices rank), fields in
// another order, sorted indices, unsigned indices.
// CHECK-LABEL: func @gather_implicit_index_vector_sorted
func.func @gather_implicit_index_vector_sorted(%x: tensor<16x8xf32>, %idx: tensor<4xui32>) -> tensor<4x8xf32> {
  // CHECK: slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 indices_are_sorted : (tensor<16x8xf32>, tensor<4xui32>) -> tensor<4x8xf32>
  %g = hlo.gather %x[%idx], slice_sizes = [1, 8], index_vector_dim = 1, start_index_map = [0], collapsed_slice_dims = [0], offset_dims = [1] indices_are_sorted : (tensor<16x8xf32>, tensor<4xui32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// Batching dims: operand dim 0 pairs with indices dim 0; windows of 2x3 from dims 1 and
// 2 are kept, with the offset dims placed first in the result.
// CHECK-LABEL: func @gather_batching
func.func @gather_batching(%x: tensor<3x10x6xf32>, %idx: tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32> {
  // CHECK: slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  %g = hlo.gather %x[%idx], slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return %g : tensor<2x3x3x5xf32>
}

// -----

// Index vector in the leading dimension of the indices; no collapsed dims.
// CHECK-LABEL: func @gather_leading_index_vector
func.func @gather_leading_index_vector(%x: tensor<5x7xi8>, %idx: tensor<2x4xi32>) -> tensor<4x2x3xi8> {
  // CHECK: slice_sizes = [2, 3], offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 0 : (tensor<5x7xi8>, tensor<2x4xi32>) -> tensor<4x2x3xi8>
  %g = hlo.gather %x[%idx], slice_sizes = [2, 3], offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 0 : (tensor<5x7xi8>, tensor<2x4xi32>) -> tensor<4x2x3xi8>
  return %g : tensor<4x2x3xi8>
}

// -----

// CHECK-LABEL: func @scatter_rows_add
func.func @scatter_rows_add(%x: tensor<16x8xf32>, %idx: tensor<4x1xi32>, %u: tensor<4x8xf32>) -> tensor<16x8xf32> {
  // CHECK: hlo.scatter(%{{.*}}) indices(%{{.*}}) updates(%{{.*}}), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32> update {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: hlo.add %[[A]], %[[B]]
  %r = hlo.scatter(%x) indices(%idx) updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<16x8xf32>
}

// -----

// Two inputs, batching dims, both flags; update windows smaller than the input dims.
// CHECK-LABEL: func @scatter_variadic_batching_flags
func.func @scatter_variadic_batching_flags(%x: tensor<3x10xf32>, %y: tensor<3x10xi32>, %idx: tensor<3x4x1xi32>, %u: tensor<3x4x2xf32>, %v: tensor<3x4x2xi32>) -> (tensor<3x10xf32>, tensor<3x10xi32>) {
  // CHECK: hlo.scatter(%{{.*}}, %{{.*}}) indices(%{{.*}}) updates(%{{.*}}, %{{.*}}), update_window_dims = [2], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 indices_are_sorted unique_indices : (tensor<3x10xf32>, tensor<3x10xi32>, tensor<3x4x1xi32>, tensor<3x4x2xf32>, tensor<3x4x2xi32>) -> (tensor<3x10xf32>, tensor<3x10xi32>) update {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
  %r:2 = hlo.scatter(%x, %y) indices(%idx) updates(%u, %v), update_window_dims = [2], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 indices_are_sorted unique_indices : (tensor<3x10xf32>, tensor<3x10xi32>, tensor<3x4x1xi32>, tensor<3x4x2xf32>, tensor<3x4x2xi32>) -> (tensor<3x10xf32>, tensor<3x10xi32>) update {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    hlo.return %b, %bi : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<3x10xf32>, tensor<3x10xi32>
}

// -----

// Only unique_indices; implicit index vector dimension.
// CHECK-LABEL: func @scatter_unique_only
func.func @scatter_unique_only(%x: tensor<16xf32>, %idx: tensor<4xi32>, %u: tensor<4xf32>) -> tensor<16xf32> {
  // CHECK: inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 unique_indices : (tensor<16xf32>, tensor<4xi32>, tensor<4xf32>) -> tensor<16xf32>
  %r = hlo.scatter(%x) indices(%idx) updates(%u), inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 unique_indices : (tensor<16xf32>, tensor<4xi32>, tensor<4xf32>) -> tensor<16xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  }
  return %r : tensor<16xf32>
}
