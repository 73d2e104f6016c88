// Shardings and strictness from the command line: --in_shardings / --out_shardings in
// PartitionSpec form, --replication_is_error and --conservative, on every command that
// propagates, and each way to get them wrong.
// RUN: split-file %s %t
// RUN: tessel explain %t/plain.mlir --mesh=data=4,model=2 --in_shardings="x=P('data',None),w1=P(None,'model')" | FileCheck %s --check-prefix=IN
// RUN: tessel explain %t/plain.mlir --mesh=data=4,model=2 --in_shardings="arg0=P(data)" --in_shardings="1=replicated" --out_shardings="%%h=P(None,('data','model'))" | FileCheck %s --check-prefix=OUT
// RUN: tessel explain %t/plain.mlir --mesh=data=4,model=2 --out_shardings="result0=PartitionSpec('model')" | FileCheck %s --check-prefix=BY-RESULT
// RUN: tessel run %t/plain.mlir --mesh=data=3,model=2 --in_shardings="x=P('data'),%%w1=P(None,'model')" --check --print_limit=0 | FileCheck %s --check-prefix=VERIFIED
// RUN: tessel partition %t/plain.mlir --mesh=data=4,model=2 --in_shardings="x=P('data')" | FileCheck %s --check-prefix=PARTITION
// RUN: tessel viz %t/plain.mlir --mesh=data=4,model=2 --in_shardings="w1=P(None,'model')" --value=%%w1 | FileCheck %s --check-prefix=VIZ
// RUN: tessel report %t/plain.mlir --mesh=data=4,model=2 --in_shardings="x=P('data')" --format=json | FileCheck %s --check-prefix=REPORT
// RUN: tessel explain %t/model.hlo --mesh=axis_0=2 --in_shardings="w1=P(None,'axis_0')" --value=w1 | FileCheck %s --check-prefix=HLO

// Bad command lines: exit 2.
// RUN: sh -c 'tessel explain %t/plain.mlir --in_shardings="x"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NOT-ASSIGNMENT
// RUN: sh -c 'tessel explain %t/plain.mlir --in_shardings="x=P(data"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UNCLOSED
// RUN: sh -c 'tessel partition %t/plain.mlir --out_shardings="0=Q()"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NOT-P
// Bad input: exit 1.
// RUN: sh -c 'tessel explain %t/plain.mlir --mesh=data=4,model=2 --in_shardings="x=P(dta)"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: sh -c 'tessel explain %t/plain.mlir --mesh=data=4,model=2 --in_shardings="w11=P(data)"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: sh -c 'tessel explain %t/plain.mlir --mesh=data=4,model=2 --out_shardings="1=P()"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: sh -c 'tessel explain %t/plain.mlir --mesh=data=4,model=2 --in_shardings="x=P(None,None,data)"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: sh -c 'tessel explain %t/plain.mlir --mesh=data=4,model=2 --in_shardings="x=P((data,model),data)"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: sh -c 'tessel explain %t/plain.mlir --in_shardings="x=P(data)"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-MESH
// RUN: sh -c 'tessel report %t/plain.mlir --partitioned --in_shardings="x=P()"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=PARTITIONED
// RUN: sh -c 'tessel explain %t/two_meshes.mlir --in_shardings="a=P(x)"; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TWO-MESHES

// Strictness: a reshape that can only be partitioned by replication.
// RUN: tessel partition %t/reshape.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLOWED
// RUN: sh -c 'tessel partition %t/reshape.mlir -o /dev/null --replication_is_error; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FORBIDDEN
// RUN: sh -c 'tessel run %t/reshape.mlir --check --replication-is-error; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FORBIDDEN
// RUN: sh -c 'tessel report %t/reshape.mlir --replication_is_error; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FORBIDDEN
// Conservative propagation stops at the pad's shifted dimension.
// RUN: tessel explain %t/pad.mlir --value=%%p 2>&1 | FileCheck %s --check-prefix=PAD
// RUN: tessel explain %t/pad.mlir --value=%%p --conservative 2>&1 | FileCheck %s --check-prefix=PAD-CONSERVATIVE

// IN:      %x = arg0: #tessel.sharding<@mesh, [{"data"}, {}]>
// IN:      %w1 = arg1: #tessel.sharding<@mesh, [{}, {"model"}]>
// IN:      %h = hlo.dot_general at {{.*}}: #tessel.sharding<@mesh, [{"data"}, {"model"}]>
// IN-NEXT:   dimension 0: "data" from argument 0 of @main (%x)
// IN-NEXT:   dimension 1: "model" from argument 1 of @main (%w1)

