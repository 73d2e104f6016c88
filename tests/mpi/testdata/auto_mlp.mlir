// The unannotated MLP of the lit test tools/tessel_auto.mlir: only the mesh is given, so under
// MPI --auto rank 0 chooses every sharding and the ranks partition its plan.
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>)
    -> tensor<16x64xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
  %relu = hlo.max %h, %zeros : tensor<16x256xf32>
  %y = hlo.dot_general %relu, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

