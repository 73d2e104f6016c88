// RUN: tessel-opt %s -split-input-file --tessel-import-gspmd-manual-computations -verify-diagnostics | FileCheck %s

// A fully manual shard_map whose body is a call, in a module without a mesh: the pass makes
// one from the tile assignments, inlines the body and erases the body function.
// CHECK: tessel.mesh @mesh = <["axis_0"=4, "axis_1"=2]>
// CHECK-NOT: func.func private @body
// CHECK-LABEL: func.func @called_body
// CHECK: %[[IN:.*]] = hlo.custom_call @Sharding(%arg0)
// CHECK-NEXT: tessel.manual_computation(%[[IN]]) in_shardings=[<@mesh, [{"axis_0"}, {"axis_1"}]>] out_shardings=[<@mesh, [{"axis_0"}, {"axis_1"}]>] manual_axes={"axis_0", "axis_1"} (%[[LOCAL:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[NEG:.*]] = hlo.neg %[[LOCAL]]
// CHECK-NEXT: tessel.return %[[NEG]]
// CHECK-NOT: SPMD
func.func private @body(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %n = hlo.neg %a {tessel.hlo_sharding = "{manual}"} : tensor<2x8xf32>
  return %n : tensor<2x8xf32>
}
func.func @called_body(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4,2]<=[8]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<2x8xf32>
  %b = func.call @body(%l) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = hlo.custom_call @Sharding(%b) {tessel.hlo_sharding = "{manual}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4,2]<=[8]}"} : (tensor<2x8xf32>) -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}

// -----

// Partly manual on the module's mesh, whose names the shardings take: the manual tile dim
// is "data"; a body annotation that also splits over "model" stays as a constraint, one
// that does not goes.
// CHECK-LABEL: func.func @partly_manual
// CHECK: tessel.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%[[LOCAL:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[SPLIT:.*]] = tessel.sharding_constraint %[[LOCAL]] <@mesh, [{}, {"model"}]>
// CHECK-NEXT: %[[ABS:.*]] = hlo.abs %[[SPLIT]]
// CHECK-NEXT: tessel.return %[[ABS]]
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @partly_manual(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{devices=[1,1,4,2]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<8x8xf32>) -> tensor<2x8xf32>
  %c = hlo.custom_call @Sharding(%l) {tessel.hlo_sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dims={manual}}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %a = hlo.abs %c : tensor<2x8xf32>
  %m = hlo.custom_call @Sharding(%a) {tessel.hlo_sharding = "{devices=[1,1,4,2]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<2x8xf32>) -> tensor<8x8xf32>
  return %g : tensor<8x8xf32>
}

// -----

func.func @operand_not_annotated(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{SPMDFullToShardShape needs its operand annotated by a Sharding custom call (the shard_map's in sharding)}}
  %l = hlo.custom_call @SPMDFullToShardShape(%x) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
  %m = hlo.custom_call @Sharding(%l) {tessel.hlo_sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

func.func @entry_not_manual(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{SPMDFullToShardShape needs a manual sharding, got '{replicated}'}}
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<2xf32>
  %m = hlo.custom_call @Sharding(%l) {tessel.hlo_sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

func.func @exit_without_manual_operand(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
  %n = hlo.neg %l : tensor<2xf32>
  // expected-error @+1 {{SPMDShardToFullShape needs a manual operand: a Sharding custom call with a manual sharding}}
  %g = hlo.custom_call @SPMDShardToFullShape(%n) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

func.func @wrong_local_shape(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{the local value has type 'tensor<4xf32>', but the global 'tensor<8xf32>' split by the manual axes {"axis_0"} is 'tensor<2xf32>'}}
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
  %m = hlo.custom_call @Sharding(%l) {tessel.hlo_sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.concatenate %g, %g, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// The second argument's tile assignment cuts the 8 devices in halves, the mesh the collectives
// use (4x2) only in quarters: no one mesh explains both.
tessel.mesh @mesh = <["axis_0"=4, "axis_1"=2]>
func.func @no_one_mesh(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4,2]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<2x4xf32>
  // expected-error @+1 {{sharding {devices=[2,4]<=[8]} splits the devices where mesh @mesh (4x2) has no axis boundary; no one mesh explains both}}
  %t = hlo.custom_call @Sharding(%y) {tessel.hlo_sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %k = hlo.custom_call @SPMDFullToShardShape(%t) {tessel.hlo_sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x2xf32>
  %r = hlo.reshape %k : (tensor<4x2xf32>) -> tensor<2x4xf32>
  %a = hlo.add %l, %r : tensor<2x4xf32>
  %m = hlo.custom_call @Sharding(%a) {tessel.hlo_sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4,2]<=[8]}"} : (tensor<2x4xf32>) -> tensor<8x8xf32>
  return %g : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["axis_0"=4, "axis_1"=2]>
func.func @manual_axes_differ(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4,2]<=[8] last_tile_dim_replicate}"} : (tensor<8xf32>) -> tensor<8xf32>
  // expected-note @+1 {{manual over those here}}
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
  // expected-error @+1 {{is manual over {"axis_0"} but the same shard_map is manual over {"axis_0", "axis_1"}}}
  %m = hlo.custom_call @Sharding(%l) {tessel.hlo_sharding = "{devices=[1,4,2]<=[8] last_tile_dims={manual, replicated}}"} : (tensor<2xf32>) -> tensor<2xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4,2]<=[8] last_tile_dim_replicate}"} : (tensor<2xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

func.func @local_value_escapes(%x: tensor<8xf32>) -> tensor<2xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
  // expected-error @+1 {{a per-device value of a shard_map leaves it without SPMDShardToFullShape}}
  %n = hlo.neg %l : tensor<2xf32>
  return %n : tensor<2xf32>
}

// -----

func.func @global_value_in_body(%x: tensor<8xf32>, %y: tensor<2xf32>) -> tensor<8xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
  // expected-error @+1 {{per-device code of a shard_map uses a global value that does not enter through SPMDFullToShardShape}}
  %a = hlo.add %l, %y : tensor<2xf32>
  %m = hlo.custom_call @Sharding(%a) {tessel.hlo_sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

func.func @body_sharding_not_manual(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<2xf32>
  // expected-error @+1 {{sharding '{replicated}' inside a shard_map body is not manual}}
  %n = hlo.neg %l {tessel.hlo_sharding = "{replicated}"} : tensor<2xf32>
  %m = hlo.custom_call @Sharding(%n) {tessel.hlo_sharding = "{manual}"} : (tensor<2xf32>) -> tensor<2xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<2xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

func.func @in_sharding_manual(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sharding '{manual}' is manual, but it is the in sharding of a shard_map}}
  %s = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
  %l = hlo.custom_call @SPMDFullToShardShape(%s) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
  %m = hlo.custom_call @Sharding(%l) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>) -> tensor<8xf32>
  %g = hlo.custom_call @SPMDShardToFullShape(%m) {tessel.hlo_sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

func.func @two_operands(%x: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{SPMDFullToShardShape takes one operand and gives one result}}
  %l = hlo.custom_call @SPMDFullToShardShape(%x, %x) {tessel.hlo_sharding = "{manual}"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<2xf32>
  return %l : tensor<2xf32>
}
