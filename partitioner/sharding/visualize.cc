// Tile views of shardings and their text and JSON renderings (see visualize.h).
#include "partitioner/sharding/visualize.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/device_tile_map.h"
#include "support/json_quote.h"

namespace tessel::sharding {
namespace {

// Grids with more rows than this draw the first kMaxRows - 2, "..." and the last.
constexpr int64_t kMaxRows = 8;
// A grid is drawn about this wide per column, within the caller's width: wide enough for
// the usual labels, narrow enough that a one-column grid does not fill the line.
constexpr int64_t kColumnWidth = 20;
// The width of an elided column: " ... ".
constexpr int64_t kElisionWidth = 5;
// A device list shows at most this many leading runs of consecutive ids before "..." and
// its last run.
constexpr size_t kLeadingRuns = 3;

// A run of consecutive device ids, first and last.
using DeviceRun = std::pair<int64_t, int64_t>;

// "4", "4,5" (two neighbours read better so than as "4-5") or "4-7", after a comma unless
// `out` is empty.
void AppendRun(std::string& out, const DeviceRun& run) {
  absl::StrAppend(&out, out.empty() ? "" : ",", run.first);
  if (run.second == run.first + 1) absl::StrAppend(&out, ",", run.second);
  if (run.second > run.first + 1) absl::StrAppend(&out, "-", run.second);
}

// The devices of a cell or note, added by increasing id. Only the leading runs and the last
// are kept, so a label stays short and small however many devices it stands for.
class DeviceRuns {
 public:
  void Add(int64_t device) {
    ++count_;
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
    last_ = DeviceRun{device, device};
  }

  int64_t count() const { return count_; }

  std::string ToString() const {
    std::string out;
    for (const DeviceRun& run : leading_) AppendRun(out, run);
    if (elided_) absl::StrAppend(&out, ",...");
    if (last_) AppendRun(out, *last_);
    if (elided_) absl::StrAppend(&out, " (", count_, " devices)");
    return out;
  }

