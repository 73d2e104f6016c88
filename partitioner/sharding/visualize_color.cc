// The colour palette of sharding pictures and its terminal form (see visualize_color.h).
#include "partitioner/sharding/visualize_color.h"

#include <cstdint>
#include <cstdio>

#include "absl/strings/str_cat.h"

namespace tessel::sharding {
namespace {

// Light colours of the xterm 6x6x6 cube, neighbours in the list far apart in hue, so that
// adjacent tiles (which take consecutive colours) are easy to tell apart.
constexpr int kPalette[] = {
    153,  // light blue
    223,  // peach
    157,  // light green
    218,  // pink
    229,  // light yellow
    183,  // lavender
    116,  // teal
    216,  // salmon
    150,  // olive
    174,  // rose
    180,  // tan
    111,  // cornflower
};
constexpr int kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

// Black text: the palette is light.
constexpr absl::string_view kBlackText = "38;5;16";
constexpr absl::string_view kReset = "\x1b[0m";

}  // namespace

int PaletteSize() { return kPaletteSize; }

int XtermColorCode(int index) {
  return kPalette[((index % kPaletteSize) + kPaletteSize) % kPaletteSize];
}

std::string CssColor(int index) {
  // Codes 16-231 are the cube 16 + 36 r + 6 g + b, each coordinate one of these levels.
  static constexpr int kLevels[] = {0, 95, 135, 175, 215, 255};
  const int cube = XtermColorCode(index) - 16;
  char text[8];
  std::snprintf(text, sizeof(text), "#%02x%02x%02x", kLevels[cube / 36], kLevels[cube / 6 % 6],
                kLevels[cube % 6]);
  return text;
}

std::string AnsiColored(absl::string_view text, int index) {
  return absl::StrCat("\x1b[48;5;", XtermColorCode(index), ";", kBlackText, "m", text, kReset);
}

int DeviceSetColors::IndexOf(const DeviceSetKey& devices) {
  auto [entry, added] = indices_.emplace(devices, next_);
  if (added) next_ = (next_ + 1) % kPaletteSize;
  return entry->second;
}

std::string AnsiLegendLine(const std::vector<LegendEntry>& entries, int width) {
  static constexpr absl::string_view kTitle = "legend:";
  static constexpr absl::string_view kMore = "  ...";
  std::string out(kTitle);
  int64_t visible = static_cast<int64_t>(kTitle.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    // A separator, the swatch, a space and the devices; and room for "  ..." unless this is
    // the last entry. The first entry is always shown.
    const int64_t entry_width = (i == 0 ? 1 : 2) + 2 + 1 +
                                static_cast<int64_t>(entries[i].devices.size());
    const int64_t after = i + 1 == entries.size() ? 0 : static_cast<int64_t>(kMore.size());
    if (i > 0 && visible + entry_width + after > width) {
      absl::StrAppend(&out, kMore);
      break;
    }
    absl::StrAppend(&out, i == 0 ? " " : "  ", AnsiColored("  ", entries[i].color), " ",
                    entries[i].devices);
    visible += entry_width;
  }
  return out;
}

}  // namespace tessel::sharding
