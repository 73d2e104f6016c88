// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Ops whose result type is inferred (transpose, slice, dynamic_slice, pad, concatenate)
// check their rules while inferring; MLIR's InferTypeOpInterface verifier then adds
// "failed to infer returned types" after the specific error.

// Positive edge cases: zero-sized dimensions, a whole-dimension slice, size-0 dynamic
// slices, a full-size update and padding that cancels out.
func.func @edge_cases(%x: tensor<0x4xf32>, %y: tensor<3x4xf32>, %i: tensor<i32>,
                      %pv: tensor<f32>) -> tensor<3x4xf32> {
  %0 = hlo.broadcast_in_dim %x, dims = [0, 2] : (tensor<0x4xf32>) -> tensor<0x5x4xf32>
  %1 = hlo.reshape %0 : (tensor<0x5x4xf32>) -> tensor<0xf32>
  %2 = hlo.slice %y [0:3, 0:4:7] : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %3 = hlo.dynamic_slice %y, %i, %i, sizes = [0, 4]
      : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<0x4xf32>
  %4 = hlo.dynamic_update_slice %y, %y, %i, %i
      : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
  %5 = hlo.pad %y, %pv, low = [2, -1], high = [-2, 1], interior = [0, 0]
      : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %6 = hlo.concatenate %x, %y, dim = 0 : (tensor<0x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %6 : tensor<3x4xf32>
}

// -----

func.func @dynamic_shape(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'hlo.transpose' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.transpose %x, permutation = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

func.func @broadcast_dims_count(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op broadcast_dimensions must have 1 entries, has 2}}
  %0 = hlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @broadcast_dim_out_of_range(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op broadcast_dimensions: dimension 2 is out of range [0, 2)}}
  %0 = hlo.broadcast_in_dim %x, dims = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @broadcast_dim_repeated(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op broadcast_dimensions: dimension 0 appears twice}}
  %0 = hlo.broadcast_in_dim %x, dims = [0, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @broadcast_size_mismatch(%x: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op operand dimension 0 of size 3 cannot be broadcast to result dimension 1 of size 4}}
  %0 = hlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @broadcast_element_type(%x: tensor<4xf32>) -> tensor<2x4xf64> {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op requires the same element type for all operands and results}}
  %0 = hlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.reshape' op operand has 6 elements but result has 8}}
  %0 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'hlo.reshape' op requires the same element type for all operands and results}}
  %0 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

