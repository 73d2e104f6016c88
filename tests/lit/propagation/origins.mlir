// RUN: tessel-opt %s --tessel-propagate=annotate-origins | FileCheck %s

tessel.mesh @mesh = <["x"=4]>

// Each result records the annotation its sharding came from and the ops it travelled through.
// CHECK-LABEL: func @chain
func.func @chain(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>})
    -> tensor<8xf32> {
  // CHECK: hlo.exp {{.*}}tessel.sharding_origin = ["argument 0 of @chain via hlo.exp ({{.*}}origins.mlir:10:8)"]
  %0 = hlo.exp %a : tensor<8xf32>
  // CHECK: hlo.neg {{.*}}tessel.sharding_origin = ["argument 0 of @chain via hlo.exp ({{.*}}:10:8), hlo.neg ({{.*}}:12:8)"]
  %1 = hlo.neg %0 : tensor<8xf32>
  // The constant gets its sharding backward from the constraint on it.
  // CHECK: hlo.constant {{.*}}tessel.sharding_origin = ["tessel.sharding_constraint at {{.*}}:17:8 via tessel.sharding_constraint ({{.*}}:17:8)"]
  %c = hlo.constant dense<1.0> : tensor<8xf32>
  %2 = tessel.sharding_constraint %1 <@mesh, [{"x"}]> : tensor<8xf32>
  %k = tessel.sharding_constraint %c <@mesh, [{"x"}]> : tensor<8xf32>
  // CHECK: hlo.add {{.*}}tessel.sharding_origin = ["tessel.sharding_constraint at {{.*}}:16:8 via hlo.add ({{.*}}:19:8)"]
  %3 = hlo.add %2, %k : tensor<8xf32>
  return %3 : tensor<8xf32>
}
