// RUN: tessel-opt %s --tessel-import-hlo-shardings | FileCheck %s

// Every value manual, as GSPMD writes a program that is per-device throughout: the
// shardings say "leave as written", so they go, a manual Sharding annotation with them, and
// the module is marked per-device (tessel run then runs it as it is on each device).
// CHECK: module attributes {tessel.per_device}
// CHECK-NOT: tessel.hlo_sharding
// CHECK-NOT: hlo.custom_call
// CHECK: func.func @main(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: %[[N:.*]] = hlo.neg %arg0 : tensor<4x16xf32>
// CHECK: return %[[N]]
module {
  func.func @main(%arg0: tensor<4x16xf32> {tessel.hlo_sharding = "{manual}"}) -> (tensor<4x16xf32> {tessel.hlo_sharding = "{manual}"}) {
    %0 = hlo.custom_call @Sharding(%arg0) {tessel.hlo_sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = hlo.neg %0 {tessel.hlo_sharding = "{manual}"} : tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
}
