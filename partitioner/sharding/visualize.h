// Pictures of how a sharding lays a tensor out over the devices of a mesh: which device holds
// which block of indices, what is replicated, which blocks are short or empty because a split
// is uneven, and which axes hold partial sums. `tessel viz` prints these for every value of a
// program, as text (coloured in a terminal, visualize_color.h) or as an HTML page or SVG
// image (visualize_html.h); the facts behind the picture (ShardingView) are also available
// as JSON.
//
//   TESSEL_ASSIGN_OR_RETURN(ShardingView view, ViewSharding(mesh, sharding, {8, 6}));
//   std::cout << RenderShardingView(view);
//   //   dim 0: 8 over "x" (2 pieces of 4)
//   //   dim 1: 6 over "y" (2 pieces of 3)
//   //   +------------------+------------------+
//   //   |        0         |        1         |
//   //   |    [0:4, 0:3]    |    [0:4, 3:6]    |
//   //   +------------------+------------------+
//   //   ...
//
// Tile ranges follow the partitioner's local types: a dimension of size D split n ways gives
// every device a piece of L = ceil(D / n) indices, piece i covering [i*L, (i+1)*L) clipped to
// D; what runs past D is padding. Device ids are the mesh's (its explicit ids if it has any),
// which are the partition numbers the runtime gives the devices.
#ifndef TESSEL_PARTITIONER_SHARDING_VISUALIZE_H_
#define TESSEL_PARTITIONER_SHARDING_VISUALIZE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "partitioner/sharding/mesh.h"
#include "partitioner/sharding/tensor_sharding.h"

namespace tessel::sharding {

class DeviceSetColors;  // visualize_color.h

// The half-open index interval [begin, end) of one dimension.
struct IndexRange {
  int64_t begin = 0;
  int64_t end = 0;

  int64_t Size() const { return end - begin; }
  friend bool operator==(const IndexRange& a, const IndexRange& b) {
    return a.begin == b.begin && a.end == b.end;
  }
};

// How one tensor dimension is cut.
struct DimView {
  int64_t size = 0;
  // The axes that split it, major to minor; empty when it is whole on every device.
  std::vector<AxisRef> axes;
  int64_t num_pieces = 1;
  // ceil(size / num_pieces): what every device allocates along this dimension.
  int64_t piece_size = 0;
};

// What one device holds.
struct DeviceView {
  int64_t device = 0;
  // The piece index along each dimension.
  std::vector<int64_t> tile;
  // The indices of each dimension it holds (padding excluded).
  std::vector<IndexRange> ranges;
  // Devices with the same tile but different groups hold different partial sums of it (only
  // with unreduced axes); numbered from 0 in order of increasing device id.
  int64_t partial_sum_group = 0;

  // Whether the device holds no element: some dimension's piece lies wholly in the padding.
  bool Empty() const;
};

// The halo a windowed op (convolution, reduce_window, select_and_scatter) reading the value
// needs along one split dimension: per piece along `dim`, how many elements the holders of
// that piece need from the pieces before it (low) and after it (high). These are the
// figures the partitioner exchanges; they are worked out where the op is known (the tools)
// and only drawn here.
struct DimHalo {
  int64_t dim = 0;
  std::vector<int64_t> low;
  std::vector<int64_t> high;
};

// One windowed op that reads the value.
struct HaloUse {
  // Which op, for people: "hlo.convolution at conv.mlir:12:10".
  std::string user;
  // The split dimensions it slides a window over; empty with `note` set when it reads the
  // value split otherwise than this view shows (the partitioner reshards it first).
  std::vector<DimHalo> dims;
  std::string note;
};

// The facts a picture shows: the cut of each dimension, and the mesh and sharding that give
// every device's tile. The devices are worked out when needed (DeviceViews), so the view of a
// tensor on a million devices stays small.
struct ShardingView {
  std::vector<DimView> dims;
  Mesh mesh;
  // Its unreduced axes are the partial sums the picture notes.
  TensorSharding sharding;
  // The windowed ops that read the value along split dimensions, with their halos; the
  // pictures mark them per tile.
  std::vector<HaloUse> halos;

  int64_t NumDevices() const { return mesh.NumDevices(); }
};

// What every device of the view's mesh holds, by increasing device id (memory per device).
std::vector<DeviceView> DeviceViews(const ShardingView& view);

// The view of a tensor of shape `shape` laid out by `sharding` on `mesh`; its time and size
// do not grow with the number of devices. Errors
// (InvalidArgument): the sharding does not validate on the mesh, its rank is not the shape's,
// or a dimension is negative (dynamic).
absl::StatusOr<ShardingView> ViewSharding(const Mesh& mesh, const TensorSharding& sharding,
                                          const std::vector<int64_t>& shape);

// The picture for people, a multi-line text (each line ends with '\n'):
//  - one line per dimension: its size, the axes that split it and into how many pieces,
//    with the short and empty pieces of an uneven split named;
//  - "replicated on all N devices" when nothing is split (rank 0 included);
//  - otherwise a box grid, one cell per tile along the grid dimensions (rank 1: dimension 0
//    across; rank 2: dimension 0 down, 1 across; rank 3 and up: the two dimensions with the
//    most pieces, ties to the lower dimension), cell widths in proportion to the tile
//    extents (about 20 columns per cell, at most `width` in all unless the labels need
//    more), each cell labelled with the devices that hold it and its index ranges (":" for
//    a dimension outside the grid); cells of empty tiles say "empty". Grids wider than
//    `width` or taller than 8 rows elide middle tiles ("...") and say which;
//  - a note when tiles are held by several devices or some device holds an empty tile;
//  - device lists of more than four runs of consecutive ids show the first three, "...",
//    the last and the count ("0,8,16,...,120 (16 devices)");
//  - a note on partial sums when some axis is unreduced;
//  - per windowed op reading the value (view.halos), which tiles need halos and how many
//    elements: "piece 1 [4:8]: halo: 1 low, 1 high on dim 1".
// With `colors`, the cells of each drawn tile are drawn on the ANSI 256-colour background
// `colors` gives the set of devices holding it, and a legend line follows the grid; without,
// the text is plain.
std::string RenderShardingView(const ShardingView& view, int width = 80,
                               DeviceSetColors* colors = nullptr);

// The same facts as one JSON object: {"dims": [{"size", "axes", "pieces", "piece_size"}],
// "unreduced": [...], "devices": [{"device", "ranges": [[begin, end], ...], "empty",
// "partial_sum_group"}]} and, when view.halos is not empty, "halos": [{"user", "note",
// "dims": [{"dim", "pieces": [{"piece", "range": [begin, end], "low", "high"}]}]}], with axes as strings ("data", "x:(1)2") and one line per device,
// each line after the first starting with `indent`.
std::string ShardingViewToJson(const ShardingView& view, absl::string_view indent);

// A sorted list of device ids in short form: runs of consecutive ids as "first-last",
// e.g. {0, 1, 2, 3, 6} -> "0-3,6". Every run is written (no elision).
std::string FormatDeviceList(const std::vector<int64_t>& devices);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_VISUALIZE_H_
