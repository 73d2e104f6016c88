// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Sorting along the last dimension of a rank-3 tensor with a comparator from a constant.
func.func @sort_last_dim_ok(%x: tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16> {
  %s = hlo.sort(%x) dimension = 2 : tensor<2x3x4xbf16> comparator {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %t = hlo.constant dense<false> : tensor<i1>
    hlo.return %t : tensor<i1>
  }
  return %s : tensor<2x3x4xbf16>
}

// -----

func.func @sort_no_inputs() {
  // expected-error @+2 {{'hlo.sort' op must have at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  "hlo.sort"() <{dimension = 0 : i64}> ({
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  }) : () -> ()
  return
}

// -----

func.func @sort_input_shapes(%k: tensor<8xf32>, %v: tensor<9xi32>) {
  // expected-error @+1 {{input 1 has type 'tensor<9xi32>', but all inputs must have the shape of input 0 ('tensor<8xf32>')}}
  %s:2 = hlo.sort(%k, %v) dimension = 0 : tensor<8xf32>, tensor<9xi32> comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  }
  return
}

// -----

func.func @sort_dimension_range(%x: tensor<8xf32>) {
  // expected-error @+1 {{dimension 1 is out of range [0, 1)}}
  %s = hlo.sort(%x) dimension = 1 : tensor<8xf32> comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  }
  return
}

// -----

func.func @sort_result_type(%x: tensor<8xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<8xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %s = "hlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  }) : (tensor<8xf32>) -> tensor<8xf16>
  return
}

// -----

// The comparator takes the pair of each input in turn: (f32, f32, i32, i32).
func.func @sort_comparator_args(%k: tensor<8xf32>, %v: tensor<8xi32>) {
  // expected-error @+1 {{comparator argument 1 must be 'tensor<f32>', got 'tensor<i32>'}}
  %s:2 = hlo.sort(%k, %v) dimension = 0 : tensor<8xf32>, tensor<8xi32> comparator {
  ^bb0(%a: tensor<f32>, %c: tensor<i32>, %b: tensor<f32>, %d: tensor<i32>):
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  }
  return
}

// -----

func.func @sort_comparator_result(%x: tensor<8xf32>) {
  // expected-error @+1 {{comparator result 0 must be 'tensor<i1>', got 'tensor<f32>'}}
  %s = hlo.sort(%x) dimension = 0 : tensor<8xf32> comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @while_cond_result(%x0: tensor<4xf32>) {
  // expected-error @+1 {{cond result 0 must be 'tensor<i1>', got 'tensor<4xf32>'}}
  %r = hlo.while(%x = %x0) : tensor<4xf32>
  cond {
    hlo.return %x : tensor<4xf32>
  } do {
    hlo.return %x : tensor<4xf32>
  }
  return
}

// -----

func.func @while_cond_args(%x0: tensor<4xf32>, %p: tensor<i1>) {
  // expected-error @+1 {{cond argument 0 must be 'tensor<4xf32>', got 'tensor<f32>'}}
  %r = "hlo.while"(%x0) ({
  ^bb0(%x: tensor<f32>):
    hlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @while_body_results(%x0: tensor<4xf32>, %p: tensor<i1>) {
  // expected-error @+1 {{body must return 1 values, returns 0}}
  %r = hlo.while(%x = %x0) : tensor<4xf32>
  cond {
    hlo.return %p : tensor<i1>
  } do {
    hlo.return
  }
  return
}

// -----

func.func @while_result_type(%x0: tensor<4xf32>, %p: tensor<i1>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xi32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %r = "hlo.while"(%x0) ({
  ^bb0(%x: tensor<4xf32>):
    hlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @while_type_count(%x0: tensor<4xf32>, %y0: tensor<4xf32>, %p: tensor<i1>) {
  // expected-error @+1 {{expected 2 types, got 1}}
  %r:2 = hlo.while(%x = %x0, %y = %y0) : tensor<4xf32>
  cond {
    hlo.return %p : tensor<i1>
  } do {
    hlo.return %x, %y : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

// The index must be a rank-0 i32 tensor.
func.func @case_index_type(%i: tensor<i64>) {
  // expected-error @+1 {{operand #0 must be 0D tensor of 32-bit signless integer values}}
  hlo.case %i branches {
    hlo.return
  } : (tensor<i64>) -> ()
  return
}

// -----

func.func @case_no_branches(%i: tensor<i32>) {
  // expected-error @+1 {{'hlo.case' op must have at least one branch}}
  "hlo.case"(%i) : (tensor<i32>) -> ()
  return
}

// -----

func.func @case_branch_args(%i: tensor<i32>, %a: tensor<f32>) {
  // expected-error @+1 {{branch 1 must have 0 arguments, has 1}}
  %r = hlo.case %i branches {
    hlo.return %a : tensor<f32>
  }, {
  ^bb0(%x: tensor<f32>):
    hlo.return %x : tensor<f32>
  } : (tensor<i32>) -> tensor<f32>
  return
}

// -----

func.func @case_branch_results(%i: tensor<i32>, %a: tensor<f32>, %b: tensor<i32>) {
  // expected-error @+1 {{branch 0 result 0 must be 'tensor<f32>', got 'tensor<i32>'}}
  %r = hlo.case %i branches {
    hlo.return %b : tensor<i32>
  } : (tensor<i32>) -> tensor<f32>
  return
}

// -----

func.func @custom_call_target_name(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected valid '@'-identifier for symbol name}}
  %r = hlo.custom_call "kernel"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_call_side_effect_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{attribute 'has_side_effect' failed to satisfy constraint: bool attribute}}
  %r = hlo.custom_call @kernel(%a) {has_side_effect = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @top_k_too_many(%x: tensor<8x4xf32>) -> (tensor<8x5xf32>, tensor<8x5xi32>) {
  // expected-error @+1 {{k = 5 must be in [0, 4], the size of the operand's minor dimension}}
  %v, %i = hlo.top_k %x, k = 5 : tensor<8x4xf32>
  return %v, %i : tensor<8x5xf32>, tensor<8x5xi32>
}

// -----

func.func @top_k_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{operand must have rank at least 1}}
  %v, %i = hlo.top_k %x, k = 1 : tensor<f32>
  return
}

// -----

func.func @top_k_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{must be statically shaped tensor of}}
  %v, %i = hlo.top_k %x, k = 1 : tensor<4xi1>
  return
}
