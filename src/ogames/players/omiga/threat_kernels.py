"""Omiga threat counting for the bots: numba kernels beside plain-Python references.

A *win cell* of owner `me` is an empty, unblocked cell where a card of `me` would end the game
(or score, in 2v2) if one fits: rule 2, rule 3 and the win geometry (far edge or behind an
opponent card, RULES.md §5). Every rule is the rules' own compiled predicate from
`kernels/omiga.py` (`win_cell`, `fits`, `touches_opponent`, `wins_at`); this module only counts.

The table comes as a `TableArrays` bundle (`Table.arrays()`: owner, hues, seams, blocked, each
owner's forward direction, width, height), the designs as a `DeckArrays` bundle (`deck_arrays()`:
`faces[d, k]`, the codes (left, right, top, bottom) of face k of design d, and `n_faces[d]`).

`weights[d]` says how much holding design d counts: 1 for a card in hand, less for a card that
may only be drawn later. The *weight* of a win cell is the largest weight of a design with a face
that fits every orthogonal neighbour there (0 when none does): a win in hand counts 1, a win that
waits for a draw counts what the caller gives the unseen designs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from ogames.kernels import leaf
from ogames.kernels.omiga import (
    FIT_ALL,
    DeckArrays,
    TableArrays,
    fits,
    fits_reference,
    orthogonal_contacts,
    touches_opponent,
    touches_opponent_reference,
    win_cell,
    win_cell_reference,
    wins_at,
    wins_at_reference,
)


@leaf
def _cell_weight(  # pragma: no cover - compiled
    t: TableArrays, designs: DeckArrays, cell: int, me: int, weights: np.ndarray
) -> float:
    best = 0.0
    for d in range(weights.shape[0]):
        if weights[d] <= best:
            continue
        for k in range(designs.n_faces[d]):
            if fits(t, cell, me, designs.faces[d, k], FIT_ALL):
                best = weights[d]
                break
    return best


@leaf
def win_weights(t: TableArrays, designs: DeckArrays, me: int, weights: np.ndarray, out: np.ndarray) -> float:
    """Write each cell's win weight for `me` into `out` (0 where it is no win cell); return their sum."""
    total = 0.0
    for cell in range(t.width * t.height):
        out[cell] = 0.0
        if win_cell(t, cell, me):
            w = _cell_weight(t, designs, cell, me, weights)
            out[cell] = w
            total += w
    return total


@leaf
def _total(t: TableArrays, designs: DeckArrays, me: int, weights: np.ndarray) -> float:  # pragma: no cover - compiled
    total = 0.0
    for cell in range(t.width * t.height):
        if win_cell(t, cell, me):
            total += _cell_weight(t, designs, cell, me, weights)
    return total


@leaf
def _lay(t: TableArrays, move: np.ndarray, who: int) -> None:  # pragma: no cover - compiled
    cell = move[0]
    t.owner[cell] = who
    t.hues[cell, 0] = move[1]
    t.hues[cell, 1] = move[2]
    t.seams[cell, 0] = move[3]
    t.seams[cell, 1] = move[4]


@njit(cache=True)
def two_ply(
    t: TableArrays, designs: DeckArrays, me: int, foe: int, my_moves: np.ndarray, my_weights: np.ndarray,
    foe_moves: np.ndarray, foe_weights: np.ndarray, out: np.ndarray,
) -> None:
    """Score every pair (my move M, foe move F landing first) for the bot's two-ply look-ahead.

    `my_moves[i]` and `foe_moves[j]` are (cell, left, right, top, bottom); a move with cell −1 lays
    nothing (a discard or a wait). `my_weights[i]` / `foe_weights[j]` are the hands left after the
    move. Writes `out[i, j] = (rejected, foe_old, foe_new, mine)`: whether F makes M illegal (its
    cell taken or no longer fitting), the foe's win weight on table+F that survives M, the foe's
    win weight that M newly opens, and my win weight on table+F+M. Lays the moves on `t` and takes
    the cards back: `t` ends with the same owners, but pass a copy (`t.copy()`): hues and seams of
    the cells tried keep the last codes laid.
    """
    n = t.width * t.height
    owner = t.owner
    foe_before = np.zeros(n)
    for j in range(foe_moves.shape[0]):
        fcell = foe_moves[j, 0]
        if fcell >= 0:
            _lay(t, foe_moves[j], foe)
        for c in range(n):
            foe_before[c] = 0.0
            if win_cell(t, c, foe):
                foe_before[c] = _cell_weight(t, designs, c, foe, foe_weights[j])
        for i in range(my_moves.shape[0]):
            mcell = my_moves[i, 0]
            if mcell < 0:
                # I lay nothing (a discard): every foe win survives; my win weight comes from the new hand.
                out[i, j, 0] = 0.0
                out[i, j, 1] = 0.0
                out[i, j, 2] = 0.0
                for c in range(n):
                    out[i, j, 1] += foe_before[c]
                out[i, j, 3] = _total(t, designs, me, my_weights[i])
                continue
            if owner[mcell] >= 0 or not fits(t, mcell, me, my_moves[i, 1:], FIT_ALL):
                out[i, j, 0] = 1.0
                out[i, j, 1] = 0.0
                out[i, j, 2] = 0.0
                out[i, j, 3] = 0.0
                for c in range(n):
                    out[i, j, 1] += foe_before[c]
                continue
            _lay(t, my_moves[i], me)
            old = 0.0
            new = 0.0
            for c in range(n):
                if win_cell(t, c, foe):
                    w = _cell_weight(t, designs, c, foe, foe_weights[j])
                    if foe_before[c] > 0.0:
                        old += min(w, foe_before[c])
                    else:
                        new += w
            out[i, j, 0] = 0.0
            out[i, j, 1] = old
            out[i, j, 2] = new
            out[i, j, 3] = _total(t, designs, me, my_weights[i])
            owner[mcell] = -1
        if fcell >= 0:
            owner[fcell] = -1


