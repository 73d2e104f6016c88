// The tiles a sharding picture draws and the sentences around them (see tile_grid.h).
#include "partitioner/sharding/tile_grid.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "partitioner/sharding/device_tile_map.h"

namespace tessel::sharding {
namespace {

// A device list shows at most this many leading runs of consecutive ids before "..." and
// its last run.
constexpr size_t kLeadingRuns = 3;

// splitmix64's finalizer: spreads every input bit over the output, so fingerprints of sets
// that differ in one id differ everywhere.
uint64_t Mix(uint64_t value) {
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

bool IsEmptyTile(const ShardingView& view, const std::vector<int64_t>& tile) {
  for (size_t d = 0; d < view.dims.size(); ++d) {
    auto [begin, end] = TileExtent(view.dims[d].size, view.dims[d].num_pieces, tile[d]);
    if (begin == end) return true;
  }
  return false;
}

std::string AxisList(const std::vector<AxisRef>& axes) {
  return absl::StrJoin(axes, ", ", [](std::string* out, const AxisRef& axis) {
    absl::StrAppend(out, axis.ToString());
  });
}

// What a run of indices of dimension `dim` is called in the sentence about a short piece.
std::string IndexNoun(int64_t dim, int64_t rank) {
  if (rank == 1) return "elements";
  if (rank == 2) return dim == 0 ? "rows" : "columns";
  return "indices";
}

// "16, whole" or "14 over "data" (4 pieces of 4; [12:14] holds 2 of 4 rows, padded)".
std::string DescribeDim(const DimView& dim, int64_t index, int64_t rank) {
  if (dim.axes.empty()) return absl::StrCat(dim.size, ", whole");
  std::string text = absl::StrCat(dim.size, " over ", AxisList(dim.axes), " (", dim.num_pieces,
                                  " pieces of ", dim.piece_size);
  std::vector<int64_t> empty;
  for (int64_t i = 0; i < dim.num_pieces; ++i) {
    auto [begin, end] = TileExtent(dim.size, dim.num_pieces, i);
    if (end == begin) {
      empty.push_back(i);
    } else if (end - begin < dim.piece_size) {
      absl::StrAppend(&text, "; [", begin, ":", end, "] holds ", end - begin, " of ",
                      dim.piece_size, " ", IndexNoun(index, rank), ", padded");
    }
  }
  if (!empty.empty()) {
    absl::StrAppend(&text, "; ", empty.size() == 1 ? "piece " : "pieces ",
                    FormatDeviceList(empty), empty.size() == 1 ? " is" : " are",
                    " empty, all padding");
  }
  return text + ")";
}

// "pieces 5-30 of dim 0 are not drawn" when `shown` elides some of `count` tiles.
void AddElisionNote(const std::vector<int64_t>& shown, int64_t count, int64_t dim,
                    std::vector<std::string>& notes) {
  auto elision = std::find(shown.begin(), shown.end(), -1);
  if (elision == shown.end()) return;
  notes.push_back(absl::StrCat("pieces ", elision - shown.begin(), "-", count - 2, " of dim ",
                               dim, " are not drawn"));
}

}  // namespace

std::vector<int64_t> VisibleTiles(int64_t count, int64_t first) {
  std::vector<int64_t> tiles;
  if (first >= count - 1) {
    for (int64_t i = 0; i < count; ++i) tiles.push_back(i);
    return tiles;
  }
  for (int64_t i = 0; i < first; ++i) tiles.push_back(i);
  tiles.push_back(-1);
  tiles.push_back(count - 1);
  return tiles;
}

void AppendDeviceRun(std::string& out, int64_t first, int64_t last) {
  absl::StrAppend(&out, out.empty() ? "" : ",", first);
  if (last == first + 1) absl::StrAppend(&out, ",", last);
  if (last > first + 1) absl::StrAppend(&out, "-", last);
}

void DeviceRuns::Add(int64_t device) {
  ++key_.count;
  key_.fingerprint = Mix(key_.fingerprint ^ static_cast<uint64_t>(device));
  if (last_ && device == last_->second + 1) {
    last_->second = device;
    return;
  }
  if (last_) {
    if (leading_.size() < kLeadingRuns) {
      leading_.push_back(*last_);
    } else {
      elided_ = true;
    }
  }
  last_ = Run{device, device};
}

std::string DeviceRuns::ToString() const {
  std::string out;
  for (const Run& run : leading_) AppendDeviceRun(out, run.first, run.second);
  if (elided_) absl::StrAppend(&out, ",...");
  if (last_) AppendDeviceRun(out, last_->first, last_->second);
  if (elided_) absl::StrAppend(&out, " (", key_.count, " devices)");
  return out;
}

const TileCell* TileGrid::Cell(int64_t row, int64_t column) const {
  auto cell = cells.find({row, column});
  if (cell == cells.end() || cell->second.devices.count() == 0) return nullptr;
  return &cell->second;
}

IndexRange TileGrid::RangeOf(const ShardingView& view, int64_t dim, int64_t row,
                             int64_t column) const {
  const DimView& cut = view.dims[dim];
  if (dim != row_dim && dim != column_dim) return {0, cut.size};
  auto [begin, end] = TileExtent(cut.size, cut.num_pieces, dim == row_dim ? row : column);
  return {begin, end};
}

std::string TileGrid::RangesLabel(const ShardingView& view, int64_t row, int64_t column) const {
  std::vector<std::string> ranges;
  for (int64_t d = 0; d < static_cast<int64_t>(view.dims.size()); ++d) {
    if (d != row_dim && d != column_dim) {
      ranges.push_back(":");
      continue;
    }
    const IndexRange range = RangeOf(view, d, row, column);
    ranges.push_back(absl::StrCat(range.begin, ":", range.end));
  }
  return absl::StrCat("[", absl::StrJoin(ranges, ", "), "]");
}

bool TileGrid::IsEmpty(const ShardingView& view, int64_t row, int64_t column) const {
  for (int64_t d : {row_dim, column_dim}) {
    if (d >= 0 && RangeOf(view, d, row, column).Size() == 0) return true;
  }
  return false;
}

std::vector<std::string> TileGrid::ElisionNotes() const {
  std::vector<std::string> notes;
  AddElisionNote(columns, num_columns, column_dim, notes);
  AddElisionNote(rows, num_rows, row_dim, notes);
  return notes;
}

TileGrid CollectTileGrid(const ShardingView& view, int64_t max_leading_columns) {
  TileGrid grid;
  const int64_t rank = static_cast<int64_t>(view.dims.size());
  if (rank == 1) {
    grid.column_dim = 0;
  } else if (rank == 2) {
    grid.row_dim = 0;
    grid.column_dim = 1;
  } else if (rank > 2) {
    // The two dimensions with the most pieces; stable, so ties keep the lower dimension.
    std::vector<int64_t> order(rank);
    for (int64_t d = 0; d < rank; ++d) order[d] = d;
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return view.dims[a].num_pieces > view.dims[b].num_pieces;
    });
    grid.row_dim = std::min(order[0], order[1]);
    grid.column_dim = std::max(order[0], order[1]);
  }
  if (grid.row_dim >= 0) grid.num_rows = view.dims[grid.row_dim].num_pieces;
  if (grid.column_dim >= 0) grid.num_columns = view.dims[grid.column_dim].num_pieces;
  grid.rows = VisibleTiles(grid.num_rows,
                           grid.num_rows > kMaxGridRows ? kMaxGridRows - 2 : grid.num_rows);
  grid.columns = VisibleTiles(grid.num_columns, max_leading_columns);

