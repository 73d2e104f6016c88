sdy.mesh @mesh = <["data"=4, "model"=2]>
func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
