// RUN: tessel-opt %s --tessel-partition -verify-diagnostics

tessel.mesh @mesh = <["x"=2, "y"=2]>

// A manual computation inside another one's body cannot be partitioned.
func.func @nested_manual(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<4xf32>) {
    // expected-error @+1 {{cannot partition a manual computation nested in another}}
    %s = tessel.manual_computation(%la) in_shardings=[<@mesh, [{"y"}]>] out_shardings=[<@mesh, [{"y"}]>] manual_axes={"y"} (%lb: tensor<2xf32>) {
      tessel.return %lb : tensor<2xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    tessel.return %s : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
