// HTML and SVG documents of sharding pictures (see visualize_html.h).
#include "partitioner/sharding/visualize_html.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "partitioner/sharding/tile_grid.h"

namespace tessel::sharding {
namespace {

// Geometry in pixels. Text is 12px monospace, whose characters are at most 7.5px wide in
// the common fonts; boxes are sized for their labels from that.
constexpr int64_t kLineHeight = 18;
constexpr int64_t kMargin = 16;
constexpr int64_t kTileHeight = 44;
constexpr int64_t kMinTileWidth = 96;
constexpr int64_t kTileGap = 4;
constexpr int64_t kElidedSize = 32;  // the width of an elided column, height of an elided row
constexpr int64_t kSectionGap = 24;

int64_t TextWidth(absl::string_view text) {
  return static_cast<int64_t>(text.size()) * 15 / 2;
}

// Padding is drawn as grey diagonal lines on white, a pattern every grid refers to.
constexpr absl::string_view kHatchPattern =
    "<pattern id=\"tessel-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#ffffff\"/>"
    "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9a9a9a\" stroke-width=\"2\"/></pattern>";

// Halo bands: dark diagonal lines the other way, on a see-through ground, so the tile
// under a band still shows its colour.
constexpr absl::string_view kHaloPattern =
    "<pattern id=\"tessel-halo\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(-45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" "
    "stroke=\"#222222\" stroke-width=\"1.5\"/></pattern>";

// What the marks mean, said once per document.
constexpr absl::string_view kKey =
    "colour: the devices holding a tile (same devices, same colour); hatched: padding; "
    "\xce\xa3: partial sums; hover over a tile for its devices and index ranges";

// "<text x=.. y=..>escaped</text>" with the given attributes.
std::string Text(int64_t x, int64_t y, absl::string_view text, absl::string_view attributes = "") {
  return absl::StrCat("<text x=\"", x, "\" y=\"", y, "\"", attributes.empty() ? "" : " ",
                      attributes, ">", XmlEscape(text), "</text>");
}

// A grid of tiles as SVG elements, from (0, 0) to (width, height).
struct GridDrawing {
  std::string markup;
  int64_t width = 0;
  int64_t height = 0;
  // The elision notes of the grid.
  std::vector<std::string> notes;
};

// The extent of a piece along a drawn dimension as a share of the tile box: the padding of a
// short last piece is the rest. `dim` -1 (no dimension drawn that way) is whole.
int64_t ValidLength(const ShardingView& view, const TileGrid& grid, int64_t dim, int64_t row,
                    int64_t column, int64_t box) {
  if (dim < 0 || view.dims[dim].piece_size == 0) return box;
  return box * grid.RangeOf(view, dim, row, column).Size() / view.dims[dim].piece_size;
}

// The halos the tile at (row, column) needs, one label per windowed op and split
// dimension that has one: "1 low, 1 high on dim 1 (hlo.convolution at f.mlir:9:10)". A
// dimension the grid does not draw has every piece under the cell, which it names.
std::vector<std::string> TileHaloLabels(const ShardingView& view, const TileGrid& grid,
                                        int64_t row, int64_t column) {
  std::vector<std::string> labels;
  for (const HaloUse& use : view.halos) {
    for (const DimHalo& halo : use.dims) {
      if (halo.dim != grid.row_dim && halo.dim != grid.column_dim) continue;
      const int64_t piece = halo.dim == grid.row_dim ? row : column;
      const std::string label = HaloLabel(halo.dim, halo.low[piece], halo.high[piece]);
      if (!label.empty()) labels.push_back(absl::StrCat(label, " (", use.user, ")"));
    }
  }
  return labels;
}

// The hover text of a tile: its devices, its index ranges and what is special about it.
std::string TileTooltip(const ShardingView& view, const TileGrid& grid, const TileCell& cell,
                        int64_t row, int64_t column, bool empty, bool padded) {
  const int64_t count = cell.devices.count();
  std::string text = absl::StrCat(count == 1 ? "device " : "devices ", cell.devices.ToString(),
                                  "\nindices ", grid.RangesLabel(view, row, column));
  if (empty) absl::StrAppend(&text, "\nempty: its piece lies wholly in the padding");
  if (padded && !empty) {
    std::vector<int64_t> piece;
    for (const DimView& dim : view.dims) piece.push_back(dim.piece_size);
    absl::StrAppend(&text, "\npadded: each device allocates ", absl::StrJoin(piece, "x"));
  }
  if (!view.sharding.unreduced_axes.empty()) {
    absl::StrAppend(&text, "\npartial sums: its ", count, " holders hold ",
                    PartialSumsPerTile(view), " parts that add up to it");
  }
  for (const std::string& label : TileHaloLabels(view, grid, row, column)) {
    absl::StrAppend(&text, "\nhalo: ", label);
  }
  return text;
}

// The halo bands of the tile at (row, column), whose box is at (x, y): along a drawn
// dimension, the elements it needs from the tile before it are a band over that tile's
// far edge (across the gap), those from the tile after it a band over that tile's near
// edge, each as deep as its share of a piece (at least 3 pixels, at most the box). Bands
// are dashed outlines over a light hatch, `<rect class="halo low|high">` with the tile's
// id, the dimension and the element count as data attributes.
void AppendHaloBands(const ShardingView& view, const TileGrid& grid, int value_index,
                     int64_t row, int64_t column, int64_t x, int64_t y, int64_t tile_width,
                     std::string& bands) {
  for (const HaloUse& use : view.halos) {
    for (const DimHalo& halo : use.dims) {
      const bool across = halo.dim == grid.column_dim;
      if (!across && halo.dim != grid.row_dim) continue;
      const int64_t piece = across ? column : row;
      const int64_t box = across ? tile_width : kTileHeight;
      const int64_t piece_size = std::max<int64_t>(view.dims[halo.dim].piece_size, 1);
      for (const bool low : {true, false}) {
        const int64_t count = low ? halo.low[piece] : halo.high[piece];
        if (count == 0) continue;
        const int64_t depth = std::clamp<int64_t>(box * count / piece_size, 3, box);
        // The band's start along the dimension, from the tile's own start.
        const int64_t start = low ? -kTileGap - depth : box + kTileGap;
        const int64_t band_x = across ? x + start : x;
        const int64_t band_y = across ? y : y + start;
        absl::StrAppend(
            &bands, "<rect class=\"halo ", low ? "low" : "high", "\" data-tile=\"v",
            value_index, "-r", row, "-c", column, "\" data-dim=\"", halo.dim,
            "\" data-count=\"", count, "\" x=\"", band_x, "\" y=\"", band_y, "\" width=\"",
            across ? depth : tile_width, "\" height=\"", across ? kTileHeight : depth,
            "\" fill=\"url(#tessel-halo)\" stroke=\"#222222\" stroke-dasharray=\"4 2\">"
            "<title>",
            XmlEscape(absl::StrCat("halo of tile ", grid.RangesLabel(view, row, column), ": ",
                                   count, low ? " from the tile before" : " from the tile after",
                                   " on dim ", halo.dim, " (", use.user, ")")),
            "</title></rect>\n");
      }
    }
  }
}

GridDrawing DrawTileGrid(const ShardingView& view, int value_index, int width,
                         DeviceSetColors& colors) {
  TileGrid grid = CollectTileGrid(view, MaxLeadingColumns(width));
  const bool partial = !view.sharding.unreduced_axes.empty();

  // Every tile box has one size: a device's piece is the same size on every device, so the
  // short pieces of an uneven split show their padding within a box of the same size.
  int64_t label_width = 0;
  for (const auto& [position, cell] : grid.cells) {
    const auto [row, column] = position;
    const bool empty = grid.IsEmpty(view, row, column);
    label_width = std::max({label_width, TextWidth(cell.devices.ToString()),
                            TextWidth(grid.RangesLabel(view, row, column) +
                                      (empty ? " empty" : ""))});
  }
  const int64_t tile_width = std::max(kMinTileWidth, label_width + 16);

  GridDrawing drawing;
  // Halo bands lie over the neighbouring tiles, so they are drawn after every tile.
  std::string bands;
  int64_t y = 0;
  for (int64_t row : grid.rows) {
    const int64_t row_height = row < 0 ? kElidedSize : kTileHeight;
    int64_t x = 0;
    for (int64_t column : grid.columns) {
      const int64_t column_width = column < 0 ? kElidedSize : tile_width;
      const TileCell* cell = row >= 0 && column >= 0 ? grid.Cell(row, column) : nullptr;
      if (row < 0 || column < 0) {
        absl::StrAppend(&drawing.markup, "<g class=\"elided\" transform=\"translate(", x, ",", y,
                        ")\">", Text(column_width / 2, row_height / 2 + 4, "...",
                                     "text-anchor=\"middle\""),
                        "</g>\n");
      } else if (cell != nullptr) {
        const bool empty = grid.IsEmpty(view, row, column);
        const int64_t valid_width = ValidLength(view, grid, grid.column_dim, row, column,
                                                tile_width);
        const int64_t valid_height = ValidLength(view, grid, grid.row_dim, row, column,
                                                 kTileHeight);
        const bool padded = valid_width < tile_width || valid_height < kTileHeight;
        const int color = colors.IndexOf(cell->devices.key());
        const std::string devices = cell->devices.ToString();
        const std::string ranges = grid.RangesLabel(view, row, column);
        const std::vector<std::string> halo_labels = TileHaloLabels(view, grid, row, column);
        AppendHaloBands(view, grid, value_index, row, column, x, y, tile_width, bands);
        absl::StrAppend(
            &drawing.markup, "<g class=\"tile", empty ? " empty" : "", partial ? " partial" : "",
            "\" id=\"v", value_index, "-r", row, "-c", column, "\" data-devices=\"",
            XmlEscape(devices), "\" data-ranges=\"", XmlEscape(ranges), "\" data-color=\"",
            color, "\"", partial ? absl::StrCat(" data-partial-sums=\"", PartialSumsPerTile(view),
                                                "\"")
                                 : "",
            halo_labels.empty()
                ? ""
                : absl::StrCat(" data-halo=\"", XmlEscape(absl::StrJoin(halo_labels, "; ")),
                               "\""),
            " transform=\"translate(", x, ",", y, ")\">",
            "<title>", XmlEscape(TileTooltip(view, grid, *cell, row, column, empty, padded)),
            "</title>");
        if (padded) {
          absl::StrAppend(&drawing.markup, "<rect class=\"padding\" width=\"", tile_width,
                          "\" height=\"", kTileHeight, "\" fill=\"url(#tessel-hatch)\"/>");
        }
        if (!empty) {
          absl::StrAppend(&drawing.markup, "<rect class=\"data\" width=\"", valid_width,
                          "\" height=\"", valid_height, "\" fill=\"", CssColor(color), "\"/>");
        }
        // The outline is the piece each device allocates; empty tiles get their holders'
        // colour as a thick outline, having no data to fill.
        absl::StrAppend(&drawing.markup, "<rect class=\"outline\" width=\"", tile_width,
                        "\" height=\"", kTileHeight, "\" fill=\"none\" stroke=\"",
                        empty ? CssColor(color) : "#444444", "\" stroke-width=\"",
                        empty ? 3 : 1, "\"/>",
                        Text(tile_width / 2, 18, devices, "text-anchor=\"middle\""),
                        Text(tile_width / 2, 34, empty ? ranges + " empty" : ranges,
                             "text-anchor=\"middle\""));
        if (partial) {
          absl::StrAppend(&drawing.markup,
                          "<text class=\"partial-mark\" x=\"", tile_width - 4,
                          "\" y=\"13\" text-anchor=\"end\">&#931;</text>");
        }
        absl::StrAppend(&drawing.markup, "</g>\n");
      }
      x += column_width + kTileGap;
    }
    drawing.width = std::max(drawing.width, x - kTileGap);
    y += row_height + kTileGap;
  }
  drawing.height = y - kTileGap;
  if (!bands.empty()) {
    absl::StrAppend(&drawing.markup, "<g class=\"halos\">\n", bands, "</g>\n");
  }
  drawing.notes = grid.ElisionNotes();
  if (NumTiles(view) == 1) {
    drawing.notes.push_back(SingleTileLine(view));
  } else {
    for (std::string& note : SharingNotes(view, grid.empty_devices)) {
      drawing.notes.push_back(std::move(note));
    }
  }
  std::string partial_sums = PartialSumNote(view);
  if (!partial_sums.empty()) drawing.notes.push_back(std::move(partial_sums));
  for (std::string& note : HaloNotes(view)) drawing.notes.push_back(std::move(note));
  return drawing;
}

constexpr absl::string_view kHtmlStyle =
    "body { font-family: monospace; font-size: 13px; color: #222222; background: #ffffff; "
    "margin: 16px; }\n"
    "h1 { font-size: 16px; }\n"
    "h2 { font-size: 13px; margin: 20px 0 4px 0; }\n"
    "p, ul { margin: 2px 0; }\n"
    "ul.notes { padding-left: 20px; }\n"
    "svg.grid { display: block; margin: 8px 0; }\n"
    "svg text { font-family: monospace; font-size: 12px; fill: #111111; }\n"
    ".partial-mark { font-weight: bold; }\n";

}  // namespace

std::string XmlEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      // Newlines in titles and attributes must survive attribute-value normalization.
      case '\n': out += "&#10;"; break;
      default: out += c;
    }
  }
  return out;
}

