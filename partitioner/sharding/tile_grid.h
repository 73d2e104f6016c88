// The part of a sharding picture that every format shares (text, coloured text, HTML, SVG):
// which tiles a grid draws, the devices that hold each drawn tile, and the sentences around
// the grid. Found in one pass over the devices that keeps nothing per device, so a picture
// of a value on 2^20 devices costs what it draws.
//
//   TileGrid grid = CollectTileGrid(view, /*max_leading_columns=*/21);
//   for (int64_t row : grid.rows) {
//     for (int64_t column : grid.columns) {
//       if (const TileCell* cell = grid.Cell(row, column)) Draw(cell->devices.ToString(), ...);
//     }
//   }
#ifndef TESSEL_PARTITIONER_SHARDING_TILE_GRID_H_
#define TESSEL_PARTITIONER_SHARDING_TILE_GRID_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partitioner/sharding/visualize.h"

namespace tessel::sharding {

// Grids with more rows than this draw the first kMaxGridRows - 2, an elision and the last.
inline constexpr int64_t kMaxGridRows = 8;

// The most leading columns a grid `width` characters wide can hold besides the last: every
// column takes at least 4 characters (a border, two spaces, a label). Pictures in other
// formats cap their columns the same way, so every format draws the same tiles.
inline int64_t MaxLeadingColumns(int width) { return width / 4 + 1; }

// Identifies a set of devices without storing it: equal sets have equal keys, and distinct
// sets collide with negligible probability (a 64-bit fingerprint of the ids, and the count).
struct DeviceSetKey {
  uint64_t fingerprint = 0;
  int64_t count = 0;

  friend bool operator<(const DeviceSetKey& a, const DeviceSetKey& b) {
    return std::make_pair(a.fingerprint, a.count) < std::make_pair(b.fingerprint, b.count);
  }
  friend bool operator==(const DeviceSetKey& a, const DeviceSetKey& b) {
    return a.fingerprint == b.fingerprint && a.count == b.count;
  }
};

// A set of devices, added by increasing id, kept short: only its first few runs of
// consecutive ids and its last run are stored, so a label stays small however many devices
// it stands for.
class DeviceRuns {
 public:
  // REQUIRES: `device` is greater than every id added before.
  void Add(int64_t device);

  int64_t count() const { return key_.count; }
  const DeviceSetKey& key() const { return key_; }

  // "0,1", "0-3,6", or with more than four runs the first three, "...", the last and the
  // count: "0,8,16,...,120 (16 devices)".
  std::string ToString() const;

 private:
  using Run = std::pair<int64_t, int64_t>;  // first and last id
  std::vector<Run> leading_;
  std::optional<Run> last_;
  bool elided_ = false;
  DeviceSetKey key_;
};

// Appends "4", "4,5" (two neighbours read better so than as "4-5") or "4-7" to `out`, after
// a comma unless `out` is empty.
void AppendDeviceRun(std::string& out, int64_t first, int64_t last);

// Calls visit(id, linear) for every device of `mesh` by increasing id (the linear index is
// its row-major position). Meshes without explicit ids need no memory per device.
template <typename Visit>
void ForEachDeviceById(const Mesh& mesh, Visit visit) {
  const int64_t num_devices = mesh.NumDevices();
  if (mesh.device_ids.empty()) {
    for (int64_t linear = 0; linear < num_devices; ++linear) visit(linear, linear);
    return;
  }
  std::vector<std::pair<int64_t, int64_t>> order;  // (id, linear)
  order.reserve(num_devices);
  for (int64_t linear = 0; linear < num_devices; ++linear) {
    order.push_back({mesh.DeviceId(linear), linear});
  }
  std::sort(order.begin(), order.end());
  for (const auto& [id, linear] : order) visit(id, linear);
}

// The tiles drawn along a grid axis of `count` tiles when `first` leading ones fit: all of
// them, or the first `first`, an elision (-1) and the last.
std::vector<int64_t> VisibleTiles(int64_t count, int64_t first);

// The devices that hold one drawn tile.
struct TileCell {
  DeviceRuns devices;
};

// The tiles a picture draws and who holds them. Tiles are indexed by their piece along the
// row dimension and the column dimension; the other dimensions are not split up (a cell
// stands for all their pieces, and its ranges show them as ":").
struct TileGrid {
  // The tensor dimensions drawn down and across; -1 when the grid has a single row (rank 1)
  // or a single column (rank 0).
  int64_t row_dim = -1;
  int64_t column_dim = -1;
  int64_t num_rows = 1;
  int64_t num_columns = 1;
  // The rows and columns drawn, in order; -1 stands for the elided ones.
  std::vector<int64_t> rows;
  std::vector<int64_t> columns;
  // The holders of each drawn tile, by (row, column).
  std::map<std::pair<int64_t, int64_t>, TileCell> cells;
  // Every device whose tile holds no element (padding only).
  DeviceRuns empty_devices;

