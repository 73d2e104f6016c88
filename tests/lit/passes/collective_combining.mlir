// RUN: tessel-opt %s --tessel-combine-collectives | FileCheck %s
// RUN: tessel-opt %s '--tessel-combine-collectives=max-bytes=32' | FileCheck %s --check-prefix=LIMIT

tessel.mesh @mesh = <["data"=2, "model"=2]>
tessel.mesh @other = <["data"=2, "model"=2]>

// Three all_reduces of one kind over the same axes become one of 8 + 3 + 1 elements: each
// operand flattened to 1-D (a 1-D one as it is), one concatenation, one all_reduce placed
// at the block start (all operands are arguments), a slice and a reshape per result.
// CHECK-LABEL: func.func @all_reduces
// CHECK-SAME: (%[[X:.*]]: tensor<4x2xf32>, %[[Y:.*]]: tensor<3xf32>, %[[Z:.*]]: tensor<f32>)
// CHECK-NEXT: %[[FX:.*]] = hlo.reshape %[[X]] : (tensor<4x2xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[FZ:.*]] = hlo.reshape %[[Z]] : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[C:.*]] = hlo.concatenate %[[FX]], %[[Y]], %[[FZ]], dim = 0 : (tensor<8xf32>, tensor<3xf32>, tensor<1xf32>) -> tensor<12xf32>
// CHECK-NEXT: %[[R:.*]] = tessel.all_reduce %[[C]] over @mesh ["data"] kind = sum : tensor<12xf32>
// CHECK-NEXT: %[[SA:.*]] = hlo.slice %[[R]] [0:8] : (tensor<12xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[A:.*]] = hlo.reshape %[[SA]] : (tensor<8xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[B:.*]] = hlo.slice %[[R]] [8:11] : (tensor<12xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[SC:.*]] = hlo.slice %[[R]] [11:12] : (tensor<12xf32>) -> tensor<1xf32>
// CHECK-NEXT: %[[CC:.*]] = hlo.reshape %[[SC]] : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[CC]]
func.func @all_reduces(%x: tensor<4x2xf32>, %y: tensor<3xf32>, %z: tensor<f32>)
    -> (tensor<4x2xf32>, tensor<3xf32>, tensor<f32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4x2xf32>
  %b = tessel.all_reduce %y over @mesh ["data"] kind = sum : tensor<3xf32>
  %c = tessel.all_reduce %z over @mesh ["data"] kind = sum : tensor<f32>
  return %a, %b, %c : tensor<4x2xf32>, tensor<3xf32>, tensor<f32>
}

// Pairs that differ in axes, kind, element type or mesh stay apart.
// CHECK-LABEL: func.func @different_keys
// CHECK-NOT: hlo.concatenate
// CHECK-COUNT-8: tessel.all_reduce
// CHECK-NOT: hlo.concatenate
// CHECK: return
func.func @different_keys(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<4xi32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %b = tessel.all_reduce %y over @mesh ["model"] kind = sum : tensor<4xf32>
  %c = tessel.all_reduce %y over @mesh ["data", "model"] kind = max : tensor<4xf32>
  %d = tessel.all_reduce %x over @mesh ["data", "model"] kind = min : tensor<4xf32>
  %e = tessel.all_reduce %x over @mesh ["model", "data"] kind = sum : tensor<4xf32>
  %f = tessel.all_reduce %i over @mesh ["data"] kind = max : tensor<4xi32>
  %g = tessel.all_reduce %y over @mesh ["data"] kind = max : tensor<4xf32>
  %h = tessel.all_reduce %y over @other ["data"] kind = max : tensor<4xf32>
  return %a, %b, %c, %d, %e, %f, %g, %h : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
      tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
}

// A collective of another kind in between does not stop two others from combining.
// CHECK-LABEL: func.func @interleaved
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[C:.*]] = hlo.concatenate %[[X]], %[[Y]], dim = 0 : (tensor<4xf32>, tensor<2xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[R:.*]] = tessel.all_reduce %[[C]] over @mesh ["data"] kind = sum : tensor<6xf32>
// CHECK-NEXT: %[[A:.*]] = hlo.slice %[[R]] [0:4]
// CHECK-NEXT: %[[C2:.*]] = hlo.slice %[[R]] [4:6]
// CHECK-NEXT: %[[B:.*]] = tessel.all_reduce %[[X]] over @mesh ["data"] kind = max : tensor<4xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C2]]
func.func @interleaved(%x: tensor<4xf32>, %y: tensor<2xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %b = tessel.all_reduce %x over @mesh ["data"] kind = max : tensor<4xf32>
  %c = tessel.all_reduce %y over @mesh ["data"] kind = sum : tensor<2xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>
}

