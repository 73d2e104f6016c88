// RUN: tessel-opt %s -split-input-file --tessel-propagate --tessel-weight-update-sharding -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-propagate --tessel-weight-update-sharding --tessel-partition 2>/dev/null | FileCheck %s --check-prefix=SPMD
// RUN: tessel-opt %s -split-input-file --tessel-propagate '--tessel-weight-update-sharding=verbose=true' 2>&1 >/dev/null | FileCheck %s --check-prefix=VERBOSE

// With verbose=true every sharded update gets a remark too (the others always get one).
// VERBOSE: remark: weight-update sharding splits the update of this gradient over {"data"} along dimension 0: 4 ops, state arguments [3], weight arguments [2], state results [2], weight results [1]
// VERBOSE: remark: weight-update sharding splits the update of this gradient over {"data"} along dimension 0: 14 ops, state arguments [4, 5], weight arguments [3], state results [1, 2], weight results [0]
// VERBOSE: remark: weight-update sharding splits the update of this gradient over {"data"} along dimension 0 (uneven, padded): 2 ops
// VERBOSE: remark: weight-update sharding splits the update of this gradient over {"data"} along dimension 0: 2 ops
// VERBOSE: remark: weight-update sharding leaves the update of this gradient alone
// VERBOSE: remark: weight-update sharding splits the update of this gradient over {"data"} along dimension 0: 2 ops, state arguments [], weight arguments [1], state results [], weight results [1]

// One linear layer, data parallel, SGD with momentum: the gradient %g sums over the split
// batch. The update runs split over "data" along dim 0 (4 divides by 2): the momentum
// argument and result are split, the weight argument and the new weight stay replicated.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @momentum_sgd
// CHECK-SAME: %[[W:[^:]*]]: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}
// CHECK-SAME: %[[M:[^:]*]]: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: -> (tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}, tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
// CHECK: %[[G:.*]] = hlo.dot_general {{.*}} lhs_contract = [0], rhs_contract = [0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}], unreduced={"data"}>]>}
// CHECK-NEXT: %[[GS:.*]] = tessel.reshard %[[G]] <@mesh, [{"data"}, {}]> {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: %[[MU:.*]] = hlo.broadcast_in_dim {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: %[[MM:.*]] = hlo.mul %[[M]], %[[MU]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: %[[NM:.*]] = hlo.add %[[MM]], %[[GS]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: %[[STEP:.*]] = hlo.mul %[[NM]], {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: %[[NW:.*]] = hlo.sub %[[W]], %[[STEP]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: return %{{.*}}, %[[NW]], %[[NM]]

