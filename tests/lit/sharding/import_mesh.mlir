// RUN: tessel-opt %s -split-input-file --tessel-import-mesh | FileCheck %s
// The imported IR parses, verifies and prints the same again.
// RUN: tessel-opt %s -split-input-file --tessel-import-mesh | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: tessel.mesh @mesh = <["axis_0"=2, "axis_1"=4]>
// CHECK-NOT: mesh.mesh
mesh.mesh @mesh(shape = 2x4)

// -----

// Every mesh of the module is imported; axes of size 1 stay.
// CHECK-LABEL: tessel.mesh @a = <["axis_0"=8]>
// CHECK-NEXT: tessel.mesh @b = <["axis_0"=1, "axis_1"=2, "axis_2"=3]>
mesh.mesh @a(shape = 8)
mesh.mesh @b(shape = 1x2x3)

// -----

mesh.mesh @mesh(shape = 2x4)

// The annotation of an argument's own value moves onto the argument.
// CHECK-LABEL: func @argument_annotation
// CHECK-SAME: (%[[ARG:.*]]: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"axis_0"}, {"axis_1"}]>})
// CHECK-NOT: mesh.shard
// CHECK-NOT: tessel.sharding_constraint
// CHECK: return %[[ARG]]
func.func @argument_annotation(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = mesh.shard %arg0 to <@mesh, [[0], [1]]> : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

// An annotation for the users of an argument constrains the value where it is used.
// CHECK-LABEL: func @annotation_for_users
// CHECK-SAME: (%[[ARG:[^:]*]]: tensor<8x16xf32>)
// CHECK: %[[C:.*]] = tessel.sharding_constraint %[[ARG]] <@mesh, [{}, {"axis_1"}]> : tensor<8x16xf32>
// CHECK: return %[[C]]
func.func @annotation_for_users(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = mesh.shard %arg0 to <@mesh, [[], [1]]> annotate_for_users : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

// An annotated op result becomes a constraint; several axes keep their major-to-minor order,
// and dimensions past the split lists are not split.
// CHECK-LABEL: func @op_result
// CHECK: %[[ADD:.*]] = hlo.add
// CHECK: %[[C:.*]] = tessel.sharding_constraint %[[ADD]] <@mesh, [{"axis_1", "axis_0"}, {}, {}]> : tensor<8x4x2xf32>
// CHECK: return %[[C]]
func.func @op_result(%arg0: tensor<8x4x2xf32>) -> tensor<8x4x2xf32> {
  %0 = hlo.add %arg0, %arg0 : tensor<8x4x2xf32>
  %1 = mesh.shard %0 to <@mesh, [[1, 0]]> : tensor<8x4x2xf32>
  return %1 : tensor<8x4x2xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

// Partial sums over mesh axes are unreduced axes.
// CHECK-LABEL: func @partial_sum
// CHECK: tessel.sharding_constraint %{{.*}} <@mesh, [{"axis_1"}, {}], unreduced={"axis_0"}> : tensor<8x16xf32>
func.func @partial_sum(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = hlo.add %arg0, %arg0 : tensor<8x16xf32>
  %1 = mesh.shard %0 to <@mesh, [[1]], partial = sum[0]> : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

mesh.mesh @mesh(shape = 4)

// Upstream writes one empty list for a scalar.
// CHECK-LABEL: func @scalar
// CHECK-SAME: tensor<f32> {tessel.sharding = #tessel.sharding<@mesh, []>}
func.func @scalar(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = mesh.shard %arg0 to <@mesh, [[]]> : tensor<f32>
  return %0 : tensor<f32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

// A chain of annotations: the argument takes the first; the second, again on the value
// itself, cannot replace it and becomes a constraint; so does the one for users.
// CHECK-LABEL: func @chained_annotations
// CHECK-SAME: (%[[ARG:.*]]: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"axis_0"}, {}]>})
// CHECK: %[[C1:.*]] = tessel.sharding_constraint %[[ARG]] <@mesh, [{}, {"axis_0"}]>
// CHECK: %[[C2:.*]] = tessel.sharding_constraint %[[C1]] <@mesh, [{"axis_1"}, {}]>
// CHECK: return %[[C2]]
func.func @chained_annotations(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = mesh.shard %arg0 to <@mesh, [[0]]> : tensor<8x16xf32>
  %1 = mesh.shard %0 to <@mesh, [[], [0]]> : tensor<8x16xf32>
  %2 = mesh.shard %1 to <@mesh, [[1]]> annotate_for_users : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

// Annotations inside a region are constraints, even on region arguments.
// CHECK-LABEL: func @inside_a_region
// CHECK: hlo.reduce
// CHECK: tessel.sharding_constraint %{{.*}} <@mesh, []> : tensor<f32>
// CHECK-NOT: mesh.shard
func.func @inside_a_region(%arg0: tensor<8xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = hlo.reduce(%arg0) init(%init) dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = mesh.shard %a to <@mesh, [[]]> : tensor<f32>
    %r = hlo.add %s, %b : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  return %0 : tensor<f32>
}
