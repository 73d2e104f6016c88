// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// A rank-0 input reduced over no dimension is valid.
func.func @reduce_scalar_ok(%x: tensor<f32>, %z: tensor<f32>) -> tensor<f32> {
  %r = hlo.reduce(%x) init(%z) dimensions = [] : (tensor<f32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @reduce_no_inputs() {
  // expected-error @+2 {{'hlo.reduce' op must have at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  "hlo.reduce"() <{dimensions = array<i64>, operandSegmentSizes = array<i32: 0, 0>}> ({
    "hlo.return"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @reduce_init_count(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{has 2 inputs but 1 init values}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:2 = hlo.reduce(%x, %y) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> (tensor<f32>, tensor<f32>) reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    hlo.return %a, %b : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @reduce_input_shapes(%x: tensor<4xf32>, %y: tensor<5xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{input 1 has type 'tensor<5xf32>', but all inputs must have the shape of input 0 ('tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %r:2 = hlo.reduce(%x, %y) init(%z, %z) dimensions = [0] : (tensor<4xf32>, tensor<5xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>) reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    hlo.return %a, %b : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @reduce_init_type(%x: tensor<4xf32>, %z: tensor<i32>) {
  // expected-error @+2 {{init value 0 must be 'tensor<f32>', got 'tensor<i32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<i32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_dim_out_of_range(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{dimensions: dimension 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce(%x) init(%z) dimensions = [2] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_dim_twice(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{dimensions: dimension 1 appears twice}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce(%x) init(%z) dimensions = [1, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_result_type(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{'hlo.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce(%x) init(%z) dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reducer_arg_count(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer must have 2 arguments, has 1}}
  %r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reducer_arg_type(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer argument 1 must be 'tensor<f32>', got 'tensor<4xf32>'}}
  %r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<4xf32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reducer_result_count(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer must return 1 values, returns 2}}
  %r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a, %b : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @reducer_result_type(%x: tensor<4xf32>, %z: tensor<f32>, %w: tensor<i32>) {
  // expected-error @+1 {{reducer result 0 must be 'tensor<f32>', got 'tensor<i32>'}}
  %r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %w : tensor<i32>
  }
  return
}

// -----

// A stride larger than the input and base dilation on a size-1 dimension are valid.
func.func @reduce_window_edges_ok(%x: tensor<3x1xf32>, %z: tensor<f32>) -> tensor<1x1xf32> {
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [1, 1], window_strides = [5, 1], base_dilations = [1, 3] : (tensor<3x1xf32>, tensor<f32>) -> tensor<1x1xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return %r : tensor<1x1xf32>
}

// -----

func.func @reduce_window_init_count(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{has 1 inputs but 2 init values}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z, %z) window_dimensions = [2] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_dims_size(%x: tensor<4x4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{window_dimensions must have 2 entries, has 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2] : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_dims_zero(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{window_dimensions must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_strides_zero(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{window_strides must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], window_strides = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_base_dilations_size(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{base_dilations must have 1 entries, has 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], base_dilations = [1, 1] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_window_dilations_zero(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{window_dilations must be at least 1, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], window_dilations = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_padding_shape(%x: tensor<4x4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{padding must have shape [2, 2], got [1, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2, 2], padding = [[1, 1]] : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_padding_negative(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{padding must be at least 0, got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], padding = [[-1, 0]] : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_result_type(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], window_strides = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_reducer(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{reducer must have 2 arguments, has 0}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
    hlo.return %z : tensor<f32>
  }
  return
}

// -----

func.func @window_clause_unknown(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{unknown clause 'lhs_dilation'}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], lhs_dilation = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @window_clause_twice(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{clause 'window_strides' appears twice}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], window_strides = [1], window_strides = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @window_padding_row(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{padding rows must be [low, high] pairs}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], padding = [[1, 1, 1]] : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @window_padding_not_integers(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{padding must be [[low, high], ...] or integer elements}}
  %r = hlo.reduce_window(%x) init(%z) window_dimensions = [2], padding = "none" : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @select_and_scatter_init_type(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<i32>, %p: tensor<i1>) {
  // expected-error @+1 {{init_value must be 'tensor<f32>', got 'tensor<i32>'}}
  %r = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [2], window_strides = [2] : (tensor<4xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @select_and_scatter_source_element_type(%x: tensor<4xf32>, %s: tensor<2xf16>, %z: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{source element type must be 'f32' like the operand's, got 'f16'}}
  %r = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [2], window_strides = [2] : (tensor<4xf32>, tensor<2xf16>, tensor<f32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @select_and_scatter_window_size(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{window_strides must have 1 entries, has 2}}
  %r = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [2], window_strides = [2, 2] : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @select_and_scatter_padding_negative(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{padding must be at least 0, got -2}}
  %r = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [2], padding = [[0, -2]] : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @select_and_scatter_source_shape(%x: tensor<4xf32>, %s: tensor<3xf32>, %z: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{source shape must be the window output shape [2], got [3]}}
  %r = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [2], window_strides = [2] : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @select_and_scatter_result_type(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [2], window_strides = [2] : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @select_region_returns_pred(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{select result 0 must be 'tensor<i1>', got 'tensor<f32>'}}
  %r = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [2], window_strides = [2] : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_region_args(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{scatter argument 0 must be 'tensor<f32>', got 'tensor<i1>'}}
  %r = hlo.select_and_scatter(%x, %s, %z) window_dimensions = [2], window_strides = [2] : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<i1>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  }
  return
}
