// RUN: tessel-opt %s -split-input-file -verify-diagnostics

func.func @unknown_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tessel.all_reduce' op unknown mesh @missing}}
  %0 = tessel.all_reduce %arg0 over @missing ["x"] kind = sum : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @no_axes(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects at least one axis}}
  %0 = tessel.all_reduce %arg0 over @mesh [] kind = sum : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @axis_not_in_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{axis "z" is not in the mesh}}
  %0 = tessel.all_reduce %arg0 over @mesh ["z"] kind = sum : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @axis_twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{axis "y" is used twice}}
  %0 = tessel.all_reduce %arg0 over @mesh ["y", "x", "y"] kind = sum : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @overlapping_axes(%arg0: tensor<2x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{axis "x" overlaps axis "x":(2)2}}
  %0 = tessel.all_gather %arg0 over @mesh ["x", "x":(2)2] dim = 0 : (tensor<2x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @invalid_sub_axis(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{sub-axis "x":(1)4 is all of axis "x"}}
  %0 = tessel.collective_permute %arg0 over @mesh ["x":(1)4] shift = 1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @unknown_reduction_kind(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown reduction kind 'mean', expected sum, prod, max or min}}
  %0 = tessel.all_reduce %arg0 over @mesh ["x"] kind = mean : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_reduce_type_changes(%arg0: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "tessel.all_reduce"(%arg0) <{axes = [#tessel.axis_ref<"x">], kind = #tessel.reduction<sum>, mesh_name = @mesh}> : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_gather_dim_out_of_range(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{dim 2 is out of range [0, 2)}}
  %0 = tessel.all_gather %arg0 over @mesh ["x"] dim = 2 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_gather_negative_dim(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{dim -1 is out of range [0, 2)}}
  %0 = tessel.all_gather %arg0 over @mesh ["x"] dim = -1 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_gather_wrong_gathered_size(%arg0: tensor<2x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{result dimension 0 has size 4, expected 8}}
  %0 = tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_gather_other_dim_changes(%arg0: tensor<2x4xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{result dimension 1 has size 2, expected 4}}
  %0 = tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<2x4xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_gather_rank_changes(%arg0: tensor<2x4xf32>) -> tensor<32xf32> {
  // expected-error @+1 {{result rank 1 differs from operand rank 2}}
  %0 = tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<2x4xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_gather_element_type_changes(%arg0: tensor<2x4xf32>) -> tensor<8x4xf16> {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tessel.all_gather %arg0 over @mesh ["x"] dim = 0 : (tensor<2x4xf32>) -> tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @reduce_scatter_dim_out_of_range(%arg0: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{dim 1 is out of range [0, 1)}}
  %0 = tessel.reduce_scatter %arg0 over @mesh ["x"] dim = 1 kind = sum : (tensor<8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @reduce_scatter_not_divisible(%arg0: tensor<6xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{operand dimension 0 has size 6, which is not divisible by the group size 4}}
  %0 = tessel.reduce_scatter %arg0 over @mesh ["x"] dim = 0 kind = sum : (tensor<6xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @reduce_scatter_wrong_result(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result dimension 0 has size 4, expected 1}}
  %0 = tessel.reduce_scatter %arg0 over @mesh ["x", "y"] dim = 0 kind = max : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @reduce_scatter_element_type_changes(%arg0: tensor<8xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tessel.reduce_scatter %arg0 over @mesh ["x"] dim = 0 kind = sum : (tensor<8xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_to_all_split_dim_out_of_range(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{split_dim 2 is out of range [0, 2)}}
  %0 = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 2 concat_dim = 1 : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_to_all_concat_dim_out_of_range(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{concat_dim -1 is out of range [0, 2)}}
  %0 = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 0 concat_dim = -1 : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_to_all_not_divisible(%arg0: tensor<6x2xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{split dimension 0 has size 6, which is not divisible by the group size 4}}
  %0 = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<6x2xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_to_all_wrong_concat_size(%arg0: tensor<8x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{result dimension 1 has size 2, expected 8}}
  %0 = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @all_to_all_element_type_changes(%arg0: tensor<8x2xf32>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tessel.all_to_all %arg0 over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x2xf32>) -> tensor<2x8xbf16>
  return %0 : tensor<2x8xbf16>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_without_rule(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects exactly one of 'shift' and 'pairs'}}
  %0 = "tessel.collective_permute"(%arg0) <{axes = [#tessel.axis_ref<"x">], mesh_name = @mesh}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_with_both_rules(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects exactly one of 'shift' and 'pairs'}}
  %0 = "tessel.collective_permute"(%arg0) <{axes = [#tessel.axis_ref<"x">], mesh_name = @mesh, shift = 1 : i64, pairs = array<i64: 0, 1>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_shift_zero(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{shift must not be 0}}
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] shift = 0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_shift_too_large(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{shift 4 is out of range: its magnitude must be less than the group size 4}}
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] shift = 4 cyclic : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_shift_too_negative(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{shift -2 is out of range: its magnitude must be less than the group size 2}}
  %0 = tessel.collective_permute %arg0 over @mesh ["y"] shift = -2 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_cyclic_pairs(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cyclic' applies to 'shift' only, not to 'pairs'}}
  %0 = "tessel.collective_permute"(%arg0) <{axes = [#tessel.axis_ref<"x">], mesh_name = @mesh, cyclic, pairs = array<i64: 0, 1>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_odd_pairs(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{pairs must hold (source, target) pairs, got 3 entries}}
  %0 = "tessel.collective_permute"(%arg0) <{axes = [#tessel.axis_ref<"x">], mesh_name = @mesh, pairs = array<i64: 0, 1, 2>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_source_out_of_range(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{pair source 4 is out of range [0, 4)}}
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] pairs = [[4, 0]] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_target_out_of_range(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{pair target -1 is out of range [0, 4)}}
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] pairs = [[0, -1]] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_source_twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{source 0 appears twice in pairs}}
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] pairs = [[0, 1], [0, 2]] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_target_twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{target 2 appears twice in pairs}}
  %0 = tessel.collective_permute %arg0 over @mesh ["x"] pairs = [[0, 2], [1, 2]] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @permute_type_changes(%arg0: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "tessel.collective_permute"(%arg0) <{axes = [#tessel.axis_ref<"x">], mesh_name = @mesh, shift = 1 : i64}> : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Positive edge cases: a group of one device, the largest shifts, a sub-axis group,
// dynamic sizes, and a split of the gathered dimension that is not the first.
tessel.mesh @mesh = <["x"=4, "one"=1, "y"=2]>

func.func @valid_edge_cases(%arg0: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = tessel.all_gather %arg0 over @mesh ["one"] dim = 0 : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %1 = tessel.collective_permute %0 over @mesh ["x"] shift = 3 : tensor<4x?xf32>
  %2 = tessel.collective_permute %1 over @mesh ["x"] shift = -3 cyclic : tensor<4x?xf32>
  %3 = tessel.all_reduce %2 over @mesh ["x":(2)2, "y"] kind = sum : tensor<4x?xf32>
  %4 = tessel.all_to_all %3 over @mesh ["y"] split_dim = 1 concat_dim = 0 : (tensor<4x?xf32>) -> tensor<8x?xf32>
  %5 = tessel.reduce_scatter %4 over @mesh ["y"] dim = 0 kind = min : (tensor<8x?xf32>) -> tensor<4x?xf32>
  return %5 : tensor<4x?xf32>
}
