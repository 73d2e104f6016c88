// A program that partitions but cannot run: the executor has no kernel for the custom call.
// Under `tessel run --backend=mpi` every partition fails, and the first failure ends the
// whole MPI job (MPI_Abort) instead of leaving the other ranks waiting.
tessel.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%a: tensor<4x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %s = hlo.add %a, %a : tensor<4x4xf32>
  %r = hlo.custom_call @not_a_kernel(%s) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
