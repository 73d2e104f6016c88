// RUN: tessel-opt %s --tessel-propagate --tessel-partition -split-input-file | FileCheck %s

tessel.mesh @mesh = <["x"=2, "y"=3]>

// Rows split over x, columns over y (7 rows: shards of 4, the second with one padding
// row): each device makes its own 4x2 box of the 7x6 bits, starting at its shard's offsets.
// The state is read whole; nothing is communicated.
// CHECK-LABEL: func @split_both
func.func @split_both(%s: tensor<2xui64>)
    -> (tensor<2xui64>, tensor<7x6xui32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}) {
  // CHECK-DAG: hlo.constant dense<[0, 0, 0, 4, 4, 4]> : tensor<6xi32>
  // CHECK-DAG: hlo.constant dense<[0, 2, 4, 0, 2, 4]> : tensor<6xi32>
  // CHECK: hlo.rng_bit_generator %arg0, algorithm = three_fry window of [7, 6] at [%{{.*}}, %{{.*}}] : tensor<2xui64>, tensor<i32>, tensor<i32> -> tensor<4x2xui32>
  // CHECK-NOT: tessel.all_gather
  // CHECK: return
  %n, %b = hlo.rng_bit_generator %s, algorithm = three_fry : tensor<2xui64> -> tensor<7x6xui32>
  return %n, %b : tensor<2xui64>, tensor<7x6xui32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// An op that is already a window (of a 16-element output, from %i) adds each shard's
// offset to its start.
// CHECK-LABEL: func @window_of_a_window
func.func @window_of_a_window(%s: tensor<3xui64>, %i: tensor<i32>)
    -> (tensor<3xui64>, tensor<8xui8> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  // CHECK: %[[OFF:.*]] = hlo.reshape %{{.*}} : (tensor<1xi32>) -> tensor<i32>
  // CHECK: %[[START:.*]] = hlo.add %arg1, %[[OFF]] : tensor<i32>
  // CHECK: hlo.rng_bit_generator %arg0, algorithm = philox window of [16] at [%[[START]]] : tensor<3xui64>, tensor<i32> -> tensor<2xui8>
  %n, %b = hlo.rng_bit_generator %s, algorithm = philox window of [16] at [%i] : tensor<3xui64>, tensor<i32> -> tensor<8xui8>
  return %n, %b : tensor<3xui64>, tensor<8xui8>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Replicated bits: the op as written.
// CHECK-LABEL: func @replicated
func.func @replicated(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>) {
  // CHECK: hlo.rng_bit_generator %arg0, algorithm = default : tensor<2xui64> -> tensor<8xui32>
  %n, %b = hlo.rng_bit_generator %s, algorithm = default : tensor<2xui64> -> tensor<8xui32>
  return %n, %b : tensor<2xui64>, tensor<8xui32>
}