ShardingGraphic::ShardingGraphic(GraphicFormat format, std::string heading, int width)
    : format_(format), heading_(std::move(heading)), width_(width) {}

void ShardingGraphic::AddValue(absl::string_view header, const ShardingView& view) {
  const int value_index = static_cast<int>(sections_.size());
  const GridDrawing grid = DrawTileGrid(view, value_index, width_, colors_);
  const std::vector<std::string> dims = DimensionLines(view);
  Section section;
  if (format_ == GraphicFormat::kHtml) {
    section.markup = absl::StrCat("<section class=\"value\" id=\"value-", value_index,
                                  "\">\n<h2>", XmlEscape(header), "</h2>\n");
    for (const std::string& line : dims) {
      absl::StrAppend(&section.markup, "<p class=\"dim\">", XmlEscape(line), "</p>\n");
    }
    absl::StrAppend(&section.markup, "<svg class=\"grid\" width=\"", grid.width + 2,
                    "\" height=\"", grid.height + 2, "\" viewBox=\"-1 -1 ", grid.width + 2, " ",
                    grid.height + 2, "\">\n", grid.markup, "</svg>\n");
    if (!grid.notes.empty()) {
      absl::StrAppend(&section.markup, "<ul class=\"notes\">\n");
      for (const std::string& note : grid.notes) {
        absl::StrAppend(&section.markup, "<li class=\"note\">", XmlEscape(note), "</li>\n");
      }
      absl::StrAppend(&section.markup, "</ul>\n");
    }
    absl::StrAppend(&section.markup, "</section>\n");
  } else {
    int64_t y = kLineHeight;
    section.markup = absl::StrCat("<g class=\"value\" id=\"value-", value_index, "\">\n",
                                  Text(0, y - 5, header, "font-weight=\"bold\""), "\n");
    section.width = std::max(TextWidth(header), grid.width);
    for (const std::string& line : dims) {
      y += kLineHeight;
      absl::StrAppend(&section.markup, Text(0, y - 5, line, "class=\"dim\""), "\n");
      section.width = std::max(section.width, TextWidth(line));
    }
    y += 8;
    absl::StrAppend(&section.markup, "<g class=\"grid\" transform=\"translate(0,", y, ")\">\n",
                    grid.markup, "</g>\n");
    y += grid.height + 8;
    for (const std::string& note : grid.notes) {
      y += kLineHeight;
      absl::StrAppend(&section.markup, Text(0, y - 5, note, "class=\"note\""), "\n");
      section.width = std::max(section.width, TextWidth(note));
    }
    absl::StrAppend(&section.markup, "</g>\n");
    section.height = y;
  }
  sections_.push_back(std::move(section));
}

