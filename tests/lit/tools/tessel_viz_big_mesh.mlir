// `tessel viz` on a mesh of 2^20 devices (the most a mesh may have): the devices of each
// drawn tile are found in one pass, so the picture, its elisions and the empty-tile note
// come out in seconds (it once looked through every device for every cell and ran for many
// minutes).
// RUN: tessel viz %s | FileCheck %s
// CHECK: dim 0: 8 over "x" (1024 pieces of 1; pieces 8-1023 are empty, all padding)
// CHECK: |{{ +}}0{{ +}}|{{ +}}1{{ +}}| ... |{{ +}}1023{{ +}}|
// CHECK: |{{ +}}1047552{{ +}}|{{ +}}1047553{{ +}}| ... |{{ +}}1048575{{ +}}|
// CHECK: pieces 2-1022 of dim 1 are not drawn
// CHECK: pieces 6-1022 of dim 0 are not drawn
// CHECK: hold an empty tile (padding only)

tessel.mesh @mesh = <["x"=1024, "y"=1024]>
func.func @main(%a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = hlo.add %a, %a : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
