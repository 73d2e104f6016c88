// RUN: tessel-opt %s -split-input-file --tessel-import-sharding-groups -verify-diagnostics | FileCheck %s

// Shardy's form: one custom call per value, the group id as a frontend attribute.
// CHECK-LABEL: func @shardy
func.func @shardy(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NOT: xla.sdy.ShardingGroup
  // CHECK: %[[S:.*]] = hlo.sin %arg0
  %0 = hlo.sin %x : tensor<8x16xf32>
  hlo.custom_call @xla.sdy.ShardingGroup(%0) {has_side_effect = true, tessel.hlo_frontend_attributes = {xla.sdy.sharding_group_id = "0 : i64"}} : (tensor<8x16xf32>) -> ()
  // CHECK: %[[C:.*]] = hlo.cos %arg1
  %1 = hlo.cos %y : tensor<8x16xf32>
  hlo.custom_call @xla.sdy.ShardingGroup(%1) {has_side_effect = true, tessel.hlo_frontend_attributes = {xla.sdy.sharding_group_id = "0 : i64"}} : (tensor<8x16xf32>) -> ()
  hlo.custom_call @xla.sdy.ShardingGroup(%x) {has_side_effect = true, tessel.hlo_frontend_attributes = {xla.sdy.sharding_group_id = "7 : i64"}} : (tensor<8x16xf32>) -> ()
  %2 = hlo.add %0, %1 : tensor<8x16xf32>
  // CHECK: tessel.sharding_group %[[S]], %[[C]] group_id = 0 : tensor<8x16xf32>, tensor<8x16xf32>
  // CHECK: tessel.sharding_group %arg0 group_id = 7 : tensor<8x16xf32>
  // CHECK-NEXT: return
  return %2 : tensor<8x16xf32>
}

// -----

// GSPMD's form: `{unknown shard_as N}` on a Sharding call (which becomes its operand), a
// real sharding with shard_as (kept for the sharding import), shard_like (its own ids), a
// parameter, and `{unknown}` alone (no sharding).
// CHECK-LABEL: func @gspmd
func.func @gspmd(%x: tensor<8x16xf32> {tessel.hlo_sharding = "{devices=[2,1]0,1 shard_as 1}"},
                 %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-SAME: %arg0: tensor<8x16xf32> {tessel.hlo_sharding = "{devices=[2,1]0,1}"}
  %0 = hlo.cos %y : tensor<8x16xf32>
  // CHECK-NOT: @Sharding
  %1 = hlo.custom_call @Sharding(%0) {has_side_effect = true, tessel.hlo_sharding = "{unknown shard_as 1}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: %[[N:.*]] = hlo.neg %{{.*}} : tensor<8x16xf32>
  %2 = hlo.neg %1 {tessel.hlo_sharding = "{unknown shard_like 1}"} : tensor<8x16xf32>
  // CHECK: hlo.abs %[[N]] : tensor<8x16xf32>
  %3 = hlo.abs %2 {tessel.hlo_sharding = "{unknown}"} : tensor<8x16xf32>
  %4 = hlo.custom_call @Sharding(%3) {tessel.hlo_sharding = "{devices=[1,2]0,1 shard_like 1}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: %[[K:.*]] = hlo.custom_call @Sharding(%{{.*}}) {tessel.hlo_sharding = "{devices=[1,2]0,1}"}
  // CHECK: tessel.sharding_group %arg0, %{{.*}} group_id = 1 : tensor<8x16xf32>, tensor<8x16xf32>
  // CHECK: tessel.sharding_group %[[N]], %[[K]] group_id = 1 : tensor<8x16xf32>, tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

// -----

func.func @different_blocks(%x: tensor<4xf32>, %p: tensor<i1>) -> tensor<4xf32> {
  hlo.custom_call @xla.sdy.ShardingGroup(%x) {has_side_effect = true, tessel.hlo_frontend_attributes = {xla.sdy.sharding_group_id = "2 : i64"}} : (tensor<4xf32>) -> ()
  %c = hlo.constant dense<0> : tensor<i32>
  %r = hlo.case %c branches {
    %n = hlo.neg %x : tensor<4xf32>
    // expected-error @+1 {{sharding group 2 joins values of different blocks; its values must be in one block}}
    hlo.custom_call @xla.sdy.ShardingGroup(%n) {has_side_effect = true, tessel.hlo_frontend_attributes = {xla.sdy.sharding_group_id = "2 : i64"}} : (tensor<4xf32>) -> ()
    hlo.return %n : tensor<4xf32>
  } : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @bad_id(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.sdy.ShardingGroup' needs one operand and a frontend attribute xla.sdy.sharding_group_id="N : i64"}}
  hlo.custom_call @xla.sdy.ShardingGroup(%x) {has_side_effect = true, tessel.hlo_frontend_attributes = {xla.sdy.sharding_group_id = "zero"}} : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @unequal_shapes(%x: tensor<4xf32>, %y: tensor<2x2xf32>) {
  hlo.custom_call @xla.sdy.ShardingGroup(%x) {has_side_effect = true, tessel.hlo_frontend_attributes = {xla.sdy.sharding_group_id = "0 : i64"}} : (tensor<4xf32>) -> ()
  // expected-error @+1 {{sharding group 0 joins a value of type 'tensor<2x2xf32>' to one of type 'tensor<4xf32>'; only values of one shape can be sharded alike}}
  hlo.custom_call @xla.sdy.ShardingGroup(%y) {has_side_effect = true, tessel.hlo_frontend_attributes = {xla.sdy.sharding_group_id = "0 : i64"}} : (tensor<2x2xf32>) -> ()
  return
}

// -----

func.func @shard_as_on_several_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{a sharding with shard_as needs an instruction of one result}}
  %0:2 = hlo.optimization_barrier %x, %x : tensor<4xf32>, tensor<4xf32> {tessel.hlo_sharding = "{unknown shard_as 3}"}
  return
}
