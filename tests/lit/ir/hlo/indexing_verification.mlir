// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Zero-sized slices and a rank-0 start index (one implicit index vector) are valid.
func.func @gather_edges_ok(%x: tensor<16x8xf32>, %i: tensor<i32>) -> tensor<0x8xf32> {
  %g = hlo.gather %x[%i], slice_sizes = [0, 8], offset_dims = [0, 1], start_index_map = [0], index_vector_dim = 0 : (tensor<16x8xf32>, tensor<i32>) -> tensor<0x8xf32>
  return %g : tensor<0x8xf32>
}

// -----

func.func @gather_index_vector_dim_range(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+2 {{'hlo.gather' op index_vector_dim 3 is out of range [0, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gather_start_index_map_range(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+2 {{start_index_map: dimension 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [2], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gather_start_index_map_size(%x: tensor<16x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+2 {{start_index_map must have one entry per index vector element (2), has 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x2xi32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gather_operand_batching_unsorted(%x: tensor<3x10x6xf32>, %i: tensor<3x10x1xi64>) {
  // expected-error @+2 {{operand_batching_dims must be sorted and unique, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 1, 6], offset_dims = [2], operand_batching_dims = [1, 0], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x10x1xi64>) -> tensor<3x10x6xf32>
  return
}

// -----

func.func @gather_operand_batching_range(%x: tensor<3x10x6xf32>, %i: tensor<3x5x2xi64>) {
  // expected-error @+2 {{operand_batching_dims: dimension 3 is out of range [0, 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [3], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return
}

// -----

func.func @gather_start_index_map_batching(%x: tensor<3x10x6xf32>, %i: tensor<3x5x2xi64>) {
  // expected-error @+2 {{dimension 0 is in both start_index_map and operand_batching_dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [0, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return
}

// -----

func.func @gather_indices_batching_range(%x: tensor<3x10x6xf32>, %i: tensor<3x5x2xi64>) {
  // expected-error @+2 {{start_indices_batching_dims: dimension 5 is out of range [0, 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_indices_batching_dims = [5], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return
}

// -----

func.func @gather_indices_batching_index_vector(%x: tensor<3x10x6xf32>, %i: tensor<3x5x2xi64>) {
  // expected-error @+2 {{start_indices_batching_dims must not contain index_vector_dim 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_indices_batching_dims = [2], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return
}

// -----

func.func @gather_batching_counts(%x: tensor<3x10x6xf32>, %i: tensor<3x5x2xi64>) {
  // expected-error @+2 {{operand_batching_dims and start_indices_batching_dims must have the same size, got 1 and 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return
}

// -----

func.func @gather_batching_sizes(%x: tensor<3x10x6xf32>, %i: tensor<4x5x2xi64>) {
  // expected-error @+2 {{batching dimension 0 has size 3 in the operand but 4 in the indices}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<4x5x2xi64>) -> tensor<2x3x4x5xf32>
  return
}

// -----

func.func @gather_collapsed_unsorted(%x: tensor<16x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+2 {{collapsed_slice_dims must be sorted and unique, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 1], collapsed_slice_dims = [1, 0], start_index_map = [0, 1], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_collapsed_range(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+2 {{collapsed_slice_dims: dimension 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [2], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gather_collapsed_batching(%x: tensor<3x10x6xf32>, %i: tensor<3x5x2xi64>) {
  // expected-error @+2 {{dimension 0 is in both collapsed_slice_dims and operand_batching_dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 2, 3], offset_dims = [0, 1], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return
}

// -----

func.func @gather_slice_sizes_size(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+2 {{slice_sizes must have 2 entries, has 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gather_slice_size_range(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+2 {{slice_sizes[1] = 9 is out of range [0, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 9], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @gather_collapsed_slice_size(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+2 {{slice_sizes[0] = 2 must be at most 1 for a collapsed or batching dimension}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [2, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gather_batching_slice_size(%x: tensor<3x10x6xf32>, %i: tensor<3x5x2xi64>) {
  // expected-error @+2 {{slice_sizes[0] = 3 must be at most 1 for a collapsed or batching dimension}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [3, 2, 3], offset_dims = [0, 1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 2 : (tensor<3x10x6xf32>, tensor<3x5x2xi64>) -> tensor<2x3x3x5xf32>
  return
}

// -----

func.func @gather_offset_dims_count(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+2 {{offset_dims must have 1 entries (operand rank minus collapsed and batching dimensions), has 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 8], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_offset_dims_unsorted(%x: tensor<5x7xi8>, %i: tensor<4x2xi32>) {
  // expected-error @+2 {{offset_dims must be sorted and unique, got [2, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [2, 3], offset_dims = [2, 1], start_index_map = [0, 1], index_vector_dim = 1 : (tensor<5x7xi8>, tensor<4x2xi32>) -> tensor<4x2x3xi8>
  return
}

// -----

func.func @gather_offset_dims_range(%x: tensor<5x7xi8>, %i: tensor<4x2xi32>) {
  // expected-error @+2 {{offset_dims: dimension 5 is out of range [0, 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [2, 3], offset_dims = [1, 5], start_index_map = [0, 1], index_vector_dim = 1 : (tensor<5x7xi8>, tensor<4x2xi32>) -> tensor<4x2x3xi8>
  return
}

// -----

func.func @gather_result_type(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<8x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %g = hlo.gather %x[%i], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @scatter_no_inputs(%i: tensor<4x1xi32>) {
  // expected-error @+2 {{'hlo.scatter' op must have at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  "hlo.scatter"(%i) <{operandSegmentSizes = array<i32: 0, 1, 0>, scatter_dimension_numbers = #hlo.scatter<index_vector_dim = 1>}> ({
    "hlo.return"() : () -> ()
  }) : (tensor<4x1xi32>) -> ()
  return
}

// -----

func.func @scatter_update_count(%x0: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x8xf32>, %u1: tensor<4x8xf32>) {
  // expected-error @+2 {{has 1 inputs but 2 updates}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0, %u1), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_input_shapes(%x0: tensor<16x8xf32>, %x1: tensor<16x9xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x8xf32>, %u1: tensor<4x8xf32>) {
  // expected-error @+2 {{input 1 has type 'tensor<16x9xf32>', but all inputs must have the shape of input 0 ('tensor<16x8xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:2 = hlo.scatter(%x0, %x1) indices(%i) updates(%u0, %u1), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<16x9xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<16x9xf32>) update {
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
    hlo.return %b0, %b1 : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_shapes(%x0: tensor<16x8xf32>, %x1: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x8xf32>, %u1: tensor<4x7xf32>) {
  // expected-error @+2 {{update 1 has type 'tensor<4x7xf32>', but all updates must have the shape of update 0 ('tensor<4x8xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:2 = hlo.scatter(%x0, %x1) indices(%i) updates(%u0, %u1), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x7xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) update {
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
    hlo.return %b0, %b1 : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_element_type(%x0: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x8xi32>) {
  // expected-error @+2 {{update 0 must have element type 'f32' like input 0, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xi32>) -> tensor<16x8xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_dims_to_operand_size(%x0: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x8xf32>) {
  // expected-error @+2 {{scatter_dims_to_operand_dims must have one entry per index vector element (1), has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_inserted_unsorted(%x0: tensor<16x8xf32>, %i: tensor<4x2xi32>, %u0: tensor<4xf32>) {
  // expected-error @+2 {{inserted_window_dims must be sorted and unique, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), inserted_window_dims = [1, 0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x2xi32>, tensor<4xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_window_count(%x0: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x8xf32>) {
  // expected-error @+2 {{update_window_dims must have 1 entries (input rank minus inserted and batching dimensions), has 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_updates_rank(%x0: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x8x1xf32>) {
  // expected-error @+2 {{updates must have rank 2 (update window dimensions plus index batch dimensions), got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8x1xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_window_unsorted(%x0: tensor<5x7xf32>, %i: tensor<4x2xi32>, %u0: tensor<4x2x3xf32>) {
  // expected-error @+2 {{update_window_dims must be sorted and unique, got [2, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), update_window_dims = [2, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 : (tensor<5x7xf32>, tensor<4x2xi32>, tensor<4x2x3xf32>) -> tensor<5x7xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_window_range(%x0: tensor<5x7xf32>, %i: tensor<4x2xi32>, %u0: tensor<4x2x3xf32>) {
  // expected-error @+2 {{update_window_dims: dimension 3 is out of range [0, 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), update_window_dims = [1, 3], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 : (tensor<5x7xf32>, tensor<4x2xi32>, tensor<4x2x3xf32>) -> tensor<5x7xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_window_size(%x0: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x9xf32>) {
  // expected-error @+2 {{updates dimension 1 has size 9, larger than input dimension 1 (size 8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x9xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_batch_size(%x0: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<5x8xf32>) {
  // expected-error @+2 {{updates dimension 0 has size 5, but the matching scatter_indices dimension has size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<5x8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_result_type(%x0: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u0: tensor<4x8xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<16x8xf32>' are incompatible with return type(s) of operation 'tensor<16x8xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.scatter(%x0) indices(%i) updates(%u0), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf16> update {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
    hlo.return %b0 : tensor<f32>
  }
  return
}

// -----

func.func @scatter_region_results(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>) {
  // expected-error @+1 {{update_computation must return 1 values, returns 0}}
  %r = hlo.scatter(%x) indices(%i) updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return
  }
  return
}

// -----

// A rank-0 index (an implicit index vector of one) and an update window that covers a
// whole row are valid.
func.func @scatter_scalar_index_ok(%x: tensor<16x8xf32>, %i: tensor<i32>, %u: tensor<8xf32>) -> tensor<16x8xf32> {
  %r = hlo.scatter(%x) indices(%i) updates(%u), update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0 : (tensor<16x8xf32>, tensor<i32>, tensor<8xf32>) -> tensor<16x8xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  }
  return %r : tensor<16x8xf32>
}
