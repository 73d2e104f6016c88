// `tessel report`: the cost model's estimates for one device of a partitioned program, as a
// table and as JSON, on the built-in hardware and on a spec file; programs partitioned here
// or given already partitioned; and bad input (exit 1) and bad command lines (exit 2).
// RUN: rm -rf %t && split-file %s %t
// RUN: tessel report %S/../../../examples/mlp/mlp.mlir | FileCheck %s --check-prefix=MLP
// RUN: tessel report %S/../../../examples/mlp/mlp.mlir --format=json | FileCheck %s --check-prefix=JSON
// RUN: tessel report %S/../../../examples/mlp/mlp.mlir --mesh=data=8,model=4 | FileCheck %s --check-prefix=RESIZED
// RUN: tessel report %S/../../../examples/mlp/mlp.mlir --hardware=%t/slow.textproto | FileCheck %s --check-prefix=SLOW
// RUN: tessel report %t/spmd.mlir | FileCheck %s --check-prefix=SPMD
// RUN: tessel report %t/local.mlir --partitioned | FileCheck %s --check-prefix=AS-IS
// RUN: tessel report %t/local.mlir | FileCheck %s --check-prefix=PARTITIONED-HERE
// RUN: tessel report %S/../../corpus/mlp.hlo | FileCheck %s --check-prefix=HLO
// RUN: tessel --help | FileCheck %s --check-prefix=TOP
// RUN: tessel report --help | FileCheck %s --check-prefix=HELP

// The Megatron MLP of examples/mlp on 4x2 devices: local pieces x 4x64, w1 64x128,
// w2 128x64 (f32); two dots of 2*4*128*64 flops and the relu's 512 maxima; one all_reduce of
// the 4x64 activations over "model" (n = 2 sends 2(n-1)/n = 1 times the operand, in two
// latency steps of 2 us).
// MLP:      cost report: @main on 8 devices
// MLP-NEXT: hardware: H100 SXM5-class node, NVLink 4 (assumed)
// MLP-EMPTY:
// MLP-NEXT: memory per device
// MLP-NEXT:   arguments          65.0 KiB (66560 B)
// MLP-NEXT:   results            1.00 KiB (1024 B)
// MLP-NEXT:   peak live          71.0 KiB (72704 B) at %relu = hlo.max ({{.*}}mlp.mlir:18:11)
// MLP-NEXT:   capacity           74.5 GiB (peak uses 0.00%)
// MLP-EMPTY:
// MLP-NEXT: compute per device
// MLP-NEXT:   flops              132 k (131584)
// MLP-NEXT:   memory traffic     78.0 KiB
// MLP-NEXT:   time               23.8 ns
// MLP-EMPTY:
// MLP-NEXT: communication per device
// MLP-NEXT:   kind                 axes          count      operand         sent       time
// MLP-NEXT:   all_reduce           model             1     1.00 KiB     1.00 KiB    4.00 us
// MLP-NEXT:   total                                  1     1.00 KiB     1.00 KiB    4.00 us
// MLP-EMPTY:
// MLP-NEXT: step time per device
// MLP-NEXT:   total              4.03 us (compute + communication, no overlap)
// MLP-NOT:  note:

// JSON:      "function": "main",
// JSON-NEXT: "devices": 8,
// JSON:      "memory": {"argument_bytes": 66560, "result_bytes": 1024, "peak_bytes": 72704, "peak_op": "hlo.max", "peak_location": "{{.*}}mlp.mlir:18:11", "peak_value": "%relu", "capacity_bytes": 80000000000},
// JSON-NEXT: "compute": {"flops": 131584, "memory_traffic_bytes": 79876, "seconds": 2.38435820896e-08},
// JSON-NEXT: "communication": {
// JSON-NEXT:   "seconds": 4.00227555556e-06,
// JSON-NEXT:   "by_kind": {
// JSON-NEXT:     "all_reduce": {"count": 1, "operand_bytes": 1024, "sent_bytes": 1024, "seconds": 4.00227555556e-06}
// JSON-NEXT:   },
// JSON-NEXT:   "collectives": [
// JSON-NEXT:     {"kind": "all_reduce", "axes": "model", "count": 1, "operand_bytes": 1024, "sent_bytes": 1024, "seconds": 4.00227555556e-06}
// JSON-NEXT:   ]
// JSON-NEXT: },
// JSON-NEXT: "step_seconds": 4.02611913765e-06,
// JSON-NEXT: "while_loops": 0
// JSON-NEXT: }