// The second reduces the first's result, directly or through other ops: no combining.
// CHECK-LABEL: func.func @dependent_chain
// CHECK-NOT: hlo.concatenate
// CHECK: %[[A:.*]] = tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<4xf32>
// CHECK-NEXT: %[[B:.*]] = tessel.all_reduce %[[A]] over @mesh ["data"] kind = sum : tensor<4xf32>
// CHECK-NEXT: %[[N:.*]] = hlo.neg %[[B]]
// CHECK-NEXT: %[[E:.*]] = hlo.exp %[[N]]
// CHECK-NEXT: tessel.all_reduce %[[E]] over @mesh ["data"] kind = sum : tensor<4xf32>
// CHECK-NOT: hlo.concatenate
// CHECK: return
func.func @dependent_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %b = tessel.all_reduce %a over @mesh ["data"] kind = sum : tensor<4xf32>
  %n = hlo.neg %b : tensor<4xf32>
  %e = hlo.exp %n : tensor<4xf32>
  %c = tessel.all_reduce %e over @mesh ["data"] kind = sum : tensor<4xf32>
  return %c : tensor<4xf32>
}

// A user of the first result sits between the two, and the second's operand is ready
// before it: the combined op goes right after that operand's definition, before the user.
// CHECK-LABEL: func.func @user_between
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[T:.*]] = hlo.neg %[[Y]]
// CHECK-NEXT: %[[C:.*]] = hlo.concatenate %[[X]], %[[T]], dim = 0
// CHECK-NEXT: %[[R:.*]] = tessel.all_reduce %[[C]] over @mesh ["data"] kind = sum : tensor<6xf32>
// CHECK-NEXT: %[[A:.*]] = hlo.slice %[[R]] [0:4]
// CHECK-NEXT: %[[B:.*]] = hlo.slice %[[R]] [4:6]
// CHECK-NEXT: %[[U:.*]] = hlo.exp %[[A]]
// CHECK-NEXT: return %[[U]], %[[B]]
func.func @user_between(%x: tensor<4xf32>, %y: tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
  %t = hlo.neg %y : tensor<2xf32>
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %u = hlo.exp %a : tensor<4xf32>
  %b = tessel.all_reduce %t over @mesh ["data"] kind = sum : tensor<2xf32>
  return %u, %b : tensor<4xf32>, tensor<2xf32>
}

// The second's operand is computed (from an argument, not from the first's result) only
// after a user of the first: the user, free of side effects, moves to the end of the block
// (as a backward pass's updates do), and the two combine after the operand.
// CHECK-LABEL: func.func @user_before_operand
// CHECK: %[[T:.*]] = hlo.neg
// CHECK-NEXT: %[[C:.*]] = hlo.concatenate %{{.*}}, %[[T]], dim = 0
// CHECK-NEXT: %[[R:.*]] = tessel.all_reduce %[[C]] over @mesh ["data"] kind = sum : tensor<6xf32>
// CHECK: hlo.exp
// CHECK-NEXT: return
func.func @user_before_operand(%x: tensor<4xf32>, %y: tensor<2xf32>)
    -> (tensor<4xf32>, tensor<2xf32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %u = hlo.exp %a : tensor<4xf32>
  %t = hlo.neg %y : tensor<2xf32>
  %b = tessel.all_reduce %t over @mesh ["data"] kind = sum : tensor<2xf32>
  return %u, %b : tensor<4xf32>, tensor<2xf32>
}

// The same with a user that has side effects: it stays, and no point is after every
// operand and before every user.
// CHECK-LABEL: func.func @effect_before_operand
// CHECK-NOT: hlo.concatenate
// CHECK: %[[A:.*]] = tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<4xf32>
// CHECK-NEXT: hlo.custom_call @log(%[[A]])
// CHECK-NEXT: %[[T:.*]] = hlo.neg
// CHECK-NEXT: tessel.all_reduce %[[T]] over @mesh ["data"] kind = sum : tensor<2xf32>
func.func @effect_before_operand(%x: tensor<4xf32>, %y: tensor<2xf32>)
    -> (tensor<4xf32>, tensor<2xf32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %u = hlo.custom_call @log(%a) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %t = hlo.neg %y : tensor<2xf32>
  %b = tessel.all_reduce %t over @mesh ["data"] kind = sum : tensor<2xf32>
  return %u, %b : tensor<4xf32>, tensor<2xf32>
}

