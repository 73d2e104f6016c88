sdy.mesh @mesh = <["data"=4, "model"=2]>
func.func public @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = sdy.sharding_constraint %arg0 <@other, [{"data"}, {}]> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
