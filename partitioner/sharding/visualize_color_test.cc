// Tests of the colours of sharding pictures: the palette, one colour per device set across
// values, coloured text that is the plain text plus escape codes and a legend, and the
// legend's width.
#include "partitioner/sharding/visualize_color.h"

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/sharding/visualize.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::testing::HasSubstr;
using ::tessel::testing::IsOk;

DeviceRuns Devices(std::vector<int64_t> ids) {
  DeviceRuns runs;
  for (int64_t id : ids) runs.Add(id);
  return runs;
}

std::string StripEscapes(const std::string& text) {
  static const std::regex kEscape("\x1b\\[[0-9;]*m");
  return std::regex_replace(text, kEscape, "");
}

ShardingView View(const Mesh& mesh, const TensorSharding& sharding,
                  const std::vector<int64_t>& shape) {
  absl::StatusOr<ShardingView> view = ViewSharding(mesh, sharding, shape);
  EXPECT_THAT(view, IsOk());
  return *view;
}

Mesh DataModelMesh() {
  absl::StatusOr<Mesh> mesh = Mesh::Create({{"data", 2}, {"model", 2}}, {});
  EXPECT_THAT(mesh, IsOk());
  return *mesh;
}

TEST(VisualizeColorTest, PaletteColoursAreDistinctAndCssMatchesXterm) {
  std::set<int> codes;
  std::set<std::string> css;
  for (int i = 0; i < PaletteSize(); ++i) {
    codes.insert(XtermColorCode(i));
    css.insert(CssColor(i));
  }
  EXPECT_EQ(codes.size(), static_cast<size_t>(PaletteSize()));
  EXPECT_EQ(css.size(), static_cast<size_t>(PaletteSize()));
  // xterm 153 is the cube point (3, 4, 5): levels 175, 215, 255.
  EXPECT_EQ(XtermColorCode(0), 153);
  EXPECT_EQ(CssColor(0), "#afd7ff");
  EXPECT_EQ(AnsiColored("ab", 0), "\x1b[48;5;153;38;5;16mab\x1b[0m");
}

TEST(VisualizeColorTest, OneColourPerDeviceSetInOrderOfFirstAppearance) {
  DeviceSetColors colors;
  EXPECT_EQ(colors.IndexOf(Devices({0, 1}).key()), 0);
  EXPECT_EQ(colors.IndexOf(Devices({2, 3}).key()), 1);
  // The same set, built again, gets its colour again; a subset is another set.
  EXPECT_EQ(colors.IndexOf(Devices({0, 1}).key()), 0);
  EXPECT_EQ(colors.IndexOf(Devices({0}).key()), 2);
  // Sets with the same leading runs, count and last run but another middle are distinct.
  EXPECT_FALSE(Devices({0, 2, 4, 6, 8, 10}).key() == Devices({0, 2, 4, 7, 8, 10}).key());
}

TEST(VisualizeColorTest, ColoursCycleThroughThePalette) {
  DeviceSetColors colors;
  for (int i = 0; i < PaletteSize(); ++i) EXPECT_EQ(colors.IndexOf(Devices({i}).key()), i);
  EXPECT_EQ(colors.IndexOf(Devices({PaletteSize()}).key()), 0);
}

TEST(VisualizeColorTest, ColouredTextIsThePlainTextWithEscapesAndALegend) {
  const Mesh mesh = DataModelMesh();
  const ShardingView view = View(mesh, {"m", {DimSharding({AxisRef("data")}), DimSharding()}},
                                 {8, 4});
  DeviceSetColors colors;
  const std::string colored = RenderShardingView(view, 80, &colors);
  const std::string plain = RenderShardingView(view);
  // The legend follows the grid, before the notes.
  const std::string legend = "legend:    0,1     2,3\n";
  std::string expected = plain;
  expected.insert(expected.find("each tile"), legend);
  EXPECT_EQ(StripEscapes(colored), expected);
  // Both label lines of the first tile are on colour 0, the second tile's on colour 1.
  EXPECT_THAT(colored, HasSubstr("|\x1b[48;5;153;38;5;16m       0,1        \x1b[0m|"));
  EXPECT_THAT(colored, HasSubstr("|\x1b[48;5;153;38;5;16m    [0:4, 0:4]    \x1b[0m|"));
  EXPECT_THAT(colored, HasSubstr("|\x1b[48;5;223;38;5;16m       2,3        \x1b[0m|"));
}

TEST(VisualizeColorTest, TheSameHoldersHaveTheSameColourInEveryValue) {
  const Mesh mesh = DataModelMesh();
  DeviceSetColors colors;
  // Rows over "data": tiles held by {0,1} and {2,3}. Columns over "model": {0,2} and {1,3}.
  // Then rows again, in another value: the same two colours as the first.
  RenderShardingView(View(mesh, {"m", {DimSharding({AxisRef("data")})}}, {8}), 80, &colors);
  const std::string columns =
      RenderShardingView(View(mesh, {"m", {DimSharding({AxisRef("model")})}}, {8}), 80, &colors);
  const std::string rows_again = RenderShardingView(
      View(mesh, {"m", {DimSharding({AxisRef("data")}), DimSharding()}}, {8, 2}), 80, &colors);
  EXPECT_THAT(columns, HasSubstr("\x1b[48;5;157;38;5;16m       0,2        "));
  EXPECT_THAT(rows_again, HasSubstr("\x1b[48;5;153;38;5;16m       0,1        "));
  EXPECT_THAT(rows_again, HasSubstr("\x1b[48;5;223;38;5;16m       2,3        "));
}

TEST(VisualizeColorTest, NoGridNoColour) {
  const Mesh mesh = DataModelMesh();
  DeviceSetColors colors;
  EXPECT_EQ(RenderShardingView(View(mesh, {"m", {DimSharding()}}, {8}), 80, &colors),
            "dim 0: 8, whole\nreplicated on all 4 devices\n");
}

TEST(VisualizeColorTest, LegendStaysWithinTheWidth) {
  std::vector<LegendEntry> entries;
  for (int i = 0; i < 10; ++i) entries.push_back({i, "0-7"});
  // "legend:" (7), the first entry " ## 0-7" (7), then "  ## 0-7" (8) each; "  ..." (5).
  const std::string line = StripEscapes(AnsiLegendLine(entries, 40));
  EXPECT_EQ(line, "legend:    0-7     0-7     0-7  ...");
  EXPECT_LE(line.size(), 40u);
  // The first entry is shown however narrow the width.
  EXPECT_EQ(StripEscapes(AnsiLegendLine({{0, "0-1023"}}, 5)), "legend:    0-1023");
}

}  // namespace
}  // namespace tessel::sharding
