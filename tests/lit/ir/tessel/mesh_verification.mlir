// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{mesh axis "x" appears twice}}
tessel.mesh @duplicate_axis = <["x"=2, "x"=4]>

// -----

// expected-error @+1 {{mesh axis "x" has size 0, must be at least 1}}
tessel.mesh @size_zero = <["x"=0]>

// -----

// expected-error @+1 {{mesh axis name must not be empty}}
tessel.mesh @empty_name = <[""=2]>

// -----

// expected-error @+1 {{device_ids must have 4 entries (the mesh size), has 3}}
tessel.mesh @wrong_device_count = <["x"=2, "y"=2], device_ids=[0, 1, 2]>

// -----

// expected-error @+1 {{device id 4 is out of range [0, 4)}}
tessel.mesh @device_id_out_of_range = <["x"=4], device_ids=[0, 1, 2, 4]>

// -----

// expected-error @+1 {{device id 1 appears twice}}
tessel.mesh @device_id_twice = <["x"=4], device_ids=[0, 1, 1, 2]>

// -----

// expected-error @+1 {{a mesh without axes takes exactly one device id, got 2}}
tessel.mesh @maximal_two_ids = <[], device_ids=[0, 1]>

// -----

// expected-error @+1 {{device id -1 must not be negative}}
tessel.mesh @maximal_negative_id = <[], device_ids=[-1]>

// -----

func.func @mesh_inside_function() {
  // expected-error @+1 {{expects parent op 'builtin.module'}}
  tessel.mesh @inner = <["x"=2]>
  return
}

// -----

// Positive edge cases: the largest device id, and iota written out.
tessel.mesh @reversed = <["x"=4], device_ids=[3, 2, 1, 0]>
tessel.mesh @iota = <["x"=2, "y"=2], device_ids=[0, 1, 2, 3]>
