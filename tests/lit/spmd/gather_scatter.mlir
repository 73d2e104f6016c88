// RUN: tessel-opt %s --tessel-propagate --tessel-partition -split-input-file | FileCheck %s

tessel.mesh @mesh = <["x"=3]>

// Rows of an operand split along the indexed dim (7 over 3, shards of 3): each device
// clamps the global start to [0, 6], shifts it by its offset, gathers from its shard,
// zeroes rows another shard owns, and an all_reduce combines.
// CHECK-LABEL: func @gather_indexed_dim_split
// CHECK-SAME: %[[X:.*]]: tensor<3x4xf32> {{.*}}, %[[I:.*]]: tensor<5x1xi32>
// CHECK: %[[HIGH:.*]] = hlo.constant dense<6> : tensor<i32>
// CHECK: %[[HIGHS:.*]] = hlo.broadcast_in_dim %[[HIGH]], dims = [] : (tensor<i32>) -> tensor<5x1xi32>
// CHECK: %[[CLAMPED:.*]] = hlo.clamp %{{.*}}, %[[I]], %[[HIGHS]] : tensor<5x1xi32>, tensor<5x1xi32>, tensor<5x1xi32>
// CHECK: hlo.constant dense<[0, 3, 6]> : tensor<3xi32>
// CHECK: %[[SHIFTED:.*]] = hlo.sub %[[CLAMPED]], %{{.*}} : tensor<5x1xi32>
// CHECK: hlo.constant dense<[3, 3, 1]> : tensor<3xi32>
// CHECK: %[[BELOW:.*]] = hlo.compare LT, %{{.*}}, %{{.*}} : tensor<5xi32>
// CHECK: %[[ABOVE:.*]] = hlo.compare GE, %{{.*}}, %{{.*}} : tensor<5xi32>
// CHECK: %[[IN:.*]] = hlo.and %[[ABOVE]], %[[BELOW]] : tensor<5xi1>
// CHECK: %[[G:.*]] = hlo.gather %[[X]][%[[SHIFTED]]], slice_sizes = [1, 4], {{.*}} : (tensor<3x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
// CHECK: %[[MASK:.*]] = hlo.broadcast_in_dim %[[IN]], dims = [0] : (tensor<5xi1>) -> tensor<5x4xi1>
// CHECK: %[[SEL:.*]] = hlo.select %[[MASK]], %[[G]], %{{.*}} : tensor<5x4xi1>, tensor<5x4xf32>
// CHECK: %[[SUM:.*]] = tessel.all_reduce %[[SEL]] over @mesh ["x"] kind = sum : tensor<5x4xf32>
// CHECK: return %[[SUM]] : tensor<5x4xf32>
func.func @gather_indexed_dim_split(%x: tensor<7x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<5x1xi32>) -> tensor<5x4xf32> {
  %r = hlo.gather %x[%i], slice_sizes = [1, 4], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<7x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Indices split along their batch dim: a local gather for each device's index vectors.
// CHECK-LABEL: func @gather_index_passthrough
// CHECK-SAME: %[[X:.*]]: tensor<7x4xf32> {{.*}}, %[[I:.*]]: tensor<3xi32>
// CHECK-NEXT: %[[G:.*]] = hlo.gather %[[X]][%[[I]]], {{.*}} : (tensor<7x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[G]] : tensor<3x4xf32>
func.func @gather_index_passthrough(%x: tensor<7x4xf32>, %i: tensor<6xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<6x4xf32> {
  %r = hlo.gather %x[%i], slice_sizes = [1, 4], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<7x4xf32>, tensor<6xi32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Operand split along a dim the slice takes whole: the slice is the local shard.
// CHECK-LABEL: func @gather_operand_passthrough
// CHECK-SAME: %[[X:.*]]: tensor<7x3xf32> {{.*}}, %[[I:.*]]: tensor<5x1xi32>
// CHECK-NEXT: %[[G:.*]] = hlo.gather %[[X]][%[[I]]], slice_sizes = [1, 3], {{.*}} : (tensor<7x3xf32>, tensor<5x1xi32>) -> tensor<5x3xf32>
// CHECK-NEXT: return %[[G]] : tensor<5x3xf32>
func.func @gather_operand_passthrough(%x: tensor<7x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}, %i: tensor<5x1xi32>) -> tensor<5x6xf32> {
  %r = hlo.gather %x[%i], slice_sizes = [1, 6], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<7x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Explicit batching dims split alike on operand and indices: local.
// CHECK-LABEL: func @gather_batching_dims
// CHECK-SAME: %[[X:.*]]: tensor<2x7xi32> {{.*}}, %[[I:.*]]: tensor<2x3xi32>
// CHECK-NEXT: %[[G:.*]] = hlo.gather %[[X]][%[[I]]], {{.*}} : (tensor<2x7xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: return %[[G]] : tensor<2x3xi32>
func.func @gather_batching_dims(%x: tensor<4x7xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<4x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x3xi32> {
  %r = hlo.gather %x[%i], slice_sizes = [1, 1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2 : (tensor<4x7xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>
  return %r : tensor<4x3xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// pred rows from a split operand: the masked partial results are or-ed by the sum.
// CHECK-LABEL: func @gather_pred
// CHECK: %[[G:.*]] = hlo.gather {{.*}} : (tensor<4x2xi1>, tensor<3xi32>) -> tensor<3x2xi1>
// CHECK: %[[FALSE:.*]] = hlo.constant dense<false> : tensor<i1>
// CHECK: %[[SEL:.*]] = hlo.select %{{.*}}, %[[G]], %{{.*}} : tensor<3x2xi1>, tensor<3x2xi1>
// CHECK: %[[ANY:.*]] = tessel.all_reduce %[[SEL]] over @mesh ["x"] kind = sum : tensor<3x2xi1>
// CHECK: return %[[ANY]] : tensor<3x2xi1>
func.func @gather_pred(%x: tensor<8x2xi1> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<3xi32>) -> tensor<3x2xi1> {
  %r = hlo.gather %x[%i], slice_sizes = [1, 2], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 : (tensor<8x2xi1>, tensor<3xi32>) -> tensor<3x2xi1>
  return %r : tensor<3x2xi1>
}

// -----

tessel.mesh @mesh = <["x"=2, "y"=2]>

// Both indexed dims split: the per-entry bounds and offsets are laid out along the index
// vector dim, and a row survives only where both entries fall in the device's shard.
// CHECK-LABEL: func @gather_two_indexed_dims
// CHECK-SAME: %[[X:.*]]: tensor<3x3xi32> {{.*}}, %[[I:.*]]: tensor<3x2xi32>
// CHECK: %[[HIGHS:.*]] = hlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK: %[[HIGH:.*]] = hlo.broadcast_in_dim %[[HIGHS]], dims = [1] : (tensor<2xi32>) -> tensor<3x2xi32>
// CHECK: %[[CLAMPED:.*]] = hlo.clamp %{{.*}}, %[[I]], %[[HIGH]]
// CHECK: hlo.constant dense<[0, 0, 3, 3]> : tensor<4xi32>
// CHECK: hlo.constant dense<[0, 3, 0, 3]> : tensor<4xi32>
// CHECK: %[[OFFSETS:.*]] = hlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK: %[[OFFSET:.*]] = hlo.broadcast_in_dim %[[OFFSETS]], dims = [1] : (tensor<2xi32>) -> tensor<3x2xi32>
// CHECK: %[[SHIFTED:.*]] = hlo.sub %[[CLAMPED]], %[[OFFSET]] : tensor<3x2xi32>
// CHECK: hlo.slice %[[SHIFTED]] [0:3, 0:1]
// CHECK: %[[IN0:.*]] = hlo.and %{{.*}}, %{{.*}} : tensor<3xi1>
// CHECK: hlo.slice %[[SHIFTED]] [0:3, 1:2]
// CHECK: hlo.constant dense<[3, 2, 3, 2]> : tensor<4xi32>
// CHECK: %[[IN1:.*]] = hlo.and %{{.*}}, %{{.*}} : tensor<3xi1>
// CHECK: %[[IN:.*]] = hlo.and %[[IN0]], %[[IN1]] : tensor<3xi1>
// CHECK: %[[G:.*]] = hlo.gather %[[X]][%[[SHIFTED]]], {{.*}} : (tensor<3x3xi32>, tensor<3x2xi32>) -> tensor<3xi32>
// CHECK: %[[SEL:.*]] = hlo.select %{{.*}}, %[[G]], %{{.*}} : tensor<3xi1>, tensor<3xi32>
// CHECK: tessel.all_reduce %[[SEL]] over @mesh ["x", "y"] kind = sum : tensor<3xi32>
func.func @gather_two_indexed_dims(%x: tensor<6x5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}, %i: tensor<3x2xi32>) -> tensor<3xi32> {
  %r = hlo.gather %x[%i], slice_sizes = [1, 1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1 : (tensor<6x5xi32>, tensor<3x2xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// A partial window on the only split dim: the handler declines, the fallback replicates.
// CHECK-LABEL: func @gather_partial_window_declined
// CHECK: %[[WHOLE:.*]] = tessel.all_gather %{{.*}} over @mesh ["x"] dim = 0 : (tensor<4x2xf32>) -> tensor<8x2xf32>
// CHECK: hlo.gather %[[WHOLE]][%{{.*}}], slice_sizes = [3, 2], {{.*}} : (tensor<8x2xf32>, tensor<3xi32>) -> tensor<3x3x2xf32>
func.func @gather_partial_window_declined(%x: tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<3xi32>) -> tensor<3x3x2xf32> {
  %r = hlo.gather %x[%i], slice_sizes = [3, 2], offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1 : (tensor<8x2xf32>, tensor<3xi32>) -> tensor<3x3x2xf32>
  return %r : tensor<3x3x2xf32>
}

// -----

tessel.mesh @mesh = <["x"=3]>

// Scatter into an input split along the indexed dim: every device shifts the starts by
// its offset and scatters locally; windows of other shards fall outside and are skipped.
// CHECK-LABEL: func @scatter_indexed_dim_split
// CHECK-SAME: %[[X:.*]]: tensor<3x4xf32> {{.*}}, %[[I:.*]]: tensor<5x1xi32> {{.*}}, %[[U:.*]]: tensor<5x4xf32>
// CHECK: hlo.constant dense<[0, 3, 6]> : tensor<3xi32>
// CHECK: %[[OFFSET:.*]] = hlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
// CHECK: %[[SHIFTED:.*]] = hlo.sub %[[I]], %[[OFFSET]] : tensor<5x1xi32>
// CHECK-NEXT: %[[S:.*]] = hlo.scatter(%[[X]]) indices(%[[SHIFTED]]) updates(%[[U]]), {{.*}} : (tensor<3x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<3x4xf32> update
// CHECK-NOT: tessel.
// CHECK: return %[[S]] : tensor<3x4xf32>
func.func @scatter_indexed_dim_split(%x: tensor<7x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<5x1xi32>, %u: tensor<5x4xf32>) -> tensor<7x4xf32> {
  %r = hlo.scatter(%x) indices(%i) updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<7x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<7x4xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<7x4xf32>
}

// -----

tessel.mesh @mesh = <["x"=2]>

// Scatter whose windows cover a split dim whole: the updates are split alike; local.
// CHECK-LABEL: func @scatter_window_passthrough
// CHECK-SAME: %[[X:.*]]: tensor<7x3xf32> {{.*}}, %[[I:.*]]: tensor<5x1xi32> {{.*}}, %[[U:.*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[S:.*]] = hlo.scatter(%[[X]]) indices(%[[I]]) updates(%[[U]]), {{.*}} : (tensor<7x3xf32>, tensor<5x1xi32>, tensor<5x3xf32>) -> tensor<7x3xf32> update
// CHECK: return %[[S]] : tensor<7x3xf32>
func.func @scatter_window_passthrough(%x: tensor<7x6xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}]>}, %i: tensor<5x1xi32>, %u: tensor<5x6xf32>) -> tensor<7x6xf32> {
  %r = hlo.scatter(%x) indices(%i) updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<7x6xf32>, tensor<5x1xi32>, tensor<5x6xf32>) -> tensor<7x6xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  }
  return %r : tensor<7x6xf32>
}

// -----

// A segment sum: indices and updates split over "x" along their batch dim; each device adds
// its own rows into zeros (the input counts on group position 0 only) and one all_reduce
// sums the partial results. Nothing is gathered.
tessel.mesh @mesh = <["x"=4]>
// CHECK-LABEL: func.func @segment_sum
// CHECK-NOT: tessel.all_gather
// CHECK: hlo.select
// CHECK: hlo.scatter(%{{.*}}) indices(%{{.*}}) updates(%{{.*}}), {{.*}} : (tensor<8x4xf32>, tensor<4x1xi32>, tensor<4x4xf32>) -> tensor<8x4xf32>
// CHECK: tessel.all_reduce %{{.*}} over @mesh ["x"] kind = sum : tensor<8x4xf32>
// CHECK-NOT: tessel.all_gather
func.func @segment_sum(%x: tensor<8x4xf32>,
                       %i: tensor<16x1xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                       %u: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}]>}) {
  %r = hlo.scatter(%x) indices(%i) updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<8x4xf32>, tensor<16x1xi32>, tensor<16x4xf32>) -> tensor<8x4xf32> update {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<8x4xf32>
}
