// Sharding pictures as graphics: one self-contained HTML page or SVG image (no scripts, no
// external files) with a grid per value. Each tile is a box in the colour of the set of
// devices holding it (visualize_color.h), labelled like the text picture's cells; padding
// (the part of a device's piece past the tensor's end) is hatched, empty tiles say so, tiles
// of partial sums carry a sigma, and hovering over a tile shows its devices and index ranges
// (an SVG <title>). The tiles drawn are the text picture's (tile_grid.h), so a value on 2^20
// devices costs what is drawn.
//
//   ShardingGraphic graphic(GraphicFormat::kHtml, "mlp.mlir @main");
//   graphic.AddValue("%x = arg0: tensor<16x64xf32> ...", view);
//   graphic.AddMessage("%t = arg1: tuple<...>", "not a ranked tensor: nothing to draw");
//   std::cout << graphic.Finish();
//
// Tests and scripts find the parts by class: every drawn tile is a
// `<g class="tile" id="v0-r1-c2" data-devices="2,3" data-ranges="[4:8, 0:64]" ...>`, with
// `empty` and `partial` added to the class where they apply and a `<rect class="padding">`
// inside where the tile has padding; elided rows and columns are `<g class="elided">`.
#ifndef TESSEL_PARTITIONER_SHARDING_VISUALIZE_HTML_H_
#define TESSEL_PARTITIONER_SHARDING_VISUALIZE_HTML_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "partitioner/sharding/visualize.h"
#include "partitioner/sharding/visualize_color.h"

namespace tessel::sharding {

enum class GraphicFormat { kHtml, kSvg };

// `text` with the characters that mean something in XML and HTML (& < > " ') written as
// character references, for element content and quoted attribute values alike.
std::string XmlEscape(absl::string_view text);

// Collects the pictures of several values and writes them as one document.
class ShardingGraphic {
 public:
  // `heading` titles the document. Grids keep at most MaxLeadingColumns(width) leading
  // columns besides the last, as the text picture `width` characters wide would.
  explicit ShardingGraphic(GraphicFormat format, std::string heading, int width = 80);

  // Adds the picture of a value: `header` (its names, type and sharding, as the text
  // picture's first line), the lines on its dimensions, its grid and the notes.
  void AddValue(absl::string_view header, const ShardingView& view);

  // Adds a value that has no picture, with the reason.
  void AddMessage(absl::string_view header, absl::string_view message);

  // The whole document: an HTML page or an SVG image, ending with a newline.
  std::string Finish() const;

 private:
  // One value's part of the document: HTML markup, or an SVG group drawn from y = 0 down to
  // `height` and `width` wide.
  struct Section {
    std::string markup;
    int64_t width = 0;
    int64_t height = 0;
  };

  GraphicFormat format_;
  std::string heading_;
  int width_;
  // Shared by all values: the same holders get the same colour in every grid.
  DeviceSetColors colors_;
  std::vector<Section> sections_;
};

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_VISUALIZE_HTML_H_
