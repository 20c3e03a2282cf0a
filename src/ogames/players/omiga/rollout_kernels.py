"""Monte-Carlo continuations of a real-time Omiga base game: a numba kernel beside its plain-Python twin.

Both players act at once: each side's action is decided from the table as it is when the side's
previous action landed, and lands one reaction time (± jitter) later, when it is checked again
(its cell may be taken or no longer fit; rules 2 and 3 cannot stop holding, since cards never
leave the table). A rollout starts with the candidate action of `me` on its way and the foe's
next action, decided from the same table, landing somewhere within one foe reaction; both then
play a simple policy to a win, a closed table (both sides on both side edges: a draw) or the
horizon (counted as a draw).

Policy (`policy`): 0 = a uniformly random legal placement, discarding only when there is none
(the project's `random` bot); 1 = the same but a winning placement is always taken; 2 = also lay
a card on a cell where the foe would win with a card of its hand when no win of its own exists.

Arrays are the table's (see `kernels/omiga.py`): `owner`, `hues`, `seams`, `blocked`;
`forward[o]` is +1 for the owner playing upwards, −1 downwards. Cards are design numbers with
`design_faces[d, k]` and `n_faces[d]` as in `threat_kernels.py`. Per owner o: `hands[o]`
(3 slots, −1 empty), `unseen[o, :n_unseen[o]]` (the cards its deck may hold, shuffled afresh per
rollout: deck orders are hidden), `discards[o, :n_disc[o]]` (the public pile, bottom first).
`cands[i] = (design, cell, left, right, top, bottom)`, cell −1 meaning a discard.

Random numbers come from a 48-bit linear congruential generator written out in both versions
(numba's and Python's own generators differ), so kernel and reference agree number for number.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ogames.players.omiga.threat_kernels import fits as _fits

MASK48 = (1 << 48) - 1
_MUL, _ADD = 0x5DEECE66D, 0xB
DISCARD, WAIT = -2, -3  # action cells besides a real cell


# ----- the numba kernel ----------------------------------------------------------------------
@njit(cache=True)
def _next(rs, bits):  # pragma: no cover - compiled
    # int64 products wrap; the low 48 bits are the same as Python's exact product masked.
    rs[0] = (rs[0] * _MUL + _ADD) & MASK48
    return rs[0] >> (48 - bits)


@njit(cache=True)
def _below(rs, n):  # pragma: no cover - compiled
    return (_next(rs, 31) * n) >> 31


@njit(cache=True)
def _delay(rs, reaction, jitter):  # pragma: no cover - compiled
    u = _next(rs, 24) / 16777216.0
    return reaction * (1.0 + jitter * (2.0 * u - 1.0))


@njit(cache=True)
def _open_for(owner, blocked, width, height, side, cell):  # pragma: no cover - compiled
    """Rules 2 and 3 for `side` on an empty open cell."""
    if owner[cell] >= 0 or blocked[cell]:
        return False
    col = cell % width
    row = cell // width
    own = False
    opp = False
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if dc == 0 and dr == 0:
                continue
            c2 = col + dc
            r2 = row + dr
            if 0 <= c2 < width and 0 <= r2 < height:
                o = owner[r2 * width + c2]
                if o >= 0:
                    if o != side:
                        opp = True
                    elif dc == 0 or dr == 0:
                        own = True
    return own and opp


@njit(cache=True)
def _wins_at(owner, width, height, side, fwd, cell):  # pragma: no cover - compiled
    row = cell // width
    if row == (height - 1 if fwd == 1 else 0):
        return True
    back = row - fwd
    if back < 0 or back >= height:
        return False
    o = owner[back * width + cell % width]
    return o >= 0 and o != side


@njit(cache=True)
def _decide(owner, hues, seams, blocked, width, height, side, forward, design_faces, n_faces, hands, policy, rs, opts, act):
    # pragma: no cover - compiled
    """Write side's next action into act[side]: (design, cell, left, right, top, bottom)."""
    foe = 1 - side
    count = 0
    blocks = 0
    for cell in range(width * height):
        if not _open_for(owner, blocked, width, height, side, cell):
            continue
        wins = _wins_at(owner, width, height, side, forward[side], cell)
        first = count
        for h in range(3):
            d = hands[side, h]
            if d < 0:
                continue
            for k in range(n_faces[d]):
                if _fits(owner, hues, seams, width, height, cell, design_faces[d, k]):
                    if wins and policy >= 1:
                        act[side, 0] = d
                        act[side, 1] = cell
                        for q in range(4):
                            act[side, 2 + q] = design_faces[d, k, q]
                        return
                    opts[count, 0] = d
                    opts[count, 1] = k
                    opts[count, 2] = cell
                    opts[count, 3] = 0
                    count += 1
        if policy >= 2 and count > first and _open_for(owner, blocked, width, height, foe, cell):
            if _wins_at(owner, width, height, foe, forward[foe], cell):
                threat = False
                for h in range(3):
                    d = hands[foe, h]
                    if d < 0 or threat:
                        continue
                    for k in range(n_faces[d]):
                        if _fits(owner, hues, seams, width, height, cell, design_faces[d, k]):
                            threat = True
                            break
                if threat:
                    for q in range(first, count):
                        opts[q, 3] = 1
                    blocks += count - first
    if count == 0:
        act[side, 1] = DISCARD if hands[side, 0] >= 0 or hands[side, 1] >= 0 or hands[side, 2] >= 0 else WAIT
        return
    if blocks > 0:
        pick = _below(rs, blocks)
        q = 0
        while True:
            if opts[q, 3] == 1:
                if pick == 0:
                    break
                pick -= 1
            q += 1
    else:
        q = _below(rs, count)
    d = opts[q, 0]
    act[side, 0] = d
    act[side, 1] = opts[q, 2]
    for z in range(4):
        act[side, 2 + z] = design_faces[d, opts[q, 1], z]


