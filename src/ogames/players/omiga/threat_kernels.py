"""Omiga threat counting for the bots: numba kernels beside plain-Python references.

A *win cell* of owner `me` is an empty, unblocked cell where a card of `me` would end the game
(or score, in 2v2) if one fits: rule 2 (an orthogonal neighbour of `me`), rule 3 (an orthogonal or
diagonal neighbour of another owner), and the win geometry — the cell lies on `me`'s far row, or
the cell on `me`'s home side of it holds another owner's card ("behind", RULES.md §5).

Arrays are the table's (see `kernels/omiga.py`): `owner[c]`, `hues[c] = (left, right)`,
`seams[c] = (top, bottom)`, `blocked[c]`. `forward` is +1 when `me` plays upwards (home row 0),
−1 when downwards. Cards are design numbers: `design_faces[d, k]` is face k of design d as codes
(left, right, top, bottom), `n_faces[d]` how many faces it has (1 or 2).

`weights[d]` says how much holding design d counts: 1 for a card in hand, less for a card that
may only be drawn later. The *weight* of a win cell is the largest weight of a design with a face
that fits every orthogonal neighbour there (0 when none does): a win in hand counts 1, a win that
waits for a draw counts what the caller gives the unseen designs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ogames.kernels.omiga import diagonal_opponent, orthogonal_contacts


@njit(cache=True)
def fits(owner, hues, seams, width, height, cell, face) -> bool:  # pragma: no cover - compiled
    """Rule 1 on flat arrays: `face` (hues left/right, seams top/bottom) fits every orthogonal card."""
    col = cell % width
    row = cell // width
    if col > 0 and owner[cell - 1] >= 0 and hues[cell - 1, 1] != face[0]:
        return False
    if col < width - 1 and owner[cell + 1] >= 0 and hues[cell + 1, 0] != face[1]:
        return False
    if row > 0 and owner[cell - width] >= 0 and seams[cell - width, 0] != face[3]:
        return False
    if row < height - 1 and owner[cell + width] >= 0 and seams[cell + width, 1] != face[2]:
        return False
    return True


@njit(cache=True)
def _is_win_cell(owner, blocked, width, height, me, forward, cell) -> bool:  # pragma: no cover - compiled
    if owner[cell] >= 0 or blocked[cell]:
        return False
    col = cell % width
    row = cell // width
    # Geometry first: it rules out most cells at once.
    far = height - 1 if forward == 1 else 0
    if row != far:
        back = row - forward
        if back < 0 or back >= height:
            return False
        o = owner[back * width + col]
        if o < 0 or o == me:
            return False
    own, opp = orthogonal_contacts(owner, width, height, cell, me)
    return own and (opp or diagonal_opponent(owner, width, height, cell, me))


@njit(cache=True)
def _cell_weight(owner, hues, seams, width, height, cell, design_faces, n_faces, weights) -> float:  # pragma: no cover
    best = 0.0
    for d in range(weights.shape[0]):
        if weights[d] <= best:
            continue
        for k in range(n_faces[d]):
            if fits(owner, hues, seams, width, height, cell, design_faces[d, k]):
                best = weights[d]
                break
    return best


@njit(cache=True)
def win_weights(owner, hues, seams, blocked, width, height, me, forward, design_faces, n_faces, weights, out) -> float:
    """Write each cell's win weight for `me` into `out` (0 where it is no win cell); return their sum."""
    total = 0.0
    for cell in range(width * height):
        out[cell] = 0.0
        if _is_win_cell(owner, blocked, width, height, me, forward, cell):
            w = _cell_weight(owner, hues, seams, width, height, cell, design_faces, n_faces, weights)
            out[cell] = w
            total += w
    return total


@njit(cache=True)
def _total(owner, hues, seams, blocked, width, height, me, forward, design_faces, n_faces, weights) -> float:  # pragma: no cover
    total = 0.0
    for cell in range(width * height):
        if _is_win_cell(owner, blocked, width, height, me, forward, cell):
            total += _cell_weight(owner, hues, seams, width, height, cell, design_faces, n_faces, weights)
    return total


@njit(cache=True)
def _lay(owner, hues, seams, move, who) -> None:  # pragma: no cover - compiled
    cell = move[0]
    owner[cell] = who
    hues[cell, 0] = move[1]
    hues[cell, 1] = move[2]
    seams[cell, 0] = move[3]
    seams[cell, 1] = move[4]