  // The drawn tile at (row, column), or null for an elided or unheld one.
  const TileCell* Cell(int64_t row, int64_t column) const;
  // The tile's index range along tensor dimension `dim`: [begin, end), or the whole
  // dimension for one that is not drawn.
  IndexRange RangeOf(const ShardingView& view, int64_t dim, int64_t row, int64_t column) const;
  // "[0:4, :, 8:16]": the ranges of the drawn dimensions, ":" for the others.
  std::string RangesLabel(const ShardingView& view, int64_t row, int64_t column) const;
  // Whether the tile holds no element.
  bool IsEmpty(const ShardingView& view, int64_t row, int64_t column) const;
  // "pieces 5-30 of dim 0 are not drawn" for the elided columns and rows, if any.
  std::vector<std::string> ElisionNotes() const;
};

// The tiles of `view` to draw: rank 1 draws dimension 0 across; rank 2 dimension 0 down
// and 1 across; rank 3 and up the two dimensions with the most pieces (ties to the lower
// dimension). At most kMaxGridRows rows and `max_leading_columns` leading columns besides
// the last are drawn. Visits every device once; memory grows with the drawn cells only.
TileGrid CollectTileGrid(const ShardingView& view, int64_t max_leading_columns);

// One line per dimension: "16 over "data" (4 pieces of 4)", "64, whole", with the short and
// empty pieces of an uneven split named; each starts "dim N: ".
std::vector<std::string> DimensionLines(const ShardingView& view);

// The number of tiles (the product of the pieces of every dimension).
int64_t NumTiles(const ShardingView& view);

// The sentence for a view with a single tile: "replicated on all 8 devices", "whole on all 4
// devices" (partial sums) or "whole on device 3".
std::string SingleTileLine(const ShardingView& view);

// The notes after a grid of several tiles: how many devices hold each tile, and which hold
// only padding (`empty_devices`).
std::vector<std::string> SharingNotes(const ShardingView& view, const DeviceRuns& empty_devices);

// The note on partial sums, or "" when no axis is unreduced.
std::string PartialSumNote(const ShardingView& view);

// The indices piece `piece` of a dimension holds: [piece * piece_size, ...) clipped to the
// dimension (empty past its end).
IndexRange PieceRange(const DimView& dim, int64_t piece);

// The notes on the windowed ops that read the value (view.halos): per op a line naming it,
// then a line per run of pieces along a dimension that need the same halo, "  piece 0
// [0:4]: halo: 0 low, 1 high on dim 1" or "  pieces 1-2 [4:12]: ..." (pieces needing none
// are left out, and a dimension where none needs any says so).
std::vector<std::string> HaloNotes(const ShardingView& view);

// "1 low, 1 high on dim 1", or "" when both are 0.
std::string HaloLabel(int64_t dim, int64_t low, int64_t high);

// The number of partial sums that add up to each tile: the product of the sizes of the
// unreduced axes (1 without any).
int64_t PartialSumsPerTile(const ShardingView& view);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_TILE_GRID_H_