  // The cells that can be drawn get device lists, filled in one pass over the devices.
  for (int64_t row : grid.rows) {
    if (row < 0) continue;
    for (int64_t column : grid.columns) {
      if (column >= 0) grid.cells[{row, column}];
    }
  }
  std::vector<int64_t> tile;
  ForEachDeviceById(view.mesh, [&](int64_t id, int64_t linear) {
    TileOfDevice(view.mesh, view.sharding, linear, tile);
    const int64_t row = grid.row_dim < 0 ? 0 : tile[grid.row_dim];
    const int64_t column = grid.column_dim < 0 ? 0 : tile[grid.column_dim];
    auto cell = grid.cells.find({row, column});
    if (cell != grid.cells.end()) cell->second.devices.Add(id);
    if (IsEmptyTile(view, tile)) grid.empty_devices.Add(id);
  });
  return grid;
}

std::vector<std::string> DimensionLines(const ShardingView& view) {
  const int64_t rank = static_cast<int64_t>(view.dims.size());
  std::vector<std::string> lines;
  for (int64_t d = 0; d < rank; ++d) {
    lines.push_back(absl::StrCat("dim ", d, ": ", DescribeDim(view.dims[d], d, rank)));
  }
  return lines;
}

int64_t NumTiles(const ShardingView& view) {
  int64_t num_tiles = 1;
  for (const DimView& dim : view.dims) num_tiles *= dim.num_pieces;
  return num_tiles;
}

