// Every program of tests/corpus (made by JAX: lowered with Shardy on and off, and XLA's
// SPMD-partitioned form) imports, exports, and imports again to the same module.
// RUN: bash %S/check_corpus_roundtrip.sh %S/../../corpus 150 | FileCheck %s --check-prefix=ALL
// ALL-DAG: argmax_split.gspmd: ok
// ALL-DAG: argmax_split.partitioned: ok
// ALL-DAG: argmax_split: ok
// ALL-DAG: bf16_mlp.gspmd: ok
// ALL-DAG: bf16_mlp.partitioned: ok
// ALL-DAG: bf16_mlp: ok
// ALL-DAG: cond_branches.gspmd: ok
// ALL-DAG: cond_branches.partitioned: ok
// ALL-DAG: cond_branches: ok
// ALL-DAG: contracting_rowsplit.gspmd: ok
// ALL-DAG: contracting_rowsplit.partitioned: ok
// ALL-DAG: contracting_rowsplit: ok
// ALL-DAG: conv_kernel_grad.gspmd: ok
// ALL-DAG: conv_kernel_grad.partitioned: ok
// ALL-DAG: conv_kernel_grad: ok
// ALL-DAG: conv_net.gspmd: ok
// ALL-DAG: conv_net.partitioned: ok
// ALL-DAG: conv_net: ok
// ALL-DAG: conv_train.gspmd: ok
// ALL-DAG: conv_train.partitioned: ok
// ALL-DAG: conv_train: ok
// ALL-DAG: dp_momentum.gspmd: ok
// ALL-DAG: dp_momentum.partitioned: ok
// ALL-DAG: dp_momentum: ok
// ALL-DAG: dropout_mlp.gspmd: ok
// ALL-DAG: dropout_mlp.partitioned: ok
// ALL-DAG: dropout_mlp: ok
// ALL-DAG: embedding_lookup.gspmd: ok
// ALL-DAG: embedding_lookup.partitioned: ok
// ALL-DAG: embedding_lookup: ok
// ALL-DAG: fori_invariant.gspmd: ok
// ALL-DAG: fori_invariant.partitioned: ok
// ALL-DAG: fori_invariant: ok
// ALL-DAG: fsdp_grad.gspmd: ok
// ALL-DAG: fsdp_grad.partitioned: ok
// ALL-DAG: fsdp_grad: ok
// ALL-DAG: fsdp_mlp.gspmd: ok
// ALL-DAG: fsdp_mlp.partitioned: ok
// ALL-DAG: fsdp_mlp: ok
// ALL-DAG: gelu_erf_mlp.gspmd: ok
// ALL-DAG: gelu_erf_mlp.partitioned: ok
// ALL-DAG: gelu_erf_mlp: ok
// ALL-DAG: int_hash.gspmd: ok
// ALL-DAG: int_hash.partitioned: ok
// ALL-DAG: int_hash: ok
// ALL-DAG: mlp.gspmd: ok
// ALL-DAG: mlp.partitioned: ok
// ALL-DAG: mlp: ok
// ALL-DAG: moe_expert_parallel.gspmd: ok
// ALL-DAG: moe_expert_parallel.partitioned: ok
// ALL-DAG: moe_expert_parallel: ok
// ALL-DAG: moe_gshard.gspmd: ok
// ALL-DAG: moe_gshard.partitioned: ok
// ALL-DAG: moe_gshard: ok
// ALL-DAG: moe_layer.gspmd: ok
// ALL-DAG: moe_layer.partitioned: ok
// ALL-DAG: moe_layer: ok
// ALL-DAG: moe_train.gspmd: ok
// ALL-DAG: moe_train.partitioned: ok
// ALL-DAG: moe_train: ok
// ALL-DAG: opt_2d_mesh.gspmd: ok
// ALL-DAG: opt_2d_mesh.partitioned: ok
// ALL-DAG: opt_2d_mesh: ok
// ALL-DAG: opt_accumulate.gspmd: ok
// ALL-DAG: opt_accumulate.partitioned: ok
// ALL-DAG: opt_accumulate: ok
// ALL-DAG: opt_adafactor.gspmd: ok
// ALL-DAG: opt_adafactor.partitioned: ok
// ALL-DAG: opt_adafactor: ok
// ALL-DAG: opt_adamw.gspmd: ok
// ALL-DAG: opt_adamw.partitioned: ok
// ALL-DAG: opt_adamw: ok
// ALL-DAG: opt_biases.gspmd: ok
// ALL-DAG: opt_biases.partitioned: ok
// ALL-DAG: opt_biases: ok
// ALL-DAG: opt_clip_adam.gspmd: ok
// ALL-DAG: opt_clip_adam.partitioned: ok
// ALL-DAG: opt_clip_adam: ok
// ALL-DAG: opt_lamb.gspmd: ok
// ALL-DAG: opt_lamb.partitioned: ok
// ALL-DAG: opt_lamb: ok
// ALL-DAG: opt_lars.gspmd: ok
// ALL-DAG: opt_lars.partitioned: ok
// ALL-DAG: opt_lars: ok
// ALL-DAG: opt_momentum.gspmd: ok
// ALL-DAG: opt_momentum.partitioned: ok
// ALL-DAG: opt_momentum: ok
// ALL-DAG: opt_sgd.gspmd: ok
// ALL-DAG: opt_sgd.partitioned: ok
// ALL-DAG: opt_sgd: ok
// ALL-DAG: opt_train_loop.gspmd: ok
// ALL-DAG: opt_train_loop.partitioned: ok
// ALL-DAG: opt_train_loop: ok
// ALL-DAG: opt_uneven.gspmd: ok
// ALL-DAG: opt_uneven.partitioned: ok
// ALL-DAG: opt_uneven: ok
// ALL-DAG: parallel_block.gspmd: ok
// ALL-DAG: parallel_block.partitioned: ok
// ALL-DAG: parallel_block: ok
// ALL-DAG: remat_train.gspmd: ok
// ALL-DAG: remat_train.partitioned: ok
// ALL-DAG: remat_train: ok
// ALL-DAG: segment_sum.gspmd: ok
// ALL-DAG: segment_sum.partitioned: ok
// ALL-DAG: segment_sum: ok
// ALL-DAG: seq_parallel_mlp.gspmd: ok
// ALL-DAG: seq_parallel_mlp.partitioned: ok
// ALL-DAG: seq_parallel_mlp: ok
// ALL-DAG: seq_parallel_train.gspmd: ok
// ALL-DAG: seq_parallel_train.partitioned: ok
// ALL-DAG: seq_parallel_train: ok
// ALL-DAG: sort_split.gspmd: ok
// ALL-DAG: sort_split.partitioned: ok
// ALL-DAG: sort_split: ok
// ALL-DAG: topk_logits.gspmd: ok
// ALL-DAG: topk_logits.partitioned: ok
// ALL-DAG: topk_logits: ok
// ALL-DAG: train_step.gspmd: ok
// ALL-DAG: train_step.partitioned: ok
// ALL-DAG: train_step: ok
// ALL-DAG: transformer_block.gspmd: ok
// ALL-DAG: transformer_block.partitioned: ok
// ALL-DAG: transformer_block: ok
// ALL-DAG: transformer_train.gspmd: ok
// ALL-DAG: transformer_train.partitioned: ok
// ALL-DAG: transformer_train: ok
// ALL-DAG: transpose_back.gspmd: ok
// ALL-DAG: transpose_back.partitioned: ok
// ALL-DAG: transpose_back: ok
// ALL-DAG: while_invariant.gspmd: ok
// ALL-DAG: while_invariant.partitioned: ok
// ALL-DAG: while_invariant: ok
// ALL-DAG: zero_grad.gspmd: ok
// ALL-DAG: zero_grad.partitioned: ok
// ALL-DAG: zero_grad: ok
// ALL-DAG: rbg_dropout.gspmd: ok
// ALL-DAG: rbg_dropout.partitioned: ok
// ALL-DAG: rbg_dropout: ok
// ALL-DAG: scan_rnn.gspmd: ok
// ALL-DAG: scan_rnn.partitioned: ok
// ALL-DAG: scan_rnn: ok
// ALL-DAG: shard_map_collectives.gspmd: ok
// ALL-DAG: shard_map_collectives.partitioned: ok
// ALL-DAG: shard_map_collectives: ok
// ALL-DAG: shard_map_partial.gspmd: ok
// ALL-DAG: shard_map_partial.partitioned: ok
// ALL-DAG: shard_map_partial: ok
// ALL-DAG: shard_map_psum.gspmd: ok
// ALL-DAG: shard_map_psum.partitioned: ok
// ALL-DAG: shard_map_psum: ok

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

// XLA prints mesh replica groups over a permuted device list as `replica_groups=mesh[...],
// device_ids=(IOTA) {AXES}`: groups over "model" (the 2-device axis of the [4,2]T(1,0)
// order) are {0,1},{2,3},{4,5},{6,7}: the minor axis of the synthesized 2x2x2 mesh.
// RUN: tessel-translate --import-hlo %S/../../corpus/contracting_rowsplit.partitioned.hlo | FileCheck %s --check-prefix=DEVICE-IDS
// DEVICE-IDS: tessel.all_reduce %{{.*}} over @mesh ["axis_2"] kind = sum
