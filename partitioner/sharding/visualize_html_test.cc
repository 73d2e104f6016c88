// Tests of the HTML and SVG pictures of shardings: one tile element per drawn tile with its
// devices and ranges, self-contained documents, escaping, hatched padding, empty tiles,
// partial sums, colours shared across values, and grids capped on huge meshes.
#include "partitioner/sharding/visualize_html.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using ::tessel::testing::IsOk;

Mesh MakeMesh(std::vector<MeshAxis> axes) {
  absl::StatusOr<Mesh> mesh = Mesh::Create(std::move(axes), {});
  EXPECT_THAT(mesh, IsOk());
  return *mesh;
}

ShardingView View(const Mesh& mesh, const TensorSharding& sharding,
                  const std::vector<int64_t>& shape) {
  absl::StatusOr<ShardingView> view = ViewSharding(mesh, sharding, shape);
  EXPECT_THAT(view, IsOk());
  return *view;
}

DimSharding Split(const char* axis) { return DimSharding({AxisRef(axis)}); }

int Count(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// The markup of the tile element with id `id`, up to its closing tag.
std::string Tile(const std::string& document, const std::string& id) {
  const size_t start = document.find("id=\"" + id + "\"");
  if (start == std::string::npos) return "";
  return document.substr(start, document.find("</g>", start) - start);
}

std::string Html(const std::string& header, const ShardingView& view) {
  ShardingGraphic graphic(GraphicFormat::kHtml, "test");
  graphic.AddValue(header, view);
  return graphic.Finish();
}

TEST(VisualizeHtmlTest, HtmlHasOneTileElementPerTileWithDevicesAndRanges) {
  const Mesh mesh = MakeMesh({{"data", 4}, {"model", 2}});
  const std::string html =
      Html("%h", View(mesh, {"m", {Split("data"), Split("model")}}, {16, 256}));
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
  EXPECT_EQ(Count(html, "<g class=\"tile\""), 8);
  // Device 3 holds row block 1 ([4:8]) and column block 1 ([128:256]).
  const std::string tile = Tile(html, "v0-r1-c1");
  EXPECT_THAT(tile, HasSubstr("data-devices=\"3\" data-ranges=\"[4:8, 128:256]\""));
  // Hovering shows the same facts.
  EXPECT_THAT(tile, HasSubstr("<title>device 3&#10;indices [4:8, 128:256]</title>"));
  // Self-contained: no scripts, no links to anything outside.
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("href=")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("@import")));
  EXPECT_THAT(html, HasSubstr("<p class=\"dim\">dim 1: 256 over &quot;model&quot; (2 pieces of "
                              "128)</p>"));
}

TEST(VisualizeHtmlTest, SvgIsOneStandaloneImage) {
  const Mesh mesh = MakeMesh({{"x", 2}});
  ShardingGraphic graphic(GraphicFormat::kSvg, "grid.mlir @main");
  graphic.AddValue("%a", View(mesh, {"m", {Split("x")}}, {8}));
  graphic.AddValue("%b", View(mesh, {"m", {DimSharding()}}, {8}));
  const std::string svg = graphic.Finish();
  EXPECT_THAT(svg, StartsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://"
                              "www.w3.org/2000/svg\""));
  EXPECT_EQ(Count(svg, "<svg"), 1);
  EXPECT_EQ(Count(svg, "</svg>\n"), 1);
  EXPECT_EQ(Count(svg, "<pattern id=\"tessel-hatch\""), 1);
  // Two tiles of %a and the one tile of the replicated %b.
  EXPECT_EQ(Count(svg, "<g class=\"tile\""), 3);
  EXPECT_THAT(Tile(svg, "v1-r0-c0"), HasSubstr("data-devices=\"0,1\" data-ranges=\"[0:8]\""));
  EXPECT_THAT(svg, HasSubstr(">replicated on all 2 devices</text>"));
}

