// `tessel run --check` on JAX programs of tests/corpus: their GSPMD shardings are imported
// (--tessel-import-hlo-shardings), propagated and partitioned, and the partitioned program
// matches the unpartitioned one. Both the Shardy-on (NAME.hlo, with a Sharding custom call
// in the MLP) and Shardy-off (NAME.gspmd.hlo) lowerings.
// RUN: tessel run %S/../../corpus/mlp.hlo --check | FileCheck %s --check-prefix=MLP
// RUN: tessel run %S/../../corpus/mlp.gspmd.hlo --check | FileCheck %s --check-prefix=MLP
// RUN: tessel run %S/../../corpus/train_step.hlo --check | FileCheck %s --check-prefix=TRAIN
// RUN: tessel run %S/../../corpus/train_step.gspmd.hlo --check | FileCheck %s --check-prefix=TRAIN

// MLP: check: ran the partitioned program on 8 partitions
// MLP: check: result 0 f32[32,64] matches

// TRAIN: check: ran the partitioned program on 8 partitions
// TRAIN-COUNT-8: check: result {{[0-9]}} {{.*}} matches
