// Already the per-device program (tessel.per_device), on a mesh of more devices than a
// local run starts partitions.
module attributes {tessel.per_device} {
  tessel.mesh @mesh = <["x"=2048]>
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = tessel.all_reduce %x over @mesh ["x"] kind = sum : tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
