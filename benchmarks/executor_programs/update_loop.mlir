// Fifty steps of w <- w - 0.01 * tanh(w * g) on a 16 MiB weight, as a training loop
// carries its parameters: the loop state is the weight and a step counter.
func.func @main(%w0: tensor<2048x2048xf32>, %g: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:2 = hlo.while(%i = %zero, %w = %w0) : tensor<i32>, tensor<2048x2048xf32>
  cond {
    %steps = hlo.constant dense<50> : tensor<i32>
    %lt = hlo.compare LT, %i, %steps : tensor<i32>
    hlo.return %lt : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %next = hlo.add %i, %one : tensor<i32>
    %lr = hlo.constant dense<0.01> : tensor<f32>
    %lrs = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<2048x2048xf32>
    %wg = hlo.mul %w, %g : tensor<2048x2048xf32>
    %t = hlo.tanh %wg : tensor<2048x2048xf32>
    %step = hlo.mul %t, %lrs : tensor<2048x2048xf32>
    %w1 = hlo.sub %w, %step : tensor<2048x2048xf32>
    hlo.return %next, %w1 : tensor<i32>, tensor<2048x2048xf32>
  }
  return %r#1 : tensor<2048x2048xf32>
}