std::string SingleTileLine(const ShardingView& view) {
  const int64_t num_devices = view.NumDevices();
  if (num_devices == 1) return absl::StrCat("whole on device ", view.mesh.DeviceId(0));
  return absl::StrCat(view.sharding.unreduced_axes.empty() ? "replicated" : "whole", " on all ",
                      num_devices, " devices");
}

std::vector<std::string> SharingNotes(const ShardingView& view, const DeviceRuns& empty_devices) {
  std::vector<std::string> notes;
  const int64_t copies = view.NumDevices() / NumTiles(view);
  if (copies > 1) notes.push_back(absl::StrCat("each tile is held by ", copies, " devices"));
  if (empty_devices.count() > 0) {
    const bool one = empty_devices.count() == 1;
    notes.push_back(absl::StrCat(one ? "device " : "devices ", empty_devices.ToString(),
                                 one ? " holds" : " hold", " an empty tile (padding only)"));
  }
  return notes;
}

std::string PartialSumNote(const ShardingView& view) {
  if (view.sharding.unreduced_axes.empty()) return "";
  return absl::StrCat("partial sums over ", AxisList(view.sharding.unreduced_axes),
                      ": the holders of a tile add up to its value");
}

IndexRange PieceRange(const DimView& dim, int64_t piece) {
  const int64_t begin = std::min(piece * dim.piece_size, dim.size);
  return {begin, std::min(begin + dim.piece_size, dim.size)};
}

std::string HaloLabel(int64_t dim, int64_t low, int64_t high) {
  if (low == 0 && high == 0) return "";
  return absl::StrCat(low, " low, ", high, " high on dim ", dim);
}

std::vector<std::string> HaloNotes(const ShardingView& view) {
  std::vector<std::string> notes;
  for (const HaloUse& use : view.halos) {
    if (!use.note.empty()) {
      notes.push_back(absl::StrCat("used by ", use.user, ": ", use.note));
      continue;
    }
    notes.push_back(absl::StrCat("used by ", use.user, " with halos from neighbouring tiles:"));
    for (const DimHalo& halo : use.dims) {
      const DimView& dim = view.dims[halo.dim];
      const int64_t pieces = static_cast<int64_t>(halo.low.size());
      bool any = false;
      // Runs of neighbouring pieces with the same halo make one line, so a dimension split
      // a million ways still takes a few.
      for (int64_t first = 0; first < pieces;) {
        int64_t last = first;
        while (last + 1 < pieces && halo.low[last + 1] == halo.low[first] &&
               halo.high[last + 1] == halo.high[first]) {
          ++last;
        }
        const std::string label = HaloLabel(halo.dim, halo.low[first], halo.high[first]);
        if (!label.empty()) {
          any = true;
          const IndexRange begin = PieceRange(dim, first), end = PieceRange(dim, last);
          notes.push_back(absl::StrCat(
              "  ", first == last ? absl::StrCat("piece ", first)
                                  : absl::StrCat("pieces ", first, "-", last),
              " [", begin.begin, ":", end.end, "]: halo: ", label));
        }
        first = last + 1;
      }
      if (!any) {
        notes.push_back(absl::StrCat("  no halo on dim ", halo.dim,
                                     ": every window stays inside its piece"));
      }
    }
  }
  return notes;
}

int64_t PartialSumsPerTile(const ShardingView& view) {
  int64_t sums = 1;
  for (const AxisRef& axis : view.sharding.unreduced_axes) sums *= axis.Size(view.mesh);
  return sums;
}

}  // namespace tessel::sharding
