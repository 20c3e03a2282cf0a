"""The Onyx point lattice (RULES.md §4): 12 × 12 points, squares with midpoints, split triangles.

Points `(col, row)`, col 0 = West, row 0 = South, are labelled `a1` … `l12`. Cell `(c, r)` (named
by its South-West corner) is a square with a midpoint when c + r is odd; the midpoint is labelled
with that corner's label + `*` (`b1*`). Every other cell is split by one diagonal: (c, r)–(c+1, r+1)
on even rows, (c, r+1)–(c+1, r) on odd rows. Opposite corners of a square are not adjacent: a
square is crossed only through its midpoint.

Cells 0 … 143 are the lattice points (row by row from the South), 144 … 203 the midpoints (in the
order of their squares, row by row). Besides the Board, `onyx_lattice()` gives the squares as a
lookup from each corner to the squares it belongs to, both as tuples and as a flat array for kernels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import numpy as np

from ogames.boards.graph import LATTICE, Board, build_board

SIZE = 12  # points per side
CELLS = SIZE - 1  # cells per side

_LABEL = re.compile(r"^([a-z])0*([1-9][0-9]*)(\*?)$")


@dataclass(frozen=True)
class SquareCorner:
    """One square seen from one of its corners: the square's midpoint, the opposite corner and the
    two other corners (the ones a capture from this corner would remove)."""

    midpoint: int
    opposite: int
    others: tuple[int, int]


@dataclass(frozen=True, eq=False)
class OnyxLattice:
    """The Onyx board and its squares."""

    board: Board
    # Per midpoint cell: its four corners in cyclic order (SW, SE, NE, NW); opposite corners are two apart.
    square_corners: dict[int, tuple[int, int, int, int]]
    # Per cell: the squares it is a corner of (none for midpoints and some edge points, at most two).
    corner_of: tuple[tuple[SquareCorner, ...], ...]
    # The same as `corner_of` for kernels: (n, 2, 4) int32 rows [midpoint, opposite, other, other], −1 padded.
    square_table: np.ndarray
    # Per cell: the four corners of its square if it is a midpoint, else −1s: (n, 4) int32.
    midpoint_corners: np.ndarray
    # Per cell: bit 0 West, bit 1 East, bit 2 South, bit 3 North (int8).
    side_bits: np.ndarray


def point(col: int, row: int) -> int:
    """The cell number of lattice point (col, row)."""
    return row * SIZE + col


def point_label(col: int, row: int) -> str:
    """The label of lattice point (col, row): column letter, then row number."""
    return f"{chr(ord('a') + col)}{row + 1}"


def is_square(col: int, row: int) -> bool:
    """Whether cell (col, row), named by its South-West corner, is a square with a midpoint."""
    return (col + row) % 2 == 1


def _canonical(label: str) -> str:
    """Canonical form of a label: "B01*" → "b1*" (labels are read case-insensitively, leading zeros allowed)."""
    match = _LABEL.match(label.strip().lower())
    if not match:
        raise ValueError(f"{label!r} is not an Onyx point label")
    return f"{match.group(1)}{int(match.group(2))}{match.group(3)}"


@cache
def onyx_lattice() -> OnyxLattice:
    """The Onyx board with its squares (built once; boards are immutable)."""
    labels = [point_label(c, r) for r in range(SIZE) for c in range(SIZE)]
    coords: list[tuple[float, float]] = [(c, r) for r in range(SIZE) for c in range(SIZE)]
    adjacent: list[set[int]] = [set() for _ in range(SIZE * SIZE)]

    def link(a: int, b: int) -> None:
        adjacent[a].add(b)
        adjacent[b].add(a)

    for r in range(SIZE):
        for c in range(SIZE):
            if c + 1 < SIZE:
                link(point(c, r), point(c + 1, r))
            if r + 1 < SIZE:
                link(point(c, r), point(c, r + 1))

    square_corners: dict[int, tuple[int, int, int, int]] = {}
    for r in range(CELLS):
        for c in range(CELLS):
            sw, se, ne, nw = point(c, r), point(c + 1, r), point(c + 1, r + 1), point(c, r + 1)
            if is_square(c, r):
                mid = len(labels)
                labels.append(point_label(c, r) + "*")
                coords.append((c + 0.5, r + 0.5))
                adjacent.append(set())
                for corner in (sw, se, ne, nw):
                    link(mid, corner)
                square_corners[mid] = (sw, se, ne, nw)
            elif r % 2 == 0:
                link(sw, ne)
            else:
                link(nw, se)

    n = len(labels)
    corner_of: list[list[SquareCorner]] = [[] for _ in range(n)]
    for mid, corners in square_corners.items():
        for k, corner in enumerate(corners):
            others = (corners[(k + 1) % 4], corners[(k + 3) % 4])
            corner_of[corner].append(SquareCorner(mid, corners[(k + 2) % 4], others))

    square_table = np.full((n, 2, 4), -1, dtype=np.int32)
    for cell, squares in enumerate(corner_of):
        for k, sq in enumerate(squares):
            square_table[cell, k] = (sq.midpoint, sq.opposite, *sq.others)
    midpoint_corners = np.full((n, 4), -1, dtype=np.int32)
    for mid, corners in square_corners.items():
        midpoint_corners[mid] = corners

    west = [point(0, r) for r in range(SIZE)]
    east = [point(SIZE - 1, r) for r in range(SIZE)]
    south = [point(c, 0) for c in range(SIZE)]
    north = [point(c, SIZE - 1) for c in range(SIZE)]
    side_bits = np.zeros(n, dtype=np.int8)
    for bit, cells in enumerate((west, east, south, north)):
        side_bits[cells] |= 1 << bit
    for array in (square_table, midpoint_corners, side_bits):
        array.setflags(write=False)

    points = range(SIZE * SIZE)
    board = build_board(
        "onyx",
        labels,
        lambda i: adjacent[i],
        coords,
        {
            "all": range(n),
            "points": points,
            "midpoints": square_corners.keys(),
            "west": west,
            "east": east,
            "south": south,
            "north": north,
            "perimeter": set(west) | set(east) | set(south) | set(north),
            "corners": [point(0, 0), point(SIZE - 1, 0), point(0, SIZE - 1), point(SIZE - 1, SIZE - 1)],
        },
        normalise=_canonical,
        geometry=LATTICE,
    )
    return OnyxLattice(
        board=board,
        square_corners=square_corners,
        corner_of=tuple(tuple(s) for s in corner_of),
        square_table=square_table,
        midpoint_corners=midpoint_corners,
        side_bits=side_bits,
    )


def onyx_board() -> Board:
    """The Onyx board (204 points: 144 lattice points and 60 midpoints)."""
    return onyx_lattice().board
