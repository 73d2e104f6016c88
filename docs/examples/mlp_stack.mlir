// Three identical layers (dot, tanh, dot with a residual add), each with its own
// weights and no shardings: auto-sharding solves one layer and gives every layer
// its plan (docs/auto_sharding.md).
func.func @main(%x: tensor<16x64xf32>,
    %w1_0: tensor<64x256xf32>, %w2_0: tensor<256x64xf32>,
    %w1_1: tensor<64x256xf32>, %w2_1: tensor<256x64xf32>,
    %w1_2: tensor<64x256xf32>, %w2_2: tensor<256x64xf32>)
    -> tensor<16x64xf32> {
  %h0 = hlo.dot_general %x, %w1_0, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %t0 = hlo.tanh %h0 : tensor<16x256xf32>
  %y0 = hlo.dot_general %t0, %w2_0, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  %r0 = hlo.add %x, %y0 : tensor<16x64xf32>
  %h1 = hlo.dot_general %r0, %w1_1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %t1 = hlo.tanh %h1 : tensor<16x256xf32>
  %y1 = hlo.dot_general %t1, %w2_1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  %r1 = hlo.add %r0, %y1 : tensor<16x64xf32>
  %h2 = hlo.dot_general %r1, %w1_2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %t2 = hlo.tanh %h2 : tensor<16x256xf32>
  %y2 = hlo.dot_general %t2, %w2_2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  %r2 = hlo.add %r1, %y2 : tensor<16x64xf32>
  return %r2 : tensor<16x64xf32>
}
