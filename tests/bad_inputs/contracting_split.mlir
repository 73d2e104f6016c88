// A well-formed program whose partitions meet in a collective (an all_reduce over "model",
// which splits the contracting dimension), for the cases about starting partitions.
tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @main(
    %x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {"model"}]>},
    %w: tensor<64x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
    -> tensor<16x32xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