@njit(cache=True)
def _draw(side, hands, deck, n_deck, disc, n_disc):  # pragma: no cover - compiled
    for h in range(3):
        if n_deck[side] == 0:
            if n_disc[side] == 0:
                return
            # The discard pile turned over as it lies: the first card discarded is the new top.
            m = n_disc[side]
            for i in range(m):
                deck[side, i] = disc[side, m - 1 - i]
            n_deck[side] = m
            n_disc[side] = 0
        n_deck[side] -= 1
        hands[side, h] = deck[side, n_deck[side]]


@njit(cache=True)
def _step(owner, hues, seams, blocked, width, height, side, forward, hands, deck, n_deck, disc, n_disc, act):
    # pragma: no cover - compiled
    """Apply side's landing action; return 1 if it wins, 0 otherwise."""
    cell = act[side, 1]
    if cell == WAIT:
        return 0
    if cell == DISCARD:
        for h in range(3):
            if hands[side, h] >= 0:
                disc[side, n_disc[side]] = hands[side, h]
                n_disc[side] += 1
                hands[side, h] = -1
        _draw(side, hands, deck, n_deck, disc, n_disc)
        return 0
    if owner[cell] >= 0 or not _fits(owner, hues, seams, width, height, cell, act[side, 2:]):
        return 0  # rejected by the authority: the table changed under it
    owner[cell] = side
    hues[cell, 0] = act[side, 2]
    hues[cell, 1] = act[side, 3]
    seams[cell, 0] = act[side, 4]
    seams[cell, 1] = act[side, 5]
    left = 0
    for h in range(3):
        if hands[side, h] == act[side, 0]:
            hands[side, h] = -1
        if hands[side, h] >= 0:
            left += 1
    if left == 0:
        _draw(side, hands, deck, n_deck, disc, n_disc)
    return 1 if _wins_at(owner, width, height, side, forward[side], cell) else 0


@njit(cache=True)
def _closed(owner, width, height):  # pragma: no cover - compiled
    for side in range(2):
        left = False
        right = False
        for row in range(height):
            if owner[row * width] == side:
                left = True
            if owner[row * width + width - 1] == side:
                right = True
        if not (left and right):
            return False
    return True


