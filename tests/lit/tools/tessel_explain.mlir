// `tessel explain`: per axis the annotation it came from, names from the source, --value,
// --format=json, conflicts left by propagation, XLA HLO instruction names, and errors.
// RUN: split-file %s %t
// RUN: tessel explain %t/dot.mlir | FileCheck %s --check-prefix=DOT
// RUN: tessel explain %t/dot.mlir --value=%%z --format=json | FileCheck %s --check-prefix=JSON
// RUN: tessel explain %t/dot.mlir --value=4:8 | FileCheck %s --check-prefix=BY-PLACE
// RUN: tessel explain %t/conflict.mlir --value=%%c 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: tessel explain %t/prefix.mlir --value=%%x 2>&1 | FileCheck %s --check-prefix=COULD-NOT
// RUN: tessel explain %t/model.hlo | FileCheck %s --check-prefix=HLO
// RUN: tessel explain %t/named.mlir | FileCheck %s --check-prefix=NAMELOC
// RUN: sh -c 'tessel explain %t/dot.mlir --value=%%zz; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: sh -c 'tessel explain %t/dot.mlir --format=table; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FORMAT

// The product's rows come from %x and its columns from %w: one origin per axis (a single
// origin for the whole value named only one of them).
// DOT:      %x = arg0: #tessel.sharding<@mesh, [{"data"}, {}]>
// DOT-NEXT:   dimension 0: "data" from argument 0 of @main (%x)
// DOT-NEXT: %w = arg1: #tessel.sharding<@mesh, [{}, {"model"}]>
// DOT-NEXT:   dimension 1: "model" from argument 1 of @main (%w)
// DOT-NEXT: %y = hlo.dot_general at {{.*}}dot.mlir:4:8: #tessel.sharding<@mesh, [{"data"}, {"model"}]>
// DOT-NEXT:   dimension 0: "data" from argument 0 of @main (%x) via hlo.dot_general ({{.*}}dot.mlir:4:8)
// DOT-NEXT:   dimension 1: "model" from argument 1 of @main (%w) via hlo.dot_general ({{.*}}dot.mlir:4:8)
// DOT-NEXT: %z = hlo.tanh at {{.*}}dot.mlir:5:8: #tessel.sharding<@mesh, [{"data"}, {"model"}]>
// DOT-NEXT:   dimension 0: "data" from argument 0 of @main (%x) via hlo.dot_general ({{.*}}dot.mlir:4:8), hlo.tanh ({{.*}}dot.mlir:5:8)
// DOT-NEXT:   dimension 1: "model" from argument 1 of @main (%w) via hlo.dot_general ({{.*}}dot.mlir:4:8), hlo.tanh ({{.*}}dot.mlir:5:8)
// DOT-NOT: {{.}}

// JSON:      "values": [
// JSON-NEXT:   {"name": "%z", "title": "%z = hlo.tanh at {{.*}}dot.mlir:5:8", "at": "{{.*}}dot.mlir:5:8", "type": "tensor<8x32xf32>", "sharding": "#tessel.sharding<@mesh, [{\"data\"}, {\"model\"}]>",
// JSON-NEXT:    "origin": "argument 1 of @main", "axes": [{"dimension": 0, "axis": "data", "origin": "argument 0 of @main", "annotated": "%x", "path": [{"op": "hlo.dot_general", "at": "{{.*}}dot.mlir:4:8"}, {"op": "hlo.tanh", "at": "{{.*}}dot.mlir:5:8"}]}, {"dimension": 1, "axis": "model", "origin": "argument 1 of @main", "annotated": "%w", "path": [{"op": "hlo.dot_general", "at": "{{.*}}dot.mlir:4:8"}, {"op": "hlo.tanh", "at": "{{.*}}dot.mlir:5:8"}]}], "conflicts": [],
// JSON-NEXT:    "weight_update": []}
// JSON-NEXT: ]

// BY-PLACE:     %y = hlo.dot_general
// BY-PLACE-NOT: %z

// CONFLICT:      %c = hlo.add at {{.*}}conflict.mlir:4:8: #tessel.sharding<@mesh, [{}, {}]>
// CONFLICT-NEXT:   replicated: no sharding reached it
// CONFLICT-NEXT:   conflict at hlo.add ({{.*}}conflict.mlir:4:8): operand 0 %a has {"data"} on dimension 0, operand 1 %b has {"model"} on dimension 0, result 0 %c has {} on dimension 0; they have no axes in common; partitioning reconciles them with communication

// %x's dimension 1 is pinned whole, so the contracted factor cannot take %w's "model".
// COULD-NOT: %x = arg0
// COULD-NOT: conflict at hlo.dot_general ({{.*}}prefix.mlir:4:8): operand 0 %x has {} on dimension 1, operand 1 %w has {"model"} on dimension 0; operand 0 %x could not take {"model"}; partitioning reconciles them with communication

// HLO:      x = arg0: #tessel.sharding<@mesh, [{"axis_0"}, {}]>
// HLO:      s = hlo.add at {{.*}}model.hlo:6:3: #tessel.sharding<@mesh, [{"axis_0"}, {}]>
// HLO-NEXT:   dimension 0: "axis_0" from argument 0 of @main (x) via hlo.add ({{.*}}model.hlo:6:3)
// HLO:      r = hlo.neg at {{.*}}model.hlo:7:3:

// A name location names the value; with a place inside, that is printed too.
// NAMELOC: attn.scores = hlo.exp at {{.*}}named.mlir:3:8: #tessel.sharding<@mesh, [{"x"}]>
// NAMELOC: mlp.out = hlo.neg: #tessel.sharding<@mesh, [{"x"}]>
// NAMELOC-NEXT: dimension 0: "x" from argument 0 of @main (%a) via hlo.exp ({{.*}}named.mlir:3:8), hlo.neg

// UNKNOWN: tessel explain: {{.*}}dot.mlir: @main has no value '%zz'; did you mean '%z'? (names: argN, the name in the source (%name in MLIR text, the instruction name in HLO text), or LINE:COL[#K] of an op)
// UNKNOWN-NEXT: exit=1

// FORMAT: tessel explain: --format must be text or json, got 'table'
// FORMAT: exit=2

//--- dot.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<16x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>}) -> tensor<8x32xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %z = hlo.tanh %y : tensor<8x32xf32>
  return %z : tensor<8x32xf32>
}
//--- conflict.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%a: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %b: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>}) -> tensor<8x16xf32> {
  %c = hlo.add %a, %b : tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}
//--- prefix.mlir
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<16x32xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"model"}, {}]>}) -> tensor<8x32xf32> {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}
//--- model.hlo
HloModule names, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["axis_0"=2]>}}

ENTRY main {
  x = f32[8,4] parameter(0), sharding={devices=[2,1]<=[2]}
  y = f32[8,4] parameter(1)
  s = f32[8,4] add(x, y)
  ROOT r = f32[8,4] negate(s)
}
//--- named.mlir
tessel.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = hlo.exp %a : tensor<8xf32> loc("attn.scores"("named.mlir":3:8))
  %1 = hlo.neg %0 : tensor<8xf32> loc("mlp.out")
  return %1 : tensor<8xf32>
}
