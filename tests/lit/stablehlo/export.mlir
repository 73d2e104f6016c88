// StableHLO + Shardy export: hlo ops as generic stablehlo ops with StableHLO's attribute
// spellings, Tessel's shardings, meshes and manual computations as sdy, collectives over
// explicit device groups. The export imports back to the program it came from.
// RUN: split-file %s %t
// RUN: tessel-translate --export-stablehlo %t/ops.mlir | FileCheck %s --check-prefix=OPS
// RUN: tessel-translate --export-stablehlo %t/ops.mlir | tessel-opt --tessel-import-stablehlo | FileCheck %s --check-prefix=BACK
// RUN: tessel-translate --export-stablehlo %t/collectives.mlir | FileCheck %s --check-prefix=COLL
// RUN: tessel-translate --export-stablehlo %t/manual.mlir | FileCheck %s --check-prefix=MANUAL
// RUN: tessel-translate --export-stablehlo %t/manual.mlir | tessel-opt --tessel-import-stablehlo | FileCheck %s --check-prefix=MANUAL-BACK
// RUN: sh -c 'tessel-translate --export-stablehlo %t/smallest.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SMALLEST

// OPS: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// OPS-NEXT: "sdy.mesh"() <{mesh = #sdy.mesh<["data"=4, "model"=2]>, sym_name = "mesh"}> : () -> ()
// OPS: func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x4xf32>, %arg2: tensor<8xi32>)
// OPS-SAME: -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<8x16xi1>)
// OPS: "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
// OPS: "stablehlo.compare"(%arg0, %arg0) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
// OPS: "stablehlo.multiply"
// OPS: "stablehlo.negate"
// OPS: "chlo.erf"
// OPS: "stablehlo.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
// OPS-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// OPS-NEXT: %[[S:.*]] = "stablehlo.add"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// OPS-NEXT: "stablehlo.return"(%[[S]]) : (tensor<f32>) -> ()
// OPS: "sdy.sharding_constraint"(%{{.*}}) <{sharding = #sdy.sharding<@mesh, [{"data", ?}, {}]>}>
// OPS: "stablehlo.sort"(%arg2) <{dimension = 0 : i64, is_stable = true}> ({
// OPS: "stablehlo.compare"({{.*}}) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}>
// OPS-NOT: {{"hlo\.|#hlo}}
// OPS-NOT: tessel

// BACK: tessel.mesh @mesh = <["data"=4, "model"=2]>
// BACK: hlo.dot_general %arg0, %arg1, lhs_contract = [1], rhs_contract = [0] {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
// BACK: hlo.compare GT, %arg0, %arg0
// BACK: hlo.erf
// BACK: hlo.reduce
// BACK: tessel.sharding_constraint %{{.*}} <@mesh, [{"data", ?}, {}]>
// BACK: hlo.sort
// BACK: hlo.compare LT, {{.*}} SIGNED

// COLL: "stablehlo.partition_id"() : () -> tensor<ui32>
// COLL: "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// COLL: "stablehlo.maximum"
// COLL: "stablehlo.all_gather"(%{{.*}}) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}>
// COLL: "stablehlo.reduce_scatter"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}>
// COLL: "stablehlo.all_to_all"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}>
// COLL: "stablehlo.collective_permute"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0], [2, 3], [3, 2]]> : tensor<4x2xi64>}>

// MANUAL: "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}> ({
// MANUAL: "stablehlo.all_reduce"
// MANUAL: "sdy.return"
// MANUAL-BACK: tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"}
// MANUAL-BACK: tessel.all_reduce %{{.*}} over @mesh ["x"] kind = sum

// SMALLEST: error: 'hlo.top_k' of the smallest elements has no StableHLO form
// SMALLEST: exit=1

//--- ops.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<16x4xf32>, %i: tensor<8xi32>)
    -> (tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}, tensor<8x16xi1>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0]
      {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}
      : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %p = hlo.compare GT, %x, %x : tensor<8x16xf32>
  %m = hlo.mul %x, %x : tensor<8x16xf32>
  %n = hlo.neg %m : tensor<8x16xf32>
  %e = hlo.erf %n : tensor<8x16xf32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%e) init(%z) dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %c = tessel.sharding_constraint %e <@mesh, [{"data", ?}, {}]> : tensor<8x16xf32>
  %sorted = hlo.sort(%i) dimension = 0 is_stable : tensor<8xi32> comparator {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %lt = hlo.compare LT, %a, %b, SIGNED : tensor<i32>
    hlo.return %lt : tensor<i1>
  }
  return %y, %p : tensor<8x4xf32>, tensor<8x16xi1>
}
//--- collectives.mlir
tessel.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%x: tensor<4x4xf32>) -> (tensor<ui32>, tensor<4x4xf32>, tensor<4x8xf32>, tensor<1x4xf32>, tensor<2x8xf32>, tensor<4x4xf32>) {
  %id = tessel.partition_id : tensor<ui32>
  %r = tessel.all_reduce %x over @mesh ["a"] kind = max : tensor<4x4xf32>
  %g = tessel.all_gather %r over @mesh ["b"] dim = 1 : (tensor<4x4xf32>) -> tensor<4x8xf32>
  %s = tessel.reduce_scatter %r over @mesh ["a", "b"] dim = 0 kind = sum : (tensor<4x4xf32>) -> tensor<1x4xf32>
  %t = tessel.all_to_all %x over @mesh ["b"] split_dim = 0 concat_dim = 1 : (tensor<4x4xf32>) -> tensor<2x8xf32>
  %p = tessel.collective_permute %x over @mesh ["b"] shift = 1 cyclic : tensor<4x4xf32>
  return %id, %r, %g, %s, %t, %p : tensor<ui32>, tensor<4x4xf32>, tensor<4x8xf32>, tensor<1x4xf32>, tensor<2x8xf32>, tensor<4x4xf32>
}
//--- manual.mlir
tessel.mesh @mesh = <["x"=4]>
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tessel.manual_computation(%x) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
    %s = tessel.all_reduce %l over @mesh ["x"] kind = sum : tensor<2xf32>
    tessel.return %s : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
//--- smallest.mlir
func.func @main(%x: tensor<8xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %v, %i = hlo.top_k %x, k = 2 smallest : tensor<8xf32>
  return %v, %i : tensor<2xf32>, tensor<2xi32>
}