@njit(cache=True)
def rollouts(
    owner, hues, seams, blocked, width, height, me, forward, design_faces, n_faces,
    hands, unseen, n_unseen, discards, n_disc, reaction, jitter, cands, n_roll, horizon, policy, seed, out,
) -> None:
    """Play `n_roll` continuations per candidate; write out[i] = (my wins, foe wins, draws or horizon)."""
    n = width * height
    foe = 1 - me
    w_owner = np.empty(n, dtype=owner.dtype)
    w_hues = np.empty((n, 2), dtype=hues.dtype)
    w_seams = np.empty((n, 2), dtype=seams.dtype)
    w_hands = np.empty((2, 3), dtype=np.int64)
    room = unseen.shape[1] + discards.shape[1]  # every card a side owns fits, whichever pile it is in
    deck = np.empty((2, room), dtype=np.int64)
    n_deck = np.empty(2, dtype=np.int64)
    disc = np.empty((2, room), dtype=np.int64)
    w_disc = np.empty(2, dtype=np.int64)
    opts = np.empty((n * 6, 4), dtype=np.int64)
    act = np.empty((2, 6), dtype=np.int64)
    t_next = np.empty(2)
    rs = np.empty(1, dtype=np.int64)
    for i in range(cands.shape[0]):
        out[i, 0] = 0.0
        out[i, 1] = 0.0
        out[i, 2] = 0.0
        for r in range(n_roll):
            # The same random numbers for every candidate (rollout r starts alike): fairer comparisons.
            rs[0] = ((seed + r * 7919) ^ _MUL) & MASK48
            w_owner[:] = owner
            w_hues[:, :] = hues
            w_seams[:, :] = seams
            w_hands[:, :] = hands
            for s in range(2):
                m = n_unseen[s]
                for q in range(m):
                    deck[s, q] = unseen[s, q]
                for q in range(m - 1, 0, -1):
                    z = _below(rs, q + 1)
                    tmp = deck[s, q]
                    deck[s, q] = deck[s, z]
                    deck[s, z] = tmp
                n_deck[s] = m
                w_disc[s] = n_disc[s]
                for q in range(n_disc[s]):
                    disc[s, q] = discards[s, q]
            _decide(w_owner, w_hues, w_seams, blocked, width, height, foe, forward, design_faces, n_faces, w_hands, policy, rs,
                    opts, act)
            t_next[foe] = _next(rs, 24) / 16777216.0 * _delay(rs, reaction[foe], jitter)
            for z in range(6):
                act[me, z] = cands[i, z]
            if cands[i, 1] < 0:
                act[me, 1] = DISCARD
            t_next[me] = _delay(rs, reaction[me], jitter)
            winner = -1
            for _ in range(horizon):
                side = me if t_next[me] < t_next[foe] else foe
                if _step(w_owner, w_hues, w_seams, blocked, width, height, side, forward, w_hands, deck, n_deck, disc, w_disc,
                         act) == 1:
                    winner = side
                    break
                if _closed(w_owner, width, height):
                    break
                _decide(w_owner, w_hues, w_seams, blocked, width, height, side, forward, design_faces, n_faces, w_hands, policy,
                        rs, opts, act)
                t_next[side] += _delay(rs, reaction[side], jitter)
            if winner == me:
                out[i, 0] += 1.0
            elif winner == foe:
                out[i, 1] += 1.0
            else:
                out[i, 2] += 1.0


# ----- the plain-Python reference (the tests' yardstick) ----------------------------------------
class _Rng:
    """The same 48-bit generator in Python integers."""

    def __init__(self, state: int):
        self.state = state

    def next(self, bits: int) -> int:
        self.state = (self.state * _MUL + _ADD) & MASK48
        return self.state >> (48 - bits)

    def below(self, n: int) -> int:
        return (self.next(31) * n) >> 31

    def delay(self, reaction: float, jitter: float) -> float:
        u = self.next(24) / 16777216.0
        return reaction * (1.0 + jitter * (2.0 * u - 1.0))


