"""Small programs the Python tests load: MLIR without a mesh (the test gives the shardings)
and HLO text with GSPMD shardings, as JAX dumps it."""

# y = relu(x @ w1) @ w2, with source names for every value.
MLP = """
func.func @main(%x: tensor<12x8xf32> loc("x"), %w1: tensor<8x24xf32> loc("w1"),
                %w2: tensor<24x8xf32> loc("w2")) -> tensor<12x8xf32> {
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0]
      : (tensor<12x8xf32>, tensor<8x24xf32>) -> tensor<12x24xf32> loc("h")
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<12x24xf32>
  %relu = hlo.max %h, %zeros : tensor<12x24xf32> loc("relu")
  %y = hlo.dot_general %relu, %w2, lhs_contract = [1], rhs_contract = [0]
      : (tensor<12x24xf32>, tensor<24x8xf32>) -> tensor<12x8xf32> loc("y")
  return %y : tensor<12x8xf32>
}
"""

# Integer and boolean element types: select(p, a + b, a * b) summed over rows.
INTEGERS = """
func.func @main(%p: tensor<6x4xi1>, %a: tensor<6x4xi32>, %b: tensor<6x4xi32>)
    -> (tensor<6x4xi32>, tensor<4xi32>) {
  %sum = hlo.add %a, %b : tensor<6x4xi32>
  %product = hlo.mul %a, %b : tensor<6x4xi32>
  %picked = hlo.select %p, %sum, %product : tensor<6x4xi1>, tensor<6x4xi32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %total = hlo.reduce(%picked) init(%zero) dimensions = [0]
      : (tensor<6x4xi32>, tensor<i32>) -> tensor<4xi32> reducer {
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %s = hlo.add %l, %r : tensor<i32>
    hlo.return %s : tensor<i32>
  }
  return %picked, %total : tensor<6x4xi32>, tensor<4xi32>
}
"""

# Rows split over 2 devices, the weight whole: XLA HLO text with GSPMD shardings.
ROW_SPLIT_DOT_HLO = """HloModule row_split_dot, entry_computation_layout={(f32[8,4]{1,0}, f32[4,6]{1,0})->f32[8,6]{1,0}}

ENTRY main {
  x = f32[8,4]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}
  w = f32[4,6]{1,0} parameter(1), sharding={replicated}
  ROOT d = f32[8,6]{1,0} dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""
