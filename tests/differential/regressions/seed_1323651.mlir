// Reduced from differential fuzz seed 1323651.
// Fails at compare: result 0: FAILED_PRECONDITION: partition 4 disagrees with another replica at global element 2
// options: random-choices=1323651
module {
  tessel.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
  func.func @main(%arg0: tensor<8x2xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<8x4xi32>) -> (tensor<8x6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"z", ?}]>}) {
    %0 = hlo.select_and_scatter(%arg3, %arg0, %arg2) window_dimensions = [2, 3], window_strides = [1, 1], padding = [[1, 0], [0, 0]] : (tensor<8x4xi32>, tensor<8x2xi32>, tensor<i32>) -> tensor<8x4xi32> select {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %2 = hlo.compare GE, %arg4, %arg5 : tensor<i32>
      hlo.return %2 : tensor<i1>
    } scatter {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %2 = hlo.add %arg4, %arg5 : tensor<i32>
      hlo.return %2 : tensor<i32>
    }
    %1 = hlo.pad %0, %arg1, low = [0, 0], high = [0, 2], interior = [0, 0] : (tensor<8x4xi32>, tensor<i32>) -> tensor<8x6xi32>
    return %1 : tensor<8x6xi32>
  }
}
