// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=2]>

// Elementwise ops run on the local shard; nothing moves.
// CHECK-LABEL: func @elementwise
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xf32>
// CHECK-NOT: tessel.{{(all_|partition_id)}}
// CHECK: hlo.exp %[[A]] : tensor<4x3xf32>
// CHECK-NOT: tessel.{{(all_|partition_id)}}
// CHECK: return {{.*}} : tensor<4x3xf32>
func.func @elementwise(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.exp %a {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// A split contracting dimension: local dot, then an all_reduce over the axis.
// CHECK-LABEL: func @dot_contracting
// CHECK: %[[D:.*]] = hlo.dot_general {{.*}} : (tensor<2x2xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
// CHECK: tessel.all_reduce %[[D]] over @mesh ["x"] kind = sum : tensor<2x6xf32>
func.func @dot_contracting(
    %a: tensor<2x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
    %b: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<2x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}]>]>}
      : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=3]>

// Uneven contracting split (7 over 3): the padding of both operands is zeroed with a
// valid-length table before the local dot.
// CHECK-LABEL: func @dot_uneven_contracting
// CHECK: %[[ID:.*]] = hlo.convert {{.*}} : (tensor<ui32>) -> tensor<i32>
// CHECK: hlo.constant dense<[3, 3, 1]> : tensor<3xi32>
// CHECK: hlo.iota dim = 1 : tensor<4x3xi32>
// CHECK: hlo.compare LT
// CHECK: hlo.select
// CHECK: hlo.iota dim = 0 : tensor<3x5xi32>
// CHECK: hlo.select
// CHECK: hlo.dot_general {{.*}} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// CHECK: tessel.all_reduce {{.*}} over @mesh ["x"] kind = sum : tensor<4x5xf32>
func.func @dot_uneven_contracting(
    %a: tensor<4x7xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
    %b: tensor<7x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}]>]>}
      : (tensor<4x7xf32>, tensor<7x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Both non-contracting dims split: operands are cut to match, no reduction.
// CHECK-LABEL: func @dot_non_contracting
// CHECK-SAME: -> (tensor<4x3xf32>
// CHECK: hlo.dot_general {{.*}} : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: tessel.all_reduce
func.func @dot_non_contracting(
    %a: tensor<8x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
    %b: tensor<5x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>})
    -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
      : (tensor<8x5xf32>, tensor<5x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// One value on both sides of a dot, each side wanting its own layout: the lhs keeps its
// column split (a batch of the result), the rhs is gathered whole.
// CHECK-LABEL: func @dot_same_value_twice
// CHECK-SAME: (%[[A:.*]]: tensor<4x2xf32>
// CHECK: %[[G:.*]] = tessel.all_gather %[[A]] over @mesh ["x"] dim = 1 : (tensor<4x2xf32>) -> tensor<4x4xf32>
// CHECK: hlo.dot_general %[[A]], %[[G]], lhs_contract = [0], rhs_contract = [0] : (tensor<4x2xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
func.func @dot_same_value_twice(%a: tensor<4x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.dot_general %a, %a, lhs_contract = [0], rhs_contract = [0]
      {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
      : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Each pair of an optimization_barrier keeps its own layout, even where both use "x".
// CHECK-LABEL: func @optimization_barrier_pairs
func.func @optimization_barrier_pairs(
    %a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>},
    %b: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x4xf32>, tensor<4x6xf32>) {
  // CHECK-NOT: tessel.all_gather
  // CHECK: hlo.optimization_barrier %arg0, %arg1 : tensor<4x2xf32>, tensor<2x6xf32>
  %x, %y = hlo.optimization_barrier %a, %b : tensor<8x4xf32>, tensor<4x6xf32>
  return %x, %y : tensor<8x4xf32>, tensor<4x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// The local op keeps the global op's inherent attributes (the permutation) and its other
// discardable attributes; only the sharding annotation is dropped.
// CHECK-LABEL: func @keeps_attributes
// CHECK: hlo.transpose %{{.*}}, permutation = [1, 0] {test.kept = 7 : i64} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK-NOT: tessel.sharding_per_value
// CHECK: return
func.func @keeps_attributes(%a: tensor<3x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = hlo.transpose %a, permutation = [1, 0]
      {test.kept = 7 : i64, tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
      : (tensor<3x8xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}
