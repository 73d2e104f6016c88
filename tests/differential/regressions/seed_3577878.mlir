// Reduced from differential fuzz seed 3577878.
// Fails at compare: result 0: element 0: got 0, want 1
// options: inputs=6
module {
  tessel.mesh @mesh = <["y"=2]>
  func.func @main(%arg0: tensor<3x3x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {}, {}]>}, %arg1: tensor<2x1xi32>, %arg2: tensor<3x3x3xf32>) -> tensor<1x3x2xf32> {
    %0 = hlo.rem %arg0, %arg2 : tensor<3x3x3xf32>
    %1 = hlo.gather %0[%arg1], slice_sizes = [1, 3, 3], offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 0 : (tensor<3x3x3xf32>, tensor<2x1xi32>) -> tensor<1x3x3xf32>
    %values, %indices = hlo.top_k %1, k = 2 : tensor<1x3x3xf32>
    %2 = hlo.convert %indices : (tensor<1x3x2xi32>) -> tensor<1x3x2xf32>
    return %2 : tensor<1x3x2xf32>
  }
}