@njit(cache=True)
def two_ply(
    owner, hues, seams, blocked, width, height, me, foe, forward, foe_forward,
    design_faces, n_faces, my_moves, my_weights, foe_moves, foe_weights, out,
) -> None:
    """Score every pair (my move M, foe move F landing first) for the bot's two-ply look-ahead.

    `my_moves[i]` and `foe_moves[j]` are (cell, left, right, top, bottom); a move with cell −1 lays
    nothing (a discard or a wait). `my_weights[i]` / `foe_weights[j]` are the hands left after the
    move. Writes `out[i, j] = (rejected, foe_old, foe_new, mine)`: whether F makes M illegal (its
    cell taken or no longer fitting), the foe's win weight on table+F that survives M, the foe's
    win weight that M newly opens, and my win weight on table+F+M.
    """
    n = width * height
    foe_before = np.zeros(n)
    for j in range(foe_moves.shape[0]):
        fcell = foe_moves[j, 0]
        if fcell >= 0:
            _lay(owner, hues, seams, foe_moves[j], foe)
        for c in range(n):
            foe_before[c] = 0.0
            if _is_win_cell(owner, blocked, width, height, foe, foe_forward, c):
                foe_before[c] = _cell_weight(owner, hues, seams, width, height, c, design_faces, n_faces, foe_weights[j])
        for i in range(my_moves.shape[0]):
            mcell = my_moves[i, 0]
            if mcell < 0:
                # I lay nothing (a discard): every foe win survives; my win weight comes from the new hand.
                out[i, j, 0] = 0.0
                out[i, j, 1] = 0.0
                out[i, j, 2] = 0.0
                for c in range(n):
                    out[i, j, 1] += foe_before[c]
                out[i, j, 3] = _total(
                    owner, hues, seams, blocked, width, height, me, forward, design_faces, n_faces, my_weights[i]
                )
                continue
            if owner[mcell] >= 0 or not fits(owner, hues, seams, width, height, mcell, my_moves[i, 1:]):
                out[i, j, 0] = 1.0
                out[i, j, 1] = 0.0
                out[i, j, 2] = 0.0
                out[i, j, 3] = 0.0
                for c in range(n):
                    out[i, j, 1] += foe_before[c]
                continue
            _lay(owner, hues, seams, my_moves[i], me)
            old = 0.0
            new = 0.0
            for c in range(n):
                if _is_win_cell(owner, blocked, width, height, foe, foe_forward, c):
                    w = _cell_weight(owner, hues, seams, width, height, c, design_faces, n_faces, foe_weights[j])
                    if foe_before[c] > 0.0:
                        old += min(w, foe_before[c])
                    else:
                        new += w
            out[i, j, 0] = 0.0
            out[i, j, 1] = old
            out[i, j, 2] = new
            out[i, j, 3] = _total(owner, hues, seams, blocked, width, height, me, forward, design_faces, n_faces, my_weights[i])
            owner[mcell] = -1
        if fcell >= 0:
            owner[fcell] = -1


@njit(cache=True)
def _touches_other(owner, width, height, me, cell) -> bool:  # pragma: no cover - compiled
    col = cell % width
    row = cell // width
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            c2 = col + dc
            r2 = row + dr
            if (dc != 0 or dr != 0) and 0 <= c2 < width and 0 <= r2 < height:
                o = owner[r2 * width + c2]
                if o >= 0 and o != me:
                    return True
    return False


@njit(cache=True)
def race(owner, blocked, width, height, me, forward, depth, decay, dist) -> float:
    """How close `me` is to winning: Σ over win-geometry cells X reachable in d ≤ depth placements of decay^(d−1).

    d(X) counts `me`'s placements up to and including the winning one, each on an empty open cell
    that touches another owner's card (rule 3) and joins `me`'s cards orthogonally (rule 2); fitting
    is not checked (nearly every combination of neighbours has some design that fits). `dist`
    receives each cell's d (0 where unreachable within `depth`).
    """
    n = width * height
    queue = np.empty(n, dtype=np.int64)
    head = 0
    tail = 0
    for c in range(n):
        dist[c] = 0
    for c in range(n):
        if owner[c] >= 0 or blocked[c] or not _touches_other(owner, width, height, me, c):
            continue
        col = c % width
        row = c // width
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c2 = col + dc
            r2 = row + dr
            if 0 <= c2 < width and 0 <= r2 < height and owner[r2 * width + c2] == me:
                dist[c] = 1
                queue[tail] = c
                tail += 1
                break
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
                if dist[z] == 0 and owner[z] < 0 and not blocked[z] and _touches_other(owner, width, height, me, z):
                    dist[z] = dist[c] + 1
                    queue[tail] = z
                    tail += 1
    far = height - 1 if forward == 1 else 0
    total = 0.0
    for c in range(n):
        if dist[c] == 0:
            continue
        row = c // width
        back = row - forward
        behind = 0 <= back < height and owner[back * width + c % width] >= 0 and owner[back * width + c % width] != me
        if row == far or behind:
            total += decay ** (dist[c] - 1)
    return total