// The gradient is reduce-scattered (no all_reduce), the update runs on 2x6 shards of the
// momentum and of a local slice of the weight, and the new weight is all-gathered.
// SPMD-LABEL: func.func @momentum_sgd
// SPMD-SAME: %[[W:[^:]*]]: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}
// SPMD-SAME: %[[M:[^:]*]]: tensor<2x6xf32>
// SPMD-SAME: -> (tensor<4x6xf32> {{.*}}, tensor<4x6xf32> {{.*}}, tensor<2x6xf32>
// SPMD-NOT: tessel.all_reduce
// SPMD: %[[G:.*]] = hlo.dot_general {{.*}} lhs_contract = [0], {{.*}} -> tensor<4x6xf32>
// SPMD-NEXT: %[[GS:.*]] = tessel.reduce_scatter %[[G]] over @mesh ["data"] dim = 0 kind = sum : (tensor<4x6xf32>) -> tensor<2x6xf32>
// SPMD: %[[MM:.*]] = hlo.mul %[[M]], {{.*}} : tensor<2x6xf32>
// SPMD: %[[NM:.*]] = hlo.add %[[MM]], %[[GS]] : tensor<2x6xf32>
// SPMD: %[[WS:.*]] = hlo.dynamic_slice %[[W]], {{.*}} sizes = [2, 6]
// SPMD: %[[NW:.*]] = hlo.sub %[[WS]], {{.*}} : tensor<2x6xf32>
// SPMD-NOT: tessel.all_reduce
// SPMD: %[[FULL:.*]] = tessel.all_gather %[[NW]] over @mesh ["data"] dim = 0 : (tensor<2x6xf32>) -> tensor<4x6xf32>
// SPMD: return %{{.*}}, %[[FULL]], %[[NM]]
func.func @momentum_sgd(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %t: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %dy = hlo.sub %y, %t : tensor<8x6xf32>
  %g = hlo.dot_general %x, %dy, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %lr = hlo.constant dense<0.1> : tensor<f32>
  %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
  %lrs = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
  %mm = hlo.mul %m, %mus : tensor<4x6xf32>
  %nm = hlo.add %mm, %g : tensor<4x6xf32>
  %step = hlo.mul %nm, %lrs : tensor<4x6xf32>
  %nw = hlo.sub %w, %step : tensor<4x6xf32>
  return %dy, %nw, %nm : tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Adam: two state tensors, the gradient read twice (one reshard serves both), sqrt, div,
// and a bias correction computed on scalars from the step count %t.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @adam
// CHECK-SAME: %[[T:[^:]*]]: tensor<f32> {tessel.sharding = #tessel.sharding<@mesh, []>}
// CHECK-SAME: %[[W:[^:]*]]: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}
// CHECK-SAME: %[[M:[^:]*]]: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: %[[V:[^:]*]]: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: -> (tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}, tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
// CHECK: %[[G:.*]] = hlo.dot_general {{.*}} unreduced={"data"}
// CHECK-NEXT: %[[GS:.*]] = tessel.reshard %[[G]] <@mesh, [{"data"}, {}]>
// CHECK-NOT: %[[G]]{{[^0-9]}}
// CHECK: hlo.mul %[[GS]], %[[GS]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: hlo.sqrt {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: hlo.div {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// CHECK: %[[NW:.*]] = hlo.sub %[[W]], {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}

// One reduce_scatter of the gradient; m and v are updated on 3x4 shards.
// SPMD-LABEL: func.func @adam
// SPMD-SAME: tensor<3x4xf32> {{.*}}, %{{[^:]*}}: tensor<3x4xf32>
// SPMD-NOT: tessel.all_reduce
// SPMD: tessel.reduce_scatter {{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<6x4xf32>) -> tensor<3x4xf32>
// SPMD-NOT: tessel.reduce_scatter
// SPMD-NOT: tessel.all_reduce
// SPMD: hlo.sqrt {{.*}} : tensor<3x4xf32>
// SPMD: tessel.all_gather {{.*}} over @mesh ["data"] dim = 0 : (tensor<3x4xf32>) -> tensor<6x4xf32>
// SPMD-NOT: tessel.all_reduce
// SPMD: return
func.func @adam(
    %x: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %t: tensor<f32>,
    %w: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<6x4xf32>, %v: tensor<6x4xf32>)
    -> (tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %e = hlo.mul %y, %dy : tensor<8x4xf32>
  %g = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<8x6xf32>, tensor<8x4xf32>) -> tensor<6x4xf32>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %b1 = hlo.constant dense<0.9> : tensor<f32>
  %b2 = hlo.constant dense<0.999> : tensor<f32>
  %lr = hlo.constant dense<0.001> : tensor<f32>
  %eps = hlo.constant dense<1.0e-8> : tensor<f32>
  %c1 = hlo.sub %one, %b1 : tensor<f32>
  %c2 = hlo.sub %one, %b2 : tensor<f32>
  %p1 = hlo.pow %b1, %t : tensor<f32>
  %p2 = hlo.pow %b2, %t : tensor<f32>
  %bc1 = hlo.sub %one, %p1 : tensor<f32>
  %bc2 = hlo.sub %one, %p2 : tensor<f32>
  %b1s = hlo.broadcast_in_dim %b1, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
  %b2s = hlo.broadcast_in_dim %b2, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
  %c1s = hlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
  %c2s = hlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
  %bc1s = hlo.broadcast_in_dim %bc1, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
  %bc2s = hlo.broadcast_in_dim %bc2, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
  %lrs = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
  %epss = hlo.broadcast_in_dim %eps, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
  %m1 = hlo.mul %m, %b1s : tensor<6x4xf32>
  %m2 = hlo.mul %g, %c1s : tensor<6x4xf32>
  %nm = hlo.add %m1, %m2 : tensor<6x4xf32>
  %gg = hlo.mul %g, %g : tensor<6x4xf32>
  %v1 = hlo.mul %v, %b2s : tensor<6x4xf32>
  %v2 = hlo.mul %gg, %c2s : tensor<6x4xf32>
  %nv = hlo.add %v1, %v2 : tensor<6x4xf32>
  %mhat = hlo.div %nm, %bc1s : tensor<6x4xf32>
  %vhat = hlo.div %nv, %bc2s : tensor<6x4xf32>
  %root = hlo.sqrt %vhat : tensor<6x4xf32>
  %den = hlo.add %root, %epss : tensor<6x4xf32>
  %dir = hlo.div %mhat, %den : tensor<6x4xf32>
  %step = hlo.mul %dir, %lrs : tensor<6x4xf32>
  %nw = hlo.sub %w, %step : tensor<6x4xf32>
  return %nw, %nm, %nv : tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>
}

