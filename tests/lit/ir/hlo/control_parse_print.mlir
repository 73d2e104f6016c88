// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @sort_single
func.func @sort_single(%x: tensor<8xi1>) -> tensor<8xi1> {
  // CHECK: hlo.sort(%{{.*}}) dimension = 0 : tensor<8xi1> comparator {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i1>, %{{.*}}: tensor<i1>):
  // CHECK-NEXT: hlo.return %[[A]] : tensor<i1>
  %s = hlo.sort(%x) dimension = 0 : tensor<8xi1> comparator {
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    hlo.return %a : tensor<i1>
  }
  return %s : tensor<8xi1>
}

// -----

// Keys and values sorted together along dimension 1, stably.
// CHECK-LABEL: func @sort_stable_key_value
func.func @sort_stable_key_value(%k: tensor<2x8xf32>, %v: tensor<2x8xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>) {
  // CHECK: hlo.sort(%{{.*}}, %{{.*}}) dimension = 1 is_stable : tensor<2x8xf32>, tensor<2x8xi32> comparator {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
  // CHECK: hlo.constant dense<true> : tensor<i1>
  %s:2 = hlo.sort(%k, %v) dimension = 1 is_stable : tensor<2x8xf32>, tensor<2x8xi32> comparator {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  }
  return %s#0, %s#1 : tensor<2x8xf32>, tensor<2x8xi32>
}

// -----

// A loop carrying a counter and a vector; the condition uses a value from above.
// CHECK-LABEL: func @while_two_values
func.func @while_two_values(%i0: tensor<i32>, %x0: tensor<4xf32>, %p: tensor<i1>) -> (tensor<i32>, tensor<4xf32>) {
  // CHECK: %{{.*}}:2 = hlo.while(%[[I:.*]] = %{{.*}}, %[[X:.*]] = %{{.*}}) : tensor<i32>, tensor<4xf32>
  // CHECK-SAME: cond {
  // CHECK-NEXT: hlo.return %{{.*}} : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: %[[N:.*]] = hlo.add %[[I]], %[[I]] : tensor<i32>
  // CHECK-NEXT: %[[Y:.*]] = hlo.add %[[X]], %[[X]] : tensor<4xf32>
  // CHECK-NEXT: hlo.return %[[N]], %[[Y]] : tensor<i32>, tensor<4xf32>
  %r:2 = hlo.while(%i = %i0, %x = %x0) : tensor<i32>, tensor<4xf32>
  cond {
    hlo.return %p : tensor<i1>
  } do {
    %n = hlo.add %i, %i : tensor<i32>
    %y = hlo.add %x, %x : tensor<4xf32>
    hlo.return %n, %y : tensor<i32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<4xf32>
}

// -----

// A loop without state, with an extra attribute.
// CHECK-LABEL: func @while_no_state
func.func @while_no_state(%p: tensor<i1>) {
  // CHECK: hlo.while() attributes {note = "spin"} cond {
  // CHECK: } do {
  hlo.while() attributes {note = "spin"} cond {
    hlo.return %p : tensor<i1>
  } do {
    hlo.return
  }
  return
}

// -----

// CHECK-LABEL: func @case_two_branches
func.func @case_two_branches(%i: tensor<i32>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // CHECK: hlo.case %{{.*}} branches {
  // CHECK-NEXT: hlo.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: hlo.add
  // CHECK-NEXT: hlo.return %{{.*}} : tensor<f32>
  // CHECK-NEXT: } : (tensor<i32>) -> tensor<f32>
  %r = hlo.case %i branches {
    hlo.return %a : tensor<f32>
  }, {
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  } : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// One branch and no results.
// CHECK-LABEL: func @case_single_branch_no_results
func.func @case_single_branch_no_results(%i: tensor<i32>) {
  // CHECK: hlo.case %{{.*}} branches {
  // CHECK-NEXT: hlo.return
  // CHECK-NEXT: } : (tensor<i32>) -> ()
  hlo.case %i branches {
    hlo.return
  } : (tensor<i32>) -> ()
  return
}

// -----

// CHECK-LABEL: func @custom_call_all_attrs
func.func @custom_call_all_attrs(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: hlo.custom_call @my_kernel(%{{.*}}, %{{.*}}) {backend_config = "fast", has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.custom_call @my_kernel(%a, %b) {backend_config = "fast", has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Neither optional attribute; several results; a target name that needs quoting.
// CHECK-LABEL: func @custom_call_plain
func.func @custom_call_plain(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<2xi32>) {
  // CHECK: hlo.custom_call @"lib.topk-v2"(%{{.*}}) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<2xi32>)
  %r:2 = hlo.custom_call @"lib.topk-v2"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<2xi32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<2xi32>
}

// -----

// No operands, no results, only a side effect.
// CHECK-LABEL: func @custom_call_effect_only
func.func @custom_call_effect_only() {
  // CHECK: hlo.custom_call @barrier() {has_side_effect = true} : () -> ()
  hlo.custom_call @barrier() {has_side_effect = true} : () -> ()
  return
}

// -----

// CHECK-LABEL: func @top_k
func.func @top_k(%x: tensor<8x16xf32>, %i: tensor<5xui8>)
    -> (tensor<8x3xf32>, tensor<8x3xi32>, tensor<5xui8>, tensor<5xi32>) {
  // CHECK: %{{.*}}, %{{.*}} = hlo.top_k %{{.*}}, k = 3 : tensor<8x16xf32>
  %v, %j = hlo.top_k %x, k = 3 : tensor<8x16xf32>
  // CHECK: hlo.top_k %{{.*}}, k = 5 smallest : tensor<5xui8>
  %w, %k = hlo.top_k %i, k = 5 smallest : tensor<5xui8>
  return %v, %j, %w, %k : tensor<8x3xf32>, tensor<8x3xi32>, tensor<5xui8>, tensor<5xi32>
}

// -----

// CHECK-LABEL: func @optimization_barrier
func.func @optimization_barrier(%x: tensor<4xf32>, %s: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  // CHECK: %[[R:.*]]:2 = hlo.optimization_barrier %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<i32>
  %a, %b = hlo.optimization_barrier %x, %s : tensor<4xf32>, tensor<i32>
  // CHECK: hlo.optimization_barrier
  // CHECK-NOT: :
  hlo.optimization_barrier
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %a, %b : tensor<4xf32>, tensor<i32>
}