TEST(VisualizeHtmlTest, TextIsEscaped) {
  const Mesh mesh = MakeMesh({{"x", 2}});
  for (GraphicFormat format : {GraphicFormat::kHtml, GraphicFormat::kSvg}) {
    ShardingGraphic graphic(format, "a<b>&'c'");
    graphic.AddValue("%v = \"<x>\" & 'y'", View(mesh, {"m", {Split("x")}}, {4}));
    graphic.AddMessage("%t = tuple<a, b>", "not a ranked tensor: <nothing> & so on");
    const std::string document = graphic.Finish();
    EXPECT_THAT(document, HasSubstr("a&lt;b&gt;&amp;&#39;c&#39;"));
    EXPECT_THAT(document, HasSubstr("%v = &quot;&lt;x&gt;&quot; &amp; &#39;y&#39;"));
    EXPECT_THAT(document, HasSubstr("tuple&lt;a, b&gt;"));
    EXPECT_THAT(document, HasSubstr("&lt;nothing&gt; &amp; so on"));
    EXPECT_THAT(document, Not(HasSubstr("<x>")));
    EXPECT_THAT(document, Not(HasSubstr("<nothing>")));
  }
  EXPECT_EQ(XmlEscape("<a href=\"x\">&</a>\n"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;&#10;");
}

TEST(VisualizeHtmlTest, PaddingIsHatched) {
  const Mesh mesh = MakeMesh({{"y", 3}});
  // 7 over 3: pieces of 3; the last holds [6:7], one element and two of padding.
  const std::string html = Html("%a", View(mesh, {"m", {Split("y")}}, {7}));
  EXPECT_EQ(Count(html, "<rect class=\"padding\""), 1);
  const std::string last = Tile(html, "v0-r0-c2");
  EXPECT_THAT(last, HasSubstr("<rect class=\"padding\" width=\"96\" height=\"44\" "
                              "fill=\"url(#tessel-hatch)\"/>"));
  // The data covers a third of the box: one of the piece's three elements.
  EXPECT_THAT(last, HasSubstr("<rect class=\"data\" width=\"32\" height=\"44\""));
  EXPECT_THAT(last, HasSubstr("padded: each device allocates 3"));
  EXPECT_THAT(Tile(html, "v0-r0-c0"), Not(HasSubstr("class=\"padding\"")));
  EXPECT_THAT(Tile(html, "v0-r0-c0"), HasSubstr("<rect class=\"data\" width=\"96\""));
}

TEST(VisualizeHtmlTest, EmptyTilesAreMarked) {
  const Mesh mesh = MakeMesh({{"y", 3}});
  // 2 over 3: pieces of 1; device 2's piece [2:2] is all padding.
  const std::string html = Html("%b", View(mesh, {"m", {Split("y")}}, {2}));
  EXPECT_EQ(Count(html, "<g class=\"tile empty\""), 1);
  const std::string empty = Tile(html, "v0-r0-c2");
  EXPECT_THAT(empty, HasSubstr("data-devices=\"2\" data-ranges=\"[2:2]\""));
  EXPECT_THAT(empty, HasSubstr(">[2:2] empty</text>"));
  EXPECT_THAT(empty, HasSubstr("class=\"padding\""));
  EXPECT_THAT(empty, Not(HasSubstr("class=\"data\"")));
  EXPECT_THAT(html, HasSubstr("<li class=\"note\">device 2 holds an empty tile (padding "
                              "only)</li>"));
}

TEST(VisualizeHtmlTest, PartialSumsAreMarked) {
  const Mesh mesh = MakeMesh({{"x", 2}, {"y", 3}});
  const std::string html = Html("%p", View(mesh, {"m", {Split("x")}, {}, {AxisRef("y")}}, {6}));
  EXPECT_EQ(Count(html, "<g class=\"tile partial\""), 2);
  const std::string tile = Tile(html, "v0-r0-c0");
  EXPECT_THAT(tile, HasSubstr("data-partial-sums=\"3\""));
  EXPECT_THAT(tile, HasSubstr("<text class=\"partial-mark\""));
  EXPECT_THAT(tile, HasSubstr("partial sums: its 3 holders hold 3 parts that add up to it"));
  EXPECT_THAT(html, HasSubstr("partial sums over &quot;y&quot;: the holders of a tile add up "
                              "to its value"));
}

TEST(VisualizeHtmlTest, TheSameHoldersHaveTheSameColourInEveryValue) {
  const Mesh mesh = MakeMesh({{"x", 2}, {"y", 2}});
  ShardingGraphic graphic(GraphicFormat::kHtml, "test");
  graphic.AddValue("%rows", View(mesh, {"m", {Split("x")}}, {4}));
  graphic.AddValue("%cols", View(mesh, {"m", {Split("y")}}, {4}));
  graphic.AddValue("%rows2", View(mesh, {"m", {Split("x"), DimSharding()}}, {4, 4}));
  const std::string html = graphic.Finish();
  EXPECT_THAT(Tile(html, "v0-r0-c0"), HasSubstr("data-devices=\"0,1\" data-ranges=\"[0:2]\" "
                                                "data-color=\"0\""));
  EXPECT_THAT(Tile(html, "v1-r0-c0"), HasSubstr("data-color=\"2\""));
  EXPECT_THAT(Tile(html, "v2-r0-c0"), HasSubstr("data-devices=\"0,1\" data-ranges=\"[0:2, "
                                                "0:4]\" data-color=\"0\""));
  EXPECT_THAT(Tile(html, "v2-r1-c0"), HasSubstr("data-color=\"1\""));
  EXPECT_THAT(Tile(html, "v0-r0-c0"), HasSubstr("fill=\"" + CssColor(0) + "\""));
}

TEST(VisualizeHtmlTest, RankThreeDrawsTheTextPicturesGrid) {
  const Mesh mesh = MakeMesh({{"x", 2}, {"y", 4}});
  const std::string html =
      Html("%c", View(mesh, {"m", {DimSharding(), Split("y"), Split("x")}}, {3, 8, 4}));
  EXPECT_EQ(Count(html, "<g class=\"tile\""), 8);
  EXPECT_THAT(Tile(html, "v0-r3-c1"), HasSubstr("data-devices=\"7\" data-ranges=\"[:, 6:8, "
                                                "2:4]\""));
}

TEST(VisualizeHtmlTest, MillionDeviceGridsAreCappedLikeTheText) {
  const Mesh mesh = MakeMesh({{"x", 1024}, {"y", 1024}});
  const std::string html = Html("%a", View(mesh, {"m", {Split("x"), Split("y")}}, {8, 8}));
  // Rows: the first six, an elision, the last; columns: the first 80/4 + 1 = 21, an
  // elision, the last.
  EXPECT_EQ(Count(html, "<g class=\"tile"), 7 * 22);
  EXPECT_EQ(Count(html, "<g class=\"elided\""), 22 + 7 + 1);
  EXPECT_THAT(Tile(html, "v0-r1023-c1023"), HasSubstr("data-devices=\"1048575\""));
  EXPECT_THAT(html, HasSubstr("pieces 21-1022 of dim 1 are not drawn"));
  EXPECT_THAT(html, HasSubstr("pieces 6-1022 of dim 0 are not drawn"));
  EXPECT_LT(html.size(), 200000u);
}

}  // namespace
}  // namespace tessel::sharding
