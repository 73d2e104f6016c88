// RUN: tessel-opt %s -split-input-file --tessel-partition -verify-diagnostics | FileCheck %s

tessel.mesh @mesh = <["x"=4]>

// Split to replicated: all_gather.
// CHECK-LABEL: func @gather
// CHECK: tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<2x3xf32>) -> tensor<8x3xf32>
func.func @gather(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  return %a : tensor<8x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Replicated to split: a local dynamic_slice at an offset read from a table by
// partition_id.
// CHECK-LABEL: func @slice
// CHECK: tessel.partition_id
// CHECK: hlo.constant dense<[0, 2, 4, 6]> : tensor<4xi32>
// CHECK: hlo.dynamic_slice %arg0, {{.*}} sizes = [2, 3] : (tensor<8x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
func.func @slice(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  return %a : tensor<8x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Uneven gather: 4 shards of 2 make 8 rows; the padding row is sliced off.
// CHECK-LABEL: func @uneven_gather
// CHECK: tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<2x3xf32>) -> tensor<8x3xf32>
// CHECK: hlo.slice {{.*}} [0:7, 0:3] : (tensor<8x3xf32>) -> tensor<7x3xf32>
func.func @uneven_gather(%a: tensor<7x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<7x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  return %a : tensor<7x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Uneven slice: pad 7 rows to 8 first, since dynamic_slice clamps its offsets.
// CHECK-LABEL: func @uneven_slice
// CHECK: hlo.pad %arg0, {{.*}} high = [1, 0]
// CHECK: hlo.dynamic_slice {{.*}} sizes = [2, 3]
func.func @uneven_slice(%a: tensor<7x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<7x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  return %a : tensor<7x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Partial gather on an even dim: only the minor axis is gathered.
// CHECK-LABEL: func @partial_gather
// CHECK: tessel.all_gather %arg0 over @mesh ["y"] dim = 0 : (tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: tessel.all_gather
func.func @partial_gather(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  return %a : tensor<8x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Unreduced to replicated: all_reduce.
// CHECK-LABEL: func @unreduced
// CHECK: tessel.all_reduce %arg0 over @mesh ["x"] kind = sum : tensor<4xf32>
func.func @unreduced(%a: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}], unreduced={"x"}>})
    -> (tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>}) {
  return %a : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// An op without a handler runs on replicated operands; its result is cut again. The warning
// names the op, where it is, the bytes gathered, and the constraint that would avoid it
// (here the rule's permutation factor on dim 0: move the split to dim 1).
// CHECK-LABEL: func @fallback
// CHECK: tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<4x3xf32>) -> tensor<8x3xf32>
// CHECK: hlo.custom_call @kernel({{.*}} : (tensor<8x3xf32>) -> tensor<8x3xf32>
// CHECK: hlo.dynamic_slice {{.*}} -> tensor<4x3xf32>
func.func @fallback(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-warning-re @+1 {{'hlo.custom_call' is partitioned by replication: 96 bytes of split operands are gathered; a sharding constraint to #tessel.sharding<@mesh, [{}, {"x"}]> on operand 0 would avoid it}}
  %0 = hlo.custom_call @kernel(%a) {tessel.sharding_rule = "([i, j])->([i, j]) {i=8, j=3} permutation={i}", tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// An op without a sharding rule: no layout of its operands avoids the gather.
// CHECK-LABEL: func @opaque
func.func @opaque(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-warning-re @+1 {{'hlo.custom_call' is partitioned by replication: 96 bytes of split operands are gathered; no sharding constraint avoids it: the op has no sharding rule, so only replicated operands suit it}}
  %0 = hlo.custom_call @kernel(%a) {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// The only dimension cannot stay split: the warning says no better layout exists.
// CHECK-LABEL: func @no_better_layout
func.func @no_better_layout(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  // expected-warning-re @+1 {{'hlo.custom_call' is partitioned by replication: 32 bytes of split operands are gathered; no better layout exists: operand 0 has no other dimension the op can keep split, so it must be whole}}
  %0 = hlo.custom_call @kernel(%a) {tessel.sharding_rule = "([i])->([i]) {i=8} permutation={i}", tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Constants are materialized whole and cut to the local shard, without a remark.
// CHECK-LABEL: func @constant
// CHECK: hlo.constant dense<{{.*}}> : tensor<4xi32>
// CHECK: hlo.dynamic_slice {{.*}} -> tensor<2xi32>
func.func @constant() -> (tensor<4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %0 = hlo.constant {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} dense<[1, 2, 3, 4]> : tensor<4xi32>
  return %0 : tensor<4xi32>
}
