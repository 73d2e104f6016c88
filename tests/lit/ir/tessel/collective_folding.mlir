// RUN: tessel-opt %s -canonicalize | FileCheck %s

tessel.mesh @mesh = <["one"=1, "x"=2]>

// Over groups of one device every collective is its operand (a collective_permute's only
// valid rule there, the pair (0, 0), sends the device to itself).
// CHECK-LABEL: func @one_device_groups
// CHECK-SAME: (%[[A:.*]]: tensor<4x4xf32>)
// CHECK-NOT: tessel.all_reduce
// CHECK-NOT: tessel.all_gather
// CHECK-NOT: tessel.reduce_scatter
// CHECK-NOT: tessel.all_to_all
// CHECK-NOT: tessel.collective_permute
// CHECK: return %[[A]], %[[A]], %[[A]], %[[A]], %[[A]]
func.func @one_device_groups(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = tessel.all_reduce %a over @mesh ["one"] kind = sum : tensor<4x4xf32>
  %1 = tessel.all_gather %a over @mesh ["one"] dim = 0 : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = tessel.reduce_scatter %a over @mesh ["one"] dim = 1 kind = max : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = tessel.all_to_all %a over @mesh ["one"] split_dim = 0 concat_dim = 1 : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = tessel.collective_permute %a over @mesh ["one"] pairs = [[0, 0]] : tensor<4x4xf32>
  return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// Groups of two devices keep their collectives.
// CHECK-LABEL: func @two_device_groups
// CHECK: tessel.all_reduce
// CHECK: tessel.collective_permute
func.func @two_device_groups(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = tessel.all_reduce %a over @mesh ["x"] kind = sum : tensor<4x4xf32>
  %1 = tessel.collective_permute %a over @mesh ["x"] shift = 1 cyclic : tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}