# ----- plain-Python references (the tests' yardstick) -------------------------------------------
def fits_reference(owner, hues, seams, width: int, height: int, cell: int, face) -> bool:
    """Whether a face fits every orthogonal neighbour of the cell, the obvious way."""
    col, row = cell % width, cell // width
    checks = ((-1, 0, 1, hues, 0), (1, 0, 0, hues, 1), (0, -1, 0, seams, 3), (0, 1, 1, seams, 2))
    for dc, dr, their, arr, mine in checks:
        c2, r2 = col + dc, row + dr
        if 0 <= c2 < width and 0 <= r2 < height and owner[r2 * width + c2] >= 0:
            if arr[r2 * width + c2][their] != face[mine]:
                return False
    return True


def is_win_cell_reference(owner, blocked, width: int, height: int, me: int, forward: int, cell: int) -> bool:
    """Whether `me` would win with a fitting card on the cell (rules 2 and 3 and the win geometry)."""
    if owner[cell] >= 0 or blocked[cell]:
        return False
    col, row = cell % width, cell // width

    def at(c: int, r: int) -> int:
        return int(owner[r * width + c]) if 0 <= c < width and 0 <= r < height else -1

    orth = [at(col + dc, row + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    diag = [at(col + dc, row + dr) for dc in (-1, 1) for dr in (-1, 1)]
    far_row = height - 1 if forward == 1 else 0
    behind = at(col, row - forward) >= 0 and at(col, row - forward) != me
    return (row == far_row or behind) and me in orth and any(o >= 0 and o != me for o in orth + diag)


def win_weights_reference(owner, hues, seams, blocked, width, height, me, forward, design_faces, n_faces, weights):
    """The same as `win_weights`, returning (per-cell list, sum)."""
    cells = []
    for cell in range(width * height):
        w = 0.0
        if is_win_cell_reference(owner, blocked, width, height, me, forward, cell):
            for d, weight in enumerate(weights):
                if any(fits_reference(owner, hues, seams, width, height, cell, design_faces[d][k]) for k in range(n_faces[d])):
                    w = max(w, float(weight))
        cells.append(w)
    return cells, sum(cells)


def two_ply_reference(
    owner, hues, seams, blocked, width, height, me, foe, forward, foe_forward,
    design_faces, n_faces, my_moves, my_weights, foe_moves, foe_weights,
):
    """The same as `two_ply` through copies of the arrays and `win_weights_reference`; returns the array."""
    out = np.zeros((len(my_moves), len(foe_moves), 4))
    args = (design_faces, n_faces)

    def laid(arrays, move, who):
        o, h, s = (a.copy() for a in arrays)
        if move[0] >= 0:
            o[move[0]] = who
            h[move[0]] = move[1:3]
            s[move[0]] = move[3:5]
        return o, h, s

    for j, fmove in enumerate(foe_moves):
        after_f = laid((owner, hues, seams), fmove, foe)
        before, _ = win_weights_reference(*after_f, blocked, width, height, foe, foe_forward, *args, foe_weights[j])
        for i, mmove in enumerate(my_moves):
            o, h, s = after_f
            if mmove[0] < 0:
                _, mine = win_weights_reference(o, h, s, blocked, width, height, me, forward, *args, my_weights[i])
                out[i, j] = (0.0, sum(before), 0.0, mine)
                continue
            if o[mmove[0]] >= 0 or not fits_reference(o, h, s, width, height, mmove[0], mmove[1:]):
                out[i, j] = (1.0, sum(before), 0.0, 0.0)
                continue
            after_m = laid(after_f, mmove, me)
            now, _ = win_weights_reference(*after_m, blocked, width, height, foe, foe_forward, *args, foe_weights[j])
            old = sum(min(a, b) for a, b in zip(now, before, strict=False) if b > 0)
            new = sum(a for a, b in zip(now, before, strict=False) if b == 0)
            _, mine = win_weights_reference(*after_m, blocked, width, height, me, forward, *args, my_weights[i])
            out[i, j] = (0.0, old, new, mine)
    return out


def race_reference(owner, blocked, width: int, height: int, me: int, forward: int, depth: int, decay: float):
    """The same as `race` by breadth-first search over (col, row) pairs; returns (total, distances)."""
    def at(c, r):
        return int(owner[r * width + c]) if 0 <= c < width and 0 <= r < height else -1

    def open_cell(c, r):
        around = [at(c + a, r + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
        return at(c, r) < 0 and not blocked[r * width + c] and any(o >= 0 and o != me for o in around)

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
    far = height - 1 if forward == 1 else 0
    total = 0.0
    for (c, r), d in dist.items():
        back = at(c, r - forward)
        if r == far or (back >= 0 and back != me):
            total += decay ** (d - 1)
    cells = [dist.get((c % width, c // width), 0) for c in range(width * height)]
    return total, cells
