// --shard_weight_update on `tessel partition`, `tessel run --check` and `tessel report`,
// on the training step example (8 devices over "data"), and its usage errors.
// RUN: tessel partition %S/../../../examples/training_step/training_step.mlir --shard_weight_update | FileCheck %s --check-prefix=PARTITION
// RUN: tessel partition %S/../../../examples/training_step/training_step.mlir | FileCheck %s --check-prefix=DEFAULT
// RUN: tessel run %S/../../../examples/training_step/training_step.mlir --check --shard_weight_update --print_limit=0 | FileCheck %s --check-prefix=CHECKED
// RUN: tessel report %S/../../../examples/training_step/training_step.mlir --shard_weight_update | FileCheck %s --check-prefix=REPORT
// RUN: tessel report %S/../../../examples/training_step/training_step.mlir | FileCheck %s --check-prefix=REPORT-DEFAULT
// RUN: sh -c 'tessel run %S/../../../examples/training_step/training_step.mlir --shard_weight_update; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=RUN-USAGE
// RUN: sh -c 'tessel report %S/../../../examples/training_step/training_step.mlir --partitioned --shard_weight_update; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=REPORT-USAGE

// The momentum buffers (arguments 4 and 5, results 3 and 4) come in and go out split over
// "data"; each gradient is reduce-scattered and each new weight all-gathered.
// PARTITION: func.func @main(
// PARTITION-SAME: %arg4: tensor<1x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}
// PARTITION-SAME: %arg5: tensor<2x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}
// PARTITION-SAME: tensor<1x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}, tensor<2x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>})
// PARTITION: tessel.reduce_scatter {{.*}} -> tensor<2x4xf32>
// PARTITION: tessel.reduce_scatter {{.*}} -> tensor<1x16xf32>
// PARTITION: tessel.all_gather {{.*}} -> tensor<8x16xf32>
// PARTITION: tessel.all_gather {{.*}} -> tensor<16x4xf32>

// Off by default: the gradients are all-reduced.
// DEFAULT-NOT: tessel.reduce_scatter
// DEFAULT: tessel.all_reduce {{.*}} : tensor<16x4xf32>
// DEFAULT: tessel.all_reduce {{.*}} : tensor<8x16xf32>

// CHECKED: check: ran the partitioned program on 8 partitions
// CHECKED-COUNT-5: matches

// The state shrinks 8 times: 768 bytes of momentum become 96 per device.
// REPORT: arguments 960 B
// REPORT: reduce_scatter data 2
// REPORT-DEFAULT: arguments 1.59 KiB (1632 B)

// RUN-USAGE: --shard_weight_update changes how the program is partitioned; it needs --check or --backend=mpi
// RUN-USAGE: exit=2
// REPORT-USAGE: --shard_weight_update acts before partitioning; it cannot be used with --partitioned
// REPORT-USAGE: exit=2
