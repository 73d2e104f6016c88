// A dense layer with a bias and a reduction, split unevenly on a 3x2 mesh: the 10 rows over
// "x" (pieces of 4, 4 and 2), the 15 output columns over "y" (8 and 7). The MPI tests run it
// on 3 ranks with "x" across ranks and "y" as two threads per rank.
tessel.mesh @mesh = <["x"=3, "y"=2]>

func.func @main(
    %x: tensor<10x12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
    %w: tensor<12x15xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y"}]>},
    %b: tensor<15xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>})
    -> (tensor<10x15xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>},
        tensor<15xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>}) {
  %h = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<10x12xf32>, tensor<12x15xf32>) -> tensor<10x15xf32>
  %bias = hlo.broadcast_in_dim %b, dims = [1] : (tensor<15xf32>) -> tensor<10x15xf32>
  %y = hlo.add %h, %bias : tensor<10x15xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %sum = hlo.reduce(%y) init(%zero) dimensions = [0]
      : (tensor<10x15xf32>, tensor<f32>) -> tensor<15xf32> reducer {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = hlo.add %a, %c : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %y, %sum : tensor<10x15xf32>, tensor<15xf32>
}
