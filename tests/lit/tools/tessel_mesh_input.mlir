// Upstream MLIR `mesh` annotations are read by every tessel command, not only by
// tessel-opt --tessel-import-mesh.
// RUN: tessel verify %s | FileCheck %s --check-prefix=VERIFY
// RUN: tessel partition %s | FileCheck %s --check-prefix=PART
// RUN: tessel run --check %s | FileCheck %s --check-prefix=CHECKED

// VERIFY: tessel.mesh @mesh = <["axis_0"=2, "axis_1"=4]>
// VERIFY: tessel.sharding_constraint %arg0 <@mesh, [{"axis_0"}, {"axis_1"}]>

// PART: func.func @main(%arg0: tensor<4x4xf32>

// CHECKED: check: result 0 f32[8,16] matches

mesh.mesh @mesh(shape = 2x4)
func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = mesh.shard %arg0 to <@mesh, [[0], [1]]> annotate_for_users : tensor<8x16xf32>
  %1 = hlo.tanh %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
