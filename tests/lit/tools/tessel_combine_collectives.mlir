// --combine_collectives on `tessel partition`, `tessel run --check` and `tessel report`, on
// the training step example (8 devices over "data"), alone and after weight-update sharding,
// and its usage error.
// RUN: tessel partition %S/../../../examples/training_step/training_step.mlir --combine_collectives | FileCheck %s --check-prefix=PARTITION
// RUN: tessel partition %S/../../../examples/training_step/training_step.mlir --combine_collectives --shard_weight_update | FileCheck %s --check-prefix=SHARDED
// RUN: tessel run %S/../../../examples/training_step/training_step.mlir --check --combine_collectives --shard_weight_update --print_limit=0 | FileCheck %s --check-prefix=CHECKED
// RUN: tessel report %S/../../../examples/training_step/training_step.mlir --combine_collectives | FileCheck %s --check-prefix=REPORT
// RUN: tessel partition %S/../../../examples/training_step/training_step.mlir > %t.mlir
// RUN: tessel report %t.mlir --combine_collectives | FileCheck %s --check-prefix=REPORT
// RUN: sh -c 'tessel run %S/../../../examples/training_step/training_step.mlir --combine_collectives; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=RUN-USAGE

// The loss and the two gradients (8x16 and 16x4 elements) are all-reduced as one vector of
// 193: what reads the loss moves after the last gradient.
// PARTITION: hlo.concatenate {{.*}}, dim = 0 : (tensor<1xf32>, tensor<64xf32>, tensor<128xf32>) -> tensor<193xf32>
// PARTITION-NEXT: tessel.all_reduce {{.*}} kind = sum : tensor<193xf32>
// PARTITION-NOT: tessel.all_reduce

// One reduce_scatter of both gradients and one all_gather of both new weights.
// SHARDED: tessel.reduce_scatter {{.*}} : (tensor<8x24xf32>) -> tensor<1x24xf32>
// SHARDED-NOT: tessel.reduce_scatter
// SHARDED: tessel.all_gather {{.*}} : (tensor<1x24xf32>) -> tensor<8x24xf32>
// SHARDED-NOT: tessel.all_gather

// CHECKED: check: result 0 f32[] matches
// CHECKED: check: result 4 f32[16,4] matches

// REPORT: all_reduce           data              1
// REPORT: total                                  1

// RUN-USAGE: --combine_collectives changes how the program is partitioned; it needs --check or --backend=mpi
// RUN-USAGE: exit=2