@njit(cache=True)
def race(t: TableArrays, me: int, depth: int, decay: float, dist: np.ndarray) -> float:
    """How close `me` is to winning: Σ over win-geometry cells X reachable in d ≤ depth placements of decay^(d−1).

    d(X) counts `me`'s placements up to and including the winning one, each on an empty open cell
    that touches another owner's card (rule 3) and joins `me`'s cards orthogonally (rule 2); fitting
    is not checked (nearly every combination of neighbours has some design that fits). `dist`
    receives each cell's d (0 where unreachable within `depth`).
    """
    width, height = t.width, t.height
    owner, blocked = t.owner, t.blocked
    n = width * height
    queue = np.empty(n, dtype=np.int64)
    head = 0
    tail = 0
    for c in range(n):
        dist[c] = 0
    for c in range(n):  # one placement away: open, touching another owner's card and one of `me`'s
        if owner[c] < 0 and not blocked[c] and touches_opponent(t, c, me) and orthogonal_contacts(t, c, me)[0]:
            dist[c] = 1
            queue[tail] = c
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        if dist[c] >= depth:
            continue
        col = c % width
        row = c // width
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c2 = col + dc
            r2 = row + dr
            if 0 <= c2 < width and 0 <= r2 < height:
                z = r2 * width + c2
                if dist[z] == 0 and owner[z] < 0 and not blocked[z] and touches_opponent(t, z, me):
                    dist[z] = dist[c] + 1
                    queue[tail] = z
                    tail += 1
    total = 0.0
    for c in range(n):
        if dist[c] > 0 and wins_at(t, c, me):
            total += decay ** (dist[c] - 1)
    return total


# ----- plain-Python references (the tests' yardstick) -------------------------------------------
def win_weights_reference(t: TableArrays, designs: DeckArrays, me: int, weights: np.ndarray) -> tuple[list[float], float]:
    """The same as `win_weights` through the reference predicates, returning (per-cell list, sum)."""
    cells = []
    for cell in range(t.width * t.height):
        w = 0.0
        if win_cell_reference(t, cell, me):
            for d, weight in enumerate(weights):
                if any(fits_reference(t, cell, me, designs.faces[d][k], FIT_ALL) for k in range(designs.n_faces[d])):
                    w = max(w, float(weight))
        cells.append(w)
    return cells, sum(cells)


def two_ply_reference(
    t: TableArrays, designs: DeckArrays, me: int, foe: int, my_moves: Sequence[Sequence[int]], my_weights: np.ndarray,
    foe_moves: Sequence[Sequence[int]], foe_weights: np.ndarray,
) -> np.ndarray:
    """The same as `two_ply` through copies of the table and `win_weights_reference`; returns the array."""
    out = np.zeros((len(my_moves), len(foe_moves), 4))

    def laid(table: TableArrays, move: Sequence[int], who: int) -> TableArrays:
        table = table.copy()
        if move[0] >= 0:
            table.owner[move[0]] = who
            table.hues[move[0]] = move[1:3]
            table.seams[move[0]] = move[3:5]
        return table

    for j, fmove in enumerate(foe_moves):
        after_f = laid(t, fmove, foe)
        before, _ = win_weights_reference(after_f, designs, foe, foe_weights[j])
        for i, mmove in enumerate(my_moves):
            if mmove[0] < 0:
                _, mine = win_weights_reference(after_f, designs, me, my_weights[i])
                out[i, j] = (0.0, sum(before), 0.0, mine)
                continue
            if after_f.owner[mmove[0]] >= 0 or not fits_reference(after_f, mmove[0], me, mmove[1:], FIT_ALL):
                out[i, j] = (1.0, sum(before), 0.0, 0.0)
                continue
            after_m = laid(after_f, mmove, me)
            now, _ = win_weights_reference(after_m, designs, foe, foe_weights[j])
            old = sum(min(a, b) for a, b in zip(now, before, strict=False) if b > 0)
            new = sum(a for a, b in zip(now, before, strict=False) if b == 0)
            _, mine = win_weights_reference(after_m, designs, me, my_weights[i])
            out[i, j] = (0.0, old, new, mine)
    return out


def race_reference(t: TableArrays, me: int, depth: int, decay: float) -> tuple[float, list[int]]:
    """The same as `race` by breadth-first search over (col, row) pairs; returns (total, distances)."""
    width, height = t.width, t.height

    def at(c: int, r: int) -> int:
        return int(t.owner[r * width + c]) if 0 <= c < width and 0 <= r < height else -1

    def open_cell(c: int, r: int) -> bool:
        cell = r * width + c
        return at(c, r) < 0 and not t.blocked[cell] and touches_opponent_reference(t, cell, me)

    dist = {}
    frontier = [(c, r) for r in range(height) for c in range(width)
                if open_cell(c, r) and any(at(c + a, r + b) == me for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
    step = 1
    while frontier and step <= depth:
        nxt = []
        for c, r in frontier:
            if (c, r) not in dist:
                dist[(c, r)] = step
        for c, r in frontier:
            for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                z = (c + a, r + b)
                if 0 <= z[0] < width and 0 <= z[1] < height and z not in dist and z not in nxt and open_cell(*z):
                    nxt.append(z)
        frontier = [z for z in nxt if z not in dist]
        step += 1
    total = 0.0
    for (c, r), d in dist.items():
        if wins_at_reference(t, r * width + c, me):
            total += decay ** (d - 1)
    cells = [dist.get((c % width, c // width), 0) for c in range(width * height)]
    return total, cells
