// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown field 'lhs_batchx'}}
func.func @dot_unknown_field() attributes {dims = #hlo.dot<lhs_batchx = [0]>} {
  return
}

// -----

// expected-error @+1 {{field 'lhs_batch' appears twice}}
func.func @dot_field_twice() attributes {dims = #hlo.dot<lhs_batch = [0], lhs_batch = [1]>} {
  return
}

// -----

// expected-error @+1 {{missing field 'index_vector_dim'}}
func.func @gather_missing_index_vector_dim() attributes {dims = #hlo.gather<offset_dims = [1]>} {
  return
}

// -----

// expected-error @+1 {{missing field 'index_vector_dim'}}
func.func @scatter_missing_index_vector_dim() attributes {dims = #hlo.scatter<update_window_dims = [1]>} {
  return
}

// -----

// expected-error @+1 {{spatial dimension -1 is negative}}
func.func @conv_negative_spatial() attributes {dims = #hlo.conv<[b, -1, f]x[0, i, o]->[b, 0, f]>} {
  return
}

// -----

// expected-error @+1 {{spatial dimension 0 appears twice}}
func.func @conv_spatial_twice() attributes {dims = #hlo.conv<[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]>} {
  return
}

// -----

// expected-error @+1 {{expected 'i', 'o' or a spatial dimension, got 'b'}}
func.func @conv_wrong_letter() attributes {dims = #hlo.conv<[b, 0, f]x[0, b, o]->[b, 0, f]>} {
  return
}

// -----

// expected-error @+1 {{'b' appears twice}}
func.func @conv_letter_twice() attributes {dims = #hlo.conv<[b, 0, b]x[0, i, o]->[b, 0, f]>} {
  return
}

// -----

// expected-error @+1 {{dimension list must name 'b' and 'f'}}
func.func @conv_missing_letter() attributes {dims = #hlo.conv<[b, 0, f]x[0, i, o]->[b, 0]>} {
  return
}

// -----

// expected-error @+1 {{spatial dimension 0 is missing}}
func.func @conv_missing_spatial() attributes {dims = #hlo.conv<[b, 1, f]x[0, i, o]->[b, 0, f]>} {
  return
}

// -----

// expected-error @+1 {{input, kernel and output must have the same number of spatial dimensions, got 1, 2 and 1}}
func.func @conv_spatial_count() attributes {dims = #hlo.conv<[b, 0, f]x[0, 1, i, o]->[b, 0, f]>} {
  return
}
