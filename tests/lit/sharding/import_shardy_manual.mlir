// RUN: tessel-opt %s -split-input-file --tessel-import-shardy-manual-computations -verify-diagnostics | FileCheck %s

tessel.mesh @mesh = <["x"=2]>
func.func private @body(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func @local_values_not_called(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{the local values of a shard_map must all go to one call of its body}}
  %l = hlo.custom_call @xla.sdy.GlobalToLocalShape(%x) {tessel.hlo_frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22x\22}>"}} : (tensor<4xf32>) -> tensor<2xf32>
  %n = hlo.neg %l : tensor<2xf32>
  return %n : tensor<2xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>
func.func private @body(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func @no_local_to_global(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{the results of a shard_map body must all go to one xla.sdy.LocalToGlobalShape}}
  %l = hlo.custom_call @xla.sdy.GlobalToLocalShape(%x) {tessel.hlo_frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22x\22}>"}} : (tensor<4xf32>) -> tensor<2xf32>
  %b = func.call @body(%l) : (tensor<2xf32>) -> tensor<2xf32>
  %n = hlo.neg %b : tensor<2xf32>
  return %n : tensor<2xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>
func.func private @body(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func @no_manual_axes(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{a shard_map needs xla.sdy.in_shardings, xla.sdy.out_shardings and xla.sdy.manual_axes in Shardy's syntax}}
  %l = hlo.custom_call @xla.sdy.GlobalToLocalShape(%x) {tessel.hlo_frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>"}} : (tensor<4xf32>) -> tensor<2xf32>
  %b = func.call @body(%l) : (tensor<2xf32>) -> tensor<2xf32>
  %g = hlo.custom_call @xla.sdy.LocalToGlobalShape(%b) {tessel.hlo_frontend_attributes = {xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>"}} : (tensor<2xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// The well-formed triple becomes one manual computation and the body function goes.
// CHECK-NOT: func.func private @body
// CHECK: tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<2xf32>)
// CHECK-NEXT: hlo.neg %arg1
// CHECK-NEXT: tessel.return
// CHECK-NOT: hlo.custom_call
tessel.mesh @mesh = <["x"=2]>
func.func private @body(%a: tensor<2xf32>) -> tensor<2xf32> {
  %n = hlo.neg %a : tensor<2xf32>
  return %n : tensor<2xf32>
}
func.func @ok(%x: tensor<4xf32>) -> tensor<4xf32> {
  %l = hlo.custom_call @xla.sdy.GlobalToLocalShape(%x) {tessel.hlo_frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22x\22}>"}} : (tensor<4xf32>) -> tensor<2xf32>
  %b = func.call @body(%l) : (tensor<2xf32>) -> tensor<2xf32>
  %g = hlo.custom_call @xla.sdy.LocalToGlobalShape(%b) {tessel.hlo_frontend_attributes = {xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>]>"}} : (tensor<2xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}
