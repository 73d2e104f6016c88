// A two-layer MLP split Megatron-style on a 4x2 mesh: the batch over "data", the hidden
// layer over "model" (columns of w1, rows of w2). The program is written for one device;
// the shardings on the arguments and the result say how the tensors are split.
tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @main(
    %x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w1: tensor<64x256xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>},
    %w2: tensor<256x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}) {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  // The activations stay split over "model" on the hidden dimension; the batch dimension
  // is left open for propagation.
  %h_split = tessel.sharding_constraint %h <@mesh, [{"data", ?}, {"model"}]> : tensor<16x256xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
  %relu = hlo.max %h_split, %zeros : tensor<16x256xf32>
  %y = hlo.dot_general %relu, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
