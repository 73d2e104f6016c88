// RUN: tessel-opt %s -split-input-file --tessel-import-mesh -verify-diagnostics

// expected-error @+1 {{'mesh.mesh' op has a dynamic size on axis 1; tessel meshes need static sizes}}
mesh.mesh @mesh(shape = 2x?)

// -----

mesh.mesh @mesh(shape = 2x4)

func.func @splits_past_the_rank(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.shard' op splits dimension 1 but the tensor has rank 1}}
  %0 = mesh.shard %arg0 to <@mesh, [[0], [1]]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

func.func @axis_outside_the_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.shard' op uses axis 2 of mesh @mesh, which has 2 axes}}
  %0 = mesh.shard %arg0 to <@mesh, [[2]]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

func.func @partial_axis_outside_the_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.shard' op uses axis 5 of mesh @mesh, which has 2 axes}}
  %0 = mesh.shard %arg0 to <@mesh, [[0]], partial = sum[5]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

func.func @partial_max(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.shard' op has partial reduction 'max', which has no tessel form: tessel's unreduced axes are partial sums}}
  %0 = mesh.shard %arg0 to <@mesh, [[0]], partial = max[1]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unknown_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.shard' op refers to unknown mesh @missing}}
  %0 = mesh.shard %arg0 to <@missing, [[0]]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)

func.func @partitioned_ir(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op has no tessel form; --tessel-import-mesh imports only mesh.mesh and mesh.shard annotations, not partitioned IR}}
  %0 = mesh.all_reduce %arg0 on @mesh mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