// OUT:      %x = arg0: #tessel.sharding<@mesh, [{"data"}, {}]>
// OUT:      %w1 = arg1: #tessel.sharding<@mesh, [{}, {}]>
// The result's sharding seeds the value returned there, which then has no room for "data"
// on its rows.
// OUT:      %h = hlo.dot_general at {{.*}}: #tessel.sharding<@mesh, [{}, {"data", "model"}]>
// OUT-NEXT:   dimension 1: "data" from result 0 of @main (%h)
// OUT-NEXT:   dimension 1: "model" from result 0 of @main (%h)

// BY-RESULT: %h = hlo.dot_general at {{.*}}: #tessel.sharding<@mesh, [{"model"}, {}]>
// BY-RESULT-NEXT: dimension 0: "model" from result 0 of @main (%h)

// VERIFIED: check: ran the partitioned program on 6 partitions
// VERIFIED: check: result 0 f32[16,256] matches

// PARTITION: func.func @main(%arg0: tensor<4x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>}

// VIZ: %w1 = arg1: tensor<64x256xf32> #tessel.sharding<@mesh, [{}, {"model"}]>

// x split 4 ways (1024 bytes), w1 whole (65536).
// REPORT: "argument_bytes": 66560,

// HLO: w1 = arg1: #tessel.sharding<@mesh, [{}, {"axis_0"}]>

// NOT-ASSIGNMENT: tessel explain: --in_shardings: 'x' is not NAME=P(...) (e.g. x=P('data',None) or 0=P())
// NOT-ASSIGNMENT: exit=2
// UNCLOSED: tessel explain: --in_shardings: bad PartitionSpec 'P(data' at column 7: ',' or ')' expected
// UNCLOSED: exit=2
// NOT-P: tessel partition: --out_shardings: bad PartitionSpec 'Q()' at column 1: expected P(...) or replicated
// NOT-P: exit=2
// AXIS: tessel explain: --in_shardings: 'x=P(dta)': the mesh has no axis 'dta'; did you mean 'data'? (axes: data, model)
// AXIS-NEXT: exit=1
// ARG: tessel explain: --in_shardings: @main has no argument 'w11'; did you mean 'w1'? (it has 2)
// ARG-NEXT: exit=1
// RESULT: tessel explain: --out_shardings: @main has no result '1' (it has 1)
// RESULT-NEXT: exit=1
// RANK: tessel explain: --in_shardings: 'x=P(None,None,data)' gives 3 dimensions to a value of rank 2
// RANK-NEXT: exit=1
// TWICE: tessel explain: --in_shardings: 'x=P((data,model),data)' uses axis 'data' twice
// TWICE-NEXT: exit=1
// NO-MESH: tessel explain: --in_shardings/--out_shardings split values over a mesh, and the program declares none: give one with --mesh=NAME=SIZE,...
// NO-MESH-NEXT: exit=1
// PARTITIONED: tessel report: --in_shardings and --out_shardings act before partitioning; they cannot be used with --partitioned
// PARTITIONED: exit=2
// TWO-MESHES: tessel explain: --in_shardings/--out_shardings use the program's one mesh, and it declares 2; annotate the program instead
// TWO-MESHES-NEXT: exit=1

// ALLOWED: warning: %r: 'hlo.reshape' {{.*}}is partitioned by replication
// FORBIDDEN: error: %r: 'hlo.reshape' would be partitioned by replication (64 bytes of split operands gathered), which the options forbid
// FORBIDDEN: exit=1

// PAD: %p = hlo.pad at {{.*}}: #tessel.sharding<@mesh, [{"x"}]>
// PAD-CONSERVATIVE: %p = hlo.pad at {{.*}}: #tessel.sharding<@mesh, [{}]>
// PAD-CONSERVATIVE: result 0 %p could not take {"x"}

//--- plain.mlir
func.func @main(%x: tensor<16x64xf32>, %w1: tensor<64x256xf32>) -> tensor<16x256xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
  return %h : tensor<16x256xf32>
}
//--- model.hlo
HloModule names, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["axis_0"=2]>}}

ENTRY main {
  x = f32[8,4] parameter(0)
  w1 = f32[4,6] parameter(1)
  ROOT d = f32[8,6] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
//--- two_meshes.mlir
tessel.mesh @m1 = <["x"=2]>
tessel.mesh @m2 = <["y"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
//--- reshape.mlir
tessel.mesh @mesh = <["x"=4]>
func.func @main(%v: tensor<16xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> (tensor<2x8xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %r = hlo.reshape %v : (tensor<16xi32>) -> tensor<2x8xi32>
  return %r : tensor<2x8xi32>
}
//--- pad.mlir
tessel.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<10xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %p = hlo.pad %a, %z, low = [1], high = [1], interior = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<10xf32>
  return %p : tensor<10xf32>
}
