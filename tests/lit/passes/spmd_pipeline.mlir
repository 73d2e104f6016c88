// RUN: tessel-opt %s --split-input-file --tessel-spmd-pipeline | FileCheck %s --check-prefix=DEFAULT
// RUN: tessel-opt %s --split-input-file --pass-pipeline='builtin.module(tessel-spmd-pipeline{combine-collectives=true shard-weight-update=true})' | FileCheck %s --check-prefix=OPTIONS
// The pipeline with its defaults is the passes run one after the other.
// RUN: tessel-opt %s --split-input-file --tessel-spmd-pipeline > %t.pipeline
// RUN: tessel-opt %s --split-input-file --tessel-propagate --tessel-partition --tessel-hierarchical-all-reduce > %t.passes
// RUN: diff %t.pipeline %t.passes

// Two dots whose contracting dimension is split 3 ways each leave a partial sum.
tessel.mesh @mesh = <["x"=3]>
// DEFAULT-LABEL: func.func @two_partial_sums
// OPTIONS-LABEL: func.func @two_partial_sums
func.func @two_partial_sums(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>},
                            %b: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                            %c: tensor<6x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x4xf32>, tensor<8x5xf32>) {
  // DEFAULT: %[[D0:.*]] = hlo.dot_general {{.*}} -> tensor<8x4xf32>
  // DEFAULT: tessel.all_reduce %[[D0]] over @mesh ["x"] kind = sum : tensor<8x4xf32>
  // DEFAULT: %[[D1:.*]] = hlo.dot_general {{.*}} -> tensor<8x5xf32>
  // DEFAULT: tessel.all_reduce %[[D1]] over @mesh ["x"] kind = sum : tensor<8x5xf32>
  // With combining, one all_reduce carries both partial sums (8*4 + 8*5 elements).
  // OPTIONS: hlo.concatenate {{.*}} -> tensor<72xf32>
  // OPTIONS: tessel.all_reduce {{.*}} over @mesh ["x"] kind = sum : tensor<72xf32>
  // OPTIONS-NOT: tessel.all_reduce
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %1 = hlo.dot_general %a, %c, lhs_contract = [1], rhs_contract = [0] : (tensor<8x6xf32>, tensor<6x5xf32>) -> tensor<8x5xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<8x5xf32>
}

// -----

// A data-parallel update: the gradient sums over the batch, split 3 ways.
tessel.mesh @mesh = <["data"=3]>
// DEFAULT-LABEL: func.func @sgd_step
// DEFAULT-SAME: %{{[^:]*}}: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}
// DEFAULT: tessel.all_reduce {{.*}} : tensor<8x4xf32>
// With weight-update sharding the weight is updated 1/3 at a time: 8 rows padded to 9,
// reduce-scattered into 3 rows per device.
// OPTIONS-LABEL: func.func @sgd_step
// OPTIONS-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}
// OPTIONS: %[[G:.*]] = tessel.reduce_scatter {{.*}} over @mesh ["data"] dim = 0 kind = sum : (tensor<9x4xf32>) -> tensor<3x4xf32>
// OPTIONS: hlo.sub %[[W]], %[[G]] : tensor<3x4xf32>
// OPTIONS-NOT: tessel.all_reduce
func.func @sgd_step(%x: tensor<6x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                    %dy: tensor<6x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                    %w: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %g = hlo.dot_general %x, %dy, lhs_contract = [0], rhs_contract = [0] : (tensor<6x8xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %w2 = hlo.sub %w, %g : tensor<8x4xf32>
  return %w2 : tensor<8x4xf32>
}
