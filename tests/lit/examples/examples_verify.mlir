// Every example program parses, verifies and round-trips through tessel-opt.
// RUN: tessel-opt %S/../../../examples/mlp/mlp.mlir | tessel-opt | FileCheck %s --check-prefix=MLP

// MLP: tessel.mesh @mesh = <["data"=4, "model"=2]>
// MLP-LABEL: func.func @main
// MLP-SAME: tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>
// MLP: hlo.dot_general
// MLP: tessel.sharding_constraint %{{.*}} <@mesh, [{"data", ?}, {"model"}]>
// MLP: hlo.max
// MLP: hlo.dot_general
