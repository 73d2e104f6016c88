tessel.mesh @mesh = <["data"=2]>

func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %x : tensor<8x4xf32>
