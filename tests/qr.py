"""Reading QR codes back, as a phone's camera would, with zxing-cpp: from a screenshot (the
browser tests), or from the SVG the site serves, drawn here module by module.

A helper module (neither a test file nor a conftest): import what a test needs from it.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ElementTree

import zxingcpp
from PIL import Image, ImageDraw

SVG = "{http://www.w3.org/2000/svg}"
PIXELS_PER_MODULE = 4


def decode_png(png: bytes) -> list[str]:
    """The text of every QR code in the picture."""
    return decode(Image.open(io.BytesIO(png)))


def decode_svg(svg: bytes) -> list[str]:
    """The text of the QR code in an SVG drawn as segno draws one: a white square, then dark
    modules as one stroked path of horizontal runs (`M4 4.5h7m2 0h2…`), one unit a module."""
    root = ElementTree.fromstring(svg)
    size = int(float(root.get("width")))
    picture = Image.new("L", (size * PIXELS_PER_MODULE,) * 2, color=0)  # black unless drawn
    draw = ImageDraw.Draw(picture)
    for path in root.iter(f"{SVG}path"):
        colour = 255 if path.get("fill") == "#fff" else 0 if path.get("stroke") else None
        if colour == 255:
            draw.rectangle([0, 0, picture.width, picture.height], fill=255)
        elif colour == 0:
            for x, y, length in runs(path.get("d")):
                top = int(y - 0.5) * PIXELS_PER_MODULE
                left = x * PIXELS_PER_MODULE
                draw.rectangle(
                    [left, top, left + length * PIXELS_PER_MODULE - 1, top + PIXELS_PER_MODULE - 1],
                    fill=0,
                )
    return decode(picture)


def runs(d: str) -> list[tuple[float, float, float]]:
    """(x, y, length) of each horizontal run of a path of M, m and h commands."""
    x = y = 0.0
    found = []
    for command, numbers in re.findall(r"([Mmh])([-\d. ]+)", d):
        values = [float(number) for number in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            found.append((x, y, values[0]))
            x += values[0]
    return found


def decode(picture: Image.Image) -> list[str]:
    # Not inverted: a code drawn light on dark is one many cameras fail to read.
    codes = zxingcpp.read_barcodes(picture.convert("L"), try_invert=False)
    return [found.text for found in codes]
