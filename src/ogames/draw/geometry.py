"""Where cells go on a drawing: positions in SVG units (y grows downwards) and cell outlines.

Hex patches are drawn as pointy-top hexagons around their axial positions. Polar boards are
drawn as the dual of their triangulation: each cell's outline runs through the centroids of the
triangles around it, and a cell on the rim reaches out past the rim by half a cell, so that the
cells tile the board without gaps (for 6 sides this gives the hexagon board's own cells).
Everything is computed once per board (boards are immutable).
"""

from __future__ import annotations

import math
from functools import lru_cache

from ogames.boards.graph import Board
from ogames.draw.markup import Point

UNIT = 40.0  # SVG units between the centres of two neighbouring hex cells
SQRT3 = math.sqrt(3)


def position(board: Board, cell: int) -> Point:
    """The drawing position of a cell in SVG units (the board's coordinates, y flipped)."""
    x, y = board.coords[cell]
    return (x * UNIT, -y * UNIT)


def hexagon_points(x: float, y: float, size: float = UNIT) -> list[Point]:
    """A pointy-top hexagon centred on (x, y) whose opposite flat sides are `size` apart."""
    R = size / SQRT3
    return [(x + R * math.cos(math.radians(a)), y + R * math.sin(math.radians(a))) for a in (-90, -30, 30, 90, 150, 210)]


@lru_cache(maxsize=64)
def hex_cells(board: Board) -> tuple[tuple[Point, ...], ...]:
    """Every cell's hexagon."""
    return tuple(tuple(hexagon_points(*position(board, c))) for c in range(len(board)))


def _angle(origin: Point, p: Point) -> float:
    return math.atan2(p[1] - origin[1], p[0] - origin[0])


@lru_cache(maxsize=64)
def spacing(board: Board) -> float:
    """The typical (median) distance between neighbouring cells, in SVG units."""
    pos = [position(board, c) for c in range(len(board))]
    lengths = sorted(math.dist(pos[a], pos[b]) for a in range(len(board)) for b in board.neighbours[a] if a < b)
    return lengths[len(lengths) // 2] if lengths else UNIT


@lru_cache(maxsize=64)
def dual_cells(board: Board, reach: float = 0.5) -> tuple[tuple[Point, ...], ...]:
    """Every cell's outline in the barycentric dual of the board's triangulation.

    Around a cell, consecutive neighbours (by angle) that are adjacent, less than half a turn
    apart, make a triangle: its centroid is a corner of the outline, and between two triangles the
    outline passes through the middle of their shared edge (so the outlines tile the board even
    where its triangles are far from equilateral). Where consecutive neighbours make no triangle
    (the cell is on the rim), the outline goes out from the two rim edges' middles, `reach` times
    the length of those edges beyond the rim, round the cell's own mitred corner.
    """
    pos = [position(board, c) for c in range(len(board))]
    adjacent = [set(n) for n in board.neighbours]
    outlines = []
    for cell, p in enumerate(pos):
        around = sorted(board.neighbours[cell], key=lambda o: _angle(p, pos[o]))
        if not around:  # a board of one cell
            outlines.append(tuple(hexagon_points(*p)))
            continue
        outline: list[Point] = []
        for k, a in enumerate(around):
            b = around[(k + 1) % len(around)]
            ma = ((p[0] + pos[a][0]) / 2, (p[1] + pos[a][1]) / 2)
            mb = ((p[0] + pos[b][0]) / 2, (p[1] + pos[b][1]) / 2)
            turn = (_angle(p, pos[b]) - _angle(p, pos[a])) % math.tau
            if len(around) > 1 and b in adjacent[a] and 0 < turn < math.pi:
                outline += [ma, ((p[0] + pos[a][0] + pos[b][0]) / 3, (p[1] + pos[a][1] + pos[b][1]) / 3)]
                continue
            # The rim lies between a and b, going the long way round from a to b.
            na, nb = _rim_normal(p, pos[a], b_side=True), _rim_normal(p, pos[b], b_side=False)
            la, lb = math.dist(p, pos[a]) * reach, math.dist(p, pos[b]) * reach
            h = (la + lb) / 2
            dot = na[0] * nb[0] + na[1] * nb[1]
            scale = h / max(1 + dot, 0.35)  # the mitre, limited at very sharp corners
            corner = (p[0] + (na[0] + nb[0]) * scale, p[1] + (na[1] + nb[1]) * scale)
            outline += [ma, (ma[0] + na[0] * la, ma[1] + na[1] * la), corner, (mb[0] + nb[0] * lb, mb[1] + nb[1] * lb)]
        outlines.append(_without_repeats(outline))
    return tuple(outlines)


def _without_repeats(outline: list[Point]) -> tuple[Point, ...]:
    """The outline without consecutive equal points (a rim edge's middle may come twice)."""
    out: list[Point] = []
    for q in outline:
        if not out or math.dist(out[-1], q) > 1e-9:
            out.append(q)
    while len(out) > 1 and math.dist(out[0], out[-1]) <= 1e-9:
        out.pop()
    return tuple(out)


@lru_cache(maxsize=64)
def room(board: Board, dual: bool) -> tuple[float, ...]:
    """Per cell: the distance from its position to the nearest side of its outline (how big a
    stone fits in it), for the hexagons or (`dual`) the dual outlines."""
    shapes = dual_cells(board) if dual else hex_cells(board)
    out = []
    for cell, shape in enumerate(shapes):
        p = position(board, cell)
        out.append(min(_segment_distance(p, shape[k], shape[(k + 1) % len(shape)]) for k in range(len(shape))))
    return tuple(out)


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _rim_normal(p: Point, q: Point, b_side: bool) -> Point:
    """The unit normal of the rim edge p–q pointing off the board.

    Neighbours are sorted by increasing angle (clockwise on screen, since y grows downwards): the
    rim lies after the edge to `a` and before the edge to `b`, so off the board is the side of
    increasing angle from p–a and of decreasing angle from p–b.
    """
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    # Rotating (dx, dy) by +90° (towards increasing angle on screen) gives (−dy, dx).
    nx, ny = (-dy / length, dx / length) if b_side else (dy / length, -dx / length)
    return (nx, ny)


def centroid(pts: tuple[Point, ...] | list[Point]) -> Point:
    """The mean of some points."""
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
