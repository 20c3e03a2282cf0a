# mypy: disable-error-code="return-value,assignment,arg-type"
# (numba kernels: numpy int64 scalars and Python ints are one type to numba; mypy tells them apart)
"""Virtual wins: a colour that will connect whatever the opponent does, found without search, for
the connection solver's games whose goal is a set of sides (Odd-Y, and Omny `y`, which is Y).

A *virtual connection* of two things (two groups of a colour, or a group and a side) is a pair of
empty cells that would each join them: if the opponent takes one, the colour takes the other. Two
groups with two common empty neighbours are joined so (the bridge), and a group with two empty
neighbours on a side reaches that side so (the edge template). Links whose cell pairs are all
disjoint hold together: an opponent stone breaks at most one pair, and the answer in the same pair
mends it. So a colour whose groups, joined by such links, touch a winning set of sides has a
*virtual win*; the cells of the pairs are its *carrier*.

Why the solver may use it, in these games (each checked in `tests/test_virtual_connections.py`):
- Touched sides only grow as a colour adds stones, and on a full board exactly one colour wins
  (the Odd-Y theorem; Y's own), so the two colours can never both hold a winning group.
- Hence a colour with a virtual win wins, whoever moves: while it answers every intrusion in the
  same pair, the opponent cannot win first (its winning group, with the colour's pairs filled in,
  would give a board where both win), and once every pair holds a stone of the colour, it has won.
- So the player to move loses if the opponent has a virtual win, and wins with any stone if it has
  one itself (its own stone cannot break its own links); the solver plays one of its pairs' cells,
  which makes a link solid and so brings the end nearer.

The search for links is greedy (each link takes the first two free cells found, restarting after
each), so it may miss a virtual win that another choice of cells would show; it never claims one
that does not hold, which is all the solver needs. `virtual_win` (compiled) and
`virtual_win_reference` (plain Python, the same greedy order) must agree on every board.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from ogames.kernels.oddy import find_root, wins, wins_reference

# `vc_scratch_for`'s buffers: (parent, sides, carrier, pair_cell, pair_stamp, side_cell, side_stamp, roots, stamp).
VcScratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
SIDE_BITS = 64


@njit(cache=True)
def vc_scratch_for(n: int, degree: int) -> VcScratch:
    """`virtual_win`'s work buffers for n cells of at most `degree` neighbours."""
    return (
        np.empty(n, np.int64),  # union-find parent of each stone of the colour (−1: not one)
        np.zeros(n, np.int64),  # sides touched by each root's group (solid and virtual)
        np.full(n, -1, np.int64),  # for a cell in a link's pair, a root of the group it links (else −1)
        np.full((n, n), -1, np.int64),  # a free cell next to both roots, this pass
        np.zeros((n, n), np.int64),  # the pass that wrote it
        np.full((n, SIDE_BITS), -1, np.int64),  # a free cell next to a root on a side, this pass
        np.zeros((n, SIDE_BITS), np.int64),  # the pass that wrote it
        np.empty(degree, np.int64),  # the distinct roots next to a cell
        np.ones(1, np.int64),  # the next pass number (never reused, so the tables need no clearing)
    )


@njit(cache=True)
def _join(parent: np.ndarray, sides: np.ndarray, a: int, b: int) -> int:
    """Join the groups of roots a and b; the joined group's root."""
    if a == b:
        return a
    low, high = (a, b) if a < b else (b, a)
    parent[high] = low
    sides[low] |= sides[high]
    return low


