// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

tessel.mesh @mesh = <["x"=4]>

// The ranked dimension split 4 ways: a local top-3 with indices shifted by the shard's
// offset, the 4 x 3 candidates gathered (not the 250 elements of each shard), a stable
// sort in total order and the first 3 kept.
// CHECK-LABEL: func @split_rows
func.func @split_rows(%a: tensor<8x1000xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<8x3xf32>, tensor<8x3xi32>) {
  // CHECK: %[[V:.*]], %[[I:.*]] = hlo.top_k %arg0, k = 3 : tensor<8x250xf32>
  // CHECK: hlo.constant dense<[0, 250, 500, 750]> : tensor<4xi32>
  // CHECK: %[[G:.*]] = hlo.add %[[I]]
  // CHECK: %[[CV:.*]] = tessel.all_gather %[[V]] over @mesh ["x"] dim = 1 : (tensor<8x3xf32>) -> tensor<8x12xf32>
  // CHECK: %[[CI:.*]] = tessel.all_gather %[[G]] over @mesh ["x"] dim = 1 : (tensor<8x3xi32>) -> tensor<8x12xi32>
  // CHECK: %[[S:.*]]:2 = hlo.sort(%[[CV]], %[[CI]]) dimension = 1 is_stable
  // CHECK: hlo.compare GT, %{{.*}}, %{{.*}}, TOTALORDER : tensor<f32>
  // CHECK: hlo.slice %[[S]]#0 [0:8, 0:3]
  // CHECK: hlo.slice %[[S]]#1 [0:8, 0:3]
  %v, %i = hlo.top_k %a, k = 3 : tensor<8x1000xf32>
  return %v, %i : tensor<8x3xf32>, tensor<8x3xi32>
}

// -----

tessel.mesh @mesh = <["x"=3]>

// Uneven (10 over 3: shards of 4, the last holding 2 and 2 of padding): the padding is
// replaced by the value that loses to everything (the smallest int for `smallest`'s
// opposite: here the largest, 2147483647) before the local top-k.
// CHECK-LABEL: func @uneven_smallest
func.func @uneven_smallest(%a: tensor<10xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>})
    -> (tensor<1xi32>, tensor<1xi32>) {
  // CHECK: hlo.constant dense<2147483647> : tensor<i32>
  // CHECK: hlo.select
  // CHECK: hlo.top_k %{{.*}}, k = 1 smallest : tensor<4xi32>
  // CHECK: tessel.all_gather
  // CHECK: hlo.compare LT
  %v, %i = hlo.top_k %a, k = 1 smallest : tensor<10xi32>
  return %v, %i : tensor<1xi32>, tensor<1xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// k close to the shard: the candidates would cost more than the shard, so the operand is
// gathered and one top-k runs on whole rows.
// CHECK-LABEL: func @large_k
func.func @large_k(%a: tensor<4x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  // CHECK: tessel.all_gather %arg0 over @mesh ["x"] dim = 1
  // CHECK: hlo.top_k %{{.*}}, k = 3 : tensor<4x8xf32>
  // CHECK-NOT: hlo.sort
  %v, %i = hlo.top_k %a, k = 3 : tensor<4x8xf32>
  return %v, %i : tensor<4x3xf32>, tensor<4x3xi32>
}
