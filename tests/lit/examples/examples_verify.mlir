// Every example program parses, verifies and round-trips through tessel-opt.
// RUN: tessel-opt %S/../../../examples/mlp/mlp.mlir | tessel-opt | FileCheck %s --check-prefix=MLP
// RUN: tessel-opt %S/../../../examples/training_step/training_step.mlir | tessel-opt | FileCheck %s --check-prefix=TRAINING

// MLP: tessel.mesh @mesh = <["data"=4, "model"=2]>
// MLP-LABEL: func.func @main
// MLP-SAME: tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>
// MLP: hlo.dot_general
// MLP: tessel.sharding_constraint %{{.*}} <@mesh, [{"data", ?}, {"model"}]>
// MLP: hlo.max
// MLP: hlo.dot_general

// TRAINING: tessel.mesh @mesh = <["data"=8]>
// TRAINING-LABEL: func.func @main
// TRAINING-COUNT-4: hlo.dot_general
// TRAINING: return
