"""The polar board of m equal sides with n cells per side (RULES.md §2, Odd-Y).

A centre cell `o` and rings r = 1 … n−1; ring r has m·r cells at positions p = s·r + i for
sector s ∈ [0, m) and i ∈ [0, r). Cell (r, p) is labelled sector letter + r + "-" + i, e.g.
`c4-2`. For m = 6 the board is the hexagon of side n.
"""

from __future__ import annotations

import math
import re

from ogames.boards.graph import POLAR, Board, build_board

_LABEL = re.compile(r"^([a-z])0*([1-9][0-9]*)-0*([0-9]+)$")


def polar(m: int, n: int) -> Board:
    """The polar board with m sides of n cells; sides are cell sets side0 … side{m−1}."""
    if not isinstance(m, int) or isinstance(m, bool) or m < 3 or m > 26:
        raise ValueError(f"the polar board needs 3 to 26 sides, not {m!r}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 2:
        raise ValueError(f"the polar board needs at least 2 cells per side, not {n!r}")

    rings: list[tuple[int, int]] = [(0, 0)]
    rings += [(r, p) for r in range(1, n) for p in range(m * r)]
    index = {cell: k for k, cell in enumerate(rings)}

    # Each cell names its ring neighbours and its inner neighbours; adjacency is symmetric.
    adjacent: list[set[int]] = [set() for _ in rings]

    def join(a: tuple[int, int], b: tuple[int, int]) -> None:
        adjacent[index[a]].add(index[b])
        adjacent[index[b]].add(index[a])

    for r, p in rings[1:]:
        join((r, p), (r, (p + 1) % (m * r)))
        s, i = divmod(p, r)
        if r == 1:
            join((r, p), (0, 0))
            continue
        join((r, p), (r - 1, (s * (r - 1) + i) % (m * (r - 1))))
        if i > 0:
            join((r, p), (r - 1, (s * (r - 1) + i - 1) % (m * (r - 1))))

    corners = [(math.cos(math.radians(90 + 360 * s / m)), math.sin(math.radians(90 + 360 * s / m))) for s in range(m)]

    def point(r: int, p: int) -> tuple[float, float]:
        if r == 0:
            return (0.0, 0.0)
        s, i = divmod(p, r)
        (x0, y0), (x1, y1) = corners[s], corners[(s + 1) % m]
        t = i / r
        return (r * (x0 + (x1 - x0) * t), r * (y0 + (y1 - y0) * t))

    def label(r: int, p: int) -> str:
        if r == 0:
            return "o"
        s, i = divmod(p, r)
        return f"{chr(ord('a') + s)}{r}-{i}"

    outer = n - 1
    sides = {
        f"side{s}": [index[(outer, (s * outer + i) % (m * outer))] for i in range(n)] for s in range(m)
    }
    corner_cells = [index[(outer, s * outer)] for s in range(m)]
    perimeter = [index[(outer, p)] for p in range(m * outer)]
    cell_sets = {"all": range(len(rings)), "perimeter": perimeter, "corners": corner_cells, "centre": [0], **sides}
    return build_board(
        f"polar {m}-sided",
        [label(r, p) for r, p in rings],
        lambda k: adjacent[k],
        [point(r, p) for r, p in rings],
        cell_sets,
        normalise=_canonical,
        geometry=POLAR,
    )


def polar_position(label: str) -> tuple[int, int]:
    """(ring, position) of a polar label; ValueError if it is not of the polar form."""
    key = label.strip().lower()
    if key == "o":
        return (0, 0)
    match = _LABEL.match(key)
    if not match:
        raise ValueError(f"{label!r} is not a polar cell label (like o or c4-2)")
    s = ord(match.group(1)) - ord("a")
    r, i = int(match.group(2)), int(match.group(3))
    return r, s * r + i


def _canonical(label: str) -> str:
    key = label.strip().lower()
    match = _LABEL.match(key)
    if not match:
        return key
    letter, r, i = match.group(1), int(match.group(2)), int(match.group(3))
    if i >= r:
        raise ValueError(f"{label!r}: position {i} is past the end of its sector")
    return f"{letter}{r}-{i}"
