// Partition 0 loops for ever; the other partitions wait for it in an all_reduce.
tessel.mesh @mesh = <["x"=4]>

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %id = tessel.partition_id : tensor<ui32>
  %zero = hlo.constant dense<0> : tensor<ui32>
  %first = hlo.compare EQ, %id, %zero : tensor<ui32>
  %l = hlo.while(%s = %x) : tensor<2xf32>
  cond {
    hlo.return %first : tensor<i1>
  } do {
    %s1 = hlo.add %s, %s : tensor<2xf32>
    hlo.return %s1 : tensor<2xf32>
  }
  %r = tessel.all_reduce %l over @mesh ["x"] kind = sum : tensor<2xf32>
  return %r : tensor<2xf32>
}
