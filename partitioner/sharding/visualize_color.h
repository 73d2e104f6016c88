// Colours for sharding pictures: every set of devices that holds a tile gets a colour, the
// same set the same colour in every value of one picture, so a reader sees at a glance which
// tiles live on the same devices. The colours are a fixed palette of ANSI 256-colour
// backgrounds (for terminals) with the same colours as CSS (for HTML and SVG), cycling when
// there are more sets than colours.
//
//   DeviceSetColors colors;
//   std::cout << RenderShardingView(view, 80, &colors);  // coloured cells and a legend
//   int index = colors.IndexOf(cell.devices.key());      // CssColor(index), AnsiColored(...)
#ifndef TESSEL_PARTITIONER_SHARDING_VISUALIZE_COLOR_H_
#define TESSEL_PARTITIONER_SHARDING_VISUALIZE_COLOR_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "partitioner/sharding/tile_grid.h"

namespace tessel::sharding {

// The number of colours before they repeat.
int PaletteSize();

// The xterm 256-colour code of palette colour `index` (taken modulo PaletteSize()). All are
// light, so black text on them is legible.
int XtermColorCode(int index);

// The same colour as CSS: "#afd7ff".
std::string CssColor(int index);

// `text` on the background of palette colour `index`, in black, then the attributes reset.
std::string AnsiColored(absl::string_view text, int index);

// Hands out palette indices to device sets in order of first appearance: a set seen before
// gets its colour again. Keeps one entry per distinct set asked about (the drawn tiles).
class DeviceSetColors {
 public:
  int IndexOf(const DeviceSetKey& devices);

 private:
  std::map<DeviceSetKey, int> indices_;
  int next_ = 0;
};

// One entry of a colour legend: a palette colour and the devices it stands for.
struct LegendEntry {
  int color = 0;
  std::string devices;
};

// "legend: ## 0,1  ## 2,3", each ## a swatch (two spaces) on its colour, at most `width`
// visible characters (or the first entry alone, if it is wider): the entries that do not fit
// are left out and replaced by "...".
std::string AnsiLegendLine(const std::vector<LegendEntry>& entries, int width);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_VISUALIZE_COLOR_H_
