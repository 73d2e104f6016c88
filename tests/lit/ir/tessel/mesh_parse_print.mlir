// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: tessel.mesh @two_axes = <["data"=4, "model"=2]>
tessel.mesh @two_axes = <["data"=4, "model"=2]>

// -----

// CHECK-LABEL: tessel.mesh @device_ids = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
tessel.mesh @device_ids = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>

// -----

// A mesh without axes is a single device.
// CHECK-LABEL: tessel.mesh @single_device = <[]>
tessel.mesh @single_device = <[]>

// -----

// A maximal mesh names its one device, whatever its id.
// CHECK-LABEL: tessel.mesh @maximal = <[], device_ids=[5]>
tessel.mesh @maximal = <[], device_ids=[5]>

// -----

// Axes of size 1 are allowed; they split nothing.
// CHECK-LABEL: tessel.mesh @size_one_axis = <["x"=1, "y"=8]>
tessel.mesh @size_one_axis = <["x"=1, "y"=8]>

// -----

// The attributes also parse and print on their own.
// CHECK-LABEL: func @standalone_attributes
// CHECK-SAME: dim = #tessel.dim_sharding<{"a", ?}p3>
// CHECK-SAME: empty_dim = #tessel.dim_sharding<{}>
// CHECK-SAME: full_axis = #tessel.axis_ref<"a">
// CHECK-SAME: mesh = #tessel.mesh<["a"=2]>
// CHECK-SAME: mesh_axis = #tessel.mesh_axis<"a" = 2>
// CHECK-SAME: reduction = #tessel.reduction<prod>
// CHECK-SAME: sub_axis = #tessel.axis_ref<"a":(2)2>
func.func @standalone_attributes() attributes {
    mesh = #tessel.mesh<["a"=2]>, mesh_axis = #tessel.mesh_axis<"a"=2>,
    full_axis = #tessel.axis_ref<"a">, sub_axis = #tessel.axis_ref<"a":(2)2>,
    dim = #tessel.dim_sharding<{"a", ?}p3>, empty_dim = #tessel.dim_sharding<{}>,
    reduction = #tessel.reduction<prod>} {
  return
}
