// RUN: tessel-opt %s -split-input-file --tessel-import-hlo-shardings | FileCheck %s
// The imported IR parses, verifies and prints the same again.
// RUN: tessel-opt %s -split-input-file --tessel-import-hlo-shardings | tessel-opt -split-input-file | FileCheck %s

// Arguments, results, ops and GSPMD's Sharding custom call share one mesh; {replicated} is
// fully replicated and closed; [2,4]<=[4,2]T(1,0) splits dim 0 over the minor axis.
// CHECK-LABEL: tessel.mesh @mesh = <["axis_0"=4, "axis_1"=2]>
// CHECK: func.func @main(%arg0: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"axis_0"}, {}]>}, %arg1: tensor<16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}]>}) -> (tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"axis_0"}, {"axis_1"}]>})
// CHECK: hlo.add %arg0, %0 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"axis_1"}, {"axis_0"}]>]>}
// CHECK: %[[C:.*]] = tessel.sharding_constraint %1 <@mesh, [{"axis_0"}, {"axis_1"}]> : tensor<8x16xf32>
// CHECK: return %[[C]]
// CHECK-NOT: hlo_sharding
// CHECK-NOT: custom_call
func.func @main(%arg0: tensor<8x16xf32> {tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
                %arg1: tensor<16xf32> {tessel.hlo_sharding = "{replicated}"})
    -> (tensor<8x16xf32> {tessel.hlo_sharding = "{devices=[4,2]<=[8]}"}) {
  %0 = hlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %1 = hlo.add %arg0, %0 {tessel.hlo_sharding = "{devices=[2,4]<=[4,2]T(1,0)}"} : tensor<8x16xf32>
  %2 = hlo.custom_call @Sharding(%1) {tessel.hlo_sharding = "{devices=[4,2]<=[8]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// A tuple sharding on an op gives one entry per result; another custom call stays.
// CHECK-LABEL: tessel.mesh @mesh = <["axis_0"=2]>
// CHECK: hlo.custom_call @kernel(%arg0) {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"axis_0"}]>, <@mesh, [{}]>]>}
func.func @tuple(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0:2 = hlo.custom_call @kernel(%arg0) {tessel.hlo_sharding = "{{devices=[2]<=[2]}, {replicated}}"} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
}

// -----

// Only replicated shardings: the device count is that of the existing mesh (the one HLO
// import makes for collectives), and the imported mesh, which differs, gets a fresh name.
// CHECK-LABEL: tessel.mesh @mesh_hlo = <["axis_0"=4]>
// CHECK: tessel.mesh @mesh = <["axis_0"=2, "axis_1"=2]>
// CHECK: func.func @existing_mesh(%arg0: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh_hlo, [{}]>})
tessel.mesh @mesh = <["axis_0"=2, "axis_1"=2]>
func.func @existing_mesh(%arg0: tensor<8xf32> {tessel.hlo_sharding = "{replicated}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// An existing mesh that is the imported one is reused.
// CHECK-LABEL: tessel.mesh @mesh = <["axis_0"=2]>
// CHECK-NOT: tessel.mesh
// CHECK: func.func @same_mesh(%arg0: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"axis_0"}]>})
tessel.mesh @mesh = <["axis_0"=2]>
func.func @same_mesh(%arg0: tensor<8xf32> {tessel.hlo_sharding = "{devices=[2]0,1}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// A module without sharding strings is left alone.
// CHECK-LABEL: func.func @none(%arg0: tensor<8xf32>) -> tensor<8xf32>
func.func @none(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// In a module with manual computations (GSPMD's shard_maps, imported first), their mesh joins
// the factorization first: a coarser sharding lands on it, with its names, instead of on a
// mesh of its own.
// CHECK-LABEL: tessel.mesh @mesh = <["data"=2, "model"=2, "seq"=2]>
// CHECK-NOT: tessel.mesh
// CHECK: func.func @manual_mesh(%arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data", "model"}, {"seq"}]>})
tessel.mesh @mesh = <["data"=2, "model"=2, "seq"=2]>
func.func @manual_mesh(%arg0: tensor<8x8xf32> {tessel.hlo_sharding = "{devices=[4,2]<=[8]}"}) -> tensor<8x8xf32> {
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {"model"}]>] out_shardings=[<@mesh, [{"data"}, {"model"}]>] manual_axes={"data", "model", "seq"} (%a: tensor<4x4xf32>) {
    tessel.return %a : tensor<4x4xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A Sharding call whose Shardy annotation leaves every dimension open says nothing (JAX's
// GSPMD text beside it, {replicated}, is only the nearest form): it goes, and is not a
// replicated constraint. One with a closed dimension stays, its open one open.
// CHECK-LABEL: func @open_shardy_annotation
module attributes {tessel.hlo_frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
func.func @open_shardy_annotation(%x: tensor<8x16xf32> {tessel.hlo_sharding = "{devices=[2,1]0,1}"}) -> tensor<8x16xf32> {
  // CHECK: %[[T:.*]] = hlo.tanh %arg0
  %0 = hlo.tanh %x : tensor<8x16xf32>
  // CHECK-NOT: tessel.sharding_constraint %[[T]]
  %1 = hlo.custom_call @Sharding(%0) {tessel.hlo_sharding = "{replicated}", tessel.hlo_frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: %[[N:.*]] = hlo.neg %[[T]]
  %2 = hlo.neg %1 : tensor<8x16xf32>
  // CHECK: tessel.sharding_constraint %[[N]] <@mesh, [{}, {?}]>
  %3 = hlo.custom_call @Sharding(%2) {tessel.hlo_sharding = "{replicated}", tessel.hlo_frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {?}]>]>"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}
}

// -----

// Dimensions a Sharding call leaves unconstrained (JAX's P.UNCONSTRAINED) stay open: GSPMD
// lists them in backend_config, Shardy writes `?` in its annotation. The GSPMD text alone
// would read them as closed and replicated. The Shardy mesh the module declares gives the
// axis its name.
// CHECK-LABEL: func @unconstrained_dims
module attributes {tessel.hlo_frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}} {
func.func @unconstrained_dims(%x: tensor<8x16xf32> {tessel.hlo_sharding = "{devices=[2,1]0,1}"}) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  // CHECK: tessel.sharding_constraint %arg0 <@mesh, [{?}, {"x"}]>
  %0 = hlo.custom_call @Sharding(%x) {backend_config = "unspecified_dims=[0]", tessel.hlo_sharding = "{devices=[1,2]0,1}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: tessel.sharding_constraint %arg0 <@mesh, [{}, {"x", ?}]>
  %1 = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[1,2]0,1}", tessel.hlo_frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22x\22, ?}]>]>"}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
}
