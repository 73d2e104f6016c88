"""tessel.visualize and PartitionResult.visualize: the tiles and text against ranges worked
out by hand from Tessel's split rule (a dimension of D split n ways gives every device
ceil(D / n) indices, the last pieces short or empty), the HTML parsed, colour only on
request, and the halos of a windowed op's operand."""

import contextlib
import html.parser
import io
import os
import unittest

import tessel
from tessel.visualize import Dim


class TileCollector(html.parser.HTMLParser):
    """The (devices, ranges, classes) of every `<g class="tile ...">` in a page."""

    def __init__(self):
        super().__init__()
        self.tiles = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "g" and "tile" in classes:
            self.tiles.append((attrs["data-devices"], attrs["data-ranges"], tuple(classes)))


def tiles_of_page(page):
    parser = TileCollector()
    parser.feed(page)
    parser.close()
    return parser.tiles


def grid_lines(text):
    return [line for line in text.splitlines() if line.strip().startswith("|")]


class VisualizeTest(unittest.TestCase):

    def test_uneven_split_over_four(self):
        # 10 over 4: pieces of ceil(10/4) = 3; the last holds index 9 alone.
        picture = tessel.visualize(tessel.P("data"), (10,), mesh={"data": 4})
        self.assertEqual([t.ranges for t in picture.tiles],
                         [((0, 3),), ((3, 6),), ((6, 9),), ((9, 10),)])
        self.assertEqual([t.device for t in picture.tiles], [0, 1, 2, 3])
        self.assertEqual(picture.dims, [Dim(10, ("data",), 4, 3)])
        text = str(picture)
        self.assertTrue(text.startswith('[10]: #tessel.sharding<@mesh, [{"data"}]>\n'), text)
        # One grid row: devices, then ranges, left to right.
        devices_line, ranges_line = grid_lines(text)
        self.assertEqual([c.strip() for c in devices_line.split("|")[1:-1]],
                         ["0", "1", "2", "3"])
        self.assertEqual([c.strip() for c in ranges_line.split("|")[1:-1]],
                         ["[0:3]", "[3:6]", "[6:9]", "[9:10]"])
        self.assertNotIn("\x1b[", text)  # not a terminal: plain text

    def test_uneven_split_over_three(self):
        # 10 over 3: pieces of 4, the last [8:10] short.
        picture = tessel.visualize(tessel.P("x"), (10, 2), mesh=tessel.Mesh({"x": 3}))
        self.assertEqual([t.ranges for t in picture.tiles],
                         [((0, 4), (0, 2)), ((4, 8), (0, 2)), ((8, 10), (0, 2))])
        ranges = [c.strip() for line in grid_lines(str(picture)) for c in line.split("|")[1:-1]
                  if c.strip().startswith("[")]
        self.assertEqual(ranges, ["[0:4, 0:2]", "[4:8, 0:2]", "[8:10, 0:2]"])

    def test_empty_tiles_over_six(self):
        # 4 over 6: pieces of 1; devices 4 and 5 hold only padding.
        picture = tessel.visualize(tessel.P(("a", "b")), [4], mesh={"a": 3, "b": 2})
        self.assertEqual([t.ranges[0] for t in picture.tiles],
                         [(0, 1), (1, 2), (2, 3), (3, 4), (4, 4), (4, 4)])
        self.assertEqual([t.empty for t in picture.tiles], [False] * 4 + [True] * 2)
        self.assertIn("devices 4,5 hold an empty tile", str(picture))
        page_tiles = tiles_of_page(picture.html())
        self.assertEqual([(d, r) for d, r, _ in page_tiles],
                         [("0", "[0:1]"), ("1", "[1:2]"), ("2", "[2:3]"), ("3", "[3:4]"),
                          ("4", "[4:4]"), ("5", "[4:4]")])
        self.assertEqual(["empty" in c for _, _, c in page_tiles], [False] * 4 + [True] * 2)

    def test_replication_and_partial_sums(self):
        mesh = tessel.Mesh({"x": 2, "y": 3})
        whole = tessel.visualize(None, (4, 4), mesh=mesh)
        self.assertIn("replicated on all 6 devices", str(whole))
        self.assertEqual({t.ranges for t in whole.tiles}, {((0, 4), (0, 4))})
        partial = tessel.visualize('#tessel.sharding<@mesh, [{"x"}], unreduced={"y"}>', (6,),
                                   mesh=mesh)
        # Devices 0-2 (x=0) each hold a summand of [0:3], devices 3-5 of [3:6].
        self.assertEqual([(t.ranges, t.partial_sum_group) for t in partial.tiles],
                         [(((0, 3),), 0), (((0, 3),), 1), (((0, 3),), 2),
                          (((3, 6),), 0), (((3, 6),), 1), (((3, 6),), 2)])
        self.assertIn('partial sums over "y"', str(partial))
        self.assertEqual([(d, r) for d, r, _ in tiles_of_page(partial.html())],
                         [("0-2", "[0:3]"), ("3-5", "[3:6]")])
        self.assertTrue(all("partial" in c for _, _, c in tiles_of_page(partial.html())))

    def test_colour_only_when_asked(self):
        picture = tessel.visualize(tessel.P("data"), (8,), mesh={"data": 2})
        self.assertNotIn("\x1b[", str(picture))
        self.assertNotIn("\x1b[", picture.text())
        coloured = tessel.visualize(tessel.P("data"), (8,), mesh={"data": 2}, color=True)
        self.assertIn("\x1b[", str(coloured))
        self.assertIn("legend", str(coloured))

    def test_colour_follows_the_terminal_by_default(self):
        class Terminal(io.StringIO):
            def isatty(self):
                return True

        picture = tessel.visualize(tessel.P("data"), (8,), mesh={"data": 2})
        saved = {k: os.environ.pop(k, None) for k in ("NO_COLOR", "TERM")}
        try:
            with contextlib.redirect_stdout(Terminal()):
                self.assertIn("\x1b[", str(picture))
                os.environ["NO_COLOR"] = ""  # set at all, even empty: no colour
                self.assertNotIn("\x1b[", str(picture))
                del os.environ["NO_COLOR"]
                os.environ["TERM"] = "dumb"
                self.assertNotIn("\x1b[", str(picture))
        finally:
            for key, value in saved.items():
                os.environ.pop(key, None)
                if value is not None:
                    os.environ[key] = value

    def test_notebook_html_holds_every_tile(self):
        picture = tessel.visualize(tessel.P("x", "y"), (5, 7), mesh={"x": 2, "y": 3})
        inline = picture._repr_html_()
        self.assertTrue(inline.startswith('<div class="tessel-visualization"><svg'))
        self.assertNotIn("<?xml", inline)
        # 5 over 2: [0:3] [3:5]; 7 over 3: [0:3] [3:6] [6:7]; device x*3 + y.
        expected = [(str(3 * i + j), f"[{r}, {c}]")
                    for i, r in enumerate(["0:3", "3:5"])
                    for j, c in enumerate(["0:3", "3:6", "6:7"])]
        self.assertEqual([(d, r) for d, r, _ in tiles_of_page(inline)], expected)
        self.assertEqual([(d, r) for d, r, _ in tiles_of_page(picture.html())], expected)
        self.assertEqual(len(picture.json()["devices"]), 6)

    def test_bad_input(self):
        with self.assertRaisesRegex(tessel.Error, "needs the mesh"):
            tessel.visualize(tessel.P("x"), (4,))
        with self.assertRaisesRegex(tessel.Error, "rank 1"):
            tessel.visualize(tessel.P("x", None), (4,), mesh={"x": 2})
        with self.assertRaisesRegex(tessel.Error, "not in mesh"):
            tessel.visualize(tessel.P("z"), (4,), mesh={"x": 2})
        with self.assertRaisesRegex(tessel.Error, "a shape is"):
            tessel.visualize(tessel.P("x"), 4, mesh={"x": 2})


