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