// On 8x4 devices each holds 2x64 activations; the all_reduce over 4 devices sends
// 2*3/4 of its 512 bytes in 6 steps.
// RESIZED:      cost report: @main on 32 devices
// RESIZED:      all_reduce           model             1        512 B        768 B    12.0 us

// A spec whose "model" axis has 1 GB/s links and 10 us latency: 2 * 10 us + 1024 B / 1 GB/s.
// SLOW:      hardware: slow model axis
// SLOW:      capacity           954 MiB (peak uses 0.01%)
// SLOW:      all_reduce           model             1     1.00 KiB     1.00 KiB    21.0 us

// Already partitioned (it has collectives): reported as written. Each kind by its algorithm:
// all_gather over y (n = 4) sends 3 x 2 KiB; reduce_scatter over x,y (n = 8) 7/8 of 8 KiB;
// all_to_all over x (n = 2) half of 2 KiB; the permute one hop; the all_reduce in the loop
// 2*3/4 of 2 KiB. The peak is at the reduce_scatter: the arguments, the gathered 8 KiB and
// the scattered 1 KiB.
// SPMD:      cost report: @main on 8 devices
// SPMD:        peak live          11.0 KiB (11269 B) at %s = tessel.reduce_scatter ({{.*}}spmd.mlir:4:8)
// SPMD:        kind                 axes          count      operand         sent       time
// SPMD-NEXT:   all_reduce           y                 1     2.00 KiB     3.00 KiB    12.0 us
// SPMD-NEXT:   all_gather           y                 1     2.00 KiB     6.00 KiB    6.01 us
// SPMD-NEXT:   reduce_scatter       x,y               1     8.00 KiB     7.00 KiB    14.0 us
// SPMD-NEXT:   all_to_all           x                 1     2.00 KiB     1.00 KiB    2.00 us
// SPMD-NEXT:   collective_permute   y                 1     2.00 KiB     2.00 KiB    2.00 us
// SPMD-NEXT:   total                                  5     16.0 KiB     19.0 KiB    36.0 us
// SPMD:      note: 1 while loop counted as one iteration (trip counts are not known)

// A per-device program without collectives is partitioned again unless --partitioned says
// it already is: its 4x64 argument stays 1 KiB rather than becoming a 1x64 quarter.
// AS-IS:              arguments          1.00 KiB (1024 B)
// AS-IS:              no collectives
// PARTITIONED-HERE:   arguments          256 B

// JAX's MLP from the corpus: its shardings land on the mesh JAX declared, data x model.
// HLO:      cost report: @main on 8 devices
// HLO:      all_reduce           model             1     2.00 KiB     2.00 KiB    4.00 us

// TOP:      verify    Parse and verify a program and print it as MLIR.
// TOP-NEXT: report    Estimate per-device memory, communication and step time.

// HELP:      usage: tessel report FILE [--function=main] [--mesh=NAME=SIZE,...] [--hardware=SPEC.textproto] [--format=text|json] [--partitioned]
// HELP:      flags:
// HELP-NEXT:   --function (default: main)
// HELP:        --mesh
// HELP:        --hardware
// HELP:        --format (default: text)
// HELP:        --partitioned (default: false)