// -----

// A weight whose dims do not divide by 2 (5x3): dim 0 is split unevenly anyway. The
// partitioner pads the gradient's partial sums to 6 rows and reduce-scatters them, then
// gathers the new weight (padded to 6 rows) and slices it back to 5.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: tensor<5x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: -> (tensor<5x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, tensor<5x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
// CHECK: tessel.reshard %{{.*}} <@mesh, [{"data"}, {}]>

// SPMD-LABEL: func.func @uneven
// SPMD-SAME: %{{[^:]*}}: tensor<3x3xf32>
// SPMD: hlo.pad {{.*}} -> tensor<6x3xf32>
// SPMD: tessel.reduce_scatter {{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<6x3xf32>) -> tensor<3x3xf32>
// SPMD-NOT: tessel.all_reduce
// SPMD: hlo.add {{.*}} : tensor<3x3xf32>
// SPMD: tessel.all_gather {{.*}} over @mesh ["data"] dim = 0 : (tensor<3x3xf32>) -> tensor<6x3xf32>
// SPMD: hlo.slice {{.*}} -> tensor<5x3xf32>
func.func @uneven(
    %x: tensor<4x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<4x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<5x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<5x3xf32>)
    -> (tensor<5x3xf32>, tensor<5x3xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  %e = hlo.mul %y, %dy : tensor<4x3xf32>
  %g = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<4x5xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %nm = hlo.add %m, %g : tensor<5x3xf32>
  %nw = hlo.sub %w, %nm : tensor<5x3xf32>
  return %nw, %nm : tensor<5x3xf32>, tensor<5x3xf32>
}

// -----

// A 2-D mesh: the weight is split over "model" along dim 1, the batch over "data". The
// update keeps "model" on dim 1 and adds "data" on dim 0.
tessel.mesh @mesh = <["data"=2, "model"=2]>
// CHECK-LABEL: func.func @data_and_model
// CHECK-SAME: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {"model"}]>}
// CHECK: tessel.reshard %{{.*}} <@mesh, [{"data"}, {"model"}]>

// SPMD-LABEL: func.func @data_and_model
// SPMD: tessel.reduce_scatter {{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<4x3xf32>) -> tensor<2x3xf32>
// SPMD: tessel.all_gather {{.*}} over @mesh ["data"] dim = 0 : (tensor<2x3xf32>) -> tensor<4x3xf32>
func.func @data_and_model(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>},
    %m: tensor<4x6xf32>)
    -> (tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>}, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %nm = hlo.add %m, %g : tensor<4x6xf32>
  %nw = hlo.sub %w, %nm : tensor<4x6xf32>
  return %nw, %nm : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Left alone: the new weight feeds a dot in the same function, which needs it whole.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @new_weight_feeds_dot
// CHECK-NOT: tessel.reshard
// CHECK-NOT: unreduced
// CHECK-NOT: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}
// CHECK: return

