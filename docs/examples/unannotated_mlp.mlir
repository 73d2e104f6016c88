// An MLP with no shardings at all: give them on the command line
// (--mesh, --in_shardings, --out_shardings).
func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>)
    -> tensor<16x64xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %y = hlo.dot_general %h, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
