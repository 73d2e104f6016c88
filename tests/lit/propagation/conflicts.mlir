// RUN: tessel-opt %s --tessel-propagate -split-input-file -verify-diagnostics | FileCheck %s

// Two dimensions the user pinned (closed) to different axes meet at an op: propagation
// cannot reconcile them and says so where they meet; each keeps its sharding.
tessel.mesh @mesh = <["x"=4, "y"=2]>
// CHECK-LABEL: func @closed_operands_disagree
func.func @closed_operands_disagree(
    %a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>},
    %b: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  // expected-warning @+1 {{operand 0 is pinned to {"x"} and operand 1 to {"y"} on a dimension they share; the partitioner will reshard}}
  %0 = hlo.add %a, %b : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A constraint that disagrees with a pinned argument: warned at the constraint.
tessel.mesh @mesh = <["x"=4, "y"=2]>
// CHECK-LABEL: func @constraint_disagrees
// CHECK: tessel.sharding_constraint {{.*}}[<@mesh, [{"y"}, {}]>]
func.func @constraint_disagrees(
    %a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  // expected-warning @+1 {{operand 0 is pinned to {"x"} and result 0 to {"y"}}}
  %0 = tessel.sharding_constraint %a <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Open dimensions never conflict: they take what fits.
tessel.mesh @mesh = <["x"=4, "y"=2]>
// CHECK-LABEL: func @open_dims_agree
func.func @open_dims_agree(
    %a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x", ?}]>},
    %b: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{?}]>}) -> tensor<8xf32> {
  %0 = hlo.add %a, %b : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Shardings auto-sharding wrote (marked tessel.auto_chosen) are reshards its plan priced:
// one remark counts them instead of a warning each, a conflict between the user's own
// annotations is still warned, and the marks are gone afterwards.
tessel.mesh @mesh = <["x"=4, "y"=2]>
// CHECK-LABEL: func @auto_chosen_reshards_are_counted
// CHECK-NOT: tessel.auto_chosen
// CHECK: return
func.func @auto_chosen_reshards_are_counted(
    %a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>},
    %b: tensor<8xf32> {tessel.auto_chosen, tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>},
    %c: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  // expected-remark @+1 {{2 pinned disagreements come from the auto-sharding plan, which priced their reshards (not warned one by one)}}
  %0 = hlo.add %a, %b : tensor<8xf32>
  %1 = hlo.mul %b, %a {tessel.auto_chosen, tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  // expected-warning @+1 {{operand 0 is pinned to {"x"} and operand 1 to {"y"} on a dimension they share; the partitioner will reshard}}
  %2 = hlo.add %a, %c : tensor<8xf32>
  return %2 : tensor<8xf32>
}
