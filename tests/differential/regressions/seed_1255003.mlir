// Reduced from differential fuzz seed 1255003.
// Fails at compare: result 0: element 24: got 10, want 3
// options: random-choices=1255003
module {
  tessel.mesh @mesh = <["x"=2, "y"=2, "z"=3]>
  func.func @main(%arg0: tensor<8x2x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"z"}, {"x", "y"}, {}]>}, %arg1: tensor<3x1x1xf32>, %arg2: tensor<f32>) -> tensor<8x2x2xf32> {
    %0 = hlo.select_and_scatter(%arg0, %arg1, %arg2) window_dimensions = [1, 1, 2], window_strides = [3, 2, 1], padding = [[0, 0], [0, 0], [0, 0]] : (tensor<8x2x2xf32>, tensor<3x1x1xf32>, tensor<f32>) -> tensor<8x2x2xf32> select {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %2 = hlo.compare LE, %arg3, %arg4 : tensor<f32>
      hlo.return %2 : tensor<i1>
    } scatter {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %2 = hlo.add %arg3, %arg4 : tensor<f32>
      hlo.return %2 : tensor<f32>
    }
    %1 = tessel.sharding_constraint %0 <@mesh, [{}, {}, {"y"}]> : tensor<8x2x2xf32>
    return %1 : tensor<8x2x2xf32>
  }
}