// Bad input: exit 1 with the file named, and line:col where there is one.
// RUN: sh -c 'tessel report %t/syntax.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: tessel report: {{.*}}syntax.mlir:2:19: error: expected SSA operand
// SYNTAX: exit=1
// RUN: sh -c 'tessel report %t/missing.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tessel report: cannot read '{{.*}}missing.mlir': No such file or directory
// MISSING: exit=1
// RUN: sh -c 'tessel report %t/spmd.mlir --function=nope; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
// NO-FUNCTION: tessel report: {{.*}}spmd.mlir: no function @nope (functions: @main)
// NO-FUNCTION: exit=1
// A spec that links an axis the program's mesh does not have (JAX's MLP names its axes
// "data" and "model"): an error listing the axes there are, for report and partition.
// RUN: sh -c 'tessel report %S/../../corpus/mlp.hlo --hardware=%t/typo_axis.textproto; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TYPO-AXIS
// RUN: sh -c 'tessel partition %S/../../corpus/mlp.hlo --hardware=%t/typo_axis.textproto; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TYPO-AXIS
// TYPO-AXIS: the hardware spec gives axis "modle" a link, but no mesh of the program has it (axes: "data", "model")
// TYPO-AXIS: exit=1
// JAX's names are the names the spec, --mesh and the report use.
// RUN: tessel report %S/../../corpus/mlp.hlo --hardware=%t/slow.textproto --mesh=data=2,model=4 | FileCheck %s --check-prefix=NAMED
// NAMED: all_reduce           model             1
// RUN: sh -c 'tessel report %t/spmd.mlir --hardware=%t/bad.textproto; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD-SPEC
// BAD-SPEC: tessel report: {{.*}}bad.textproto:3:6: Message type "tessel.cost_model.HardwareSpec" has no field named "flops".
// BAD-SPEC: exit=1
// RUN: sh -c 'tessel report %t/spmd.mlir --hardware=%t/incomplete.textproto; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=INCOMPLETE-SPEC
// INCOMPLETE-SPEC: tessel report: {{.*}}incomplete.textproto: default_link is missing
// INCOMPLETE-SPEC: exit=1
// RUN: sh -c 'tessel report %t/spmd.mlir --hardware=%t/none.textproto; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-SPEC
// NO-SPEC: tessel report: {{.*}}none.textproto: cannot read the hardware spec
// NO-SPEC: exit=1
// RUN: sh -c 'tessel report %t/local.mlir --mesh=y=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-AXIS
// NO-AXIS: tessel report: --mesh: mesh @mesh (axes 'x') has no axis 'y'
// NO-AXIS: exit=1
// RUN: sh -c 'tessel report %t/spmd.mlir --mesh=x=4; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=RESIZE-SPMD
// RESIZE-SPMD: tessel report: {{.*}}spmd.mlir is already partitioned (it has collectives or partition_id); --mesh cannot resize it
// RESIZE-SPMD: exit=1
// A sub-axis "x":(2)2 needs an axis of at least 4 devices.
// RUN: sh -c 'tessel report %t/subaxis.mlir --mesh=x=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MISFIT
// MISFIT: tessel report: --mesh: the program is invalid with the new mesh:
// MISFIT-NEXT: {{.*}}subaxis.mlir:2:17: error: 'func.func' op argument 0: sub-axis "x":(2)2: 2 * 2 does not divide the size 2 of axis "x"
// MISFIT: exit=1
// RUN: sh -c 'tessel report %t/ids.mlir --mesh=x=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=IDS
// IDS: tessel report: --mesh: mesh @mesh (axes 'x') lists explicit device ids, which fit only its own axis sizes
// IDS: exit=1

// Collectives inside a manual computation do not make a program per-device code: it is
// partitioned (the manual body as written) and reported.
// RUN: sh -c 'tessel report %t/manual.mlir; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MANUAL
// MANUAL: cost report: @main on 4 devices
// MANUAL: exit=0