 private:
  std::vector<DeviceRun> leading_;
  std::optional<DeviceRun> last_;
  bool elided_ = false;
  int64_t count_ = 0;
};

// Calls visit(id, linear) for every device of `mesh` by increasing id (the linear index is
// its row-major position).
template <typename Visit>
void ForEachDeviceById(const Mesh& mesh, Visit visit) {
  const int64_t num_devices = mesh.NumDevices();
  if (mesh.device_ids.empty()) {
    for (int64_t linear = 0; linear < num_devices; ++linear) visit(linear, linear);
    return;
  }
  std::vector<DeviceRun> order;  // (id, linear)
  order.reserve(num_devices);
  for (int64_t linear = 0; linear < num_devices; ++linear) {
    order.push_back({mesh.DeviceId(linear), linear});
  }
  std::sort(order.begin(), order.end());
  for (const auto& [id, linear] : order) visit(id, linear);
}

// Whether a device holding tile `tile` holds no element.
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

// `data` or `data:(1)2`: the axis as in a sharding, without quotes, for JSON strings.
std::string AxisName(const AxisRef& axis) {
  if (!axis.IsSubAxis()) return axis.name;
  return absl::StrCat(axis.name, ":(", axis.pre_size, ")", axis.size);
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

// The dimensions drawn down (`row`, -1 for none) and across (`column`).
struct GridDims {
  int64_t row = -1;
  int64_t column = 0;
};

GridDims ChooseGridDims(const ShardingView& view) {
  const int64_t rank = static_cast<int64_t>(view.dims.size());
  if (rank == 1) return {-1, 0};
  if (rank == 2) return {0, 1};
  // The two dimensions with the most pieces; stable, so ties keep the lower dimension.
  std::vector<int64_t> order(rank);
  for (int64_t d = 0; d < rank; ++d) order[d] = d;
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return view.dims[a].num_pieces > view.dims[b].num_pieces;
  });
  return {std::min(order[0], order[1]), std::max(order[0], order[1])};
}

// The tiles of a grid axis that are drawn: all, or the first ones, an elision (-1) and the
// last one.
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

std::string Centered(const std::string& text, int64_t width) {
  const int64_t space = std::max<int64_t>(0, width - static_cast<int64_t>(text.size()));
  return std::string(space / 2, ' ') + text + std::string(space - space / 2, ' ');
}

// Column widths: each at least `minimum` (its labels), the rest of `budget` shared in
// proportion to `extent`. Columns whose share falls below their minimum get the minimum and
// leave the others less to share.
std::vector<int64_t> ColumnWidths(const std::vector<int64_t>& minimum,
                                  const std::vector<int64_t>& extent, int64_t budget) {
  const size_t n = minimum.size();
  std::vector<bool> pinned(n, false);
  std::vector<int64_t> widths = minimum;
  for (size_t round = 0; round <= n; ++round) {
    int64_t free_budget = budget;
    int64_t free_extent = 0;
    for (size_t j = 0; j < n; ++j) {
      if (pinned[j]) {
        free_budget -= minimum[j];
      } else {
        free_extent += extent[j];
      }
    }
    bool changed = false;
    for (size_t j = 0; j < n; ++j) {
      if (pinned[j]) continue;
      const int64_t share = free_extent == 0 ? 0 : extent[j] * free_budget / free_extent;
      if (share < minimum[j]) {
        pinned[j] = true;
        changed = true;
      }
      widths[j] = std::max(share, minimum[j]);
    }
    if (!changed) break;
  }
  return widths;
}

// Draws the grid and, in the same pass over the devices, collects those that hold an empty
// tile into `empty`. Only cells that can be drawn keep device lists.
std::string DrawGrid(const ShardingView& view, int width, std::vector<std::string>& notes,
                     DeviceRuns& empty) {
  const int64_t rank = static_cast<int64_t>(view.dims.size());
  const GridDims grid = ChooseGridDims(view);
  const int64_t num_rows = grid.row < 0 ? 1 : view.dims[grid.row].num_pieces;
  const DimView& across = view.dims[grid.column];
  const int64_t num_columns = across.num_pieces;
  const std::vector<int64_t> all_rows =
      VisibleTiles(num_rows, num_rows > kMaxRows ? kMaxRows - 2 : num_rows);

  // Every column takes at least 4 characters (a border, two spaces, a label), so no more than
  // width/4 + 1 leading columns can fit besides the last: only those may be drawn.
  const int64_t max_leading = width / 4 + 1;
  const bool few_columns = num_columns <= max_leading + 1;
  std::vector<int64_t> candidates;
  for (int64_t column = 0; column < (few_columns ? num_columns : max_leading); ++column) {
    candidates.push_back(column);
  }
  if (!few_columns) candidates.push_back(num_columns - 1);

  // The devices of each cell that may be drawn, found in one pass over the devices.
  std::map<std::pair<int64_t, int64_t>, DeviceRuns> cells;
  for (int64_t row : all_rows) {
    if (row < 0) continue;
    for (int64_t column : candidates) cells[{row, column}];
  }
  std::vector<int64_t> tile;
  ForEachDeviceById(view.mesh, [&](int64_t id, int64_t linear) {
    TileOfDevice(view.mesh, view.sharding, linear, tile);
    const int64_t row = grid.row < 0 ? 0 : tile[grid.row];
    auto cell = cells.find({row, tile[grid.column]});
    if (cell != cells.end()) cell->second.Add(id);
    if (IsEmptyTile(view, tile)) empty.Add(id);
  });
  // Two label lines per cell: the devices holding the tile, then its index ranges.
  auto labels = [&](int64_t row, int64_t column) -> std::pair<std::string, std::string> {
    auto cell = cells.find({row, column});
    if (cell == cells.end() || cell->second.count() == 0) return {"", ""};
    std::vector<std::string> ranges;
    bool empty_tile = false;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != grid.row && d != grid.column) {
        ranges.push_back(":");
        continue;
      }
      auto [begin, end] = TileExtent(view.dims[d].size, view.dims[d].num_pieces,
                                     d == grid.row ? row : column);
      ranges.push_back(absl::StrCat(begin, ":", end));
      empty_tile |= begin == end;
    }
    return {cell->second.ToString(),
            absl::StrCat("[", absl::StrJoin(ranges, ", "), "]", empty_tile ? " empty" : "")};
  };

  // Columns: keep as many leading ones as fit, then "...", then the last.
  std::map<int64_t, int64_t> minimum;
  for (int64_t column : candidates) {
    for (int64_t row : all_rows) {
      if (row < 0) continue;
      auto [devices, ranges] = labels(row, column);
      minimum[column] = std::max<int64_t>(
          minimum[column], std::max(devices.size(), ranges.size()) + 2);
    }
  }
  int64_t first = few_columns ? num_columns : max_leading;
  auto total = [&](int64_t leading) {
    std::vector<int64_t> shown = VisibleTiles(num_columns, leading);
    int64_t sum = static_cast<int64_t>(shown.size()) + 1;
    for (int64_t column : shown) sum += column < 0 ? kElisionWidth : minimum[column];
    return sum;
  };
  while (first > 1 && total(first) > width) --first;
  const std::vector<int64_t> columns = VisibleTiles(num_columns, first);

  std::vector<int64_t> column_minimum;
  std::vector<int64_t> extent;
  for (int64_t column : columns) {
    column_minimum.push_back(column < 0 ? kElisionWidth : minimum[column]);
    extent.push_back(column < 0 ? 0 : TileExtent(across.size, across.num_pieces, column).second -
                                           TileExtent(across.size, across.num_pieces, column).first);
  }
  const int64_t target =
      std::min<int64_t>(width, kColumnWidth * static_cast<int64_t>(columns.size()));
  const std::vector<int64_t> widths =
      ColumnWidths(column_minimum, extent, target - static_cast<int64_t>(columns.size()) - 1);

  std::string border = "+";
  for (int64_t w : widths) absl::StrAppend(&border, std::string(w, '-'), "+");
  std::string out = border + "\n";
  for (int64_t row : all_rows) {
    std::string devices_line = "|";
    std::string ranges_line = "|";
    for (size_t j = 0; j < columns.size(); ++j) {
      // Elided rows and columns show "..." in their cells.
      std::pair<std::string, std::string> text = {"...", ""};
      if (row >= 0 && columns[j] >= 0) text = labels(row, columns[j]);
      absl::StrAppend(&devices_line, Centered(text.first, widths[j]), "|");
      absl::StrAppend(&ranges_line, Centered(text.second, widths[j]), "|");
    }
    absl::StrAppend(&out, devices_line, "\n");
    if (row >= 0) absl::StrAppend(&out, ranges_line, "\n");
    absl::StrAppend(&out, border, "\n");
  }
  if (columns.size() < static_cast<size_t>(num_columns)) {
    notes.push_back(absl::StrCat("pieces ", first, "-", num_columns - 2, " of dim ",
                                 grid.column, " are not drawn"));
  }
  if (all_rows.size() < static_cast<size_t>(num_rows)) {
    notes.push_back(absl::StrCat("pieces ", kMaxRows - 2, "-", num_rows - 2, " of dim ",
                                 grid.row, " are not drawn"));
  }
  return out;
}

}  // namespace

