// `tessel viz` marks the halos windowed ops need on the values they read along split
// window dimensions (docs/examples/windowed.mlir): a strided, padded convolution whose
// second piece needs one row from the first, a padded reduce_window whose middle piece
// needs one element from each side, and a select_and_scatter whose windows straddle the
// split; as text, JSON, HTML and SVG. Values no windowed op reads carry no halo note; a
// value split otherwise than the windowed op's result is resharded first, which it says.
// RUN: cd %S/../../../docs/examples && tessel viz windowed.mlir --value=%%img | FileCheck %s --check-prefix=CONV --strict-whitespace
// RUN: cd %S/../../../docs/examples && tessel viz windowed.mlir --function=pool --value=%%v,%%m | FileCheck %s --check-prefix=POOL --strict-whitespace
// RUN: cd %S/../../../docs/examples && tessel viz windowed.mlir --function=scatter --value=%%x | FileCheck %s --check-prefix=SCATTER --strict-whitespace
// RUN: cd %S/../../../docs/examples && tessel viz windowed.mlir --function=pool --value=%%v --format=json | FileCheck %s --check-prefix=JSON --strict-whitespace
// RUN: cd %S/../../../docs/examples && tessel viz windowed.mlir --function=pool --value=%%v --format=html | FileCheck %s --check-prefix=HTML
// RUN: cd %S/../../../docs/examples && tessel viz windowed.mlir --value=%%img --format=svg | FileCheck %s --check-prefix=SVG
// RUN: rm -rf %t && split-file %s %t
// RUN: cd %t && tessel viz reshard.mlir --value=%%v 2> /dev/null | FileCheck %s --check-prefix=RESHARD --strict-whitespace

// The convolution: rows 0-7 in pieces [0:4] and [4:8], a 3x3 kernel with stride 2 and
// padding 1 on each side. Output rows: (8 + 1 + 1 - 3) / 2 + 1 = 4, two per piece. Output
// row o reads padded rows [2o, 2o + 3), i.e. input rows [2o - 1, 2o + 2). Piece 0 makes
// rows 0 and 1: input [-1, 4), of which [0, 4) exists, all its own: no halo. Piece 1
// makes rows 2 and 3: input [3, 8): row 3 from piece 0 (1 low), nothing past 8 (0 high).
// The columns are whole, so they need nothing.
// CONV:      %img = arg0: tensor<1x8x8x1xf32> #tessel.sharding<@mesh, [{}, {"x"}, {}, {}]>
// CONV:      {{  }}used by hlo.convolution at windowed.mlir:11:8 with halos from neighbouring tiles:
// CONV-NEXT: {{  }}  piece 1 [4:8]: halo: 1 low, 0 high on dim 1
// CONV-NOT:  halo

// The reduce_window: 12 elements in pieces [0:4], [4:8], [8:12], window 3, padding 1 on
// each side: 12 outputs, four per piece; output o reads padded [o, o + 3), input
// [o - 1, o + 2). Piece i makes outputs [4i, 4i + 4): input [4i - 1, 4i + 5). Piece 0:
// [-1, 5) -> 1 high; piece 1: [3, 9) -> 1 low, 1 high; piece 2: [7, 13) -> 1 low (13 is
// past the end: padding, not a neighbour's).
// POOL:      %v = arg0: tensor<12xf32> #tessel.sharding<@row, [{"r"}]>
// POOL-NEXT: {{  }}dim 0: 12 over "r" (3 pieces of 4)
// POOL:      {{  }}used by hlo.reduce_window at windowed.mlir:19:8 with halos from neighbouring tiles:
// POOL-NEXT: {{  }}  piece 0 [0:4]: halo: 0 low, 1 high on dim 0
// POOL-NEXT: {{  }}  piece 1 [4:8]: halo: 1 low, 1 high on dim 0
// POOL-NEXT: {{  }}  piece 2 [8:12]: halo: 1 low, 0 high on dim 0
// POOL-EMPTY:
// POOL-NEXT: %m = hlo.reduce_window at windowed.mlir:19:8: tensor<12xf32> #tessel.sharding<@row, [{"r"}]>
// POOL-NOT:  halo

