// A hand-written SPMD program for 4 partitions: each takes its quarter of the contraction
// dimension with partition_id and dynamic_slice, multiplies, and all-reduces the partial
// products, so every partition returns x·w (and its own partition id).
tessel.mesh @mesh = <["x"=4]>

func.func @main(%x: tensor<2x8xi32>, %w: tensor<8x2xi32>) -> (tensor<2x2xi32>, tensor<ui32>) {
  %id = tessel.partition_id : tensor<ui32>
  %id32 = hlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %two = hlo.constant dense<2> : tensor<i32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %start = hlo.mul %id32, %two : tensor<i32>
  %xs = hlo.dynamic_slice %x, %zero, %start, sizes = [2, 2] : (tensor<2x8xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  %ws = hlo.dynamic_slice %w, %start, %zero, sizes = [2, 2] : (tensor<8x2xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  %partial = hlo.dot_general %xs, %ws, lhs_contract = [1], rhs_contract = [0] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %sum = tessel.all_reduce %partial over @mesh ["x"] kind = sum : tensor<2x2xi32>
  return %sum, %id : tensor<2x2xi32>, tensor<ui32>
}