// SPMD-LABEL: func.func @new_weight_feeds_dot
// SPMD: tessel.all_reduce {{.*}} over @mesh ["data"] kind = sum : tensor<4x6xf32>
// SPMD-NOT: tessel.reduce_scatter
func.func @new_weight_feeds_dot(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  // expected-remark @+1 {{weight-update sharding leaves the update of this gradient alone: the update feeds 'hlo.dot_general'}}
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %nm = hlo.add %m, %g : tensor<4x6xf32>
  %nw = hlo.sub %w, %nm : tensor<4x6xf32>
  %y2 = hlo.dot_general %x, %nw, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  return %y2, %nm : tensor<8x6xf32>, tensor<4x6xf32>
}

// -----

// Left alone: the state is also returned unchanged, so it can be neither split state nor
// a weight.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @state_returned_unchanged
// CHECK-NOT: tessel.reshard
// CHECK-NOT: unreduced
// CHECK: return
func.func @state_returned_unchanged(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  // expected-remark @+1 {{weight-update sharding leaves the update of this gradient alone: argument 2 is returned unchanged besides feeding the update}}
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %nm = hlo.add %m, %g : tensor<4x6xf32>
  %nw = hlo.sub %w, %nm : tensor<4x6xf32>
  return %nw, %nm, %m : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Left alone: the update reads a value of the forward pass (here a product of two other
// weights), which is neither optimizer state, a weight nor a scalar.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @reads_forward_value
// CHECK-NOT: tessel.reshard
// CHECK: return
func.func @reads_forward_value(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %a: tensor<4x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %b: tensor<2x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> tensor<4x6xf32> {
  %ab = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  // expected-remark @+1 {{weight-update sharding leaves the update of this gradient alone: operand 1 of 'hlo.add'}}
  %g = hlo.dot_general %x, %dy, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %u = hlo.add %g, %ab : tensor<4x6xf32>
  %nw = hlo.sub %w, %u : tensor<4x6xf32>
  return %nw : tensor<4x6xf32>
}

// -----

// Plain SGD reads no optimizer state: the new weight is still computed on the shard from a
// reduce_scattered gradient and all-gathered, at the bytes of the all_reduce it replaces.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @plain_sgd
// CHECK: %[[G:.*]] = hlo.dot_general {{.*}} unreduced={"data"}
// CHECK: tessel.reshard %[[G]] <@mesh, [{"data"}, {}]>
// CHECK: hlo.sub {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// SPMD-LABEL: func.func @plain_sgd
// SPMD-NOT: tessel.all_reduce
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<4x6xf32>) -> tensor<2x6xf32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<2x6xf32>) -> tensor<4x6xf32>
func.func @plain_sgd(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %lr = hlo.constant dense<0.1> : tensor<f32>
  %lrb = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
  %step = hlo.mul %g, %lrb : tensor<4x6xf32>
  %nw = hlo.sub %w, %step : tensor<4x6xf32>
  return %y, %nw : tensor<8x6xf32>, tensor<4x6xf32>
}

// -----

// Left alone: without optimizer state or a new weight (the gradient itself is returned,
// scaled) there is nothing to shard.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @gradient_only
// CHECK-NOT: tessel.reshard
// CHECK: return
func.func @gradient_only(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> tensor<4x6xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  // expected-remark @+1 {{weight-update sharding leaves the update of this gradient alone: the update reads no optimizer state and returns no new weight}}
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %two = hlo.constant dense<2.0> : tensor<4x6xf32>
  %g2 = hlo.mul %g, %two : tensor<4x6xf32>
  return %g2 : tensor<4x6xf32>
}

// -----

// Left alone: an L2 term folded into the gradient makes the new momentum read the weight
// too, so two results are computed from one weight.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @state_reads_weight
// CHECK-NOT: tessel.reshard
// CHECK: return
func.func @state_reads_weight(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  // expected-remark @+1 {{weight-update sharding leaves the update of this gradient alone: 2 results are computed from 1 weight(s)}}
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %l2 = hlo.add %g, %w : tensor<4x6xf32>
  %nm = hlo.add %m, %l2 : tensor<4x6xf32>
  %nw = hlo.sub %w, %nm : tensor<4x6xf32>
  return %nw, %nm : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// The gradient as JAX emits it: a dot yielding [out, in] and a transpose to the weight's
// [in, out]. The pair becomes one dot with its operands swapped, which is then sharded like
// any gradient: unreduced, resharded to the split, the update on the shard.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @transposed_gradient
// CHECK-NOT: hlo.transpose
// CHECK: %[[G:.*]] = hlo.dot_general %[[X:[^,]*]], %[[DY:[^,]*]], lhs_contract = [0], rhs_contract = [0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {}], unreduced={"data"}>]>} : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[GS:.*]] = tessel.reshard %[[G]] <@mesh, [{"data"}, {}]>
// CHECK: hlo.add %{{.*}}, %[[GS]] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// SPMD-LABEL: func.func @transposed_gradient
// SPMD-NOT: hlo.transpose
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<4x6xf32>) -> tensor<2x6xf32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<2x6xf32>) -> tensor<4x6xf32>
func.func @transposed_gradient(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %gt = hlo.dot_general %dy, %x, lhs_contract = [0], rhs_contract = [0] : (tensor<8x6xf32>, tensor<8x4xf32>) -> tensor<6x4xf32>
  %g = hlo.transpose %gt, permutation = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %nm = hlo.add %m, %g : tensor<4x6xf32>
  %nw = hlo.sub %w, %nm : tensor<4x6xf32>
  return %y, %nw, %nm : tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// A bias gradient as JAX emits it: a sum over the split batch, then a reshape to [1, 6] and
// a sum over that size-1 dimension, which is folded away. The batch sum is the gradient: it
// is left unreduced and reduce-scattered onto the momentum's split.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @bias_gradient
// CHECK: %[[S:.*]] = hlo.reduce(%{{.*}}) init(%{{.*}}) dimensions = [0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}], unreduced={"data"}>]>}
// CHECK: tessel.reshard %[[S]] <@mesh, [{"data"}]>
// CHECK-NOT: hlo.reshape
// SPMD-LABEL: func.func @bias_gradient
// SPMD-NOT: tessel.all_reduce
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<6xf32>) -> tensor<3xf32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<3xf32>) -> tensor<6xf32>
func.func @bias_gradient(
    %dy: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %b: tensor<6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>},
    %mb: tensor<6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>})
    -> (tensor<8x6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<6xf32>) -> tensor<8x6xf32>
  %out = hlo.add %dy, %bb : tensor<8x6xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%dy) init(%zero) dimensions = [0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %r = hlo.reshape %s : (tensor<6xf32>) -> tensor<1x6xf32>
  %gb = hlo.reduce(%r) init(%zero) dimensions = [0] : (tensor<1x6xf32>, tensor<f32>) -> tensor<6xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %nm = hlo.add %mb, %gb : tensor<6xf32>
  %nb = hlo.sub %b, %nm : tensor<6xf32>
  return %out, %nb, %nm : tensor<8x6xf32>, tensor<6xf32>, tensor<6xf32>
}

