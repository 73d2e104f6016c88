// RUN: tessel-opt %s -split-input-file -verify-diagnostics

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @in_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expects 1 in_shardings (one per operand), got 2}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @out_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expects 1 out_shardings (one per result), got 0}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>
tessel.mesh @other = <["x"=4]>

func.func @two_meshes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{all shardings must use one mesh, got @mesh and @other}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@other, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @manual_axes_without_mesh() {
  // expected-error @+1 {{has manual axes but no shardings to take a mesh from}}
  tessel.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"x"} () {
    tessel.return
  } : () -> ()
  return
}

// -----

func.func @unknown_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{unknown mesh @missing}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@missing, [{"x"}]>]
      out_shardings=[<@missing, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @manual_axis_not_in_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{manual axis "z" is not in mesh @mesh}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"z"} (%la: tensor<8xf32>) {
    tessel.return %la : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @manual_axis_twice(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{manual axis "x" appears twice}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x", "x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @invalid_in_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{in_shardings[0]: sharding has rank 2 but type 'tensor<8xf32>' has rank 1}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @invalid_out_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{out_shardings[0]: axis "x" is used twice}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}], replicated={"x"}>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @manual_after_automatic(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{in_shardings[0]: dimension 0: manual axis "x" comes after non-manual axis "y"}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"y", "x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// Manual code sees exact shards, so manual axes must split their dimension evenly.
func.func @manual_split_uneven(%arg0: tensor<6xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{in_shardings[0]: dimension 0 has size 6, which is not divisible by 4, the product of its manual axis sizes}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<6xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @body_argument_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{body has 2 arguments, expects 1 (one per operand)}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>, %lb: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// The body must see the local type, not the global one.
func.func @body_argument_global_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{body argument 0 has type 'tensor<8xf32>', expects local type 'tensor<2xf32>'}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%la: tensor<8xf32>) {
    tessel.return %la : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// Non-manual axes do not shrink the local type.
func.func @body_argument_split_by_automatic_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{body argument 0 has type 'tensor<1xf32>', expects local type 'tensor<2xf32>'}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<1xf32>) {
    %r = hlo.constant dense<0.0> : tensor<2xf32>
    tessel.return %r : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @body_without_return(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{body must end with 'tessel.return'}}
  %0 = "tessel.manual_computation"(%arg0) <{in_shardings = [#tessel.sharding<@mesh, [{"x"}]>], manual_axes = ["x"], out_shardings = [#tessel.sharding<@mesh, [{"x"}]>]}> ({
  ^bb0(%la: tensor<2xf32>):
    "func.return"(%la) : (tensor<2xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @return_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{body returns 2 values, expects 1 (one per result)}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la, %la : tensor<2xf32>, tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @return_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{body returns 'tensor<2xf32>' for result 0, expects local type 'tensor<8xf32>'}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @return_outside_manual_computation(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{expects parent op 'tessel.manual_computation'}}
  tessel.return %arg0 : tensor<8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// Outside values have global types; they must come in as operands.
func.func @uses_value_from_outside(%arg0: tensor<8xf32>, %arg1: tensor<2xf32>) -> tensor<8xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xf32>) {
    // expected-error @+1 {{using value defined outside the region}}
    %s = hlo.add %la, %arg1 : tensor<2xf32>
    tessel.return %s : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Positive edge case: a dynamic dimension stays dynamic in the body, and a manual axis in
// the unreduced set changes no size.
tessel.mesh @mesh = <["x"=4, "y"=2]>

func.func @dynamic_and_unreduced(%arg0: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"y"}, {"x"}]>]
      out_shardings=[<@mesh, [{}, {"x"}], unreduced={"y"}>] manual_axes={"x", "y"}
      (%la: tensor<?x2xf32>) {
    tessel.return %la : tensor<?x2xf32>
  } : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
