// `tessel explain --auto`: the plan auto-sharding chose, why, and what came second.
// RUN: split-file %s %t
// RUN: tessel explain %t/open.mlir --auto=memory_limit=64K 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: tessel explain %t/open.mlir --auto=memory_limit=64K --format=json 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: tessel explain %t/pinned.mlir --auto 2>&1 | FileCheck %s --check-prefix=PINNED
// RUN: tessel partition %t/open.mlir --auto=memory_limit=64K 2>&1 >/dev/null | FileCheck %s --check-prefix=QUIET
// RUN: sh -c 'tessel explain %t/open.mlir --auto=memory_limit=1K; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TOO-SMALL
// RUN: sh -c 'tessel explain %t/open.mlir --auto=memroy_limit=1K; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

// Every parameter and op is listed with its place and whether the solver chose it; the
// objective adds up; the weights (128 KiB) cannot stay whole under 64 KiB.
// TEXT: auto-sharding: optimal plan, {{[0-9]+}} choices (1 elementwise ops merged)
// TEXT-NEXT: parameter 0 %x ({{.*}}open.mlir:2:17): [{{.*}}]  [chosen of {{[0-9]+}}]
// TEXT-NEXT: parameter 1 %w1 ({{.*}}open.mlir:2:40): [{{.*}}"{{.*}}]  [chosen of {{[0-9]+}}]
// TEXT-NEXT: parameter 2 %w2 ({{.*}}open.mlir:2:65): [{{.*}}"{{.*}}]  [chosen of {{[0-9]+}}]
// TEXT-NEXT: hlo.dot_general %h ({{.*}}open.mlir:4:8): {{.*}}  [chosen of {{[0-9]+}}]
// TEXT: objective: {{.*}} = compute {{.*}} + communication inside ops {{.*}} + reshards {{.*}}
// TEXT: memory: estimated peak {{[0-9]+}} bytes per device at hlo.{{[a-z_]+}} ({{.*}}open.mlir:{{[0-9]+}}:{{[0-9]+}}); limit 65536
// TEXT: next-best plan: {{.*}} (+{{.*}}), differing at {{[0-9]+}}:
// TEXT: %x = arg0: #tessel.sharding<@mesh,
// TEXT-NEXT: chosen by auto-sharding
// TEXT-NOT: warning:

// JSON: "auto_sharding": {"optimal": true, "objective_seconds": {{.*}}, "estimated_peak_bytes": {{[0-9]+}}, "memory_limit_bytes": 65536,
// JSON: "choices": [{"node": "parameter 0", "name": "%x", "at": "{{.*}}open.mlir:2:17", "strategy": "[{{.*}}]", "annotated": false,
// JSON: "next_best": {"objective_seconds": {{.*}}, "changes": [
// JSON: "weight_update": [], "auto_chosen": true}

// A user's sharding is listed as annotated, and its value's story is propagation's.
// PINNED: parameter 0 %x ({{.*}}pinned.mlir:2:17): [{}, {"data"}]  [annotated]
// PINNED: %x = arg0: #tessel.sharding<@mesh, [{}, {"data"}]>
// PINNED-NOT: chosen by auto-sharding
// PINNED: dimension 1: "data" from argument 0 of @main

// Partitioning with --auto no longer warns at each reshard the plan chose.
// QUIET-NOT: will reshard

// TOO-SMALL: tessel explain: auto-sharding: no plan fits the memory limit of 1024 bytes per device; the tightest point is hlo.{{[a-z_]+}} ({{.*}}open.mlir:{{[0-9]+}}:{{[0-9]+}}), where every plan holds at least {{[0-9]+}} bytes
// TOO-SMALL: exit=1

// BAD-OPTION: tessel explain: --auto: unknown option 'memroy_limit=1K'
// BAD-OPTION: exit=2

//--- open.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>)
    -> tensor<16x64xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
  %relu = hlo.max %h, %zeros : tensor<16x256xf32>
  %y = hlo.dot_general %relu, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

//--- pinned.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"data"}]>},
                %w1: tensor<64x256xf32>) -> tensor<16x256xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  return %h : tensor<16x256xf32>
}
