func.func @main(%x: tensor<2048x4096xf32>, %y: tensor<2048x4096xf32>) -> tensor<2048x4096xf32> {
  %a = hlo.mul %x, %y : tensor<2048x4096xf32>
  %b = hlo.add %a, %x : tensor<2048x4096xf32>
  %c = hlo.tanh %b : tensor<2048x4096xf32>
  %d = hlo.mul %c, %y : tensor<2048x4096xf32>
  %e = hlo.exp %d : tensor<2048x4096xf32>
  %f = hlo.max %e, %x : tensor<2048x4096xf32>
  return %f : tensor<2048x4096xf32>
}