// The select_and_scatter: 8 elements in pieces [0:4] and [4:8], window 3, stride 2,
// padding 1 low: 4 windows, window k over input [2k - 1, 2k + 2): [-1, 2), [1, 4),
// [3, 6), [5, 8). Each piece redoes every window touching what it owns: piece 0 windows
// 0-2, reading [-1, 6): elements 4 and 5 of piece 1 (2 high); piece 1 windows 2-3,
// reading [3, 8): element 3 of piece 0 (1 low).
// SCATTER:      %x = arg0: tensor<8xf32> #tessel.sharding<@mesh, [{"x"}]>
// SCATTER:      {{  }}used by hlo.select_and_scatter at windowed.mlir:30:8 with halos from neighbouring tiles:
// SCATTER-NEXT: {{  }}  piece 0 [0:4]: halo: 0 low, 2 high on dim 0
// SCATTER-NEXT: {{  }}  piece 1 [4:8]: halo: 1 low, 0 high on dim 0

// In JSON, the same figures per piece, after the devices.
// JSON:      "layout": {"dims": [{"size": 12, "axes": ["r"], "pieces": 3, "piece_size": 4}], "unreduced": [], "devices": [
// JSON:      {{^       }}{"device": 2, "ranges": {{\[\[}}8, 12{{\]\]}}, "empty": false, "partial_sum_group": 0}
// JSON-NEXT: {{^     }}], "halos": [
// JSON-NEXT: {{^       }}{"user": "hlo.reduce_window at windowed.mlir:19:8", "note": null, "dims": [
// JSON-NEXT: {{^         }}{"dim": 0, "pieces": [
// JSON-NEXT: {{^           }}{"piece": 0, "range": [0, 4], "low": 0, "high": 1},
// JSON-NEXT: {{^           }}{"piece": 1, "range": [4, 8], "low": 1, "high": 1},
// JSON-NEXT: {{^           }}{"piece": 2, "range": [8, 12], "low": 1, "high": 0}
// JSON-NEXT: {{^         }}]}
// JSON-NEXT: {{^       }}]}
// JSON-NEXT: {{^     }}]}}
// JSON-NEXT: {{^  }}]
// JSON-NEXT: }

// In HTML, each tile names its halos, and a band per halo lies over the neighbour it comes
// from: the middle tile (column 1) has one on each side.
// HTML:      <g class="tile" id="v0-r0-c0" {{.*}} data-halo="0 low, 1 high on dim 0 (hlo.reduce_window at windowed.mlir:19:8)"
// HTML:      <g class="tile" id="v0-r0-c1" {{.*}} data-halo="1 low, 1 high on dim 0 (hlo.reduce_window at windowed.mlir:19:8)"
// HTML:      <g class="halos">
// HTML-NEXT: <rect class="halo high" data-tile="v0-r0-c0" data-dim="0" data-count="1"
// HTML-NEXT: <rect class="halo low" data-tile="v0-r0-c1" data-dim="0" data-count="1"
// HTML-NEXT: <rect class="halo high" data-tile="v0-r0-c1" data-dim="0" data-count="1"
// HTML-NEXT: <rect class="halo low" data-tile="v0-r0-c2" data-dim="0" data-count="1"
// HTML-NEXT: </g>
// HTML:      <li class="note">  piece 1 [4:8]: halo: 1 low, 1 high on dim 0</li>

// In SVG, the grid draws dim 1 across, so tile 1's band lies to its left, over tile 0's
// last columns: 1 row of a piece of 4 is a quarter of the 136-pixel box, 34 pixels, ending
// at the 4-pixel gap before tile 1 (which starts at x = 140).
// SVG:      <g class="tile" id="v0-r0-c1" {{.*}} data-halo="1 low, 0 high on dim 1 (hlo.convolution at windowed.mlir:11:8)" transform="translate(140,0)">
// SVG:      <rect class="halo low" data-tile="v0-r0-c1" data-dim="1" data-count="1" x="102" y="0" width="34" height="44"
// SVG-NOT:  class="halo

// The input is split over "a", the result over "b": the partitioner reshards the input
// to "b" before exchanging halos, so no figures belong to the tiles drawn.
// RESHARD:      %v = arg0: tensor<8xf32> #tessel.sharding<@m, [{"a"}]>
// RESHARD:      {{^  }}used by hlo.reduce_window at reshard.mlir:4:8: split otherwise than its result along dim 0, so the partitioner first reshards it to the result's split (over "b") and exchanges halos between those pieces
// RESHARD-NOT:  piece

//--- reshard.mlir
tessel.mesh @m = <["a"=2, "b"=2]>
func.func @main(%v: tensor<8xf32> {tessel.sharding = #tessel.sharding<@m, [{"a"}]>},
                %z: tensor<f32>) -> tensor<8xf32> {
  %r = hlo.reduce_window(%v) init(%z) window_dimensions = [3], padding = [[1, 1]] {tessel.sharding = #tessel.sharding_per_value<[<@m, [{"b"}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.max %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<8xf32>
}
