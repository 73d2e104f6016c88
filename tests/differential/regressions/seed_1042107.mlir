// Reduced from differential fuzz seed 1042107.
// Fails at compare: result 0: s32[4,4,4] {{{5, 11, 5, 3}, {5, 5, 9, 5}, {3, -4, -6, 4}, {-8, 7, -5, 7}}, {{12, 5, 5, 5}, {14, 5, 1, 5}, {-5, -8, 8, -2}, {6, 3, 7, 4}}, {{5, 5, 5, 5}, {-3, -2, 5, -2}, {-5, -2, 1, -5}, {3, -5, 7, -7}}, {{5, 5, 5, 5}, {5, 5, 5, 5}, {-2, 1, 6, -4}, {0, -6, 5, 8}}}
// options: random-choices=1042107
module {
  tessel.mesh @mesh = <["x"=8]>
  func.func @main(%arg0: tensor<8x4xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(4)2}, {"x":(1)4}]>}, %arg1: tensor<7x2xi32>, %arg2: tensor<4x2x4xi32>, %arg3: tensor<i32>) -> tensor<4x4x4xi32> {
    %0 = hlo.select_and_scatter(%arg0, %arg1, %arg3) window_dimensions = [2, 3], window_strides = [1, 2], padding = [[0, 0], [1, 0]] : (tensor<8x4xi32>, tensor<7x2xi32>, tensor<i32>) -> tensor<8x4xi32> select {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %3 = hlo.compare GE, %arg4, %arg5 : tensor<i32>
      hlo.return %3 : tensor<i1>
    } scatter {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %3 = hlo.add %arg4, %arg5 : tensor<i32>
      hlo.return %3 : tensor<i32>
    }
    %1 = hlo.reshape %0 : (tensor<8x4xi32>) -> tensor<4x2x4xi32>
    %2 = hlo.concatenate %1, %arg2, dim = 1 : (tensor<4x2x4xi32>, tensor<4x2x4xi32>) -> tensor<4x4x4xi32>
    return %2 : tensor<4x4x4xi32>
  }
}