// -----

// Clipping by global norm before momentum: the norm is a sum of squares of the gradients,
// which reads the update but is no part of it. With the gradients split, each device sums
// the squares of its shards and one scalar all_reduce completes the norm; the clipped
// update runs on the shards.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @clip_by_global_norm
// CHECK-SAME: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
// CHECK: tessel.reshard
// CHECK: hlo.reduce
// SPMD-LABEL: func.func @clip_by_global_norm
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<4x6xf32>) -> tensor<2x6xf32>
// SPMD: tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<f32>
// SPMD-NOT: tessel.all_reduce
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<2x6xf32>) -> tensor<4x6xf32>
func.func @clip_by_global_norm(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %sq = hlo.mul %g, %g : tensor<4x6xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %sum = hlo.reduce(%sq) init(%zero) dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %norm = hlo.sqrt %sum : tensor<f32>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %big = hlo.max %norm, %one : tensor<f32>
  %scale = hlo.div %one, %big : tensor<f32>
  %scaleb = hlo.broadcast_in_dim %scale, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
  %clipped = hlo.mul %g, %scaleb : tensor<4x6xf32>
  %nm = hlo.add %m, %clipped : tensor<4x6xf32>
  %nw = hlo.sub %w, %nm : tensor<4x6xf32>
  return %y, %nw, %nm : tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// A LAMB-style trust ratio: the update is scaled by the norm of the weight over the norm of
// the update. The update's norm is summed from its shards (one scalar all_reduce); the
// weight's norm reads the whole replicated weight and needs no collective.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @trust_ratio
// CHECK: tessel.reshard
// SPMD-LABEL: func.func @trust_ratio
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<4x6xf32>) -> tensor<2x6xf32>
// SPMD: tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<f32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<2x6xf32>) -> tensor<4x6xf32>
func.func @trust_ratio(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %g = hlo.dot_general %x, %y, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %nm = hlo.add %m, %g : tensor<4x6xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %usq = hlo.mul %nm, %nm : tensor<4x6xf32>
  %usum = hlo.reduce(%usq) init(%zero) dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %wsq = hlo.mul %w, %w : tensor<4x6xf32>
  %wsum = hlo.reduce(%wsq) init(%zero) dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %ratio = hlo.div %wsum, %usum : tensor<f32>
  %trust = hlo.sqrt %ratio : tensor<f32>
  %trustb = hlo.broadcast_in_dim %trust, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
  %step = hlo.mul %nm, %trustb : tensor<4x6xf32>
  %nw = hlo.sub %w, %step : tensor<4x6xf32>
  return %y, %nw, %nm : tensor<8x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// A convolution kernel's gradient contracts the split batch (the input's batch is the
// convolution's feature dimension): it is a partial sum like a dot's, reduce-scattered onto
// the update's split.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @conv_kernel_gradient
// CHECK: %[[G:.*]] = hlo.convolution {{.*}} unreduced={"data"}
// CHECK: tessel.reshard %[[G]] <@mesh, [{}, {}, {}, {"data"}]>
// SPMD-LABEL: func.func @conv_kernel_gradient
// SPMD-NOT: tessel.all_reduce
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 3 kind = sum : (tensor<3x3x3x4xf32>) -> tensor<3x3x3x2xf32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 3 : (tensor<3x3x3x2xf32>) -> tensor<3x3x3x4xf32>
func.func @conv_kernel_gradient(
    %x: tensor<8x6x6x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}, {}, {}]>},
    %dy: tensor<8x6x6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}, {}, {}]>},
    %k: tensor<3x3x3x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}, {}]>},
    %m: tensor<3x3x3x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}, {}]>})
    -> (tensor<8x6x6x4xf32>, tensor<3x3x3x4xf32>, tensor<3x3x3x4xf32>) {
  %y = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], padding = [[1, 1], [1, 1]] : (tensor<8x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<8x6x6x4xf32>
  %e = hlo.mul %y, %dy : tensor<8x6x6x4xf32>
  %g = hlo.convolution %x, %e, dims = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], padding = [[1, 1], [1, 1]] : (tensor<8x6x6x3xf32>, tensor<8x6x6x4xf32>) -> tensor<3x3x3x4xf32>
  %nm = hlo.add %m, %g : tensor<3x3x3x4xf32>
  %nk = hlo.sub %k, %nm : tensor<3x3x3x4xf32>
  return %y, %nk, %nm : tensor<8x6x6x4xf32>, tensor<3x3x3x4xf32>, tensor<3x3x3x4xf32>
}

