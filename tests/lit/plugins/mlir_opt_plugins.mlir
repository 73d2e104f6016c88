// LLVM's own mlir-opt, with Tessel loaded from its plugins, propagates and partitions.
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugins/tessel_dialect_plugin.so --load-pass-plugin=%tessel_plugins/tessel_pass_plugin.so --pass-pipeline='builtin.module(tessel-propagate)' %s | FileCheck %s --check-prefix=PROPAGATED
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugins/tessel_dialect_plugin.so --load-pass-plugin=%tessel_plugins/tessel_pass_plugin.so --pass-pipeline='builtin.module(tessel-spmd-pipeline)' %s | FileCheck %s --check-prefix=PARTITIONED
// mlir-opt and tessel-opt give the same program.
// RUN: mlir-opt --load-dialect-plugin=%tessel_plugins/tessel_dialect_plugin.so --load-pass-plugin=%tessel_plugins/tessel_pass_plugin.so --pass-pipeline='builtin.module(tessel-spmd-pipeline{combine-collectives=true})' %s > %t.mlir_opt
// RUN: tessel-opt --pass-pipeline='builtin.module(tessel-spmd-pipeline{combine-collectives=true})' %s > %t.tessel_opt
// RUN: diff %t.mlir_opt %t.tessel_opt
// Every MLIR function the plugins call is mlir-opt's own (tools/plugins/BUILD says why).
// RUN: check_plugin_symbols.sh %llvm_bin/mlir-opt %tessel_plugins/tessel_dialect_plugin.so %tessel_plugins/tessel_pass_plugin.so

// A layer of a data-parallel MLP on 3 devices, with a batch of 7 that does not divide.
tessel.mesh @mesh = <["batch"=3]>
// PROPAGATED-LABEL: func.func @layer
// PROPAGATED: hlo.dot_general {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>}
// PROPAGATED: hlo.tanh {{.*}} {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>}
// PARTITIONED-LABEL: func.func @layer
// PARTITIONED-SAME: tensor<3x4xf32>
// PARTITIONED: hlo.dot_general {{.*}} -> tensor<3x5xf32>
// PARTITIONED: hlo.tanh {{.*}} : tensor<3x5xf32>
// PARTITIONED-NOT: tessel.all_reduce
func.func @layer(%x: tensor<7x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"batch"}, {}]>},
                 %w: tensor<4x5xf32>) -> tensor<7x5xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      : (tensor<7x4xf32>, tensor<4x5xf32>) -> tensor<7x5xf32>
  %r = hlo.tanh %y : tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}

// PARTITIONED-LABEL: func.func @partial_sums
// PARTITIONED: %[[D:.*]] = hlo.dot_general {{.*}} : (tensor<8x2xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
// PARTITIONED: tessel.all_reduce %[[D]] over @mesh ["batch"] kind = sum : tensor<8x4xf32>
func.func @partial_sums(%a: tensor<8x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"batch"}]>},
                        %b: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %0 = hlo.dot_general %a, %b, lhs_contract = [1], rhs_contract = [0]
      : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
