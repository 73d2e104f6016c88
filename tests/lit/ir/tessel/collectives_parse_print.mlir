// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @all_gather
// CHECK: tessel.all_gather %arg0 over @mesh ["data"] dim = 0 : (tensor<2x8xf32>) -> tensor<8x8xf32>
func.func @all_gather(%arg0: tensor<2x8xf32>) -> tensor<8x8xf32> {
  %0 = tessel.all_gather %arg0 over @mesh ["data"] dim = 0 : (tensor<2x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// Groups span several axes, listed major to minor, including sub-axes.
// CHECK-LABEL: func @all_gather_several_axes
// CHECK: tessel.all_gather %arg0 over @mesh ["model", "data":(1)2] dim = 1 : (tensor<3x2xf32>) -> tensor<3x8xf32>
func.func @all_gather_several_axes(%arg0: tensor<3x2xf32>) -> tensor<3x8xf32> {
  %0 = tessel.all_gather %arg0 over @mesh ["model", "data":(1)2] dim = 1 : (tensor<3x2xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// Dynamic sizes stay dynamic.
// CHECK-LABEL: func @all_gather_dynamic
// CHECK: tessel.all_gather %arg0 over @mesh ["data"] dim = 0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
func.func @all_gather_dynamic(%arg0: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = tessel.all_gather %arg0 over @mesh ["data"] dim = 0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @all_reduce
// CHECK: tessel.all_reduce %arg0 over @mesh ["model"] kind = sum : tensor<4x8xf32>
// CHECK: tessel.all_reduce %arg0 over @mesh ["model"] kind = prod : tensor<4x8xf32>
// CHECK: tessel.all_reduce %arg0 over @mesh ["model"] kind = max : tensor<4x8xf32>
// CHECK: tessel.all_reduce %arg0 over @mesh ["data", "model"] kind = min : tensor<4x8xf32>
func.func @all_reduce(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tessel.all_reduce %arg0 over @mesh ["model"] kind = sum : tensor<4x8xf32>
  %1 = tessel.all_reduce %arg0 over @mesh ["model"] kind = prod : tensor<4x8xf32>
  %2 = tessel.all_reduce %arg0 over @mesh ["model"] kind = max : tensor<4x8xf32>
  %3 = tessel.all_reduce %arg0 over @mesh ["data", "model"] kind = min : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func @reduce_scatter
// CHECK: tessel.reduce_scatter %arg0 over @mesh ["data"] dim = 0 kind = sum : (tensor<8x8xf32>) -> tensor<2x8xf32>
func.func @reduce_scatter(%arg0: tensor<8x8xf32>) -> tensor<2x8xf32> {
  %0 = tessel.reduce_scatter %arg0 over @mesh ["data"] dim = 0 kind = sum : (tensor<8x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func @all_to_all
// CHECK: tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x2xf32>) -> tensor<2x8xf32>
func.func @all_to_all(%arg0: tensor<8x2xf32>) -> tensor<2x8xf32> {
  %0 = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x2xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Splitting and concatenating the same dimension keeps the shape.
// CHECK-LABEL: func @all_to_all_same_dim
// CHECK: tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 1 concat_dim = 1 : (tensor<3x8xf32>) -> tensor<3x8xf32>
func.func @all_to_all_same_dim(%arg0: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %0 = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 1 concat_dim = 1 : (tensor<3x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func @collective_permute_shift
// CHECK: tessel.collective_permute %arg0 over @mesh ["x"] shift = 1 : tensor<4xf32>
// CHECK: tessel.collective_permute %arg0 over @mesh ["x"] shift = -3 : tensor<4xf32>
func.func @collective_permute_shift(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] shift = 1 : tensor<4xf32>
  %1 = tessel.collective_permute %arg0 over @mesh ["x"] shift = -3 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func @collective_permute_cyclic
// CHECK: tessel.collective_permute %arg0 over @mesh ["x"] shift = -1 cyclic : tensor<4xf32>
func.func @collective_permute_cyclic(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] shift = -1 cyclic : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func @collective_permute_pairs
// CHECK: tessel.collective_permute %arg0 over @mesh ["x"] pairs = {{\[\[}}0, 1], [1, 2], [3, 0]] : tensor<4xf32>
func.func @collective_permute_pairs(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] pairs = [[0, 1], [1, 2], [3, 0]] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// No pairs: every device receives zeros.
// CHECK-LABEL: func @collective_permute_no_pairs
// CHECK: tessel.collective_permute %arg0 over @mesh ["x"] pairs = [] : tensor<4xf32>
func.func @collective_permute_no_pairs(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] pairs = [] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @partition_id
// CHECK: tessel.partition_id : tensor<ui32>
func.func @partition_id() -> tensor<ui32> {
  %0 = tessel.partition_id : tensor<ui32>
  return %0 : tensor<ui32>
}
