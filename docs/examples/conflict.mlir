// Two operands split over different axes on the same dimension: propagation cannot make
// them agree, `tessel explain` says where, and partitioning reshards one of them.
tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @main(%a: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %b: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>})
    -> tensor<8x16xf32> {
  %c = hlo.add %a, %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
