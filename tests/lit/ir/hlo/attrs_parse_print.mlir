// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @dot_all_fields
// CHECK-SAME: dims = #hlo.dot<lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1]>
func.func @dot_all_fields() attributes {dims = #hlo.dot<lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1]>} {
  return
}

// -----

// Empty lists are left out when printed; fields may come in any order.
// CHECK-LABEL: func @dot_some_fields
// CHECK-SAME: dims = #hlo.dot<lhs_contract = [1, 0], rhs_contract = [0, 1]>
func.func @dot_some_fields() attributes {dims = #hlo.dot<rhs_contract = [0, 1], lhs_batch = [], lhs_contract = [1, 0]>} {
  return
}

// -----

// CHECK-LABEL: func @dot_no_fields
// CHECK-SAME: dims = #hlo.dot<>
func.func @dot_no_fields() attributes {dims = #hlo.dot<>} {
  return
}

// -----

// CHECK-LABEL: func @conv_nhwc
// CHECK-SAME: dims = #hlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
func.func @conv_nhwc() attributes {dims = #hlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>} {
  return
}

// -----

// Spatial dimensions out of order and named dimensions anywhere.
// CHECK-LABEL: func @conv_permuted
// CHECK-SAME: dims = #hlo.conv<[f, 1, b, 0]x[o, 1, 0, i]->[1, f, 0, b]>
func.func @conv_permuted() attributes {dims = #hlo.conv<[f, 1, b, 0]x[o, 1, 0, i]->[1, f, 0, b]>} {
  return
}

// -----

// CHECK-LABEL: func @conv_no_spatial
// CHECK-SAME: dims = #hlo.conv<[b, f]x[i, o]->[f, b]>
func.func @conv_no_spatial() attributes {dims = #hlo.conv<[b, f]x[i, o]->[f, b]>} {
  return
}

// -----

// CHECK-LABEL: func @gather_all_fields
// CHECK-SAME: dims = #hlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>
func.func @gather_all_fields() attributes {dims = #hlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>} {
  return
}

// -----

// Only the required index_vector_dim.
// CHECK-LABEL: func @gather_minimal
// CHECK-SAME: dims = #hlo.gather<index_vector_dim = 0>
func.func @gather_minimal() attributes {dims = #hlo.gather<index_vector_dim = 0>} {
  return
}

// -----

// CHECK-LABEL: func @scatter_all_fields
// CHECK-SAME: dims = #hlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>
func.func @scatter_all_fields() attributes {dims = #hlo.scatter<scatter_dims_to_operand_dims = [1], index_vector_dim = 2, update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0]>} {
  return
}

// -----

// CHECK-LABEL: func @scatter_minimal
// CHECK-SAME: dims = #hlo.scatter<index_vector_dim = 1>
func.func @scatter_minimal() attributes {dims = #hlo.scatter<index_vector_dim = 1>} {
  return
}
