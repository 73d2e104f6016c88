// `tessel partition --output=X.hlo` on every program of tests/corpus: the HLO it writes
// runs on 8 partitions as the MLIR partitioned program does, and the propagated program
// written as HLO carries its shardings to a second partitioning that passes run --check.
// RUN: bash %S/check_partitioned_hlo.sh %S/../../corpus 50 | FileCheck %s
// CHECK-DAG: mlp: ok
// CHECK-DAG: moe_gshard: ok
// CHECK-DAG: while_invariant: ok
// CHECK-DAG: remat_train: ok
// CHECK: programs: 50
