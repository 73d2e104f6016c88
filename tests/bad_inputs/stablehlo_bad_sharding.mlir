sdy.mesh @mesh = <["data"=4, "model"=2]>
func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"} {}]>}) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}
