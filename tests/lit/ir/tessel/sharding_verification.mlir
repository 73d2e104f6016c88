// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{argument 0: unknown mesh @missing}}
func.func @unknown_mesh_on_argument(%arg0: tensor<8xf32> {tessel.sharding = #tessel.sharding<@missing, [{}]>}) {
  return
}

// -----

// expected-error @+1 {{result 0: unknown mesh @missing}}
func.func @unknown_mesh_on_result(%arg0: tensor<8xf32>) -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@missing, [{}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

func.func @unknown_mesh_on_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{result 0: unknown mesh @missing}}
  %0 = hlo.add %arg0, %arg0 {tessel.sharding = #tessel.sharding_per_value<[<@missing, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unknown_mesh_on_constraint(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tessel.sharding_constraint' op unknown mesh @missing}}
  %0 = tessel.sharding_constraint %arg0 <@missing, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unknown_mesh_on_reshard(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tessel.reshard' op unknown mesh @missing}}
  %0 = tessel.reshard %arg0 <@missing, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A symbol that is not a tessel.mesh is no mesh.
func.func private @not_a_mesh()

func.func @symbol_is_not_a_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{unknown mesh @not_a_mesh}}
  %0 = tessel.sharding_constraint %arg0 <@not_a_mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @axis_not_in_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{axis "z" is not in the mesh}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"z"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @axis_twice_across_dims(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{axis "data" is used twice}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"data"}, {"data"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @axis_twice_in_one_dim(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{axis "model" is used twice}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"model", "model"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @axis_in_dim_and_replicated(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{axis "data" is used twice}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"data"}], replicated={"data"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @axis_replicated_and_unreduced(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{axis "model" is used twice}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{}], replicated={"model"}, unreduced={"model"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @full_axis_and_its_sub_axis(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{axis "x" overlaps axis "x":(2)2}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x"}, {"x":(2)2}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @overlapping_sub_axes(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{axis "x":(1)4 overlaps axis "x":(2)4}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x":(1)4}, {"x":(2)4}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @same_sub_axis_twice(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{axis "x":(2)2 is used twice}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{}], unreduced={"x":(2)2, "x":(2)2}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=12]>

// No split of 12 has both [1, 2) and [3, 6) as factors.
func.func @incompatible_sub_axes(%arg0: tensor<12x12xf32>) -> tensor<12x12xf32> {
  // expected-error @+1 {{sub-axes "x":(1)2 and "x":(3)2 do not split axis "x" compatibly}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x":(1)2}, {"x":(3)2}]> : tensor<12x12xf32>
  return %0 : tensor<12x12xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @sub_axis_does_not_divide(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sub-axis "x":(3)2: 3 * 2 does not divide the size 8 of axis "x"}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x":(3)2}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @sub_axis_too_large(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sub-axis "x":(2)8: 2 * 8 does not divide the size 8 of axis "x"}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x":(2)8}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @sub_axis_is_whole_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sub-axis "x":(1)8 is all of axis "x"; write the axis instead}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x":(1)8}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @sub_axis_pre_size_zero(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sub-axis of "x" must have pre-size at least 1, got 0}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x":(0)2}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @sub_axis_size_one(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sub-axis of "x" must have size greater than 1, got 1}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x":(2)1}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @empty_axis_name(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{axis name must not be empty}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{""}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @bad_priority(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected a priority like 'p0'}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x"}q0]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

// expected-error @+1 {{argument 0: sharding has rank 1 but type 'tensor<8x8xf32>' has rank 2}}
func.func @rank_mismatch_on_argument(%arg0: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) {
  return
}

// -----

tessel.mesh @mesh = <["x"=8]>

// expected-error @+1 {{result 0: sharding has rank 2 but type 'tensor<8xf32>' has rank 1}}
func.func @rank_mismatch_on_result(%arg0: tensor<8xf32>) -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @rank_mismatch_on_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{result 0: sharding has rank 0 but type 'tensor<8xf32>' has rank 1}}
  %0 = hlo.add %arg0, %arg0 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, []>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @rank_mismatch_on_constraint(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tessel.sharding_constraint' op sharding has rank 2 but type 'tensor<8xf32>' has rank 1}}
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @rank_mismatch_on_reshard(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tessel.reshard' op sharding has rank 2 but type 'tensor<8xf32>' has rank 1}}
  %0 = tessel.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @too_many_per_value_shardings(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expects 1 shardings (one per result), got 2}}
  %0 = hlo.add %arg0, %arg0 {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

func.func @plain_sharding_on_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tessel.sharding' on an op must be a #tessel.sharding_per_value}}
  %0 = hlo.add %arg0, %arg0 {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=8]>

// expected-error @+1 {{argument 0: 'tessel.sharding' must be a #tessel.sharding, got}}
func.func @per_value_sharding_on_argument(%arg0: tensor<8xf32> {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>}) {
  return
}

// -----

tessel.mesh @mesh = <["x"=8]>

// expected-error @+1 {{argument 0: a sharding needs a ranked tensor, got 'i32'}}
func.func @sharding_on_scalar_type(%arg0: i32 {tessel.sharding = #tessel.sharding<@mesh, []>}) {
  return
}

// -----

// Positive edge cases: compatible sub-axes in either order, uneven splits, axes of size 1,
// sub-axes of one axis spread over dimensions, replicated and unreduced sets.
tessel.mesh @mesh = <["x"=8, "one"=1, "y"=6]>

func.func @valid_edge_cases(%arg0: tensor<5x3x7xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(4)2}, {"one"}, {"x":(1)2, "y"}]>})
    -> (tensor<5x3x7xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {?}, {}], replicated={"x":(2)2}, unreduced={"y":(1)3}>}) {
  %0 = tessel.sharding_constraint %arg0 <@mesh, [{"y":(3)2, ?}, {}, {"y":(1)3}]> : tensor<5x3x7xf32>
  return %0 : tensor<5x3x7xf32>
}

// -----

func.func @sharding_group_shapes(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+1 {{'tessel.sharding_group' op value 1 has shape 'tensor<16x8xf32>', unlike value 0 ('tensor<8x16xf32>'): only values of one shape can be sharded alike}}
  tessel.sharding_group %a, %b group_id = 0 : tensor<8x16xf32>, tensor<16x8xf32>
  return
}

// -----

func.func @sharding_group_empty() {
  // expected-error @+1 {{'tessel.sharding_group' op needs at least one value}}
  "tessel.sharding_group"() {group_id = 0 : i64} : () -> ()
  return
}
