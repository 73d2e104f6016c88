func.func @main(%x: tensor<2048x4096xf32>) -> (tensor<2048xf32>, tensor<4096xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r1 = hlo.reduce(%x) init(%zero) dimensions = [1]
      : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<2048xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %r0 = hlo.reduce(%x) init(%zero) dimensions = [0]
      : (tensor<2048x4096xf32>, tensor<f32>) -> tensor<4096xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r1, %r0 : tensor<2048xf32>, tensor<4096xf32>
}