// The second's operand is computed between the two and the first's result is used only
// after the second: combined right after that operand's definition.
// CHECK-LABEL: func.func @operand_between
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[T:.*]] = hlo.neg %[[Y]]
// CHECK-NEXT: %[[C:.*]] = hlo.concatenate %[[X]], %[[T]], dim = 0
// CHECK-NEXT: %[[R:.*]] = tessel.all_reduce %[[C]]
// CHECK-NEXT: %[[A:.*]] = hlo.slice %[[R]] [0:4]
// CHECK-NEXT: %[[B:.*]] = hlo.slice %[[R]] [4:6]
// CHECK-NEXT: %[[U:.*]] = hlo.exp %[[A]]
// CHECK-NEXT: return %[[U]], %[[B]]
func.func @operand_between(%x: tensor<4xf32>, %y: tensor<2xf32>)
    -> (tensor<4xf32>, tensor<2xf32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %t = hlo.neg %y : tensor<2xf32>
  %b = tessel.all_reduce %t over @mesh ["data"] kind = sum : tensor<2xf32>
  %u = hlo.exp %a : tensor<4xf32>
  return %u, %b : tensor<4xf32>, tensor<2xf32>
}

// With max-bytes=32 the three 16-byte all_reduces split into a pair and a single one;
// with the default limit they are one.
// CHECK-LABEL: func.func @byte_limit
// CHECK: tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<12xf32>
// CHECK-NOT: tessel.all_reduce
// CHECK: return
// LIMIT-LABEL: func.func @byte_limit
// LIMIT-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>, %[[Z:.*]]: tensor<4xf32>)
// LIMIT-NEXT: %[[C:.*]] = hlo.concatenate %[[X]], %[[Y]], dim = 0
// LIMIT-NEXT: tessel.all_reduce %[[C]] over @mesh ["data"] kind = sum : tensor<8xf32>
// LIMIT-NEXT: hlo.slice
// LIMIT-NEXT: hlo.slice
// LIMIT-NEXT: tessel.all_reduce %[[Z]] over @mesh ["data"] kind = sum : tensor<4xf32>
// LIMIT-NEXT: return
func.func @byte_limit(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %b = tessel.all_reduce %y over @mesh ["data"] kind = sum : tensor<4xf32>
  %c = tessel.all_reduce %z over @mesh ["data"] kind = sum : tensor<4xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// A collective larger than the limit alone is left as it is; the others still combine.
// LIMIT-LABEL: func.func @too_large
// LIMIT-SAME: (%[[X:.*]]: tensor<16xf32>, %[[Y:.*]]: tensor<2xf32>, %[[Z:.*]]: tensor<2xf32>)
// LIMIT-NEXT: %[[C:.*]] = hlo.concatenate %[[Y]], %[[Z]], dim = 0
// LIMIT-NEXT: tessel.all_reduce %[[C]] over @mesh ["data"] kind = sum : tensor<4xf32>
// LIMIT-NEXT: hlo.slice
// LIMIT-NEXT: hlo.slice
// LIMIT-NEXT: tessel.all_reduce %[[X]] over @mesh ["data"] kind = sum : tensor<16xf32>
func.func @too_large(%x: tensor<16xf32>, %y: tensor<2xf32>, %z: tensor<2xf32>)
    -> (tensor<16xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<16xf32>
  %b = tessel.all_reduce %y over @mesh ["data"] kind = sum : tensor<2xf32>
  %c = tessel.all_reduce %z over @mesh ["data"] kind = sum : tensor<2xf32>
  return %a, %b, %c : tensor<16xf32>, tensor<2xf32>, tensor<2xf32>
}

// All_gathers along dim 0: each operand flattened to [1, size], concatenated along dim 1,
// gathered along dim 0 to [n, S], each result's columns sliced and reshaped to the
// gathered shape. A gather along dim 1 is left alone.
// CHECK-LABEL: func.func @all_gathers
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<1xf32>, %[[W:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[FX:.*]] = hlo.reshape %[[X]] : (tensor<2x3xf32>) -> tensor<1x6xf32>
// CHECK-NEXT: %[[FY:.*]] = hlo.reshape %[[Y]] : (tensor<1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT: %[[C:.*]] = hlo.concatenate %[[FX]], %[[FY]], dim = 1 : (tensor<1x6xf32>, tensor<1x1xf32>) -> tensor<1x7xf32>
// CHECK-NEXT: %[[G:.*]] = tessel.all_gather %[[C]] over @mesh ["data", "model"] dim = 0 : (tensor<1x7xf32>) -> tensor<4x7xf32>
// CHECK-NEXT: %[[SA:.*]] = hlo.slice %[[G]] [0:4, 0:6] : (tensor<4x7xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[A:.*]] = hlo.reshape %[[SA]] : (tensor<4x6xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: %[[SB:.*]] = hlo.slice %[[G]] [0:4, 6:7] : (tensor<4x7xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[B:.*]] = hlo.reshape %[[SB]] : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[D:.*]] = tessel.all_gather %[[W]] over @mesh ["data", "model"] dim = 1 : (tensor<2x3xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[D]]
func.func @all_gathers(%x: tensor<2x3xf32>, %y: tensor<1xf32>, %w: tensor<2x3xf32>)
    -> (tensor<8x3xf32>, tensor<4xf32>, tensor<2x12xf32>) {
  %a = tessel.all_gather %x over @mesh ["data", "model"] dim = 0 : (tensor<2x3xf32>) -> tensor<8x3xf32>
  %d = tessel.all_gather %w over @mesh ["data", "model"] dim = 1 : (tensor<2x3xf32>) -> tensor<2x12xf32>
  %b = tessel.all_gather %y over @mesh ["data", "model"] dim = 0 : (tensor<1xf32>) -> tensor<4xf32>
  return %a, %b, %d : tensor<8x3xf32>, tensor<4xf32>, tensor<2x12xf32>
}

// Reduce_scatters along dim 0 over groups of 2: each operand flattened to [2, size / 2],
// concatenated along dim 1, scattered along dim 0 to [1, S / 2], sliced and reshaped.
// CHECK-LABEL: func.func @reduce_scatters
// CHECK-SAME: (%[[X:.*]]: tensor<4x2xf32>, %[[Y:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[FX:.*]] = hlo.reshape %[[X]] : (tensor<4x2xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[FY:.*]] = hlo.reshape %[[Y]] : (tensor<2xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[C:.*]] = hlo.concatenate %[[FX]], %[[FY]], dim = 1 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: %[[R:.*]] = tessel.reduce_scatter %[[C]] over @mesh ["data"] dim = 0 kind = sum : (tensor<2x5xf32>) -> tensor<1x5xf32>
// CHECK-NEXT: %[[SA:.*]] = hlo.slice %[[R]] [0:1, 0:4] : (tensor<1x5xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %[[A:.*]] = hlo.reshape %[[SA]] : (tensor<1x4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[SB:.*]] = hlo.slice %[[R]] [0:1, 4:5] : (tensor<1x5xf32>) -> tensor<1x1xf32>
// CHECK-NEXT: %[[B:.*]] = hlo.reshape %[[SB]] : (tensor<1x1xf32>) -> tensor<1xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @reduce_scatters(%x: tensor<4x2xf32>, %y: tensor<2xf32>)
    -> (tensor<2x2xf32>, tensor<1xf32>) {
  %a = tessel.reduce_scatter %x over @mesh ["data"] dim = 0 kind = sum : (tensor<4x2xf32>) -> tensor<2x2xf32>
  %b = tessel.reduce_scatter %y over @mesh ["data"] dim = 0 kind = sum : (tensor<2xf32>) -> tensor<1xf32>
  return %a, %b : tensor<2x2xf32>, tensor<1xf32>
}

// Two groups whose combined ops go to different points: the gathers' second operand is
// the reduced value, so the gather is placed after the all_reduce group's results.
// CHECK-LABEL: func.func @two_groups
// CHECK: %[[R:.*]] = tessel.all_reduce %{{.*}} over @mesh ["data"] kind = sum : tensor<6xf32>
// CHECK: %[[A:.*]] = hlo.slice %[[R]] [0:4]
// CHECK: %[[B:.*]] = hlo.slice %[[R]] [4:6]
// CHECK: %[[FB:.*]] = hlo.reshape %[[B]] : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT: %[[C:.*]] = hlo.concatenate %{{.*}}, %[[FB]], dim = 1
// CHECK-NEXT: tessel.all_gather %[[C]] over @mesh ["model"] dim = 0 : (tensor<1x6xf32>) -> tensor<2x6xf32>
// CHECK-NOT: tessel.all_
// CHECK: return
func.func @two_groups(%x: tensor<4xf32>, %y: tensor<2xf32>)
    -> (tensor<8xf32>, tensor<4xf32>) {
  %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4xf32>
  %g = tessel.all_gather %a over @mesh ["model"] dim = 0 : (tensor<4xf32>) -> tensor<8xf32>
  %b = tessel.all_reduce %y over @mesh ["data"] kind = sum : tensor<2xf32>
  %h = tessel.all_gather %b over @mesh ["model"] dim = 0 : (tensor<2xf32>) -> tensor<4xf32>
  return %g, %h : tensor<8xf32>, tensor<4xf32>
}