bool DeviceView::Empty() const {
  return std::any_of(ranges.begin(), ranges.end(),
                     [](const IndexRange& range) { return range.Size() == 0; });
}

absl::StatusOr<ShardingView> ViewSharding(const Mesh& mesh, const TensorSharding& sharding,
                                          const std::vector<int64_t>& shape) {
  absl::Status valid = sharding.Validate(mesh, static_cast<int64_t>(shape.size()));
  if (valid.ok()) valid = ValidateMeshSharding(mesh, sharding, {});
  if (!valid.ok()) return valid;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", d, " has no static size; tiles need one"));
    }
  }
  ShardingView view;
  view.mesh = mesh;
  view.sharding = sharding;
  for (size_t d = 0; d < shape.size(); ++d) {
    DimView dim;
    dim.size = shape[d];
    dim.axes = sharding.dims[d].axes;
    dim.num_pieces = sharding.dims[d].NumShards(mesh);
    dim.piece_size = (dim.size + dim.num_pieces - 1) / dim.num_pieces;
    view.dims.push_back(std::move(dim));
  }
  return view;
}

std::vector<DeviceView> DeviceViews(const ShardingView& view) {
  std::vector<DeviceView> devices;
  devices.reserve(view.NumDevices());
  // Partial-sum classes are numbered per tile, by first appearance over increasing ids.
  std::map<std::pair<std::vector<int64_t>, std::vector<int64_t>>, int64_t> group_of;
  std::map<std::vector<int64_t>, int64_t> groups_in_tile;
  std::vector<int64_t> key;
  ForEachDeviceById(view.mesh, [&](int64_t id, int64_t linear) {
    DeviceView device;
    device.device = id;
    TileOfDevice(view.mesh, view.sharding, linear, device.tile, &key);
    for (size_t d = 0; d < view.dims.size(); ++d) {
      auto [begin, end] = TileExtent(view.dims[d].size, view.dims[d].num_pieces, device.tile[d]);
      device.ranges.push_back({begin, end});
    }
    if (!key.empty()) {
      auto [group, added] = group_of.emplace(std::make_pair(device.tile, key), 0);
      if (added) group->second = groups_in_tile[device.tile]++;
      device.partial_sum_group = group->second;
    }
    devices.push_back(std::move(device));
  });
  return devices;
}