def rollouts_reference(
    owner, hues, seams, blocked, width, height, me, forward, design_faces, n_faces,
    hands, unseen, n_unseen, discards, n_disc, reaction, jitter, cands, n_roll, horizon, policy, seed,
) -> np.ndarray:
    """The same as `rollouts` with lists and dicts, written the plain way; returns the (k, 3) counts."""
    foe = 1 - me
    n = width * height

    def at(cells: dict, col: int, row: int):
        return cells.get(row * width + col) if 0 <= col < width and 0 <= row < height else None

    def fits(cells: dict, cell: int, face) -> bool:
        col, row = cell % width, cell // width
        left, right = at(cells, col - 1, row), at(cells, col + 1, row)
        below, above = at(cells, col, row - 1), at(cells, col, row + 1)
        return ((left is None or left[1][1] == face[0]) and (right is None or right[1][0] == face[1])
                and (below is None or below[2][0] == face[3]) and (above is None or above[2][1] == face[2]))

    def open_for(cells: dict, side: int, cell: int) -> bool:
        if cell in cells or blocked[cell]:
            return False
        col, row = cell % width, cell // width
        orth = [at(cells, col + a, row + b) for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        diag = [at(cells, col + a, row + b) for a in (-1, 1) for b in (-1, 1)]
        return any(c is not None and c[0] == side for c in orth) and any(c is not None and c[0] != side for c in orth + diag)

    def wins_at(cells: dict, side: int, cell: int) -> bool:
        col, row = cell % width, cell // width
        if row == (height - 1 if forward[side] == 1 else 0):
            return True
        back = at(cells, col, row - forward[side])
        return back is not None and back[0] != side

    def faces(d: int):
        return [tuple(int(x) for x in design_faces[d][k]) for k in range(n_faces[d])]

    def decide(cells: dict, side: int, hands: list, rng: _Rng):
        options, blocking = [], []
        for cell in range(n):
            if not open_for(cells, side, cell):
                continue
            here = [(d, cell, f) for d in hands[side] for f in faces(d) if fits(cells, cell, f)]
            if policy >= 1 and here and wins_at(cells, side, cell):
                return here[0]
            options += here
            if policy >= 2 and here and open_for(cells, 1 - side, cell) and wins_at(cells, 1 - side, cell):
                if any(fits(cells, cell, f) for d in hands[1 - side] for f in faces(d)):
                    blocking += here
        if not options:
            return ("discard",) if hands[side] else ("wait",)
        pool = blocking or options
        return pool[rng.below(len(pool))]

    def draw(side: int, hands: list, decks: list, piles: list) -> None:
        while len(hands[side]) < 3:
            if not decks[side]:
                if not piles[side]:
                    return
                decks[side], piles[side] = list(reversed(piles[side])), []
            hands[side].append(decks[side].pop())

    out = np.zeros((len(cands), 3))
    for i, cand in enumerate(cands):
        for r in range(n_roll):
            rng = _Rng(((seed + r * 7919) ^ _MUL) & MASK48)
            cells = {
                c: (int(owner[c]), tuple(int(x) for x in hues[c]), tuple(int(x) for x in seams[c]))
                for c in range(n)
                if owner[c] >= 0
            }
            held = [[int(d) for d in hands[s] if d >= 0] for s in range(2)]
            decks, piles = [], []
            for s in range(2):
                deck = [int(d) for d in unseen[s][: n_unseen[s]]]
                for q in range(len(deck) - 1, 0, -1):
                    z = rng.below(q + 1)
                    deck[q], deck[z] = deck[z], deck[q]
                decks.append(deck)
                piles.append([int(d) for d in discards[s][: n_disc[s]]])
            acts: dict[int, tuple] = {foe: decide(cells, foe, held, rng)}
            t_next = {foe: rng.next(24) / 16777216.0 * rng.delay(reaction[foe], jitter)}
            design, cell = int(cand[0]), int(cand[1])
            acts[me] = ("discard",) if cell < 0 else (design, cell, tuple(int(x) for x in cand[2:]))
            t_next[me] = rng.delay(reaction[me], jitter)
            winner = -1
            for _ in range(horizon):
                side = me if t_next[me] < t_next[foe] else foe
                action = acts[side]
                if action[0] == "discard":
                    piles[side] += held[side]
                    held[side] = []
                    draw(side, held, decks, piles)
                elif action[0] != "wait":
                    d, c, f = action
                    if c not in cells and fits(cells, c, f):
                        cells[c] = (side, f[:2], f[2:])
                        held[side].remove(d)
                        if not held[side]:
                            draw(side, held, decks, piles)
                        if wins_at(cells, side, c):
                            winner = side
                            break
                grid = [[cells.get(row * width + col, (-1,))[0] for row in range(height)] for col in (0, width - 1)]
                if all(s in grid[0] and s in grid[1] for s in (0, 1)):
                    break
                acts[side] = decide(cells, side, held, rng)
                t_next[side] += rng.delay(reaction[side], jitter)
            out[i, 0 if winner == me else 1 if winner == foe else 2] += 1
    return out
