// tessel partition writes HLO text with --format=hlo or an --output ending in .hlo: the
// partitioned program (no shardings, num_partitions from the mesh), or with --propagated
// the unpartitioned one with a GSPMD sharding on every instruction.
// RUN: tessel partition %s --format=hlo | FileCheck %s --check-prefix=PART
// RUN: tessel partition %s --output=%t.hlo && FileCheck %s --check-prefix=PART < %t.hlo
// RUN: tessel run %t.hlo --print_limit=0 | FileCheck %s --check-prefix=RUN4
// RUN: tessel partition %s --propagated --format=hlo | FileCheck %s --check-prefix=PROP
// RUN: tessel partition %s --propagated --output=%t.prop.hlo && tessel run %t.prop.hlo --check --print_limit=0 | FileCheck %s --check-prefix=CHECKED
// RUN: tessel partition %s --propagated | FileCheck %s --check-prefix=PROP-MLIR
// RUN: sh -c 'tessel partition %s --format=yaml; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD

tessel.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                %w: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %t = hlo.tanh %a : tensor<8x16xf32>
  %y = hlo.dot_general %t, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// PART: HloModule {{.*}}, num_partitions=4, frontend_attributes={tessel.global_parameters="(f32[8,16]{1,0}, f32[16,4]{1,0})",tessel.global_results="(f32[8,4]{1,0})"}
// PART: ENTRY %main
// PART: %arg0.1 = f32[2,16]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}
// PART: all-gather(
// RUN4: ran the partitioned program on 4 partitions; results assembled from their pieces
// RUN4-NEXT: result 0: f32[8,4]

// PROP: HloModule {{.*}}, num_partitions=4
// PROP: %arg0.1 = f32[8,16]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}
// PROP: tanh(%arg0.1), sharding={devices=[4,1]<=[4]}
// PROP: dot({{.*}}), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sharding={devices=[4,1]<=[4]}
// CHECKED: check: result 0 f32[8,4] matches

// PROP-MLIR: hlo.tanh {{.*}}tessel.sharding = #tessel.sharding_per_value
// PROP-MLIR-NOT: tessel.all_gather

// BAD: --format must be mlir, hlo, stablehlo or auto, got 'yaml'
// BAD: exit=2
