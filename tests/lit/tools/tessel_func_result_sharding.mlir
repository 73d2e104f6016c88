// `jax.jit(f, out_shardings=...)` wraps each result in Shardy's identity call
// `xla.sdy.FuncResultSharding`; the result's sharding is on the ROOT as `sharding=`, so
// import drops the call: nothing is partitioned by replication and --check passes.
// RUN: rm -rf %t && split-file %s %t
// RUN: tessel partition %t/out_shardings.hlo 2>&1 | FileCheck %s --check-prefix=PARTITION
// RUN: tessel run %t/out_shardings.hlo --check --print_limit=0 | FileCheck %s --check-prefix=CHECKED

// PARTITION-NOT: warning
// PARTITION-NOT: custom_call
// PARTITION: func.func @main(%arg0: tensor<2x4xf32> {{.*}}, %arg1: tensor<4x3xf32> {{.*}}) -> (tensor<2x3xf32>
// PARTITION-NOT: tessel.all_gather
// PARTITION: hlo.tanh {{.*}} : tensor<2x3xf32>
// PARTITION-NOT: custom_call

// CHECKED: check: result 0 f32[8,6] matches

// Lowered by JAX 0.10.2 from jnp.tanh(x @ w), x split over "data", w over "model", the
// result over both.
//--- out_shardings.hlo
HloModule jit_f, entry_computation_layout={(f32[8,4]{1,0}, f32[4,6]{1,0})->f32[8,6]{1,0}}, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["data"=4, "model"=2]>}}

ENTRY main.1 {
  x.1 = f32[8,4]{1,0} parameter(0), sharding={devices=[4,1,2]<=[8] last_tile_dim_replicate}, frontend_attributes={xla.sdy.sharding="#sdy.sharding<@mesh, [{\"data\"}, {}]>"}
  w.1 = f32[4,6]{1,0} parameter(1), sharding={devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}, frontend_attributes={xla.sdy.sharding="#sdy.sharding<@mesh, [{}, {\"model\"}]>"}
  dot_general.1 = f32[8,6]{1,0} dot(x.1, w.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  tanh.2 = f32[8,6]{1,0} tanh(dot_general.1)
  tanh.3 = f32[8,6]{1,0} custom-call(tanh.2), custom_call_target="xla.sdy.FuncResultSharding", custom_call_has_side_effect=true, frontend_attributes={xla.sdy.sharding="#sdy.sharding_per_value<[<@mesh, [{\"data\"}, {\"model\"}]>]>"}
  tuple.1 = (f32[8,6]{1,0}) tuple(tanh.3)
  ROOT get-tuple-element.1 = f32[8,6]{1,0} get-tuple-element(tuple.1), index=0, sharding={devices=[4,2]<=[8]}
}