// Bad command lines: exit 2.
// `table`, text's old name, still gives the text.
// RUN: tessel report %S/../../../examples/mlp/mlp.mlir --format=table > %t.table
// RUN: tessel report %S/../../../examples/mlp/mlp.mlir --format=text > %t.text
// RUN: diff %t.table %t.text
// RUN: sh -c 'tessel report %t/spmd.mlir --format=xml; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: tessel report: --format must be text or json, got 'xml'
// FORMAT-NEXT: see 'tessel report --help' for usage
// FORMAT-NEXT: exit=2
// RUN: sh -c 'tessel report %t/spmd.mlir --mesh=x; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MESH-SYNTAX
// MESH-SYNTAX: tessel report: --mesh: 'x' is not NAME=SIZE (e.g. --mesh=data=4,model=2)
// MESH-SYNTAX: exit=2
// RUN: sh -c 'tessel report %t/spmd.mlir --mesh=x=0; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MESH-ZERO
// MESH-ZERO: tessel report: --mesh: the size of axis 'x' must be a positive integer, got '0'
// MESH-ZERO: exit=2
// RUN: sh -c 'tessel report %t/spmd.mlir --mesh=x=2,x=4; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MESH-TWICE
// MESH-TWICE: tessel report: --mesh: axis 'x' is given twice
// MESH-TWICE: exit=2
// RUN: sh -c 'tessel report %t/local.mlir --partitioned --mesh=x=2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=CONFLICT
// CONFLICT: tessel report: --mesh resizes the mesh before partitioning; it cannot be used with --partitioned
// CONFLICT: exit=2
// RUN: sh -c 'tessel report; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-FILE
// NO-FILE: tessel report: expected one FILE, got 0 arguments
// NO-FILE: exit=2

//--- spmd.mlir
tessel.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%a: tensor<8x64xf32>, %i0: tensor<i32>, %p: tensor<i1>) -> tensor<8x64xf32> {
  %g = tessel.all_gather %a over @mesh ["y"] dim = 0 : (tensor<8x64xf32>) -> tensor<32x64xf32>
  %s = tessel.reduce_scatter %g over @mesh ["x", "y"] dim = 0 kind = sum : (tensor<32x64xf32>) -> tensor<4x64xf32>
  %t = tessel.all_to_all %a over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x64xf32>) -> tensor<4x128xf32>
  %r:2 = hlo.while(%i = %i0, %y = %a) : tensor<i32>, tensor<8x64xf32>
  cond {
    hlo.return %p : tensor<i1>
  } do {
    %q = tessel.collective_permute %y over @mesh ["y"] shift = 1 cyclic : tensor<8x64xf32>
    %z = tessel.all_reduce %q over @mesh ["y"] kind = sum : tensor<8x64xf32>
    hlo.return %i, %z : tensor<i32>, tensor<8x64xf32>
  }
  return %r#1 : tensor<8x64xf32>
}

//--- local.mlir
tessel.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<4x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %e = hlo.exp %a : tensor<4x64xf32>
  return %e : tensor<4x64xf32>
}

//--- subaxis.mlir
tessel.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x":(2)2}]>}) -> tensor<8xf32> {
  %e = hlo.exp %a : tensor<8xf32>
  return %e : tensor<8xf32>
}

//--- ids.mlir
tessel.mesh @mesh = <["x"=4], device_ids=[3, 2, 1, 0]>
func.func @main(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

//--- manual.mlir
tessel.mesh @mesh = <["x"=4]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%l: tensor<2xf32>) {
    %s = tessel.all_reduce %l over @mesh ["x"] kind = sum : tensor<2xf32>
    tessel.return %s : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

//--- syntax.mlir
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %x, : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- slow.textproto
# Two nodes: "model" crosses the network, everything else stays on NVLink.
name: "slow model axis"
flops_per_second: 1e15
memory_bandwidth_bytes_per_second: 2e12
memory_capacity_bytes: 1000000000
default_link { bandwidth_bytes_per_second: 4e11 latency_seconds: 1e-6 }
axis_links { axis: "model" link { bandwidth_bytes_per_second: 1e9 latency_seconds: 1e-5 } }

//--- typo_axis.textproto
name: "typo in an axis name"
flops_per_second: 1e15
memory_bandwidth_bytes_per_second: 2e12
memory_capacity_bytes: 1000000000
default_link { bandwidth_bytes_per_second: 4e11 latency_seconds: 1e-6 }
axis_links { axis: "modle" link { bandwidth_bytes_per_second: 1e9 latency_seconds: 1e-5 } }

//--- bad.textproto
name: "typo"
# the field is flops_per_second
flops: 1e15

//--- incomplete.textproto
flops_per_second: 1e15
memory_bandwidth_bytes_per_second: 2e12
memory_capacity_bytes: 1000000000
