// Tile views of shardings and their text (plain or coloured) and JSON renderings (see
// visualize.h).
#include "partitioner/sharding/visualize.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/device_tile_map.h"
#include "partitioner/sharding/tile_grid.h"
#include "partitioner/sharding/visualize_color.h"
#include "support/json_quote.h"

namespace tessel::sharding {
namespace {

// A grid is drawn about this wide per column, within the caller's width: wide enough for
// the usual labels, narrow enough that a one-column grid does not fill the line.
constexpr int64_t kColumnWidth = 20;
// The width of an elided column: " ... ".
constexpr int64_t kElisionWidth = 5;

// `data` or `data:(1)2`: the axis as in a sharding, without quotes, for JSON strings.
std::string AxisName(const AxisRef& axis) {
  if (!axis.IsSubAxis()) return axis.name;
  return absl::StrCat(axis.name, ":(", axis.pre_size, ")", axis.size);
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

// Draws the grid of `grid`'s tiles, keeping as many leading columns as fit in `width`, and
// adds its elision notes to `notes`. With `colors`, each tile's cell gets the background of
// its device set and a legend line follows the grid.
std::string DrawGrid(const ShardingView& view, TileGrid& grid, int width,
                     std::vector<std::string>& notes, DeviceSetColors* colors) {
  const int64_t num_columns = grid.num_columns;
  const DimView& across = view.dims[grid.column_dim];
  // Two label lines per cell: the devices holding the tile, then its index ranges.
  auto labels = [&](int64_t row, int64_t column) -> std::pair<std::string, std::string> {
    const TileCell* cell = grid.Cell(row, column);
    if (cell == nullptr) return {"", ""};
    return {cell->devices.ToString(), absl::StrCat(grid.RangesLabel(view, row, column),
                                                   grid.IsEmpty(view, row, column) ? " empty"
                                                                                   : "")};
  };

  // Columns: keep as many leading ones as fit, then "...", then the last.
  std::map<int64_t, int64_t> minimum;
  for (int64_t column : grid.columns) {
    if (column < 0) continue;
    for (int64_t row : grid.rows) {
      if (row < 0) continue;
      auto [devices, ranges] = labels(row, column);
      minimum[column] = std::max<int64_t>(
          minimum[column], std::max(devices.size(), ranges.size()) + 2);
    }
  }
  auto elision = std::find(grid.columns.begin(), grid.columns.end(), -1);
  int64_t first = elision == grid.columns.end() ? num_columns : elision - grid.columns.begin();
  auto total = [&](int64_t leading) {
    std::vector<int64_t> shown = VisibleTiles(num_columns, leading);
    int64_t sum = static_cast<int64_t>(shown.size()) + 1;
    for (int64_t column : shown) sum += column < 0 ? kElisionWidth : minimum[column];
    return sum;
  };
  while (first > 1 && total(first) > width) --first;
  grid.columns = VisibleTiles(num_columns, first);
  const std::vector<int64_t>& columns = grid.columns;

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

  std::vector<LegendEntry> legend;
  std::string border = "+";
  for (int64_t w : widths) absl::StrAppend(&border, std::string(w, '-'), "+");
  std::string out = border + "\n";
  for (int64_t row : grid.rows) {
    std::string devices_line = "|";
    std::string ranges_line = "|";
    for (size_t j = 0; j < columns.size(); ++j) {
      // Elided rows and columns show "..." in their cells.
      std::pair<std::string, std::string> text = {"...", ""};
      if (row >= 0 && columns[j] >= 0) text = labels(row, columns[j]);
      std::string devices_cell = Centered(text.first, widths[j]);
      std::string ranges_cell = Centered(text.second, widths[j]);
      const TileCell* cell = row >= 0 && columns[j] >= 0 ? grid.Cell(row, columns[j]) : nullptr;
      if (colors != nullptr && cell != nullptr) {
        const int color = colors->IndexOf(cell->devices.key());
        devices_cell = AnsiColored(devices_cell, color);
        ranges_cell = AnsiColored(ranges_cell, color);
        legend.push_back({color, text.first});
      }
      absl::StrAppend(&devices_line, devices_cell, "|");
      absl::StrAppend(&ranges_line, ranges_cell, "|");
    }
    absl::StrAppend(&out, devices_line, "\n");
    if (row >= 0) absl::StrAppend(&out, ranges_line, "\n");
    absl::StrAppend(&out, border, "\n");
  }
  if (colors != nullptr) absl::StrAppend(&out, AnsiLegendLine(legend, width), "\n");
  for (std::string& note : grid.ElisionNotes()) notes.push_back(std::move(note));
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

std::string RenderShardingView(const ShardingView& view, int width, DeviceSetColors* colors) {
  std::string out;
  for (const std::string& line : DimensionLines(view)) absl::StrAppend(&out, line, "\n");
  std::vector<std::string> notes;
  if (NumTiles(view) == 1) {
    absl::StrAppend(&out, SingleTileLine(view), "\n");
  } else {
    TileGrid grid = CollectTileGrid(view, MaxLeadingColumns(width));
    absl::StrAppend(&out, DrawGrid(view, grid, width, notes, colors));
    for (std::string& note : SharingNotes(view, grid.empty_devices)) {
      notes.push_back(std::move(note));
    }
  }
  std::string partial_sums = PartialSumNote(view);
  if (!partial_sums.empty()) notes.push_back(std::move(partial_sums));
  for (std::string& note : HaloNotes(view)) notes.push_back(std::move(note));
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
  absl::StrAppend(&out, "\n", indent, "]");
  if (!view.halos.empty()) {
    absl::StrAppend(&out, ", \"halos\": [");
    for (size_t u = 0; u < view.halos.size(); ++u) {
      const HaloUse& use = view.halos[u];
      absl::StrAppend(&out, u == 0 ? "" : ",", "\n", indent, "  {\"user\": ", JsonQuote(use.user),
                      ", \"note\": ", use.note.empty() ? "null" : JsonQuote(use.note),
                      ", \"dims\": [");
      for (size_t k = 0; k < use.dims.size(); ++k) {
        const DimHalo& halo = use.dims[k];
        absl::StrAppend(&out, k == 0 ? "" : ",", "\n", indent, "    {\"dim\": ", halo.dim,
                        ", \"pieces\": [");
        for (size_t i = 0; i < halo.low.size(); ++i) {
          const IndexRange range = PieceRange(view.dims[halo.dim], i);
          absl::StrAppend(&out, i == 0 ? "" : ",", "\n", indent, "      {\"piece\": ", i,
                          ", \"range\": [", range.begin, ", ", range.end, "], \"low\": ",
                          halo.low[i], ", \"high\": ", halo.high[i], "}");
        }
        absl::StrAppend(&out, "\n", indent, "    ]}");
      }
      absl::StrAppend(&out, use.dims.empty() ? "" : absl::StrCat("\n", indent, "  "), "]}");
    }
    absl::StrAppend(&out, "\n", indent, "]");
  }
  absl::StrAppend(&out, "}");
  return out;
}

std::string FormatDeviceList(const std::vector<int64_t>& devices) {
  std::string out;
  for (size_t i = 0; i < devices.size();) {
    size_t j = i;
    while (j + 1 < devices.size() && devices[j + 1] == devices[j] + 1) ++j;
    AppendDeviceRun(out, devices[i], devices[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace tessel::sharding