std::string RenderShardingView(const ShardingView& view, int width) {
  const int64_t rank = static_cast<int64_t>(view.dims.size());
  const int64_t num_devices = view.NumDevices();
  std::string out;
  int64_t num_tiles = 1;
  for (int64_t d = 0; d < rank; ++d) {
    absl::StrAppend(&out, "dim ", d, ": ", DescribeDim(view.dims[d], d, rank), "\n");
    num_tiles *= view.dims[d].num_pieces;
  }
  std::vector<std::string> notes;
  if (num_tiles == 1) {
    if (num_devices == 1) {
      absl::StrAppend(&out, "whole on device ", view.mesh.DeviceId(0), "\n");
    } else {
      absl::StrAppend(&out, view.sharding.unreduced_axes.empty() ? "replicated" : "whole",
                      " on all ", num_devices, " devices\n");
    }
  } else {
    DeviceRuns empty;
    absl::StrAppend(&out, DrawGrid(view, width, notes, empty));
    const int64_t copies = num_devices / num_tiles;
    if (copies > 1) {
      notes.push_back(absl::StrCat("each tile is held by ", copies, " devices"));
    }
    if (empty.count() > 0) {
      notes.push_back(absl::StrCat(empty.count() == 1 ? "device " : "devices ", empty.ToString(),
                                   empty.count() == 1 ? " holds" : " hold",
                                   " an empty tile (padding only)"));
    }
  }
  if (!view.sharding.unreduced_axes.empty()) {
    notes.push_back(absl::StrCat("partial sums over ", AxisList(view.sharding.unreduced_axes),
                                 ": the holders of a tile add up to its value"));
  }
  for (const std::string& note : notes) absl::StrAppend(&out, note, "\n");
  return out;
}

std::string ShardingViewToJson(const ShardingView& view, absl::string_view indent) {
  auto axes_json = [](const std::vector<AxisRef>& axes) {
    return absl::StrCat("[",
                        absl::StrJoin(axes, ", ",
                                      [](std::string* out, const AxisRef& axis) {
                                        absl::StrAppend(out, JsonQuote(AxisName(axis)));
                                      }),
                        "]");
  };
  std::string out = "{\"dims\": [";
  for (size_t d = 0; d < view.dims.size(); ++d) {
    const DimView& dim = view.dims[d];
    absl::StrAppend(&out, d == 0 ? "" : ", ", "{\"size\": ", dim.size,
                    ", \"axes\": ", axes_json(dim.axes), ", \"pieces\": ", dim.num_pieces,
                    ", \"piece_size\": ", dim.piece_size, "}");
  }
  absl::StrAppend(&out, "], \"unreduced\": ", axes_json(view.sharding.unreduced_axes),
                  ", \"devices\": [");
  const std::vector<DeviceView> devices = DeviceViews(view);
  for (size_t i = 0; i < devices.size(); ++i) {
    const DeviceView& device = devices[i];
    std::string ranges = absl::StrJoin(device.ranges, ", ", [](std::string* s, IndexRange r) {
      absl::StrAppend(s, "[", r.begin, ", ", r.end, "]");
    });
    absl::StrAppend(&out, i == 0 ? "" : ",", "\n", indent, "  {\"device\": ", device.device,
                    ", \"ranges\": [", ranges, "], \"empty\": ",
                    device.Empty() ? "true" : "false",
                    ", \"partial_sum_group\": ", device.partial_sum_group, "}");
  }
  absl::StrAppend(&out, "\n", indent, "]}");
  return out;
}

std::string FormatDeviceList(const std::vector<int64_t>& devices) {
  std::string out;
  for (size_t i = 0; i < devices.size();) {
    size_t j = i;
    while (j + 1 < devices.size() && devices[j + 1] == devices[j] + 1) ++j;
    AppendRun(out, {devices[i], devices[j]});
    i = j + 1;
  }
  return out;
}

}  // namespace tessel::sharding