// -----

// Left alone: with a batch of 2 rows per device the split operands are cheaper to gather
// than the 16x16 gradient is to reduce, so the partitioner computes it whole.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @cheaper_to_gather
// CHECK-NOT: tessel.reshard
// CHECK: return
func.func @cheaper_to_gather(
    %x: tensor<4x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<4x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<16x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{weight-update sharding leaves the update of this gradient alone: its split operands (512 bytes) are cheaper to gather than the gradient is to reduce (2048 bytes)}}
  %g = hlo.dot_general %x, %dy, lhs_contract = [0], rhs_contract = [0] : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
  %nm = hlo.add %m, %g : tensor<16x16xf32>
  %nw = hlo.sub %w, %nm : tensor<16x16xf32>
  return %y, %nw, %nm : tensor<4x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// Left alone: a 3x5 gradient over 4 devices divides by no part of them, and padding its
// rows to 4 would send a third more than the all_reduce.
tessel.mesh @mesh = <["data"=4]>
// CHECK-LABEL: func.func @too_much_padding
// CHECK-NOT: tessel.reshard
// CHECK: return
func.func @too_much_padding(
    %x: tensor<16x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<16x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<3x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m: tensor<3x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<16x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<16x3xf32>, tensor<3x5xf32>) -> tensor<16x5xf32>
  // expected-remark @+1 {{weight-update sharding leaves the update of this gradient alone: no dimension of the gradient divides by any part of the 4 devices it is summed over, and splitting dimension 0 would pad it by 33%}}
  %g = hlo.dot_general %x, %dy, lhs_contract = [0], rhs_contract = [0] : (tensor<16x3xf32>, tensor<16x5xf32>) -> tensor<3x5xf32>
  %nm = hlo.add %m, %g : tensor<3x5xf32>
  %nw = hlo.sub %w, %nm : tensor<3x5xf32>
  return %y, %nw, %nm : tensor<16x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
}

