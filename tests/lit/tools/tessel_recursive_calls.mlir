// A function that reaches itself through calls cannot be inlined for partitioning: every
// command that partitions says which call and which cycle, with its location, and exits 1
// (it used to inline for ever); the executor refuses the recursive call (it used to
// overflow the stack). Propagation alone (explain) still works.
// RUN: sh -c 'tessel partition %s; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=PARTITION
// RUN: sh -c 'tessel partition %s --shard_weight_update; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=PARTITION
// RUN: sh -c 'tessel run %s --check; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: sh -c 'tessel run %s; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: sh -c 'tessel explain %s; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=EXPLAIN

// PARTITION: tessel_recursive_calls.mlir:31:8: error: %r: recursive call (@f -> @g -> @f): a recursive function cannot be inlined for partitioning
// PARTITION-NOT: error
// PARTITION: exit=1

// EXEC: func.call at {{.*}}tessel_recursive_calls.mlir:31:8: calls @f, which is running already: recursion is not supported
// EXEC: exit=1

// EXPLAIN: argument 0
// EXPLAIN: exit=0

tessel.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %r = func.call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
