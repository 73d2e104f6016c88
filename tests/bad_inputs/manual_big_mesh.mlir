// A manual computation runs one thread per device of its mesh: 2048 is too many.
tessel.mesh @mesh = <["x"=2048]>
func.func @main(%a: tensor<2048xf32>) -> tensor<2048xf32> {
  %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<1xf32>) {
    tessel.return %la : tensor<1xf32>
  } : (tensor<2048xf32>) -> tensor<2048xf32>
  return %r : tensor<2048xf32>
}
