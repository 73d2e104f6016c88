// `tessel viz` on a mesh of 2^20 devices (the most a mesh may have): the devices are
// visited once, and only the cells that can be drawn keep their (shortened) device lists,
// so the picture, its elisions and the notes come out in under a second with no memory per
// device (it once looked through every device for every cell and ran for many minutes, and
// later held a record per device, 600 MB, and printed device lists 70,000 characters long).
// RUN: tessel viz %s | FileCheck %s
// CHECK: dim 0: 8 over "x" (1024 pieces of 1; pieces 8-1023 are empty, all padding)
// CHECK: |{{ +}}0{{ +}}|{{ +}}1{{ +}}| ... |{{ +}}1023{{ +}}|
// CHECK: |{{ +}}1047552{{ +}}|{{ +}}1047553{{ +}}| ... |{{ +}}1048575{{ +}}|
// CHECK: pieces 2-1022 of dim 1 are not drawn
// CHECK: pieces 6-1022 of dim 0 are not drawn
// CHECK: hold an empty tile (padding only)
// %b: 1024 holders per tile, every 1024th device; most tiles empty.
// CHECK: dim 0: 16 over "y" (1024 pieces of 1; pieces 16-1023 are empty, all padding)
// CHECK: | 0,1024,2048,...,1047552 (1024 devices) | ... | 1023,2047,3071,...,1048575 (1024 devices) |
// CHECK: each tile is held by 1024 devices
// CHECK: devices 16-1023,1040-2047,2064-3071,...,1047568-1048575 (1032192 devices) hold an empty tile (padding only)

tessel.mesh @mesh = <["x"=1024, "y"=1024]>
func.func @main(%a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>},
                %b: tensor<16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}]>}) -> (tensor<8x8xf32>, tensor<16xf32>) {
  %0 = hlo.add %a, %a : tensor<8x8xf32>
  return %0, %b : tensor<8x8xf32>, tensor<16xf32>
}
