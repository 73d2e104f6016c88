tessel.mesh @mesh = <["x"=4294967296, "y"=4294967296]>

func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %x : tensor<8x4xf32>
}
