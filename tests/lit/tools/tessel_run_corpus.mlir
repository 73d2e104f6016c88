// `tessel run --check` on JAX programs of tests/corpus: their GSPMD shardings are imported
// (--tessel-import-hlo-shardings), propagated and partitioned, and the partitioned program
// matches the unpartitioned one. Both the Shardy-on (NAME.hlo, with a Sharding custom call
// in the MLP) and Shardy-off (NAME.gspmd.hlo) lowerings.
// RUN: tessel run %S/../../corpus/mlp.hlo --check | FileCheck %s --check-prefix=MLP
// RUN: tessel run %S/../../corpus/mlp.gspmd.hlo --check | FileCheck %s --check-prefix=MLP
// RUN: tessel run %S/../../corpus/train_step.hlo --check | FileCheck %s --check-prefix=TRAIN
// RUN: tessel run %S/../../corpus/train_step.gspmd.hlo --check | FileCheck %s --check-prefix=TRAIN
// The conv net, transformer block and MoE layer call helper computations (relu, tril,
// argmax): the partitioner inlines the calls first.
// RUN: tessel run %S/../../corpus/conv_net.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CONV
// RUN: tessel run %S/../../corpus/conv_net.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CONV
// RUN: tessel run %S/../../corpus/transformer_block.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRANSFORMER
// RUN: tessel run %S/../../corpus/transformer_block.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRANSFORMER
// RUN: tessel run %S/../../corpus/moe_layer.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=MOE
// RUN: tessel run %S/../../corpus/moe_layer.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=MOE

// MLP: check: ran the partitioned program on 8 partitions
// MLP: check: result 0 f32[32,64] matches

// TRAIN: check: ran the partitioned program on 8 partitions
// TRAIN-COUNT-8: check: result {{[0-9]}} {{.*}} matches

// CONV: check: ran the partitioned program on 8 partitions
// CONV: check: result 0 f32[8,10] matches

// TRANSFORMER: check: ran the partitioned program on 8 partitions
// TRANSFORMER: check: result 0 f32[8,16,32] matches

// MOE: check: ran the partitioned program on 8 partitions
// MOE: check: result 0 f32[64,16] matches

// The programs that exercise partitioning choices (make_corpus.py): each partitioned
// program matches the unpartitioned one (a mismatch fails the run), in both lowerings.
// RUN: tessel run %S/../../corpus/contracting_rowsplit.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/contracting_rowsplit.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/seq_parallel_mlp.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/seq_parallel_mlp.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/transpose_back.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/transpose_back.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/while_invariant.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/while_invariant.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/fori_invariant.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/fori_invariant.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/fsdp_mlp.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/fsdp_mlp.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/fsdp_grad.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/fsdp_grad.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/zero_grad.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/zero_grad.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/conv_kernel_grad.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/conv_kernel_grad.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/segment_sum.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/segment_sum.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/embedding_lookup.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/embedding_lookup.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/moe_expert_parallel.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/moe_expert_parallel.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/argmax_split.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/argmax_split.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/sort_split.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/sort_split.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/cond_branches.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/cond_branches.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// CHOICE: check: ran the partitioned program on 8 partitions
// CHOICE: check: result 0 {{.*}} matches

// A data-parallel momentum step as JAX differentiates it (a dot and a transpose per weight
// gradient, a batch sum, reshape and size-1 sum per bias gradient): with
// --shard_weight_update all four gradients are reduce-scattered, the updates run on shards
// and the new weights and biases are all-gathered; the results still match.
// RUN: tessel run %S/../../corpus/dp_momentum.hlo --shard_weight_update --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=DP-MOMENTUM
// RUN: tessel partition %S/../../corpus/dp_momentum.hlo --shard_weight_update 2>/dev/null | FileCheck %s --check-prefix=DP-MOMENTUM-SPMD
// DP-MOMENTUM: check: ran the partitioned program on 8 partitions
// DP-MOMENTUM-COUNT-8: check: result {{[0-9]}} {{.*}} matches
// DP-MOMENTUM-SPMD-NOT: tessel.all_reduce
// DP-MOMENTUM-SPMD-COUNT-4: tessel.reduce_scatter
// DP-MOMENTUM-SPMD-COUNT-4: tessel.all_gather

// A parallel transformer block: attention and MLP outputs, both partial sums over "model",
// are added before one all_reduce (XLA's partitioner emits two).
// RUN: tessel run %S/../../corpus/parallel_block.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=PARALLEL
// RUN: tessel partition %S/../../corpus/parallel_block.hlo 2>/dev/null | FileCheck %s --check-prefix=PARALLEL-SPMD
// PARALLEL: check: result 0 {{.*}} matches
// PARALLEL-SPMD-COUNT-1: tessel.all_reduce
// PARALLEL-SPMD-NOT: tessel.all_reduce