// -----

// A weight of rank 3 used as a matrix (its two leading dimensions flattened, as a
// DenseGeneral layer does): the gradient's dot yields [4, 6] and a reshape gives the
// weight's [2, 2, 6]. The dot and the reshape stay partial sums; the reshape's result is
// the gradient, reduce-scattered onto the update's split.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @reshaped_gradient
// CHECK: hlo.dot_general {{.*}}unreduced={"data"}
// CHECK: %[[G:.*]] = hlo.reshape {{.*}}unreduced={"data"}
// CHECK: tessel.reshard %[[G]] <@mesh, [{"data"}, {}, {}]>
// SPMD-LABEL: func.func @reshaped_gradient
// SPMD-NOT: tessel.all_reduce
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<2x2x6xf32>) -> tensor<1x2x6xf32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<1x2x6xf32>) -> tensor<2x2x6xf32>
func.func @reshaped_gradient(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<2x2x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}]>},
    %m: tensor<2x2x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}]>})
    -> (tensor<8x6xf32>, tensor<2x2x6xf32>, tensor<2x2x6xf32>) {
  %wm = hlo.reshape %w : (tensor<2x2x6xf32>) -> tensor<4x6xf32>
  %y = hlo.dot_general %x, %wm, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %e = hlo.mul %y, %dy : tensor<8x6xf32>
  %gm = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %g = hlo.reshape %gm : (tensor<4x6xf32>) -> tensor<2x2x6xf32>
  %nm = hlo.add %m, %g : tensor<2x2x6xf32>
  %nw = hlo.sub %w, %nm : tensor<2x2x6xf32>
  return %y, %nw, %nm : tensor<8x6xf32>, tensor<2x2x6xf32>, tensor<2x2x6xf32>
}

// -----

// A training loop of three momentum steps: the while body is analysed like a function; the
// momentum carry stays split between trips, and so do the function's momentum argument and
// result, which the loop takes and returns directly.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @training_loop
// CHECK-SAME: %{{[^:]*}}: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
// CHECK-SAME: -> (tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}, tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
// CHECK: hlo.while{{.*}}<@mesh, [{"data"}, {}]>]>}
// SPMD-LABEL: func.func @training_loop
// SPMD: hlo.while
// SPMD: } do {
// SPMD-NOT: tessel.all_reduce
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<4x6xf32>) -> tensor<2x6xf32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<2x6xf32>) -> tensor<4x6xf32>
// SPMD: hlo.return
func.func @training_loop(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w0: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %m0: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:4 = hlo.while(%i = %zero, %xs = %x, %w = %w0, %m = %m0) : tensor<i32>, tensor<8x4xf32>, tensor<4x6xf32>, tensor<4x6xf32>
  cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %y = hlo.dot_general %xs, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    %t = hlo.tanh %y : tensor<8x6xf32>
    %g = hlo.dot_general %xs, %t, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
    %nm = hlo.add %m, %g : tensor<4x6xf32>
    %nw = hlo.sub %w, %nm : tensor<4x6xf32>
    hlo.return %i1, %xs, %nw, %nm : tensor<i32>, tensor<8x4xf32>, tensor<4x6xf32>, tensor<4x6xf32>
  }
  return %r#2, %r#3 : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Adafactor-style factored second moment: a row statistic of the squared gradient (a
