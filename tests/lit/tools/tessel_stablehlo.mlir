// Every tessel command reads StableHLO + Shardy MLIR (JAX's default output), told from
// Tessel's own MLIR by its content.
// RUN: tessel verify %s | FileCheck %s --check-prefix=VERIFY
// RUN: tessel partition %s | FileCheck %s --check-prefix=PART
// RUN: tessel run --check %s | FileCheck %s --check-prefix=CHECKED
// RUN: tessel explain %s --value=arg0 | FileCheck %s --check-prefix=EXPLAIN
// RUN: tessel report %s | FileCheck %s --check-prefix=REPORT
// RUN: tessel viz %s --value=arg1 | FileCheck %s --check-prefix=VIZ
// RUN: sed 's/"model"=2/"model"=3/' %s > %t.uneven.mlir
// RUN: tessel run --check %t.uneven.mlir | FileCheck %s --check-prefix=UNEVEN

// VERIFY: tessel.mesh @mesh = <["data"=4, "model"=2]>
// VERIFY: hlo.dot_general
// VERIFY: tessel.sharding_constraint

// PART: func.func public @main(%arg0: tensor<2x16xf32> {{.*}}, %arg1: tensor<16x4xf32>
// PART: tessel.all_gather

// CHECKED: check: result 0 f32[8,8] matches

// EXPLAIN: arg0: #tessel.sharding<@mesh, [{"data"}, {}]>

// REPORT: cost report: @main on 8 devices

// VIZ: arg1: tensor<16x8xf32> #tessel.sharding<@mesh, [{}, {"model"}]>

// UNEVEN: check: result 0 f32[8,8] matches

module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4, "model"=2]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.tanh %0 : tensor<8x8xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"data"}, {}]> : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
