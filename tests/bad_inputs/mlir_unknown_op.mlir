tessel.mesh @mesh = <["data"=2]>

func.func @main(%x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}) -> tensor<8x4xf32> {
  %y = hlo.frobnicate %x : tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
