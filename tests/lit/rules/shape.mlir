// RUN: tessel-opt %s -split-input-file --tessel-test-print-sharding-rules -verify-diagnostics

// One factor per result dim; the operand dim mapped to it shares it.
func.func @broadcast_in_dim(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-remark @+1 {{sharding rule: ([j])->([i, j]) {i=2, j=4}}}
  %r = hlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// The expanded size-1 operand dim 0 (to result dim 1) gets its own size-1 factor.
func.func @broadcast_in_dim_expanded(%x: tensor<1x3xi32>) -> tensor<3x5x2xi32> {
  // expected-remark @+1 {{sharding rule: ([l, i])->([i, j, k]) {i=3, j=5, k=2, l=1}}}
  %r = hlo.broadcast_in_dim %x, dims = [1, 0] : (tensor<1x3xi32>) -> tensor<3x5x2xi32>
  return %r : tensor<3x5x2xi32>
}

// -----

func.func @broadcast_in_dim_scalar(%x: tensor<i1>) -> tensor<2x4xi1> {
  // expected-remark @+1 {{sharding rule: ([])->([i, j]) {i=2, j=4}}}
  %r = hlo.broadcast_in_dim %x, dims = [] : (tensor<i1>) -> tensor<2x4xi1>
  return %r : tensor<2x4xi1>
}

// -----

// Operand dim permutation[j] shares the factor of result dim j.
func.func @transpose(%x: tensor<2x3x4xi64>) -> tensor<4x2x3xi64> {
  // expected-remark @+1 {{sharding rule: ([j, k, i])->([i, j, k]) {i=4, j=2, k=3}}}
  %r = hlo.transpose %x, permutation = [2, 0, 1] : (tensor<2x3x4xi64>) -> tensor<4x2x3xi64>
  return %r : tensor<4x2x3xi64>
}

// -----

// Dim 0 is cut (permutation, the larger extent 8); dim 1 is taken whole (pass-through).
func.func @slice(%x: tensor<8x3xf32>) -> tensor<2x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=3} permutation={i}}}
  %r = hlo.slice %x [1:5:2, 0:3] : (tensor<8x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

func.func @slice_unchanged(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=3}}}
  %r = hlo.slice %x [0:8, 0:3] : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

// Negative high padding on dim 1 crops; both dims change. The rank-0 padding value maps to nothing.
func.func @pad(%x: tensor<2x3xf32>, %pv: tensor<f32>) -> tensor<5x4xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [])->([i, j]) {i=5, j=4} permutation={i, j}}}
  %r = hlo.pad %x, %pv, low = [1, 0], high = [2, -1], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

func.func @pad_one_dim(%x: tensor<4x3xf32>, %pv: tensor<f32>) -> tensor<4x6xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [])->([i, j]) {i=4, j=6} permutation={j}}}
  %r = hlo.pad %x, %pv, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// Unrelated operands: the concatenated dim needs replication, each tensor its own factor.
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, l], [j, l])->([k, l]) {i=2, j=4, k=6, l=3} need_replication={i, j, k}}}
  %r = hlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

// -----

// Every operand is a slice: the concatenated dim is one permutation factor.
func.func @concatenate_slices(%x: tensor<8x3xf32>, %y: tensor<8x3xf32>) -> tensor<8x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=3} permutation={i}}}
  %a = hlo.slice %x [4:8, 0:3] : (tensor<8x3xf32>) -> tensor<4x3xf32>
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=3} permutation={i}}}
  %b = hlo.slice %y [0:4, 0:3] : (tensor<8x3xf32>) -> tensor<4x3xf32>
  // expected-remark @+1 {{sharding rule: ([i, j], [i, j])->([i, j]) {i=8, j=3} permutation={i}}}
  %r = hlo.concatenate %a, %b, dim = 0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

// x and a slice of x: a rotation of x.
func.func @concatenate_rotation(%x: tensor<8x3xf32>) -> tensor<10x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=3} permutation={i}}}
  %a = hlo.slice %x [6:8, 0:3] : (tensor<8x3xf32>) -> tensor<2x3xf32>
  // expected-remark @+1 {{sharding rule: ([i, j], [i, j])->([i, j]) {i=10, j=3} permutation={i}}}
  %r = hlo.concatenate %a, %x, dim = 0 : (tensor<2x3xf32>, tensor<8x3xf32>) -> tensor<10x3xf32>
  return %r : tensor<10x3xf32>
}

// -----

// x and a slice of another tensor: not a rotation.
func.func @concatenate_mixed(%x: tensor<8x3xf32>, %y: tensor<8x3xf32>) -> tensor<10x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=3} permutation={i}}}
  %a = hlo.slice %y [6:8, 0:3] : (tensor<8x3xf32>) -> tensor<2x3xf32>
  // expected-remark @+1 {{sharding rule: ([i, l], [j, l])->([k, l]) {i=2, j=8, k=10, l=3} need_replication={i, j, k}}}
  %r = hlo.concatenate %a, %x, dim = 0 : (tensor<2x3xf32>, tensor<8x3xf32>) -> tensor<10x3xf32>
  return %r : tensor<10x3xf32>
}

// -----

func.func @concatenate_single(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=8, j=3}}}
  %r = hlo.concatenate %x, dim = 1 : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

func.func @reverse(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j])->([i, j]) {i=4, j=3} permutation={i}}}
  %r = hlo.reverse %x, dims = [0] : tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Dim 0 is sliced at a run-time offset: need-replication, blocked. Dim 1 is taken whole.
func.func @dynamic_slice(%x: tensor<8x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, j], [], [])->([i, j]) {i=8, j=3} need_replication={i} blocked={i}}}
  %r = hlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<8x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Operand and result share every dim; the update's dim 0 needs replication.
func.func @dynamic_update_slice(%x: tensor<8x3xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<8x3xf32> {
  // expected-remark @+1 {{sharding rule: ([i, k], [j, k], [], [])->([i, k]) {i=8, j=2, k=3} need_replication={j}}}
  %r = hlo.dynamic_update_slice %x, %u, %i, %j : (tensor<8x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

// With constant start indices the update's own factor is pass-through.
func.func @dynamic_update_slice_constant_starts(%x: tensor<8x3xf32>, %u: tensor<2x3xf32>) -> tensor<8x3xf32> {
  // expected-remark @+1 {{no sharding rule (source op): no operands: the result takes the sharding its users ask for}}
  %i = hlo.constant dense<2> : tensor<i32>
  // expected-remark @+1 {{sharding rule: ([i, k], [j, k], [], [])->([i, k]) {i=8, j=2, k=3}}}
  %r = hlo.dynamic_update_slice %x, %u, %i, %i : (tensor<8x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}
