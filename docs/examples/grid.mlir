// A 2x3 mesh: an uneven 2-D split, more devices than rows (an empty tile), partial sums
// over "y", and a rank-3 value; the ops take the first argument's sharding.
tessel.mesh @grid = <["x"=2, "y"=3]>

func.func @main(
    %a: tensor<4x7xf32> {tessel.sharding = #tessel.sharding<@grid, [{"x"}, {"y"}]>},
    %b: tensor<2x5xf32> {tessel.sharding = #tessel.sharding<@grid, [{"y"}, {}]>},
    %p: tensor<6xf32> {tessel.sharding = #tessel.sharding<@grid, [{"x"}], unreduced={"y"}>},
    %c: tensor<2x4x6xf32> {tessel.sharding = #tessel.sharding<@grid, [{}, {"x"}, {"y"}]>})
    -> tensor<4x7xf32> {
  %neg = hlo.neg %a : tensor<4x7xf32>
  %sum = hlo.add %neg, %a : tensor<4x7xf32>
  return %sum : tensor<4x7xf32>
}
