"""How things look: the palette, and each colour's stone as a shape of its own.

Colours also differ by shape, for players who cannot tell them apart by hue (as the terminal's
glyphs do): black is a filled disc, white a ring (a light disc with a dark rim), red a triangle,
blue a square, green a diamond and yellow a star. Omiga's toddler cards carry the same shapes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ogames.draw.markup import Point, element, points, polygon
from ogames.wording import say


@dataclass(frozen=True)
class Look:
    """One colour's stone: its shape's name, fill, rim, and the colour of marks drawn on top of it."""

    shape: str
    fill: str
    stroke: str
    mark: str  # a dot or a star drawn on the stone (last move) in this colour stands out
    pale: str  # a light tint of the colour (Omiga cards of this owner, highlights)


LOOKS: dict[str, Look] = {
    "black": Look("disc", "#1f2023", "#000000", "#ffffff", "#2d2e33"),
    "white": Look("ring", "#fbfaf6", "#2b2b2b", "#1f2023", "#fbfaf6"),
    "red": Look("triangle", "#d8372c", "#7f1610", "#ffffff", "#f3c2bd"),
    "blue": Look("square", "#2761c9", "#123b84", "#ffffff", "#bfd2f4"),
    "green": Look("diamond", "#25994a", "#115a28", "#ffffff", "#bfe6c9"),
    "yellow": Look("star", "#f3c614", "#8a6d00", "#1f2023", "#faeab0"),
}
FALLBACK = Look("disc", "#8a8a8a", "#3a3a3a", "#ffffff", "#dddddd")
SHAPE_WORDS = {
    "disc": say("shape-disc", "filled disc"),
    "ring": say("shape-ring", "ring"),
    "triangle": say("shape-triangle", "triangle"),
    "square": say("shape-square", "square"),
    "diamond": say("shape-diamond", "diamond"),
    "star": say("shape-star", "star"),
}

# The board: warm wood cells with darker lines, gold star cells, a soft paper backdrop.
BACKDROP = "#f6efe0"
BACKDROP_EDGE = "#e2d4b5"
CELL = "#e9cf9c"
CELL_LINE = "#9c7a45"
STAR_CELL = "#f4c65a"
STAR_MARK = "#b07a00"
LABEL = "#7d6748"
SIDE_LABEL = "#5c4a31"
HIGHLIGHT = "#e8590c"  # the winning group's outline (orange: visible on wood, stones and felt)
HIGHLIGHT_FILL = "#ffd8a8"
CAPTURE = "#d6336c"

# The Omiga table: cards on green felt.
FELT = "#2f6a4f"
FELT_EDGE = "#24533e"
FELT_CELL = "#3a7a5c"
FELT_LABEL = "#cfe3d6"
HUES = {"A": "#f0643e", "B": "#2f86de"}  # semicircles: A warm and solid, B cool and a ring
HUE_WORDS = {"A": "hue A (warm, solid)", "B": "hue B (cool, ring)"}


def look(colour: str) -> Look:
    """The look of a colour's stone (a grey disc for a colour this module does not know)."""
    return LOOKS.get(colour, FALLBACK)


def star_points(x: float, y: float, outer: float, inner: float, tips: int = 5) -> list[Point]:
    """The corners of a star with its first tip straight up."""
    pts = []
    for k in range(2 * tips):
        r = outer if k % 2 == 0 else inner
        a = math.radians(-90 + 180 * k / tips)
        pts.append((x + r * math.cos(a), y + r * math.sin(a)))
    return pts


def shape(name: str, x: float, y: float, r: float, **values: object) -> str:
    """A shape of about radius r centred on (x, y): disc, ring, triangle, square, diamond or star."""
    if name in ("disc", "ring"):
        return element("circle", cx=float(x), cy=float(y), r=float(r), **values)
    if name == "triangle":
        # An upward triangle whose area is close to the disc's, its centroid a little low so that it looks centred.
        R = 1.3 * r
        cy = y + 0.12 * r
        pts = [(x + R * math.cos(math.radians(a)), cy + R * math.sin(math.radians(a))) for a in (-90, 30, 150)]
        return polygon(pts, **values)
    if name == "square":
        side = 1.68 * r
        return element("rect", x=x - side / 2, y=y - side / 2, width=side, height=side, rx=0.18 * r, **values)
    if name == "diamond":
        R = 1.22 * r
        return polygon([(x, y - R), (x + R, y), (x, y + R), (x - R, y)], **values)
    if name == "star":
        return polygon(star_points(x, y, 1.28 * r, 0.58 * r), **values)
    raise ValueError(f"unknown shape {name!r}")


def stone(colour: str, x: float, y: float, r: float, **values: object) -> str:
    """A stone of a colour as its own shape, with its rim."""
    lk = look(colour)
    width = 0.16 * r if lk.shape == "ring" else 0.07 * r
    return shape(
        lk.shape,
        x,
        y,
        r,
        fill=lk.fill,
        stroke=lk.stroke,
        stroke_width=width,
        stroke_linejoin="round",
        **values,
    )


def dot(x: float, y: float, r: float, colour: str, **values: object) -> str:
    """A small filled circle."""
    return element("circle", cx=float(x), cy=float(y), r=float(r), fill=colour, **values)


def star_mark(x: float, y: float, r: float, **values: object) -> str:
    """The mark of an Omny star cell."""
    return element("polygon", points=points(star_points(x, y, r, 0.45 * r)), **values)
