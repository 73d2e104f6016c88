// Ops with no HLO text form are reported at the op.
// RUN: tessel-translate --export-hlo --split-input-file --verify-diagnostics %s

func.func @main(%x: tensor<4xf32>, %bias: tensor<f32>) -> tensor<f32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%x) init(%z) dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-error @+1 {{uses a value defined outside its region, which an HLO computation cannot capture}}
    %s = hlo.add %a, %bias : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

tessel.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tessel.sharding_constraint' needs its sharding in GSPMD form to be written as HLO (run --tessel-export-hlo-shardings first)}}
  %0 = tessel.sharding_constraint %x <@mesh, [{"x"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @a = <["x"=2]>
tessel.mesh @b = <["x"=4]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tessel.all_reduce %x over @a ["x"] kind = sum : tensor<4xf32>
  // expected-error @+1 {{runs on 4 devices but another collective runs on 2; one HLO module has one device count}}
  %1 = tessel.all_reduce %0 over @b ["x"] kind = sum : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @main(%x: tensor<f32>, %v: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{a pad of a rank-0 tensor has no HLO form}}
  %0 = hlo.pad %x, %v, low = [], high = [], interior = [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// expected-error @+1 {{several public functions and no @main}}
module {
  func.func @f() {
    return
  }
  func.func @g() {
    return
  }
}

// -----

tessel.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tessel.manual_computation' needs its shardings in GSPMD form to be written as HLO (run --tessel-export-hlo-shardings first)}}
  %0 = tessel.manual_computation(%x) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
    tessel.return %l : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A partitioned mark that does not fit the entry cannot be written as its global signature.
module attributes {tessel.partitioned = {num_partitions = 2 : i64, parameter_types = [tensor<8xf32>, tensor<8xf32>], result_types = [tensor<8xf32>]}} {
  // expected-error @+1 {{cannot write the partitioned mark: module attribute tessel.partitioned needs parameter_types, one type per entry function parameter}}
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
