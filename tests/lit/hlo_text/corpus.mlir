// Every program of tests/corpus (made by JAX: lowered with Shardy on and off, and XLA's
// SPMD-partitioned form) imports, exports, and imports again to the same module.
// RUN: bash %S/check_corpus_roundtrip.sh %S/../../corpus 15 | FileCheck %s --check-prefix=ALL
// ALL-DAG: conv_net: ok
// ALL-DAG: conv_net.gspmd: ok
// ALL-DAG: conv_net.partitioned: ok
// ALL-DAG: mlp: ok
// ALL-DAG: mlp.gspmd: ok
// ALL-DAG: mlp.partitioned: ok
// ALL-DAG: moe_layer: ok
// ALL-DAG: moe_layer.gspmd: ok
// ALL-DAG: moe_layer.partitioned: ok
// ALL-DAG: train_step: ok
// ALL-DAG: train_step.gspmd: ok
// ALL-DAG: train_step.partitioned: ok
// ALL-DAG: transformer_block: ok
// ALL-DAG: transformer_block.gspmd: ok
// ALL-DAG: transformer_block.partitioned: ok

// XLA's collectives land on axes of the synthesized 2x2x2 mesh: the MoE layer all-gathers
// along "model" (the minor axis) and computes offsets from partition-id.
// RUN: tessel-translate --import-hlo %S/../../corpus/moe_layer.partitioned.hlo | FileCheck %s --check-prefix=MOE
// MOE: tessel.mesh @mesh = <["axis_0"=2, "axis_1"=2, "axis_2"=2]>
// MOE-DAG: tessel.partition_id : tensor<ui32>
// MOE-DAG: tessel.all_gather %{{.*}} over @mesh
// MOE-DAG: tessel.all_reduce %{{.*}} over @mesh

// With Shardy on, the mesh and per-value shardings travel as xla.sdy.* frontend attributes.
// RUN: tessel-translate --import-hlo %S/../../corpus/mlp.hlo | FileCheck %s --check-prefix=SDY
// SDY: module @jit_mlp attributes {tessel.hlo_frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22data\22=4, \22model\22=2]>}"}}
// SDY: %arg0: tensor<32x64xf32> {tessel.hlo_frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22data\22}, {}]>"}, tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}

// With Shardy off there are GSPMD shardings only.
// RUN: tessel-translate --import-hlo %S/../../corpus/mlp.gspmd.hlo | FileCheck %s --check-prefix=GSPMD
// GSPMD-NOT: xla.sdy
// GSPMD: %arg0: tensor<32x64xf32> {tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"}
