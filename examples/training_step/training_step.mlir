// The training step of training_step.cc as an MLIR program, for the command line: the batch
// split over "data", weights w1, w2 and momentum buffers m1, m2 replicated; the MLP forward
// pass, the mean squared error, the backward pass by hand and SGD with momentum.
//   tessel report examples/training_step/training_step.mlir [--shard_weight_update]
tessel.mesh @mesh = <["data"=8]>
func.func @main(%x: tensor<16x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %t: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w1: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
                %w2: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
                %m1: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
                %m2: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<f32>, tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x16xf32>, tensor<16x4xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %zh = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
  %act = hlo.compare GT, %h, %zh : tensor<16x16xf32>
  %a = hlo.select %act, %h, %zh : tensor<16x16xi1>, tensor<16x16xf32>
  %o = hlo.dot_general %a, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<16x16xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
  %err = hlo.sub %o, %t : tensor<16x4xf32>
  %sq = hlo.mul %err, %err : tensor<16x4xf32>
  %sum = hlo.reduce(%sq) init(%zero) dimensions = [0, 1] : (tensor<16x4xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %scale = hlo.constant dense<0.015625> : tensor<f32>
  %loss = hlo.mul %sum, %scale : tensor<f32>
  %two = hlo.constant dense<0.03125> : tensor<f32>
  %twob = hlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
  %dout = hlo.mul %err, %twob : tensor<16x4xf32>
  %g2 = hlo.dot_general %a, %dout, lhs_contract = [0], rhs_contract = [0] : (tensor<16x16xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
  %da = hlo.dot_general %dout, %w2, lhs_contract = [1], rhs_contract = [1] : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x16xf32>
  %dh = hlo.select %act, %da, %zh : tensor<16x16xi1>, tensor<16x16xf32>
  %g1 = hlo.dot_general %x, %dh, lhs_contract = [0], rhs_contract = [0] : (tensor<16x8xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %lr = hlo.constant dense<0.1> : tensor<f32>
  %mu1 = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %lr1 = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %mm1 = hlo.mul %m1, %mu1 : tensor<8x16xf32>
  %nm1 = hlo.add %mm1, %g1 : tensor<8x16xf32>
  %st1 = hlo.mul %nm1, %lr1 : tensor<8x16xf32>
  %nw1 = hlo.sub %w1, %st1 : tensor<8x16xf32>
  %mu2 = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
  %lr2 = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
  %mm2 = hlo.mul %m2, %mu2 : tensor<16x4xf32>
  %nm2 = hlo.add %mm2, %g2 : tensor<16x4xf32>
  %st2 = hlo.mul %nm2, %lr2 : tensor<16x4xf32>
  %nw2 = hlo.sub %w2, %st2 : tensor<16x4xf32>
  return %loss, %nw1, %nw2, %nm1, %nm2 : tensor<f32>, tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x16xf32>, tensor<16x4xf32>
}
