func.func @main(%x: tensor<8xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %v, %i = hlo.top_k %x, k = 2 smallest : tensor<8xf32>
  return %v, %i : tensor<2xf32>, tensor<2xi32>
}
