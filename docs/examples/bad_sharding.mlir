// A sharding that names an axis the mesh does not have.
tessel.mesh @mesh = <["data"=4, "model"=2]>

func.func @layer(%x: tensor<16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"modle"}, {}]>}) -> tensor<16x64xf32> {
  return %x : tensor<16x64xf32>
}