// reduce over the columns, kept whole as small optimizer state) comes back into the update
// as a broadcast. The update runs on the gradient's rows split over "data"; the statistic
// is reduced on the shards and only its 2 values per device are gathered.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @factored_second_moment
// CHECK: tessel.reshard
// CHECK: hlo.broadcast_in_dim {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// SPMD-LABEL: func.func @factored_second_moment
// SPMD: tessel.reduce_scatter %{{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<4x6xf32>) -> tensor<2x6xf32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<2xf32>) -> tensor<4xf32>
// SPMD-NOT: tessel.all_gather %{{.*}} : (tensor<2x6xf32>) -> tensor<4x6xf32>
// SPMD: tessel.all_gather %{{.*}} over @mesh ["data"] dim = 0 : (tensor<2x6xf32>) -> tensor<4x6xf32>
func.func @factored_second_moment(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>},
    %r: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>})
    -> (tensor<8x6xf32>, tensor<4x6xf32>, tensor<4xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %e = hlo.mul %y, %dy : tensor<8x6xf32>
  %g = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %gg = hlo.mul %g, %g : tensor<4x6xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %rows = hlo.reduce(%gg) init(%zero) dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %nr = hlo.add %r, %rows : tensor<4xf32>
  %nrb = hlo.broadcast_in_dim %nr, dims = [0] : (tensor<4xf32>) -> tensor<4x6xf32>
  %den = hlo.sqrt %nrb : tensor<4x6xf32>
  %step = hlo.div %g, %den : tensor<4x6xf32>
  %nw = hlo.sub %w, %step : tensor<4x6xf32>
  return %y, %nw, %nr : tensor<8x6xf32>, tensor<4x6xf32>, tensor<4xf32>
}

// -----

// Left alone: the new momentum is pinned split over "data" on its size-1 dimension, which
// propagation carries back to the reshape of the gradient but not to the dot. The reshaped
// gradient is then split over the axis it is summed over: it is reduced before it is split
// and cannot stay a partial sum.
tessel.mesh @mesh = <["data"=2]>
// CHECK-LABEL: func.func @gradient_split_over_its_sum_axis
// CHECK-NOT: tessel.reshard
// CHECK: return
// SPMD-LABEL: func.func @gradient_split_over_its_sum_axis
// SPMD-NOT: tessel.reduce_scatter
// SPMD: return
func.func @gradient_split_over_its_sum_axis(
    %x: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %dy: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %w: tensor<4x6x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}]>},
    %m: tensor<4x6x1xf32>)
    -> (tensor<4x6x1xf32>, tensor<4x6x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"data"}]>}) {
  %g = hlo.dot_general %x, %dy, lhs_contract = [0], rhs_contract = [0] : (tensor<8x4xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  // expected-remark @+1 {{weight-update sharding leaves the update of this gradient alone: it is already split over {"data"}, the axes it is summed over}}
  %r = hlo.reshape %g : (tensor<4x6xf32>) -> tensor<4x6x1xf32>
  %nm = hlo.add %m, %r : tensor<4x6x1xf32>
  // expected-warning @+1 {{operand 0 is pinned to {} and operand 1 to {"data"} on a dimension they share; the partitioner will reshard}}
  %nw = hlo.sub %w, %nm : tensor<4x6x1xf32>
  return %nw, %nm : tensor<4x6x1xf32>, tensor<4x6x1xf32>
}
