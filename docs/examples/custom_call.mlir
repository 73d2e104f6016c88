// A call of a kernel the reference executor does not know: it parses, verifies and
// partitions, but `tessel run` cannot run it.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = hlo.custom_call @my_kernel(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
