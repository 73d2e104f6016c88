// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @closed_and_open_dims
// CHECK-SAME: tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {"model", ?}]>
func.func @closed_and_open_dims(
    %arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {"model", ?}]>}) {
  return
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @open_and_closed_unsharded
// CHECK-SAME: tessel.sharding = #tessel.sharding<@mesh, [{?}, {}]>
func.func @open_and_closed_unsharded(
    %arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{?}, {}]>}) {
  return
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @priorities
// CHECK-SAME: #tessel.sharding<@mesh, [{"data"}p0, {"model", ?}p2]>
func.func @priorities(
    %arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}p0, {"model", ?}p2]>}) {
  return
}

// -----

tessel.mesh @mesh = <["x"=8]>

// CHECK-LABEL: func @sub_axes
// CHECK-SAME: #tessel.sharding<@mesh, [{"x":(1)2}, {"x":(2)4}]>
func.func @sub_axes(
    %arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(1)2}, {"x":(2)4}]>}) {
  return
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2, "z"=2]>

// CHECK-LABEL: func @replicated_and_unreduced
// CHECK-SAME: #tessel.sharding<@mesh, [{"data"}, {}], replicated={"z"}, unreduced={"model"}>
func.func @replicated_and_unreduced(
    %arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}], replicated={"z"}, unreduced={"model"}>}) {
  return
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @replicated_only
// CHECK-SAME: #tessel.sharding<@mesh, [{}, {}], replicated={"model", "data":(2)2}>
func.func @replicated_only(
    %arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}], replicated={"model", "data":(2)2}>}) {
  return
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @unreduced_only
// CHECK-SAME: #tessel.sharding<@mesh, [{"data"}], unreduced={"model"}>
func.func @unreduced_only(
    %arg0: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}], unreduced={"model"}>}) {
  return
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// Scalars have no dimensions to split.
// CHECK-LABEL: func @scalar
// CHECK-SAME: #tessel.sharding<@mesh, []>
func.func @scalar(%arg0: tensor<f32> {tessel.sharding = #tessel.sharding<@mesh, []>}) {
  return
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @result_sharding
// CHECK-SAME: -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}]>})
func.func @result_sharding(%arg0: tensor<8xf32>)
    -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// A declaration has no body; its argument shardings are still attached.
// CHECK-LABEL: func private @declaration
// CHECK-SAME: #tessel.sharding<@mesh, [{"data"}]>
func.func private @declaration(tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}]>})

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// Uneven splits are allowed: the partitioner pads 5 to 8 over 4 devices.
// CHECK-LABEL: func @uneven_split
// CHECK: tessel.sharding_constraint %{{.*}} <@mesh, [{"data"}, {"model"}]> : tensor<5x3xf32>
func.func @uneven_split(%arg0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"data"}, {"model"}]> : tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @sharding_constraint
// CHECK: %[[C:.*]] = tessel.sharding_constraint %arg0 <@mesh, [{"data", ?}p1, {}]> : tensor<8x8xf32>
// CHECK: return %[[C]]
func.func @sharding_constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"data", ?}p1, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @reshard
// CHECK: tessel.reshard %arg0 <@mesh, [{}, {"model"}], unreduced={"data"}> : tensor<8x8xf32>
func.func @reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = tessel.reshard %arg0 <@mesh, [{}, {"model"}], unreduced={"data"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// Ops always carry a sharding per result, even when they have one result.
// CHECK-LABEL: func @op_sharding_single_result
// CHECK: hlo.add %arg0, %arg0 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}
func.func @op_sharding_single_result(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = hlo.add %arg0, %arg0 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>
tessel.mesh @other = <["x"=2]>

// CHECK-LABEL: func @op_sharding_two_results
// CHECK: tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}]>, <@other, [{}, {"x"}]>]>
func.func @op_sharding_two_results(%arg0: tensor<8xf32>, %arg1: tensor<4x4xf32>) -> (tensor<8xf32>, tensor<4x4xf32>) {
  %0:2 = tessel.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{}]>, <@mesh, [{}, {}]>]
      out_shardings=[<@mesh, [{}]>, <@mesh, [{}, {}]>] manual_axes={}
      (%a: tensor<8xf32>, %b: tensor<4x4xf32>) {
    tessel.return %a, %b : tensor<8xf32>, tensor<4x4xf32>
  } {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}]>, <@other, [{}, {"x"}]>]>}
      : (tensor<8xf32>, tensor<4x4xf32>) -> (tensor<8xf32>, tensor<4x4xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<4x4xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// An op without results carries an empty list.
// CHECK-LABEL: func @op_sharding_no_results
// CHECK: return {tessel.sharding = #tessel.sharding_per_value<[]>}
func.func @op_sharding_no_results() {
  return {tessel.sharding = #tessel.sharding_per_value<[]>}
}

// -----

// CHECK-LABEL: func @sharding_group
func.func @sharding_group(%a: tensor<8x16xf32>, %b: tensor<8x16xi32>) {
  // CHECK: tessel.sharding_group %arg0, %arg1 group_id = 3 : tensor<8x16xf32>, tensor<8x16xi32>
  tessel.sharding_group %a, %b group_id = 3 : tensor<8x16xf32>, tensor<8x16xi32>
  return
}
