// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @constant
func.func @constant() -> tensor<2xf32> {
  // CHECK: hlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
