// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-import-stablehlo

func.func @unknown_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'stablehlo.fft' is unknown}}
  %0 = stablehlo.fft %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_generic_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.fft' is not supported by the StableHLO import}}
  %0 = "stablehlo.fft"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_chlo_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'chlo.lgamma' is unknown}}
  %0 = chlo.lgamma %a : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{unknown comparison direction 'GREATER'}}
  %0 = stablehlo.compare GREATER, %a, %a, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

sdy.mesh @mesh = <["data"=4]>

// expected-error @+1 {{axis "model" is not in the mesh}}
func.func @unknown_axis(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["data"=4]>

func.func @bad_sharding_syntax(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected '<'}}
  %0 = sdy.sharding_constraint %a [{"data"}] : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["data"=4]>

func.func @mesh_mismatch(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{unknown mesh @other}}
  %0 = sdy.sharding_constraint %a <@other, [{"data"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["data"=4, "model"=2]>

func.func @groups_off_mesh(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"data"}, {"model"}]>] out_shardings=[<@mesh, [{"data"}, {"model"}]>] manual_axes={"data", "model"} (%arg1: tensor<2x4xf32>) {
    // expected-error @+1 {{replica_groups are not the device groups of any axes of mesh}}
    %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 3], [1, 2], [4, 7], [5, 6]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    sdy.return %1 : tensor<2x4xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @collective_outside_manual(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{outside a manual computation}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>, use_global_device_ids}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @reversed_window(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @+1 {{window reversal is not supported}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

func.func @bad_type(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.add' op requires the same type for all operands and results}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_without_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected two operand types and one result type}}
  stablehlo.compare GT, %a, %a, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

func.func @erfc_of_integers(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.erfc' takes a ranked float tensor}}
  %0 = chlo.erfc %a : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @reduce_applies_chlo(%x: tensor<4xf32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{cannot reduce 1 inputs with 'chlo.square'}}
  %0 = stablehlo.reduce(%x init: %zero) applies chlo.square across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
