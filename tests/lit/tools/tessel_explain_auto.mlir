// `tessel explain --auto`: the plan auto-sharding chose, why, and what came second.
// RUN: split-file %s %t
// RUN: tessel explain %t/open.mlir --auto=memory_limit=64K 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: tessel explain %t/open.mlir --auto=memory_limit=64K --format=json 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: tessel explain %t/pinned.mlir --auto 2>&1 | FileCheck %s --check-prefix=PINNED
// RUN: tessel explain %t/stacks.mlir --auto 2>&1 | FileCheck %s --check-prefix=STACKS
// RUN: tessel explain %t/loop.mlir --auto 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: tessel explain %t/loop.mlir --auto --format=json 2>/dev/null | FileCheck %s --check-prefix=LOOP-JSON
// RUN: tessel explain %t/case.mlir --auto 2>&1 | FileCheck %s --check-prefix=CASE
// RUN: tessel explain %t/kernel.mlir --auto 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: tessel explain %t/kernel.mlir --auto --format=json 2>/dev/null | FileCheck %s --check-prefix=KERNEL-JSON
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

// Tied layers and ops priced whole are said before the choices: the plan is optimal among
// plans that treat the copies alike, and blind to what an op without a rule could split.
// STACKS: auto-sharding: optimal plan, {{[0-9]+}} choices
// STACKS-NEXT: layers: 4 identical layers take the same strategies (runs of 2, 2 copies); the plan is optimal among such plans
// The runner-up is found among tied plans too (here it splits %x over fewer axes).
// STACKS: next-best plan: {{.*}}, differing at {{[0-9]+}}:
// STACKS-NEXT: parameter 0 %x
// A loop is planned inside: its carried values and its body's ops are choices.
// LOOP: auto-sharding: optimal plan, {{[0-9]+}} choices
// LOOP-NOT: priced whole
// LOOP: loop carry 1 of hlo.while {{.*}}loop.mlir:5:{{[0-9]+}}){{.*}}chosen of {{[0-9]+}}
// LOOP: hlo.dot_general %y ({{.*}}loop.mlir:12:{{[0-9]+}}):
// LOOP-JSON: "repeated_layer_runs": [], "whole_ops": []
// So is a case: its results and its branches' ops are choices.
// CASE: auto-sharding: optimal plan, {{[0-9]+}} choices
// CASE-NOT: priced whole
// CASE: case result 0 of hlo.case {{.*}}case.mlir:4:{{[0-9]+}}){{.*}}chosen of {{[0-9]+}}
// KERNEL: auto-sharding: optimal plan, {{[0-9]+}} choices
// KERNEL-NEXT: priced whole (no sharding rule, no strategies): hlo.custom_call ({{.*}}kernel.mlir:4:{{[0-9]+}})
// KERNEL-JSON: "repeated_layer_runs": [], "whole_ops": ["hlo.custom_call ({{.*}}kernel.mlir:4:{{[0-9]+}})"]

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

//--- stacks.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32>,
                %w1_0: tensor<64x256xf32>,
                %w2_0: tensor<256x64xf32>,
                %w1_1: tensor<64x256xf32>,
                %w2_1: tensor<256x64xf32>,
                %w1_2: tensor<64x128xf32>,
                %w2_2: tensor<128x64xf32>,
                %w1_3: tensor<64x128xf32>,
                %w2_3: tensor<128x64xf32>) -> tensor<16x64xf32> {
  %h0 = hlo.dot_general %x, %w1_0, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %t0 = hlo.tanh %h0 : tensor<16x256xf32>
  %y0 = hlo.dot_general %t0, %w2_0, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  %h1 = hlo.dot_general %y0, %w1_1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  %t1 = hlo.tanh %h1 : tensor<16x256xf32>
  %y1 = hlo.dot_general %t1, %w2_1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
  %h2 = hlo.dot_general %y1, %w1_2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x128xf32>) -> tensor<16x128xf32>
  %t2 = hlo.tanh %h2 : tensor<16x128xf32>
  %y2 = hlo.dot_general %t2, %w2_2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x128xf32>, tensor<128x64xf32>) -> tensor<16x64xf32>
  %h3 = hlo.dot_general %y2, %w1_3, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x64xf32>, tensor<64x128xf32>) -> tensor<16x128xf32>
  %t3 = hlo.tanh %h3 : tensor<16x128xf32>
  %y3 = hlo.dot_general %t3, %w2_3, lhs_contract = [1], rhs_contract = [0]
      : (tensor<16x128xf32>, tensor<128x64xf32>) -> tensor<16x64xf32>
  return %y3 : tensor<16x64xf32>
}

//--- loop.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %three = hlo.constant dense<3> : tensor<i32>
  %r:2 = hlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<16x64xf32>
  cond {
    %more = hlo.compare LT, %i, %three : tensor<i32>
    hlo.return %more : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %next = hlo.add %i, %one : tensor<i32>
    %y = hlo.dot_general %h, %w, lhs_contract = [1], rhs_contract = [0]
        : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %t = hlo.tanh %y : tensor<16x64xf32>
    hlo.return %next, %t : tensor<i32>, tensor<16x64xf32>
  }
  return %r#1 : tensor<16x64xf32>
}

//--- case.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%i: tensor<i32>, %x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %y = hlo.exp %x : tensor<16x64xf32>
  %r = hlo.case %i branches {
    %e = hlo.tanh %y : tensor<16x64xf32>
    hlo.return %e : tensor<16x64xf32>
  }, {
    hlo.return %y : tensor<16x64xf32>
  } : (tensor<i32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

//--- kernel.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %y = hlo.exp %x : tensor<16x64xf32>
  %r = hlo.custom_call @my_kernel(%y) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
