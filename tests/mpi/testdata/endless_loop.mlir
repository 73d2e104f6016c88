// A while loop that never ends, on a mesh of two devices: under MPI it is stopped by
// --max_while_iterations.
tessel.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %r = hlo.while(%s = %x) : tensor<4xf32>
  cond {
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  } do {
    %s1 = hlo.add %s, %s : tensor<4xf32>
    hlo.return %s1 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
