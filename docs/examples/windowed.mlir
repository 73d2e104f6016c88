// Windowed ops on split spatial dimensions, whose operands need halos from neighbouring
// tiles: a strided, padded convolution over image rows split in two (@main), a padded
// reduce_window over 12 elements split in three (@pool), and a select_and_scatter whose
// windows straddle the split (@scatter).
tessel.mesh @mesh = <["x"=2]>
tessel.mesh @row = <["r"=3]>

func.func @main(
    %img: tensor<1x8x8x1xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}, {}]>},
    %k: tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32> {
  %y = hlo.convolution %img, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window_strides = [2, 2], padding = [[1, 1], [1, 1]]
      : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32>
  return %y : tensor<1x4x4x1xf32>
}

func.func @pool(%v: tensor<12xf32> {tessel.sharding = #tessel.sharding<@row, [{"r"}]>},
                %z: tensor<f32>) -> tensor<12xf32> {
  %m = hlo.reduce_window(%v) init(%z) window_dimensions = [3], padding = [[1, 1]]
      : (tensor<12xf32>, tensor<f32>) -> tensor<12xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.max %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %m : tensor<12xf32>
}

func.func @scatter(%x: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>},
                   %src: tensor<4xf32>, %z: tensor<f32>) -> tensor<8xf32> {
  %r = hlo.select_and_scatter(%x, %src, %z) window_dimensions = [3], window_strides = [2],
      padding = [[1, 0]] : (tensor<8xf32>, tensor<4xf32>, tensor<f32>) -> tensor<8xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = hlo.compare GE, %a, %b : tensor<f32>
    hlo.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<8xf32>
}
