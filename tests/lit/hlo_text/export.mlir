// Export of IR that import never produces: user meshes, shift permutes, broadcasts that
// expand size-1 dimensions, functions without results. The output imports again.
// RUN: tessel-translate --export-hlo --split-input-file --output-split-marker="// ""-----" %s | FileCheck %s
// RUN: tessel-translate --export-hlo --split-input-file --output-split-marker="// ""-----" %s \
// RUN:   | tessel-translate --import-hlo --split-input-file > /dev/null

// CHECK-LABEL: HloModule collectives, num_partitions=8
// CHECK: %add_reducer
// CHECK: ROOT %add.{{[0-9]+}} = f32[] add(%lhs.{{[0-9]+}}, %rhs.{{[0-9]+}})
// CHECK: %maximum_reducer
// CHECK: ENTRY %main {
// CHECK: all-reduce(%arg0.1), channel_id=1, replica_groups={{[{][{]}}0,2,4,6},{1,3,5,7}}, use_global_device_ids=true, to_apply=%add_reducer
// CHECK: all-gather({{.*}}), channel_id=2, replica_groups={{[{][{]}}0,1},{2,3},{4,5},{6,7}}, dimensions={0}, use_global_device_ids=true
// CHECK: reduce-scatter({{.*}}), channel_id=3, replica_groups={{[{][{]}}0,1},{2,3},{4,5},{6,7}}, dimensions={0}, use_global_device_ids=true, to_apply=%maximum_reducer
// CHECK: all-to-all({{.*}}), channel_id=4, replica_groups={{[{][{]}}0,1,2,3,4,5,6,7}}, dimensions={1}
// CHECK: collective-permute({{.*}}), channel_id=5, source_target_pairs={{[{][{]}}0,2},{2,4},{4,6},{1,3},{3,5},{5,7}}
// CHECK: u32[] partition-id()
module @collectives {
  tessel.mesh @mesh = <["data"=4, "model"=2]>
  func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<ui32>) {
    %0 = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4x8xf32>
    %1 = tessel.all_gather %0 over @mesh ["model"] dim = 0 : (tensor<4x8xf32>) -> tensor<8x8xf32>
    %2 = tessel.reduce_scatter %1 over @mesh ["model"] dim = 0 kind = max : (tensor<8x8xf32>) -> tensor<4x8xf32>
    %3 = tessel.all_to_all %2 over @mesh ["data", "model"] split_dim = 1 concat_dim = 1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = tessel.collective_permute %3 over @mesh ["data"] shift = 1 : tensor<4x8xf32>
    %5 = tessel.partition_id : tensor<ui32>
    return %4, %5 : tensor<4x8xf32>, tensor<ui32>
  }
}

// -----

// CHECK-LABEL: HloModule broadcast
// CHECK: %[[R:.*]] = f32[3]{0} reshape(%arg0.1)
// CHECK: f32[2,3,5]{2,1,0} broadcast(%[[R]]), dimensions={1}
module @broadcast {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<2x3x5xf32> {
    %0 = hlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3x5xf32>
    return %0 : tensor<2x3x5xf32>
  }
}

// -----

// The entry is the only public function when there is no @main; no results give an
// empty tuple.
// CHECK-LABEL: HloModule module
// CHECK: ENTRY %main {
// CHECK: ROOT %tuple.{{[0-9]+}} = () tuple()
func.func @only(%x: tensor<4xf32>) {
  return
}

// -----

// all_to_all with split != concat: the chunks of the split dim go to the front, XLA's
// all-to-all exchanges them there, and they merge into the concat dim.
// CHECK-LABEL: HloModule all_to_all_apart, num_partitions=2
// CHECK: %reshape.{{[0-9]+}} = f32[2,2,4]{2,1,0} reshape(%arg0.1)
// CHECK: %transpose.{{[0-9]+}} = f32[2,2,4]{2,1,0} transpose(%reshape.{{[0-9]+}}), dimensions={0,1,2}
// CHECK: all-to-all(%transpose.{{[0-9]+}}), channel_id=1, replica_groups={{[{][{]}}0,1}}, dimensions={0}
// CHECK: %transpose.{{[0-9]+}} = f32[2,2,4]{2,1,0} transpose(%all-to-all.{{[0-9]+}}), dimensions={1,0,2}
// CHECK: ROOT %reshape.{{[0-9]+}} = f32[2,8]{1,0} reshape(%transpose.{{[0-9]+}})
module @all_to_all_apart {
  tessel.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<4x4xf32>) -> tensor<2x8xf32> {
    %0 = tessel.all_to_all %a over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<4x4xf32>) -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}

// -----

// A while loop whose condition reads a value from outside carries it in its state.
// CHECK-LABEL: HloModule while_capture
// CHECK: %while_condition
// CHECK: %param.{{[0-9]+}} = (f32[], f32[]) parameter(0)
// CHECK: %while_body
// CHECK: ROOT %tuple.{{[0-9]+}} = (f32[], f32[]) tuple(
// CHECK: ENTRY %main {
// CHECK: %tuple.{{[0-9]+}} = (f32[], f32[]) tuple(%arg0.1, %arg1.2)
// CHECK: %while.{{[0-9]+}} = (f32[], f32[]) while(
// CHECK: ROOT %get-tuple-element.{{[0-9]+}} = f32[] get-tuple-element(%while.{{[0-9]+}}), index=0
module @while_capture {
  func.func @main(%x: tensor<f32>, %limit: tensor<f32>) -> tensor<f32> {
    %r = hlo.while(%i = %x) : tensor<f32>
    cond {
      %c = hlo.compare LT, %i, %limit : tensor<f32>
      hlo.return %c : tensor<i1>
    } do {
      %one = hlo.constant dense<1.0> : tensor<f32>
      %n = hlo.add %i, %one : tensor<f32>
      hlo.return %n : tensor<f32>
    }
    return %r : tensor<f32>
  }
}

