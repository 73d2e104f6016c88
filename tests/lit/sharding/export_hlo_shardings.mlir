// RUN: tessel-opt %s -split-input-file --tessel-export-hlo-shardings | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-export-hlo-shardings \
// RUN:   | tessel-opt -split-input-file --tessel-import-hlo-shardings | FileCheck %s --check-prefix=BACK

tessel.mesh @mesh = <["x"=2, "y"=4]>

// Arguments, results, a two-result op (a tuple sharding) and a constraint; importing the
// text again gives the same layouts on a mesh of the same shape.
// CHECK-LABEL: func @shardings
// CHECK-SAME: tessel.hlo_sharding = "{devices=[4,2]<=[2,4]T(1,0)}"
// CHECK-SAME: tessel.hlo_sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"
// CHECK-SAME: -> (tensor<8x16xf32> {tessel.hlo_sharding = "{replicated}"
func.func @shardings(%a: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"x"}]>},
                     %b: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  // CHECK: hlo.optimization_barrier
  // CHECK-SAME: tessel.hlo_sharding = "{{[{][{]}}devices=[4,2]<=[2,4]T(1,0)}, {devices=[2,1,4]<=[8] last_tile_dim_replicate}}"
  %p, %q = hlo.optimization_barrier %a, %b : tensor<8x16xf32>, tensor<8x16xf32> {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>, <@mesh, [{"x"}, {}]>]>}
  // CHECK: tessel.sharding_constraint
  // CHECK-SAME: tessel.hlo_sharding = "{devices=[1,2,4]<=[8] last_tile_dim_replicate}"
  %c = tessel.sharding_constraint %p <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// BACK-LABEL: func @shardings
// BACK-SAME: tessel.sharding = #tessel.sharding<@mesh_hlo, [{"axis_1"}, {"axis_0"}]>
// BACK-SAME: tessel.sharding = #tessel.sharding<@mesh_hlo, [{"axis_0"}, {}]>

// -----

tessel.mesh @mesh = <["x"=2]>

// A one-axis mesh.
// CHECK-LABEL: func @one_axis
func.func @one_axis(%a: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: hlo.neg {{.*}}tessel.hlo_sharding = "{devices=[2]<=[2]}"
  %n = hlo.neg %a {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %n : tensor<8xf32>
}