@njit(cache=True)
def virtual_win(
    board: np.ndarray, colour: int, table: np.ndarray, cell_sides: np.ndarray, runs: np.ndarray, vc: VcScratch
) -> int:
    """The root of a group of `colour` with a virtual win on `board` (see the module's docstring), or
    −1 if none was found. The cells of the links found are marked in `vc[2]` with a root of the group
    each links (`carrier_cell` picks one of the winning group's)."""
    parent, sides, carrier, pair_cell, pair_stamp, side_cell, side_stamp, roots, stamp = vc
    n = board.shape[0]
    for c in range(n):
        carrier[c] = -1
        if board[c] == colour:
            parent[c] = c
            sides[c] = cell_sides[c]
        else:
            parent[c] = -1
    for c in range(n):
        if board[c] != colour:
            continue
        for j in range(table.shape[1]):
            o = table[c, j]
            if o < 0:
                break
            if board[o] == colour:
                r = _join(parent, sides, find_root(parent, c), find_root(parent, o))
                if wins(sides[r], runs):
                    return r
    for c in range(n):
        if parent[c] == c and wins(sides[c], runs):
            return c
    while True:
        s = stamp[0]
        stamp[0] = s + 1
        linked = -1  # the root a link was added to in this pass
        for e in range(n):
            if board[e] != 0 or carrier[e] >= 0:
                continue
            k = 0
            for j in range(table.shape[1]):
                o = table[e, j]
                if o < 0:
                    break
                if board[o] == colour:
                    r = find_root(parent, o)
                    seen = False
                    for i in range(k):
                        if roots[i] == r:
                            seen = True
                    if not seen:
                        roots[k] = r
                        k += 1
            for i in range(k):  # a bridge: a second free cell next to the same two groups
                for j in range(i + 1, k):
                    a, b = (roots[i], roots[j]) if roots[i] < roots[j] else (roots[j], roots[i])
                    if pair_stamp[a, b] != s:
                        pair_stamp[a, b] = s
                        pair_cell[a, b] = e
                    elif linked < 0:
                        carrier[e] = a
                        carrier[pair_cell[a, b]] = a
                        linked = _join(parent, sides, a, b)
            if linked < 0:  # an edge template: a second free cell next to the same group on a side
                for i in range(k):
                    r = roots[i]
                    untouched = cell_sides[e] & ~sides[r]  # the sides this cell could add, in order
                    side = -1
                    while untouched != 0 and linked < 0:
                        side += 1
                        bit = np.int64(1) << side
                        if untouched & bit == 0:
                            continue
                        untouched ^= bit
                        if side_stamp[r, side] != s:
                            side_stamp[r, side] = s
                            side_cell[r, side] = e
                        else:
                            carrier[e] = r
                            carrier[side_cell[r, side]] = r
                            sides[r] |= bit
                            linked = r
            if linked >= 0:
                break
        if linked < 0:
            return -1
        if wins(sides[linked], runs):
            return linked


@njit(cache=True)
def carrier_cell(order: np.ndarray, vc: VcScratch, winner: int) -> int:
    """The first cell in `order` of the pairs that link the group of root `winner` (found by
    `virtual_win`), or −1 if it has none. Filling one is the way to finish a virtual win: the link
    is solid and the rest stay as they were, so the winner needs one stone per link."""
    parent, carrier = vc[0], vc[2]
    for i in range(order.shape[0]):
        c = order[i]
        if carrier[c] >= 0 and find_root(parent, carrier[c]) == winner:
            return int(c)
    return -1


@njit(cache=True)
def _near(board: np.ndarray, table: np.ndarray, x: int, colour: int) -> bool:
    """Whether a stone of `colour` lies within two steps of cell x."""
    for j in range(table.shape[1]):
        o = table[x, j]
        if o < 0:
            break
        if board[o] == colour:
            return True
        for i in range(table.shape[1]):
            p = table[o, i]
            if p < 0:
                break
            if board[p] == colour:
                return True
    return False


@njit(cache=True)
def must_play(
    board: np.ndarray, colour: int, table: np.ndarray, cell_sides: np.ndarray, runs: np.ndarray, vc: VcScratch,
    children: np.ndarray, count: int,
) -> int:
    """Keep, of the first `count` moves in `children` for `colour` to move, those that may stop the
    opponent; return how many are kept (0: every move loses). Where an opponent stone on a cell x
    would give it a virtual win, a stone of `colour` outside x and that win's carrier changes none of
    it, so the opponent answers on x and wins: the moves worth trying lie in x or its carrier, for
    every such x (the must-play region of Hex solvers).

    Any subset of the x is sound: those tried are within two steps of an opponent stone (a stone
    farther off joins none of its groups, nor links to them by a bridge), each by a search of its
    own (going on from the links found without x instead is cheaper but finds fewer wins). The
    region taken is x with every pair the search marked, a superset of the win's own carrier."""
    other = 3 - colour
    carrier = vc[2]
    for x in range(board.shape[0]):
        if board[x] != 0 or count == 0 or not _near(board, table, x, other):
            continue
        board[x] = other
        found = virtual_win(board, other, table, cell_sides, runs, vc) >= 0
        board[x] = 0
        if not found:
            continue
        kept = 0
        for i in range(count):
            c = children[i]
            if c == x or carrier[c] >= 0:
                children[kept] = c
                kept += 1
        count = kept
    return count


