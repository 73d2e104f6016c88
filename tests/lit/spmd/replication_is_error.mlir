// RUN: tessel-opt %s -split-input-file --tessel-partition=replication-is-error -verify-diagnostics
// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s --check-prefix=DEFAULT

tessel.mesh @mesh = <["x"=2]>

// An op without a handler whose operand is split: with the option, an error at the op; by
// default, a warning and a gather.
// DEFAULT-LABEL: func @opaque_split
// DEFAULT: tessel.all_gather
// DEFAULT: hlo.custom_call @kernel
func.func @opaque_split(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-error @+1 {{'hlo.custom_call' would be partitioned by replication (96 bytes of split operands gathered), which the options forbid}}
  %0 = hlo.custom_call @kernel(%a) {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Replicated operands cost nothing to gather: only a remark, even with the option.
// DEFAULT-LABEL: func @opaque_replicated
// DEFAULT-NOT: tessel.all_gather
// DEFAULT: hlo.custom_call @kernel
func.func @opaque_replicated(%a: tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x3xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-remark-re @+1 {{'hlo.custom_call' is partitioned by replication: 0 bytes of split operands are gathered}}
  %0 = hlo.custom_call @kernel(%a) {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}
