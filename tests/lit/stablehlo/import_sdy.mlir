// RUN: tessel-opt %s -split-input-file --tessel-import-stablehlo | FileCheck %s

// Shardy's mesh, shardings and constraints are Tessel's; the mesh loses its StableHLO copy.
// CHECK: tessel.mesh @mesh = <["data"=4, "model"=2]>
// CHECK-NOT: stablehlo.mesh
sdy.mesh @mesh = <["data"=4, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 4 : i64}, {name = "model", size = 2 : i64}]}}

// CHECK-LABEL: func @shardings
// CHECK-SAME: tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>
// CHECK-SAME: jax.result_info = "result"
// CHECK-SAME: tessel.sharding = #tessel.sharding<@mesh, [{}, {"model", ?}]>
func.func @shardings(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<8x16xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model", ?}]>}) {
  // CHECK: tessel.sharding_constraint %arg0 <@mesh, [{"data"}, {"model"}]>
  %0 = sdy.sharding_constraint %a <@mesh, [{"data"}, {"model"}]> : tensor<8x16xf32>
  // CHECK: hlo.tanh {{.*}}tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {"model"}]>]>
  %1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} : tensor<8x16xf32>
  // CHECK: tessel.sharding_group %{{.*}} group_id = 0
  sdy.sharding_group %1 group_id=0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// GSPMD strings (`mhlo.sharding`) wait for the HLO sharding import, as HLO text import
// leaves them.
// CHECK-LABEL: func @gspmd
// CHECK-SAME: tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"
func.func @gspmd(%a: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}) -> tensor<8x16xf32> {
  return %a : tensor<8x16xf32>
}

// -----

// shard_map: the manual computation is Tessel's; its collectives name the axes whose
// device groups their replica groups are.
sdy.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @shard_map
func.func @shard_map(%x: tensor<32x16xf32>) -> tensor<32x16xf32> {
  // CHECK: tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {"model"}]>] out_shardings=[<@mesh, [{"data"}, {"model"}]>] manual_axes={"data", "model"}
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"data"}, {"model"}]>] out_shardings=[<@mesh, [{"data"}, {"model"}]>] manual_axes={"data", "model"} (%arg1: tensor<8x8xf32>) {
    // CHECK: tessel.all_gather %{{.*}} over @mesh ["model"] dim = 1
    %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<8x8xf32>) -> tensor<8x16xf32>
    // CHECK: tessel.collective_permute %{{.*}} over @mesh ["data"] pairs = {{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]]
    %2 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 2], [2, 4], [4, 6], [6, 0], [1, 3], [3, 5], [5, 7], [7, 1]]> : tensor<8x2xi64>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    // CHECK: tessel.all_reduce %{{.*}} over @mesh ["data", "model"] kind = max
    %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %4 = stablehlo.slice %1 [0:8, 0:8] : (tensor<8x16xf32>) -> tensor<8x8xf32>
    %5 = stablehlo.add %3, %4 : tensor<8x8xf32>
    // CHECK: tessel.return
    sdy.return %5 : tensor<8x8xf32>
  } : (tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}