def must_play_reference(
    board: Sequence[int], colour: int, neighbours: Sequence[Sequence[int]], cell_sides: Sequence[int], m: int
) -> set[int]:
    """Plain `must_play`: the cells where a stone of `colour` may stop the opponent, by
    `virtual_win_reference` on every empty cell within two steps of an opponent stone."""
    other = 3 - colour
    region = {c for c, v in enumerate(board) if v == 0}
    near = {c for c, v in enumerate(board) if v == other}
    for _ in range(2):
        near |= {o for c in near for o in neighbours[c]}
    for x in sorted(region & near):
        found, cells = virtual_win_reference([other if c == x else v for c, v in enumerate(board)], other, neighbours,
                                             cell_sides, m)  # fmt: skip
        if found:
            region &= cells | {x}
    return region


def virtual_win_reference(
    board: Sequence[int], colour: int, neighbours: Sequence[Sequence[int]], cell_sides: Sequence[int], m: int
) -> tuple[bool, set[int]]:
    """Reference: the same greedy search in plain Python; (found, the carrier's cells)."""
    found, links = virtual_links_reference(board, colour, neighbours, cell_sides, m)
    return found, {cell for link in links for cell in link}


def virtual_links_reference(
    board: Sequence[int], colour: int, neighbours: Sequence[Sequence[int]], cell_sides: Sequence[int], m: int
) -> tuple[bool, list[tuple[int, int]]]:
    """The greedy search of `virtual_win`, in plain Python: (found, the links' pairs of cells, in the
    order found). With a virtual win, a colour that answers every intrusion into a pair in that pair
    wins, whatever happens elsewhere (see the module's docstring)."""
    n = len(board)
    group = {c: c for c in range(n) if board[c] == colour}
    touched = {c: cell_sides[c] for c in group}

    def root(c: int) -> int:
        while group[c] != c:
            c = group[c]
        return c

    def join(a: int, b: int) -> int:
        low, high = min(a, b), max(a, b)
        if low != high:
            group[high] = low
            touched[low] |= touched[high]
        return low

    for c in range(n):
        if board[c] == colour:
            for o in neighbours[c]:
                if board[o] == colour and wins_reference(touched[join(root(c), root(o))], m):
                    return True, []
    if any(wins_reference(touched[c], m) for c in group if group[c] == c):
        return True, []
    carrier: set[int] = set()
    links: list[tuple[int, int]] = []
    while True:
        pairs: dict[tuple[int, int], int] = {}
        edges: dict[tuple[int, int], int] = {}
        linked = None
        for e in range(n):
            if board[e] != 0 or e in carrier:
                continue
            near = list(dict.fromkeys(root(o) for o in neighbours[e] if board[o] == colour))
            for i, first in enumerate(near):
                for second in near[i + 1 :]:
                    a, b = min(first, second), max(first, second)
                    if (a, b) not in pairs:
                        pairs[(a, b)] = e
                    elif linked is None:
                        carrier |= {e, pairs[(a, b)]}
                        links.append((pairs[(a, b)], e))
                        linked = join(a, b)
            if linked is None:
                for r in near:
                    for side in range(SIDE_BITS):
                        if linked is not None:
                            break
                        if not cell_sides[e] >> side & 1 or touched[r] >> side & 1:
                            continue
                        if (r, side) not in edges:
                            edges[(r, side)] = e
                        else:
                            carrier |= {e, edges[(r, side)]}
                            links.append((edges[(r, side)], e))
                            touched[r] |= 1 << side
                            linked = r
            if linked is not None:
                break
        if linked is None:
            return False, links
        if wins_reference(touched[linked], m):
            return True, links


__all__ = [
    "VcScratch",
    "carrier_cell",
    "must_play",
    "must_play_reference",
    "vc_scratch_for",
    "virtual_links_reference",
    "virtual_win",
    "virtual_win_reference",
]