void ShardingGraphic::AddMessage(absl::string_view header, absl::string_view message) {
  const int value_index = static_cast<int>(sections_.size());
  Section section;
  if (format_ == GraphicFormat::kHtml) {
    section.markup = absl::StrCat("<section class=\"value\" id=\"value-", value_index,
                                  "\">\n<h2>", XmlEscape(header), "</h2>\n<p class=\"message\">",
                                  XmlEscape(message), "</p>\n</section>\n");
  } else {
    section.markup = absl::StrCat(
        "<g class=\"value\" id=\"value-", value_index, "\">\n",
        Text(0, kLineHeight - 5, header, "font-weight=\"bold\""), "\n",
        Text(0, 2 * kLineHeight - 5, message, "class=\"message\""), "\n</g>\n");
    section.width = std::max(TextWidth(header), TextWidth(message));
    section.height = 2 * kLineHeight;
  }
  sections_.push_back(std::move(section));
}

std::string ShardingGraphic::Finish() const {
  if (format_ == GraphicFormat::kHtml) {
    std::string out = absl::StrCat(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
        XmlEscape(heading_), "</title>\n<style>\n", kHtmlStyle, "</style>\n</head>\n<body>\n",
        "<h1>", XmlEscape(heading_), "</h1>\n<p class=\"key\">", XmlEscape(kKey), "</p>\n",
        // The grids share one hatch pattern, defined in a drawing of no size.
        "<svg width=\"0\" height=\"0\" style=\"position: absolute\" aria-hidden=\"true\">"
        "<defs>",
        kHatchPattern, kHaloPattern, "</defs></svg>\n");
    for (const Section& section : sections_) absl::StrAppend(&out, section.markup);
    absl::StrAppend(&out, "</body>\n</html>\n");
    return out;
  }
  int64_t width = std::max(TextWidth(heading_), TextWidth(kKey));
  int64_t height = kMargin + 2 * kLineHeight;
  std::string body;
  for (const Section& section : sections_) {
    height += kSectionGap;
    absl::StrAppend(&body, "<g transform=\"translate(", kMargin, ",", height, ")\">\n",
                    section.markup, "</g>\n");
    height += section.height;
    width = std::max(width, section.width);
  }
  width += 2 * kMargin;
  height += kMargin;
  return absl::StrCat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"", width, "\" height=\"", height, "\" viewBox=\"0 0 ", width, " ", height,
      "\" font-family=\"monospace\" font-size=\"12\">\n<title>", XmlEscape(heading_),
      "</title>\n<defs>", kHatchPattern, kHaloPattern, "</defs>\n",
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
      Text(kMargin, kMargin + kLineHeight - 5, heading_, "font-weight=\"bold\" font-size=\"14\""),
      "\n", Text(kMargin, kMargin + 2 * kLineHeight - 5, kKey, "class=\"key\""), "\n", body,
      "</svg>\n");
}

}  // namespace tessel::sharding
