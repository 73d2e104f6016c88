// `tessel partition` prices the ways to partition a dot on the --hardware spec and emits
// the cheapest; --strategy_remarks names it and the runner-up. A dot whose contracting
// dimension is split over 6 devices, with its rows wanted split: on the built-in spec
// (2 us per step) one reduce_scatter (5 steps) beats an all_to_all and an all_gather
// (10 steps) though it sends more padded bytes; on a link without latency but slow
// bandwidth, the fewer bytes win.
// RUN: rm -rf %t && split-file %s %t
// RUN: tessel partition %t/dot.mlir | FileCheck %s --check-prefix=DEFAULT
// RUN: tessel partition %t/dot.mlir --hardware=%t/no_latency.textproto | FileCheck %s --check-prefix=BANDWIDTH
// RUN: tessel partition %t/dot.mlir --strategy_remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tessel partition %S/../../corpus/contracting_rowsplit.hlo --strategy_remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=CORPUS
// RUN: tessel partition %t/conv.mlir --strategy_remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=CONV
// RUN: sh -c 'tessel partition %t/dot.mlir --hardware=%t/missing.textproto; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NO-SPEC

// DEFAULT: tessel.reduce_scatter
// DEFAULT-NOT: tessel.all_gather
// DEFAULT-NOT: tessel.all_to_all

// BANDWIDTH-NOT: tessel.reduce_scatter
// BANDWIDTH-DAG: tessel.all_to_all
// BANDWIDTH-DAG: tessel.all_gather

// REMARK: dot.mlir:3:8: remark: %d: strategy: operand 0 [{}, {"x"}], operand 1 [{"x"}, {}] with reduce_scatter over x (10 us, 600 bytes sent); runner-up: operand 0 [{"x"}, {}], operand 1 [{}, {}] with all_to_all over x, all_gather over x (20 us, 520 bytes sent)

// The JAX program's row-parallel matmul: a reduce_scatter over "model".
// CORPUS: remark: dot_general.1: strategy: operand 0 [{}, {"model"}], operand 1 [{"model"}, {}] with reduce_scatter over model

// A convolution is computed in the layout its users want, or in that layout less the axes
// splitting its input features (partial sums reduce-scattered), or in the layout its operands
// imply; the fastest that sends no more bytes than the first wins.
// CONV: conv.mlir:3:8: remark: %c: strategy: computed as #tessel.sharding<@mesh, [{}, {}, {}, {}]> with reduce_scatter over x ({{.*}} us, 1728 bytes sent); runner-up: computed as #tessel.sharding<@mesh, [{"x"}, {}, {}, {}]> with all_to_all over x, all_gather over x ({{.*}} us, {{[0-9]+}} bytes sent)

// NO-SPEC: tessel partition: {{.*}}missing.textproto: cannot read the hardware spec
// NO-SPEC: exit=1

//--- dot.mlir
tessel.mesh @mesh = <["x"=6]>
func.func @main(%x: tensor<14x12xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}, %w: tensor<12x10xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<14x10xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) {
  %d = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<14x12xf32>, tensor<12x10xf32>) -> tensor<14x10xf32>
  return %d : tensor<14x10xf32>
}
//--- conv.mlir
tessel.mesh @mesh = <["x"=4]>
func.func @main(%x: tensor<8x6x6x24xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {}, {"x"}]>}, %k: tensor<1x1x24x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x"}, {}]>}) -> (tensor<8x6x6x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {}, {}]>}) {
  %c = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] : (tensor<8x6x6x24xf32>, tensor<1x1x24x2xf32>) -> tensor<8x6x6x2xf32>
  return %c : tensor<8x6x6x2xf32>
}
//--- no_latency.textproto
name: "slow link, no latency"
flops_per_second: 1e15
memory_bandwidth_bytes_per_second: 1e13
memory_capacity_bytes: 80000000000
default_link { bandwidth_bytes_per_second: 1e6 latency_seconds: 0 }
