"""Hex-cell boards in axial coordinates (RULES.md §0).

A cell is `(x, y)`; its six neighbours are `(x±1, y)`, `(x, y±1)`, `(x+1, y−1)`, `(x−1, y+1)`.
Its label is the column letter(s) of x followed by the row number y + 1: `(0, 0)` is `a1`.
Every named shape (triangle, hexagon, irregular hexagon, rhombus) is a convex patch
`x ∈ [0, X], y ∈ [0, Y], x + y ∈ [S0, S1]`; an explicit cell list gives any other shape.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from ogames.boards.graph import MAX_LABEL, Board, build_board
from ogames.errors import UnknownLabel, shown
from ogames.wording import say

Axial = tuple[int, int]

HEX_DIRECTIONS: tuple[Axial, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

_LABEL = re.compile(r"^([a-z]+)0*([1-9][0-9]*)$")


def column_letters(x: int) -> str:
    """Column letters for x ≥ 0: a … z, then aa, ab, … (bijective base 26)."""
    if x < 0:
        raise ValueError(f"column {x} is negative")
    letters = ""
    x += 1
    while x:
        x, rem = divmod(x - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def column_number(letters: str) -> int:
    """Inverse of column_letters."""
    x = 0
    for ch in letters:
        x = x * 26 + (ord(ch) - ord("a") + 1)
    return x - 1


def format_label(x: int, y: int) -> str:
    """The canonical label of an axial cell."""
    if y < 0:
        raise ValueError(f"row {y} is negative")
    return f"{column_letters(x)}{y + 1}"


def parse_label(label: str) -> Axial:
    """The axial coordinates of a hex label (case-insensitive, leading zeros allowed)."""
    if not isinstance(label, str):
        raise UnknownLabel(say("label-not-text", "a cell label must be text, not {kind}", kind=type(label).__name__))
    match = _LABEL.match(label.strip().lower()) if len(label) <= MAX_LABEL else None
    if not match:
        raise UnknownLabel(say("not-a-hex-label",
                               "{label} is not a cell name: a cell is named by its column letters and row number, like c3",
                               label=shown(label)))
    return column_number(match.group(1)), int(match.group(2)) - 1


def _canonical(label: str) -> str:
    try:
        return format_label(*parse_label(label))
    except UnknownLabel as exc:
        raise ValueError(str(exc)) from None


def hex_board(cells: Iterable[Axial], kind: str = "hex", extra_sets: dict[str, Iterable[int]] | None = None) -> Board:
    """A hex board from any set of axial cells (sorted by row, then column)."""
    ordered = sorted(set(cells), key=lambda c: (c[1], c[0]))
    if not ordered:
        raise ValueError("a board needs at least one cell")
    if any(x < 0 or y < 0 for x, y in ordered):
        raise ValueError("axial coordinates must be ≥ 0 so that every cell has a label")
    index = {c: i for i, c in enumerate(ordered)}

    def adjacency(i: int) -> list[int]:
        x, y = ordered[i]
        return [index[(x + dx, y + dy)] for dx, dy in HEX_DIRECTIONS if (x + dx, y + dy) in index]

    labels = [format_label(x, y) for x, y in ordered]
    coords = [hex_point(x, y) for x, y in ordered]
    degrees = [len(adjacency(i)) for i in range(len(ordered))]
    perimeter = [i for i, d in enumerate(degrees) if d < 6]
    sets: dict[str, Iterable[int]] = {
        "all": range(len(ordered)),
        "perimeter": perimeter,
        "corners": [i for i, d in enumerate(degrees) if d <= 3],
        "centre": _centre_cells(coords),
    }
    sets.update(extra_sets or {})
    return build_board(kind, labels, adjacency, coords, sets, normalise=_canonical)


def hex_point(x: float, y: float) -> tuple[float, float]:
    """Drawing position of an axial cell: unit spacing, row y drawn above row y − 1."""
    return (x + y / 2, y * math.sqrt(3) / 2)


def _centre_cells(coords: Sequence[tuple[float, float]]) -> list[int]:
    cx = sum(p[0] for p in coords) / len(coords)
    cy = sum(p[1] for p in coords) / len(coords)
    return [i for i, (px, py) in enumerate(coords) if math.isclose(px, cx, abs_tol=1e-9) and math.isclose(py, cy, abs_tol=1e-9)]


def convex_patch(X: int, Y: int, S0: int, S1: int, kind: str = "patch") -> Board:
    """The patch x ∈ [0, X], y ∈ [0, Y], x + y ∈ [S0, S1], with its sides named side0 … (counter-clockwise from y = 0)."""
    if min(X, Y) < 0 or S0 > S1:
        raise ValueError(f"empty patch: X={X}, Y={Y}, S0={S0}, S1={S1}")
    cells = [(x, y) for y in range(Y + 1) for x in range(X + 1) if S0 <= x + y <= S1]
    if not cells:
        raise ValueError(f"empty patch: X={X}, Y={Y}, S0={S0}, S1={S1}")
    # The six boundary lines in counter-clockwise order; a line that meets the patch in one
    # cell only is a corner, not a side.
    lines = [
        lambda x, y: y == 0,
        lambda x, y: x == X,
        lambda x, y: x + y == S1,
        lambda x, y: y == Y,
        lambda x, y: x == 0,
        lambda x, y: x + y == S0,
    ]
    ordered = sorted(cells, key=lambda c: (c[1], c[0]))
    sides = []
    for on_line in lines:
        side = [i for i, (x, y) in enumerate(ordered) if on_line(x, y)]
        if len(side) >= 2:
            sides.append(side)
    return hex_board(cells, kind, {f"side{k}": side for k, side in enumerate(sides)})


def triangle(n: int) -> Board:
    """Triangle of side n (OpenSpiel's `y` board): sides y = 0, x + y = n − 1, x = 0."""
    _need_size(n, 1)
    return convex_patch(n - 1, n - 1, 0, n - 1, kind="triangle")


def hexagon(n: int) -> Board:
    """Regular hexagon of side n, centre (n − 1, n − 1)."""
    _need_size(n, 1)
    return convex_patch(2 * n - 2, 2 * n - 2, n - 1, 3 * n - 3, kind="hexagon")


def irregular_hexagon(a: int, b: int) -> Board:
    """Hexagon whose sides alternate a and b cells (side0 = y = 0 has a cells)."""
    _need_size(a, 2)
    _need_size(b, 2)
    return convex_patch(a + b - 2, a + b - 2, b - 1, a + 2 * b - 3, kind="irregular hexagon")


def rhombus(a: int, b: int | None = None) -> Board:
    """Rhombus (parallelogram) of a columns by b rows (b = a if omitted)."""
    b = a if b is None else b
    _need_size(a, 1)
    _need_size(b, 1)
    return convex_patch(a - 1, b - 1, 0, a + b - 2, kind="rhombus")


def explicit_cells(labels: Iterable[str]) -> Board:
    """A board of exactly the listed cells (labels as on any hex board)."""
    cells = [parse_label(label) for label in labels]
    if len(set(cells)) != len(cells):
        raise ValueError("the cell list names a cell twice")
    return hex_board(cells, kind="custom")


def _need_size(n: int, least: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < least:
        raise ValueError(f"a side length must be a whole number ≥ {least}, not {n!r}")
