#!/usr/bin/env python3
"""Checks what headless Chromium made of a `tessel viz --format=html` page.

    check_viz_page.py dom DOM_FILE TILES [ID=DEVICES|RANGES ...] [--count CLASS=N ...]
                      [--halo ID/SIDE/DIM=N ...]
        DOM_FILE is the page as `chromium --dump-dom` serialises it after loading. Passes when
        it has TILES elements of class "tile", each given tile (by id) has those
        data-devices and data-ranges, N elements carry each given class, and the tile has
        a halo band (class "halo" and SIDE, low or high) of N elements along dimension DIM
        that lies wholly beyond the tile's box on that side (into its neighbour).
    check_viz_page.py png SCREENSHOT CSS_COLOUR...
        Passes when the screenshot (a PNG) is not blank: a fair share of its pixels are not
        the white background and every given colour (e.g. #afd7ff, a tile's fill) is there.

Only the standard library: the DOM through html.parser, the PNG through zlib.
"""
import html.parser
import struct
import sys
import zlib


class TileCollector(html.parser.HTMLParser):
    """Collects the attributes of every element, and counts the classes."""

    def __init__(self):
        super().__init__()
        self.tiles = {}
        self.classes = {}
        self.halos = []
        # The outline (width, height) of each tile, by id: the box its halos lie beside.
        self.boxes = {}
        self.current_tile = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name in (attributes.get("class") or "").split():
            self.classes[name] = self.classes.get(name, 0) + 1
        if "tile" in (attributes.get("class") or "").split():
            self.tiles[attributes.get("id")] = attributes
            self.current_tile = attributes.get("id")
        if tag == "rect" and attributes.get("class") == "outline" and self.current_tile:
            self.boxes[self.current_tile] = (int(attributes["width"]),
                                             int(attributes["height"]))
        if "halo" in (attributes.get("class") or "").split():
            self.halos.append(attributes)

    handle_startendtag = handle_starttag


def check_dom(path, expected_tiles, specs):
    collector = TileCollector()
    with open(path, encoding="utf-8") as dom:
        collector.feed(dom.read())
    errors = []
    if len(collector.tiles) != expected_tiles:
        errors.append("%d tiles, expected %d" % (len(collector.tiles), expected_tiles))
    mode = "tiles"
    for spec in specs:
        if spec in ("--count", "--halo"):
            mode = spec[2:]
            continue
        if mode == "halo":
            errors.extend(check_halo(collector, spec))
            continue
        if mode == "count":
            name, count = spec.split("=", 1)
            if collector.classes.get(name, 0) != int(count):
                errors.append("%d elements of class %r, expected %s" %
                              (collector.classes.get(name, 0), name, count))
            continue
        tile_id, want = spec.split("=", 1)
        devices, ranges = want.split("|", 1)
        tile = collector.tiles.get(tile_id)
        if tile is None:
            errors.append("no tile %r" % tile_id)
        elif (tile.get("data-devices"), tile.get("data-ranges")) != (devices, ranges):
            errors.append("tile %r holds %r %r, expected %r %r" % (
                tile_id, tile.get("data-devices"), tile.get("data-ranges"), devices, ranges))
    return errors


def translation(tile):
    """The (x, y) of a tile's transform="translate(x,y)"."""
    transform = tile.get("transform") or ""
    inside = transform[transform.index("(") + 1:transform.index(")")]
    x, y = inside.split(",")
    return int(x), int(y)


def check_halo(collector, spec):
    """One --halo ID/SIDE/DIM=N: the band exists with that count and lies beyond the box."""
    where, count = spec.split("=", 1)
    tile_id, side, dim = where.split("/")
    bands = [band for band in collector.halos
             if band.get("data-tile") == tile_id and side in band.get("class").split()
             and band.get("data-dim") == dim]
    if len(bands) != 1:
        return ["%d %s halo bands on dim %s of tile %r, expected 1" % (len(bands), side, dim,
                                                                     tile_id)]
    band, tile = bands[0], collector.tiles.get(tile_id)
    if band.get("data-count") != count:
        return ["the %s halo of tile %r holds %s elements, expected %s" % (
            side, tile_id, band.get("data-count"), count)]
    if tile is None or tile_id not in collector.boxes:
        return ["no tile %r with an outline for its halo" % tile_id]
    tile_x, tile_y = translation(tile)
    box_width, box_height = collector.boxes[tile_id]
    x, y = int(band["x"]), int(band["y"])
    width, height = int(band["width"]), int(band["height"])
    if width <= 0 or height <= 0:
        return ["the %s halo of tile %r is not drawn (%dx%d)" % (side, tile_id, width, height)]
    # Beside the box along one axis, level with it along the other.
    if side == "low":
        beside = (y == tile_y and x + width <= tile_x) or (x == tile_x and y + height <= tile_y)
    else:
        beside = ((y == tile_y and x >= tile_x + box_width) or
                  (x == tile_x and y >= tile_y + box_height))
    if not beside:
        return ["the %s halo of tile %r at (%d, %d) %dx%d is not %s the tile's box at "
                "(%d, %d) %dx%d" % (side, tile_id, x, y, width, height,
                                    "before" if side == "low" else "after", tile_x, tile_y,
                                    box_width, box_height)]
    return []


def paeth(left, up, up_left):
    estimate = left + up - up_left
    distances = (abs(estimate - left), abs(estimate - up), abs(estimate - up_left))
    return (left, up, up_left)[distances.index(min(distances))]


def read_png(path):
    """Returns (width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as png:
        data = png.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, color_type, _, _, interlace = header
    if depth != 8 or color_type not in (2, 6) or interlace:
        raise ValueError("unsupported PNG: depth %d, colour type %d, interlace %d" %
                         (depth, color_type, interlace))
    channels = 3 if color_type == 2 else 4
    stride = width * channels
    raw = zlib.decompress(idat)
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + paeth(left, up, up_left)) & 0xFF
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def check_png(path, colours):
    width, height, rows = read_png(path)
    counts = {}
    for row in rows:
        for pixel in row:
            counts[pixel] = counts.get(pixel, 0) + 1
    background = counts.get((255, 255, 255), 0)
    drawn = width * height - background
    print("%dx%d pixels, %d not white, %d distinct colours" % (width, height, drawn, len(counts)))
    errors = []
    # The page's tiles cover far more than 1% of the window; text alone would not.
    if drawn < width * height // 100:
        errors.append("only %d of %d pixels are not white: nothing drawn" % (drawn, width * height))
    for colour in colours:
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        if counts.get(rgb, 0) < 100:
            errors.append("colour %s covers %d pixels, expected a tile of it" %
                          (colour, counts.get(rgb, 0)))
    return errors


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("dom", "png"):
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "dom":
        errors = check_dom(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    else:
        errors = check_png(sys.argv[2], sys.argv[3:])
    for error in errors:
        print("FAIL: " + error)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
