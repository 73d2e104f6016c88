// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file -mlir-print-op-generic | tessel-opt -split-input-file | FileCheck %s

tessel.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func @one_operand
// CHECK: %[[R:.*]] = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%[[LA:.*]]: tensor<2x8xf32>) {
// CHECK-NEXT: %[[S:.*]] = hlo.add %[[LA]], %[[LA]] : tensor<2x8xf32>
// CHECK-NEXT: tessel.return %[[S]] : tensor<2x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: return %[[R]]
func.func @one_operand(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
      (%la: tensor<2x8xf32>) {
    %s = hlo.add %la, %la : tensor<2x8xf32>
    tessel.return %s : tensor<2x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// Two manual axes, two operands, two results; the body uses a collective over a manual
// axis and returns a partial sum.
// CHECK-LABEL: func @two_operands_two_results
// CHECK: tessel.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x", "y"}]>, <@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"x"}]>, <@mesh, [{}, {}], unreduced={"y"}>] manual_axes={"x", "y"} (%{{.*}}: tensor<1xf32>, %{{.*}}: tensor<4x2xf32>) {
// CHECK: tessel.all_gather
// CHECK: } : (tensor<8xf32>, tensor<4x4xf32>) -> (tensor<8xf32>, tensor<4x4xf32>)
func.func @two_operands_two_results(%arg0: tensor<8xf32>, %arg1: tensor<4x4xf32>) -> (tensor<8xf32>, tensor<4x4xf32>) {
  %0:2 = tessel.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x", "y"}]>, <@mesh, [{}, {"y"}]>]
      out_shardings=[<@mesh, [{"x"}]>, <@mesh, [{}, {}], unreduced={"y"}>] manual_axes={"x", "y"}
      (%a: tensor<1xf32>, %b: tensor<4x2xf32>) {
    %g = tessel.all_gather %a over @mesh ["y"] dim = 0 : (tensor<1xf32>) -> tensor<2xf32>
    %c = tessel.all_gather %b over @mesh ["y"] dim = 1 : (tensor<4x2xf32>) -> tensor<4x4xf32>
    tessel.return %g, %c : tensor<2xf32>, tensor<4x4xf32>
  } : (tensor<8xf32>, tensor<4x4xf32>) -> (tensor<8xf32>, tensor<4x4xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<4x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// Non-manual axes may follow manual ones; they leave the local size alone. Uneven splits
// over non-manual axes are fine.
// CHECK-LABEL: func @manual_then_automatic
// CHECK: in_shardings=[<@mesh, [{"x", "y"}, {?}]>]
// CHECK-SAME: manual_axes={"x"} (%{{.*}}: tensor<3x5xf32>)
func.func @manual_then_automatic(%arg0: tensor<12x5xf32>) -> tensor<12x5xf32> {
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}, {?}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
      (%la: tensor<3x5xf32>) {
    tessel.return %la : tensor<3x5xf32>
  } : (tensor<12x5xf32>) -> tensor<12x5xf32>
  return %0 : tensor<12x5xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// A sub-axis of a manual axis is manual too.
// CHECK-LABEL: func @manual_sub_axis
// CHECK: in_shardings=[<@mesh, [{"x":(1)2}, {"x":(2)2}]>]
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32>)
func.func @manual_sub_axis(%arg0: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x":(1)2}, {"x":(2)2}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
      (%la: tensor<4x3xf32>) {
    %r = hlo.constant dense<1.0> : tensor<2x6xf32>
    tessel.return %r : tensor<2x6xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// No manual axes: the body sees global types.
// CHECK-LABEL: func @no_manual_axes
// CHECK: manual_axes={} (%{{.*}}: tensor<8xf32>)
func.func @no_manual_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{}]>] manual_axes={}
      (%la: tensor<8xf32>) {
    tessel.return %la : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// No operands and no results.
// CHECK-LABEL: func @empty
// CHECK: tessel.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
// CHECK-NEXT: tessel.return
// CHECK-NEXT: } : () -> ()
func.func @empty() {
  tessel.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    tessel.return
  } : () -> ()
  return
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// Extra attributes go after the region.
// CHECK-LABEL: func @extra_attributes
// CHECK: } {note = "kept"} : (tensor<8xf32>) -> tensor<8xf32>
func.func @extra_attributes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"}
      (%la: tensor<2xf32>) {
    tessel.return %la : tensor<2xf32>
  } {note = "kept"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
