// RUN: not tessel-opt %s -split-input-file --tessel-partition 2>&1 | FileCheck %s

// Meshes over different device counts: no move between them exists.
// CHECK: error: cannot reshard from mesh @two to mesh @four: they hold different devices
tessel.mesh @two = <["x"=2]>
tessel.mesh @four = <["x"=4]>
func.func @different_devices(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@two, [{"x"}]>})
    -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@four, [{"x"}]>}) {
  %b = tessel.sharding_constraint %a <@four, [{"x"}]> : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// A complex value on one device has no integer of its width to broadcast as.
// CHECK: error: cannot move a value of element type 'complex<f32>' off the one device that holds it
tessel.mesh @mesh = <["x"=2]>
tessel.mesh @one = <[], device_ids=[1]>
func.func @complex_owner(%a: tensor<4xcomplex<f32>> {tessel.sharding = #tessel.sharding<@one, [{}]>})
    -> (tensor<4xcomplex<f32>> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  %b = tessel.sharding_constraint %a <@mesh, [{"x"}]> : tensor<4xcomplex<f32>>
  return %b : tensor<4xcomplex<f32>>
}