POOL = """
tessel.mesh @row = <["r"=3]>
func.func @main(%v: tensor<12xf32> {tessel.sharding = #tessel.sharding<@row, [{"r"}]>},
                %z: tensor<f32>) -> tensor<12xf32> {
  %m = hlo.reduce_window(%v) init(%z) window_dimensions = [3], padding = [[1, 1]]
      : (tensor<12xf32>, tensor<f32>) -> tensor<12xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.max %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %m : tensor<12xf32>
}
"""


class ResultVisualizeTest(unittest.TestCase):

    def test_halos_of_a_windowed_operand(self):
        result = tessel.load(POOL).partition()
        picture = result.visualize("v")
        text = str(picture)
        self.assertTrue(text.startswith('v f32[12]: #tessel.sharding<@row, [{"r"}]>'), text)
        # Windows of 3 padded by 1: piece i makes outputs [4i, 4i+4) from inputs
        # [4i-1, 4i+5), one element from each neighbour that exists.
        self.assertIn("piece 0 [0:4]: halo: 0 low, 1 high on dim 0", text)
        self.assertIn("piece 1 [4:8]: halo: 1 low, 1 high on dim 0", text)
        self.assertIn("piece 2 [8:12]: halo: 1 low, 0 high on dim 0", text)
        (halo,) = picture.halos
        self.assertIn("hlo.reduce_window", halo.user)
        self.assertEqual(halo.dims, {0: ([0, 1, 1], [1, 1, 0])})
        self.assertIn('class="halo', picture.html())
        # The scalar has no sharding: whole on the 3 devices.
        self.assertIn("replicated on all 3 devices", str(result.visualize("z")))
        self.assertEqual(result.visualize("m").tiles[2].ranges, ((8, 12),))
        self.assertTrue(str(result.visualize("result 0")).startswith("result 0 f32[12]"))

    def test_unknown_value(self):
        result = tessel.load(POOL).partition()
        with self.assertRaisesRegex(tessel.Error, "no value 'w'"):
            result.visualize("w")


if __name__ == "__main__":
    unittest.main()