// The Adam step of the corpus on the 4 x 2 mesh (weights split over "model", the batch over
// "data"), as JAX differentiates it: with --shard_weight_update both weight gradients are
// reduce-scattered over "data" and the new weights all-gathered; the results still match.
// RUN: tessel run %S/../../corpus/train_step.hlo --shard_weight_update --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAIN-WUS
// RUN: tessel partition %S/../../corpus/train_step.hlo --shard_weight_update 2>/dev/null | FileCheck %s --check-prefix=TRAIN-WUS-SPMD
// TRAIN-WUS: check: ran the partitioned program on 8 partitions
// TRAIN-WUS-COUNT-8: check: result {{[0-9]}} {{.*}} matches
// TRAIN-WUS-SPMD-COUNT-2: tessel.reduce_scatter {{.*}} over @mesh ["data"]
// TRAIN-WUS-SPMD-COUNT-2: tessel.all_gather {{.*}} over @mesh ["data"]

// Training steps of the transformer block (momentum), the conv net, the expert-parallel MoE
// and the sequence-parallel MLP, as JAX derives them: plain and weight-update sharded.
// RUN: tessel run %S/../../corpus/transformer_train.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/transformer_train.hlo --shard_weight_update --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/conv_train.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/conv_train.hlo --shard_weight_update --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/moe_train.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/moe_train.hlo --shard_weight_update --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/seq_parallel_train.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/seq_parallel_train.hlo --shard_weight_update --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// TRAINING: check: ran the partitioned program on 8 partitions
// TRAINING: check: result 0 {{.*}} matches

// Optimizer steps made with optax (weight-update sharding on every standard mesh is
// tests/weight_update/optimizer_corpus_test): the Shardy-off lowerings, plain.
// RUN: tessel run %S/../../corpus/opt_adafactor.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_lars.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_2d_mesh.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_accumulate.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_adamw.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_biases.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_clip_adam.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_lamb.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_momentum.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_sgd.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_train_loop.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/opt_uneven.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING

// GShard's grouped MoE dispatch with the experts split over "data" like the groups: the
// expert inputs move from group-split to expert-split by one all_to_all and back by
// another; the expert weights never move (XLA's partitioner all-gathers both).
// RUN: tessel run %S/../../corpus/moe_gshard.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel run %S/../../corpus/moe_gshard.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=TRAINING
// RUN: tessel partition %S/../../corpus/moe_gshard.hlo 2>/dev/null | FileCheck %s --check-prefix=GSHARD
// GSHARD-NOT: tessel.all_gather
// GSHARD-COUNT-2: tessel.all_to_all
// GSHARD-NOT: tessel.all_gather
// GSHARD-NOT: tessel.all_reduce

// Programs with random numbers (dropout through JAX's threefry: shifts, xor and
// bitcast_convert), top-k over logits split along the vocabulary (local top-k and an
// all_gather of the candidates), GELU with erf, rematerialized layers (optimization
// barriers), bf16 matmuls with f32 results and integer hashing (popcnt, count of leading
// zeros): both lowerings match.
// RUN: tessel run %S/../../corpus/dropout_mlp.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/dropout_mlp.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/topk_logits.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/topk_logits.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/gelu_erf_mlp.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/gelu_erf_mlp.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/remat_train.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/remat_train.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/bf16_mlp.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/bf16_mlp.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/int_hash.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/int_hash.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel partition %S/../../corpus/topk_logits.hlo 2>/dev/null | FileCheck %s --check-prefix=TOPK-SPMD
// TOPK-SPMD: hlo.top_k %{{.*}}, k = 4 : tensor<8x256xf32>
// TOPK-SPMD-COUNT-2: tessel.all_gather {{.*}} dim = 1 : (tensor<8x4x
// TOPK-SPMD: hlo.sort

// shard_map (psum; all_gather, ppermute, pmax and psum in one body; partly manual over
// "model"), a scan over a sequence, and dropout from the rbg key (rng_bit_generator, its
// mask made shard by shard): both lowerings match.
// RUN: tessel run %S/../../corpus/shard_map_psum.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/shard_map_psum.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/shard_map_collectives.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/shard_map_collectives.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/shard_map_partial.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/shard_map_partial.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/scan_rnn.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/scan_rnn.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/rbg_dropout.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel run %S/../../corpus/rbg_dropout.gspmd.hlo --check --print_limit=0 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: tessel partition %S/../../corpus/rbg_dropout.hlo 2>/dev/null | FileCheck %s --check-prefix=RBG-SPMD
// RBG-SPMD: hlo.rng_bit_generator {{.*}} window of [32, 128] {{.*}} -> tensor<8x64xui32>
// RBG-SPMD-NOT: tessel.all_gather
// The partly manual shard_map keeps the operand split over the automatic axis "data" in its
// body: one all_reduce over "model" of the local 8x16 block, as XLA, and no gather.
// RUN: tessel partition %S/../../corpus/shard_map_partial.hlo 2>/dev/null | FileCheck %s --check-prefix=PARTIAL-SPMD
// RUN: tessel partition %S/../../corpus/shard_map_partial.gspmd.hlo 2>/dev/null | FileCheck %s --check-prefix=PARTIAL-SPMD
// PARTIAL-SPMD-NOT: tessel.all_gather
// PARTIAL-SPMD: tessel.all_reduce %{{.*}} over @mesh [{{.*}}] kind = sum : tensor<8x16xf32>
// PARTIAL-SPMD-NOT: tessel.all_gather
