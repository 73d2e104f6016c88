// RUN: tessel-opt %s -split-input-file --tessel-import-stablehlo | FileCheck %s

// Elementwise ops take their hlo names; one type after `:` stands for all operands.
// CHECK-LABEL: func @elementwise
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK: hlo.add
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK: hlo.sub
  %1 = stablehlo.subtract %0, %b : tensor<4xf32>
  // CHECK: hlo.mul
  %2 = stablehlo.multiply %1, %b : tensor<4xf32>
  // CHECK: hlo.div
  %3 = stablehlo.divide %2, %b : tensor<4xf32>
  // CHECK: hlo.max
  %4 = stablehlo.maximum %3, %b : tensor<4xf32>
  // CHECK: hlo.pow
  %5 = stablehlo.power %4, %b : tensor<4xf32>
  // CHECK: hlo.neg
  %6 = stablehlo.negate %5 : tensor<4xf32>
  // CHECK: hlo.exp
  %7 = stablehlo.exponential %6 : tensor<4xf32>
  // CHECK: hlo.sin
  %8 = stablehlo.sine %7 : tensor<4xf32>
  // CHECK: hlo.round
  %9 = stablehlo.round_nearest_afz %8 : tensor<4xf32>
  // CHECK: hlo.convert %{{.*}} : (tensor<4xi32>) -> tensor<4xf32>
  %10 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  // CHECK: hlo.clamp
  %11 = stablehlo.clamp %a, %10, %b : tensor<4xf32>
  return %11 : tensor<4xf32>
}

// -----

// CHLO: erf is hlo.erf, square a product, erfc is 1 - erf.
// CHECK-LABEL: func @chlo
func.func @chlo(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[SQ:.*]] = hlo.mul %arg0, %arg0
  %0 = chlo.square %a : tensor<4xf32> -> tensor<4xf32>
  // CHECK: %[[ONE:.*]] = hlo.constant dense<1.000000e+00>
  // CHECK: %[[ERF:.*]] = hlo.erf %[[SQ]]
  // CHECK: hlo.sub %[[ONE]], %[[ERF]]
  %1 = chlo.erfc %0 : tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// The same CHLO ops in the generic form (what Tessel's StableHLO export writes).
// CHECK-LABEL: func @chlo_generic
func.func @chlo_generic(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>, tensor<2xi32>) {
  // CHECK: %[[SQ:.*]] = hlo.mul %arg0, %arg0
  %0 = "chlo.square"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %[[ERF:.*]] = hlo.erf %[[SQ]]
  %1 = "chlo.erf"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: hlo.top_k %[[ERF]], k = 2 :
  %2:2 = "chlo.top_k"(%1) <{k = 2 : i64}> : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  return %1, %2#0, %2#1 : tensor<4xf32>, tensor<2xf32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func @compare_select
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[P:.*]] = hlo.compare GT, %arg0, %arg1, FLOAT : tensor<4xf32>
  %p = stablehlo.compare GT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: hlo.select %[[P]], %arg0, %arg1 : tensor<4xi1>, tensor<4xf32>
  %s = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @dot_general