func.func @transpose_permutation_size(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'hlo.transpose' op permutation must have 2 entries, has 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.transpose %x, permutation = [1, 0, 2] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_permutation_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'hlo.transpose' op permutation: dimension 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.transpose %x, permutation = [2, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_permutation_repeated(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'hlo.transpose' op permutation: dimension 1 appears twice}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.transpose %x, permutation = [1, 1] : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @transpose_result_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'hlo.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.transpose %x, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_missing_limit(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected ':'}}
  %0 = hlo.slice %x [0] : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @slice_start_indices_size(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'hlo.slice' op start_indices must have 1 entries, has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "hlo.slice"(%x) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 8>,
                         strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @slice_limit_indices_size(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'hlo.slice' op limit_indices must have 1 entries, has 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "hlo.slice"(%x) <{start_indices = array<i64: 0>, limit_indices = array<i64>,
                         strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @slice_strides_size(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'hlo.slice' op strides must have 1 entries, has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "hlo.slice"(%x) <{start_indices = array<i64: 0>, limit_indices = array<i64: 8>,
                         strides = array<i64: 1, 1>}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @slice_rank_mismatch(%x: tensor<8x2xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'hlo.slice' op start_indices must have 2 entries, has 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.slice %x [0:8] : (tensor<8x2xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @slice_negative_start(%x: tensor<8xf32>) -> tensor<9xf32> {
  // expected-error @+2 {{'hlo.slice' op dimension 0: start index -1 is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.slice %x [-1:8] : (tensor<8xf32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// -----

func.func @slice_start_after_limit(%x: tensor<4x8xf32>) -> tensor<4x0xf32> {
  // expected-error @+2 {{'hlo.slice' op dimension 1: start index 5 exceeds limit index 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.slice %x [0:4, 5:3] : (tensor<4x8xf32>) -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// -----

func.func @slice_limit_past_end(%x: tensor<8xf32>) -> tensor<9xf32> {
  // expected-error @+2 {{'hlo.slice' op dimension 0: limit index 9 exceeds dimension size 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.slice %x [0:9] : (tensor<8xf32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// -----

func.func @slice_zero_stride(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'hlo.slice' op dimension 0: stride 0 must be at least 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.slice %x [0:8:0] : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @slice_result_type(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'hlo.slice' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.slice %x [1:8:3] : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dynamic_slice_index_count(%x: tensor<8x8xf32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'hlo.dynamic_slice' op expects 2 start indices (one per operand dimension), got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %x, %i, sizes = [2, 3] : (tensor<8x8xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dynamic_slice_index_types(%x: tensor<8x8xf32>, %i: tensor<i32>, %j: tensor<i64>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'hlo.dynamic_slice' op start index 1 has type 'tensor<i64>', expected 'tensor<i32>' like start index 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %x, %i, %j, sizes = [2, 3]
      : (tensor<8x8xf32>, tensor<i32>, tensor<i64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dynamic_slice_index_not_scalar(%x: tensor<8xf32>, %i: tensor<1xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op operand #1 must be variadic of 0D tensor of}}
  %0 = hlo.dynamic_slice %x, %i, sizes = [2] : (tensor<8xf32>, tensor<1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_index_float(%x: tensor<8xf32>, %i: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op operand #1 must be variadic of 0D tensor of}}
  %0 = hlo.dynamic_slice %x, %i, sizes = [2] : (tensor<8xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_sizes_count(%x: tensor<8xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  // expected-error @+2 {{'hlo.dynamic_slice' op slice_sizes must have 1 entries, has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %x, %i, sizes = [2, 1] : (tensor<8xf32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_size_too_large(%x: tensor<8xf32>, %i: tensor<i32>) -> tensor<9xf32> {
  // expected-error @+2 {{'hlo.dynamic_slice' op dimension 0: slice size 9 is out of range [0, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %x, %i, sizes = [9] : (tensor<8xf32>, tensor<i32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// -----

func.func @dynamic_slice_size_negative(%x: tensor<8xf32>, %i: tensor<i32>) -> tensor<0xf32> {
  // expected-error @+2 {{'hlo.dynamic_slice' op dimension 0: slice size -1 is out of range [0, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %x, %i, sizes = [-1] : (tensor<8xf32>, tensor<i32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// -----

func.func @dynamic_slice_result_type(%x: tensor<8xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  // expected-error @+2 {{'hlo.dynamic_slice' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %x, %i, sizes = [2] : (tensor<8xf32>, tensor<i32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @dynamic_update_slice_rank(%x: tensor<8x8xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op update rank 1 differs from operand rank 2}}
  %0 = hlo.dynamic_update_slice %x, %u, %i, %i
      : (tensor<8x8xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @dynamic_update_slice_element_type(%x: tensor<8xf32>, %u: tensor<2xf64>, %i: tensor<i32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op update element type 'f64' differs from operand element type 'f32'}}
  %0 = hlo.dynamic_update_slice %x, %u, %i : (tensor<8xf32>, tensor<2xf64>, tensor<i32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @dynamic_update_slice_too_large(%x: tensor<8x2xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op dimension 1: update size 3 exceeds operand size 2}}
  %0 = hlo.dynamic_update_slice %x, %u, %i, %i
      : (tensor<8x2xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

func.func @dynamic_update_slice_index_count(%x: tensor<8x8xf32>, %u: tensor<2x2xf32>, %i: tensor<i32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op expects 2 start indices (one per operand dimension), got 3}}
  %0 = hlo.dynamic_update_slice %x, %u, %i, %i, %i
      : (tensor<8x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @dynamic_update_slice_index_types(%x: tensor<8x8xf32>, %u: tensor<2x2xf32>, %i: tensor<ui32>,
                                            %j: tensor<i32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op start index 1 has type 'tensor<i32>', expected 'tensor<ui32>' like start index 0}}
  %0 = hlo.dynamic_update_slice %x, %u, %i, %j
      : (tensor<8x8xf32>, tensor<2x2xf32>, tensor<ui32>, tensor<i32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @dynamic_update_slice_result_type(%x: tensor<8xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<9xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op failed to verify that all of {operand, result} have same type}}
  %0 = hlo.dynamic_update_slice %x, %u, %i : (tensor<8xf32>, tensor<2xf32>, tensor<i32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// -----

func.func @pad_value_element_type(%x: tensor<4xf32>, %pv: tensor<f64>) -> tensor<4xf32> {
  // expected-error @+2 {{'hlo.pad' op padding value element type 'f64' differs from operand element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %x, %pv, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<f64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_value_not_scalar(%x: tensor<4xf32>, %pv: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.pad' op operand #1 must be 0D tensor of}}
  %0 = hlo.pad %x, %pv, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_low_size(%x: tensor<4xf32>, %pv: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+2 {{'hlo.pad' op edge_padding_low must have 1 entries, has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %x, %pv, low = [0, 0], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_high_size(%x: tensor<4xf32>, %pv: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+2 {{'hlo.pad' op edge_padding_high must have 1 entries, has 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %x, %pv, low = [0], high = [], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_interior_size(%x: tensor<4xf32>, %pv: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+2 {{'hlo.pad' op interior_padding must have 1 entries, has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %x, %pv, low = [0], high = [0], interior = [0, 0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_negative_interior(%x: tensor<4xf32>, %pv: tensor<f32>) -> tensor<1xf32> {
  // expected-error @+2 {{'hlo.pad' op interior_padding must be at least 0, got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %x, %pv, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @pad_negative_result(%x: tensor<2x4xf32>, %pv: tensor<f32>) -> tensor<2x0xf32> {
  // expected-error @+2 {{'hlo.pad' op dimension 1: result size -1 is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %x, %pv, low = [0, -3], high = [0, -2], interior = [0, 0]
      : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

func.func @pad_overflow(%x: tensor<4xf32>, %pv: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+2 {{'hlo.pad' op dimension 0: result size overflows}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %x, %pv, low = [0], high = [0], interior = [4611686018427387904]
      : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_result_type(%x: tensor<2x3xf32>, %pv: tensor<f32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'hlo.pad' op inferred type(s) 'tensor<5x4xf32>' are incompatible with return type(s) of operation 'tensor<5x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %x, %pv, low = [1, 0], high = [2, -1], interior = [0, 1]
      : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @concatenate_no_inputs() -> tensor<2xf32> {
  // expected-error @+2 {{'hlo.concatenate' op requires at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "hlo.concatenate"() <{dimension = 0 : i64}> : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @concatenate_dimension_range(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'hlo.concatenate' op dimension: dimension 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate %a, %a, dim = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @concatenate_dimension_negative(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'hlo.concatenate' op dimension: dimension -1 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate %a, dim = -1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @concatenate_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'hlo.concatenate' op input 1 has rank 1, expected 2 like input 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @concatenate_element_type(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'hlo.concatenate' op input 1 has element type 'i32', expected 'f32' like input 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concatenate_other_dimension(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>,
                                       %c: tensor<2x4xf32>) -> tensor<6x3xf32> {
  // expected-error @+2 {{'hlo.concatenate' op input 2 has size 4 in dimension 1, expected 3 like input 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate %a, %b, %c, dim = 0
      : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// -----

func.func @concatenate_overflow(%a: tensor<4611686018427387904xi1>) -> tensor<1xi1> {
  // expected-error @+2 {{'hlo.concatenate' op result size in dimension 0 overflows}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate %a, %a, dim = 0
      : (tensor<4611686018427387904xi1>, tensor<4611686018427387904xi1>) -> tensor<1xi1>
  return %0 : tensor<1xi1>
}

// -----

func.func @concatenate_result_type(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x4xf32> {
  // expected-error @+2 {{'hlo.concatenate' op inferred type(s) 'tensor<6x3xf32>' are incompatible with return type(s) of operation 'tensor<6x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

func.func @reverse_dimension_range(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'hlo.reverse' op dimensions: dimension 2 is out of range [0, 2)}}
  %0 = hlo.reverse %x, dims = [2] : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @reverse_dimension_repeated(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'hlo.reverse' op dimensions: dimension 1 appears twice}}
  %0 = hlo.reverse %x, dims = [1, 0, 1] : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
