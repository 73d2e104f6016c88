// The small program of docs/cli.md's `tessel run` examples: @main returns x·w and -x;
// @make_inputs has @main's arguments and returns them, so its saved results are the
// inputs a seed draws, as .npy files.
func.func @main(%x: tensor<2x3xi32>, %w: tensor<3x2xi32>) -> (tensor<2x2xi32>, tensor<2x3xi32>) {
  %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
  %n = hlo.neg %x : tensor<2x3xi32>
  return %d, %n : tensor<2x2xi32>, tensor<2x3xi32>
}

func.func @make_inputs(%x: tensor<2x3xi32>, %w: tensor<3x2xi32>) -> (tensor<2x3xi32>, tensor<3x2xi32>) {
  return %x, %w : tensor<2x3xi32>, tensor<3x2xi32>
}