func.func @dot_general(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %n: tensor<4x5xf32>)
    -> (tensor<2x3x5xf32>, tensor<3x5xf32>) {
  // CHECK: hlo.dot_general %arg0, %arg1, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1]
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: hlo.dot_general %arg2, %arg3, lhs_contract = [1], rhs_contract = [0]
  %1 = stablehlo.dot %m, %n, precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0, %1 : tensor<2x3x5xf32>, tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func @convolution
func.func @convolution(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  // CHECK: hlo.convolution %arg0, %arg1, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window_strides = [2, 2], padding = {{\[\[}}1, 1], [1, 1]]
  // CHECK-NOT: precision_config
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}

// -----

// Both forms of reduce: `applies` one op, or a reducer region whose argument groups are
// (accumulator, element) per input.
// CHECK-LABEL: func @reduce
func.func @reduce(%x: tensor<8x4xf32>, %i: tensor<8x4xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: hlo.reduce(%arg0) init(%{{.*}}) dimensions = [1]
  // CHECK: hlo.add
  // CHECK: hlo.return
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
  // CHECK: hlo.reduce(%arg0, %arg1) init
  // CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<f32>, %[[A1:.*]]: tensor<i32>, %[[E0:.*]]: tensor<f32>, %[[E1:.*]]: tensor<i32>):
  // CHECK: hlo.compare GT, %[[A0]], %[[E0]]
  %1:2 = stablehlo.reduce(%x init: %zero), (%i init: %c) across dimensions = [1] : (tensor<8x4xf32>, tensor<8x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
   reducer(%a0: tensor<f32>, %e0: tensor<f32>) (%a1: tensor<i32>, %e1: tensor<i32>)  {
    %p = stablehlo.compare GT, %a0, %e0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %p, %a0, %e0 : tensor<i1>, tensor<f32>
    %w = stablehlo.select %p, %a1, %e1 : tensor<i1>, tensor<i32>
    stablehlo.return %v, %w : tensor<f32>, tensor<i32>
  }
  return %0, %1#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

// Shape ops written as hlo writes them, and transpose's `dims`.
// CHECK-LABEL: func @shapes
func.func @shapes(%x: tensor<4x6xf32>, %i: tensor<i32>) -> tensor<6x2xf32> {
  // CHECK: hlo.transpose %arg0, permutation = [1, 0]
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  // CHECK: hlo.slice
  %1 = stablehlo.slice %0 [0:6, 0:4:2] : (tensor<6x4xf32>) -> tensor<6x2xf32>
  // CHECK: hlo.dynamic_slice
  %2 = stablehlo.dynamic_slice %1, %i, %i, sizes = [6, 2] : (tensor<6x2xf32>, tensor<i32>, tensor<i32>) -> tensor<6x2xf32>
  // CHECK: hlo.broadcast_in_dim
  %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<6x2xf32>) -> tensor<6x2xf32>
  // CHECK: hlo.reverse
  %4 = stablehlo.reverse %3, dims = [0] : tensor<6x2xf32>
  return %4 : tensor<6x2xf32>
}

// -----

// Ops in MLIR's generic form: attributes become hlo's (flags are unit attributes).
// CHECK-LABEL: func @generic
func.func @generic(%t: tensor<16x8xf32>, %idx: tensor<4x1xi32>, %x: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>) {
  // CHECK: hlo.gather %arg0[%arg1], slice_sizes = [1, 8], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 :
  %0 = "stablehlo.gather"(%t, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  // CHECK: hlo.sort(%arg2) dimension = 0 is_stable
  %1 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: hlo.reduce_window(%arg2) init(%{{.*}}) window_dimensions = [2], window_strides = [2]
  %2 = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>
}

// -----

// stablehlo.if runs its first region when the predicate holds: hlo.case on 1 - p.
// CHECK-LABEL: func @if
func.func @if(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // CHECK: %[[NOT:.*]] = hlo.not %arg0
  // CHECK: %[[I:.*]] = hlo.convert %[[NOT]] : (tensor<i1>) -> tensor<i32>
  // CHECK: hlo.case %[[I]] branches
  // CHECK: hlo.return %arg1
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %b : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func @while
func.func @while(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: hlo.while
  // CHECK: cond
  // CHECK: do
  %0:2 = stablehlo.while(%iterArg = %x, %iterArg_0 = %c) : tensor<4xf32>, tensor<i32>
  cond {
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %iterArg_0, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %iterArg_0, %one : tensor<i32>
    %y = stablehlo.tanh %iterArg : tensor<4xf32>
    stablehlo.return %y, %n : tensor<4xf32>, tensor<i32>
  }
  return %0#0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @rng_top_k
func.func @rng_top_k(%s: tensor<2xui64>, %x: tensor<4x16xf32>) -> (tensor<4x8xui32>, tensor<4x3xi32>) {
  // CHECK: hlo.rng_bit_generator %arg0, algorithm = default
  %s2, %bits = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x8xui32>)
  // CHECK: hlo.top_k %arg1, k = 3
  %v, %i = chlo.top_k(%x, k = 3) : tensor<4x16xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
  return %bits, %i : tensor<4x8xui32>, tensor<4x3xi32>
}

// -----

// CHECK-LABEL: func @ids_and_precision
func.func @ids_and_precision(%x: tensor<4xf32>) -> (tensor<ui32>, tensor<ui32>, tensor<4xf32>) {
  // CHECK: tessel.partition_id : tensor<ui32>
  %0 = stablehlo.partition_id : tensor<ui32>
  // CHECK: hlo.replica_id : tensor<ui32>
  %1 = stablehlo.replica_id : tensor<ui32>
  // CHECK: hlo.reduce_precision %arg0 {exponent_bits = 5 : i32, mantissa_bits = 10 : i32}
  %2 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  return %0, %1, %2 : tensor<ui32>, tensor<ui32>, tensor<4xf32>
}
