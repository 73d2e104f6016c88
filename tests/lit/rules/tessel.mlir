// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

tessel.mesh @mesh = <["data"=4, "model"=2]>

// Constraints and reshards are the identity.
func.func @sharding_constraint_and_reshard(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=8}}}
  %y = tessel.sharding_constraint %x <@mesh, [{"data"}, {}]> : tensor<8x8xf32>
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=8}}}
  %z = tessel.reshard %y <@mesh, [{}, {"model"}]> : tensor<8x8xf32>
  return %z : tensor<8x8xf32>
}

// -----

// Nothing to split: no factors.
func.func @partition_id() -> tensor<ui32> {
  // expected-remark @+1 {{sharding rule: ()->([]) {}}}
  %id = tessel.partition_id : tensor<ui32>
  return %id : tensor<ui32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// all_reduce and collective_permute keep every element in place: pass-through for the
// axes they do not run over.
func.func @elementwise_collectives(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=4, j=8}}}
  %a = tessel.all_reduce %x over @mesh ["model"] kind = sum : tensor<4x8xf32>
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=4, j=8}}}
  %b = tessel.collective_permute %a over @mesh ["data"] shift = 1 : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// The gathered dim changes size and order: a need-replication factor on each side.
func.func @all_gather(%x: tensor<2x8xf32>) -> tensor<8x8xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k])->([j, k]) {i=2, j=8, k=8} need_replication={i, j}}}
  %y = tessel.all_gather %x over @mesh ["data"] dim = 0 : (tensor<2x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @reduce_scatter(%x: tensor<8x8xf32>) -> tensor<8x2xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, k]) {i=8, j=8, k=2} need_replication={j, k}}}
  %y = tessel.reduce_scatter %x over @mesh ["data"] dim = 1 kind = sum : (tensor<8x8xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=4]>

// Split and concat dims both need replication; dim 2 passes through.
func.func @all_to_all(%x: tensor<8x2x3xf32>) -> tensor<2x8x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k, m])->([j, l, m]) {i=8, j=2, k=2, l=8, m=3} need_replication={i, j, k, l}}}
  %y = tessel.all_to_all %x over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x2x3xf32>) -> tensor<2x8x3xf32>
  return %y : tensor<2x8x3xf32>
}

// -----

tessel.mesh @mesh = <["data"=4, "model"=2]>

// Factor sizes need static shapes.
func.func @dynamic_shape(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-remark @+1 {{no sharding rule (opaque): factor sizes need static shapes, and an operand or result is dynamic}}
  %y = tessel.all_gather %x over @mesh ["data"] dim = 0 : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

tessel.mesh @mesh = <["x"=4, "y"=2]>

// A manual computation is crossed by data-flow edges (free axes only); the ops inside get
// their own rules.
func.func @manual_computation(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-remark @+1 {{no sharding rule (data-flow edges): free axes flow between operand k and block argument k, and between returned value k and result k; manual axes stop at the boundary}}
  %0 = tessel.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
      (%la: tensor<2x8xf32>) {
    // expected-remark @+1 {{sharding rule: ([i, j], [i, j])->([i, j]) {i=2, j=8}}}
    %s = hlo.add %la, %la : tensor<2x8xf32>
    // expected-remark @+1 {{no sharding rule (data-flow edges): region terminator: its operands join the manual computation's data-flow edges}}
    tessel.return %s : tensor<2x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
