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

The rules are the rules' own compiled predicates (`kernels/omiga.py`: `legal_cell`, `fits`,
`wins_at`, `win_cell`, `sides_closed`). Inputs come as bundles: the table as `TableArrays` (`Table.arrays()`),
the designs as `DeckArrays` (`deck_arrays()`), each side's cards as `SideArrays` — per owner o:
`hands[o]` (3 slots, −1 empty), `unseen[o, :n_unseen[o]]` (the cards its deck may hold, shuffled
afresh per rollout: deck orders are hidden), `discards[o, :n_disc[o]]` (the public pile, bottom
first), `reaction[o]` (seconds per decision) — and the search's size as `RolloutPlan`.
`cands[i] = (design, cell, left, right, top, bottom)`, cell −1 meaning a discard.

Random numbers come from a 48-bit linear congruential generator written out in both versions
(numba's and Python's own generators differ), so kernel and reference agree number for number.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ogames.kernels import leaf
from ogames.kernels.omiga import (
    FIT_ALL,
    DeckArrays,
    TableArrays,
    fits,
    fits_reference,
    legal_cell,
    legal_cell_reference,
    sides_closed,
    sides_closed_reference,
    win_cell,
    win_cell_reference,
    wins_at,
    wins_at_reference,
)

MASK48 = (1 << 48) - 1
_MUL, _ADD = 0x5DEECE66D, 0xB
DISCARD, WAIT = -2, -3  # action cells besides a real cell


class SideArrays(NamedTuple):
    """Both sides' cards and speeds, indexed by owner (see the module doc)."""

    hands: np.ndarray
    unseen: np.ndarray
    n_unseen: np.ndarray
    discards: np.ndarray
    n_disc: np.ndarray
    reaction: np.ndarray


class RolloutPlan(NamedTuple):
    """How many rollouts per candidate, events per rollout, the policy, the delays' jitter, the seed."""

    n_roll: int
    horizon: int
    policy: int
    jitter: float
    seed: int


# ----- the numba kernel ----------------------------------------------------------------------
@leaf
def _next(rs: np.ndarray, bits: int) -> int:  # pragma: no cover - compiled
    # int64 products wrap; the low 48 bits are the same as Python's exact product masked.
    state: int = (rs[0] * _MUL + _ADD) & MASK48
    rs[0] = state
    return state >> (48 - bits)


@leaf
def _below(rs: np.ndarray, n: int) -> int:  # pragma: no cover - compiled
    return (_next(rs, 31) * n) >> 31


@leaf
def _delay(rs: np.ndarray, reaction: float, jitter: float) -> float:  # pragma: no cover - compiled
    u = _next(rs, 24) / 16777216.0
    return reaction * (1.0 + jitter * (2.0 * u - 1.0))


@leaf
def _decide(  # pragma: no cover - compiled
    t: TableArrays, designs: DeckArrays, side: int, hands: np.ndarray, policy: int, rs: np.ndarray, opts: np.ndarray,
    act: np.ndarray,
) -> None:
    """Write side's next action into act[side]: (design, cell, left, right, top, bottom)."""
    foe = 1 - side
    count = 0
    blocks = 0
    for cell in range(t.width * t.height):
        if not legal_cell(t, cell, side, True, True, False):
            continue
        wins = wins_at(t, cell, side)
        first = count
        for h in range(3):
            d = hands[side, h]
            if d < 0:
                continue
            for k in range(designs.n_faces[d]):
                if fits(t, cell, side, designs.faces[d, k], FIT_ALL):
                    if wins and policy >= 1:
                        act[side, 0] = d
                        act[side, 1] = cell
                        for q in range(4):
                            act[side, 2 + q] = designs.faces[d, k, q]
                        return
                    opts[count, 0] = d
                    opts[count, 1] = k
                    opts[count, 2] = cell
                    opts[count, 3] = 0
                    count += 1
        if policy >= 2 and count > first and win_cell(t, cell, foe):
            threat = False
            for h in range(3):
                d = hands[foe, h]
                if d < 0 or threat:
                    continue
                for k in range(designs.n_faces[d]):
                    if fits(t, cell, foe, designs.faces[d, k], FIT_ALL):
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
        act[side, 2 + z] = designs.faces[d, opts[q, 1], z]


@leaf
def _draw(  # pragma: no cover - compiled
    side: int, hands: np.ndarray, deck: np.ndarray, n_deck: np.ndarray, disc: np.ndarray, n_disc: np.ndarray
) -> None:
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


@leaf
def _step(  # pragma: no cover - compiled
    t: TableArrays, side: int, hands: np.ndarray, deck: np.ndarray, n_deck: np.ndarray, disc: np.ndarray,
    n_disc: np.ndarray, act: np.ndarray,
) -> int:
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
    if t.owner[cell] >= 0 or not fits(t, cell, side, act[side, 2:], FIT_ALL):
        return 0  # rejected by the authority: the table changed under it
    t.owner[cell] = side
    t.hues[cell, 0] = act[side, 2]
    t.hues[cell, 1] = act[side, 3]
    t.seams[cell, 0] = act[side, 4]
    t.seams[cell, 1] = act[side, 5]
    left = 0
    for h in range(3):
        if hands[side, h] == act[side, 0]:
            hands[side, h] = -1
        if hands[side, h] >= 0:
            left += 1
    if left == 0:
        _draw(side, hands, deck, n_deck, disc, n_disc)
    return 1 if wins_at(t, cell, side) else 0


@njit(cache=True)
def rollouts(
    t: TableArrays, designs: DeckArrays, sides: SideArrays, me: int, cands: np.ndarray, plan: RolloutPlan, out: np.ndarray
) -> None:
    """Play `plan.n_roll` continuations per candidate; write out[i] = (my wins, foe wins, draws or horizon)."""
    n = t.width * t.height
    foe = 1 - me
    # The work table: its own cards, the caller's blocked cells and directions.
    w = TableArrays(np.empty_like(t.owner), np.empty_like(t.hues), np.empty_like(t.seams), t.blocked, t.forward,
                    t.width, t.height)
    w_hands = np.empty((2, 3), dtype=np.int64)
    unseen, n_unseen, discards, n_disc = sides.unseen, sides.n_unseen, sides.discards, sides.n_disc
    room = unseen.shape[1] + discards.shape[1]  # every card a side owns fits, whichever pile it is in
    deck = np.empty((2, room), dtype=np.int64)
    n_deck = np.empty(2, dtype=np.int64)
    disc = np.empty((2, room), dtype=np.int64)
    w_disc = np.empty(2, dtype=np.int64)
    opts = np.empty((n * 6, 4), dtype=np.int64)
    act = np.empty((2, 6), dtype=np.int64)
    t_next = np.empty(2)
    rs = np.empty(1, dtype=np.int64)
    reaction, jitter, policy = sides.reaction, plan.jitter, plan.policy
    for i in range(cands.shape[0]):
        out[i, 0] = 0.0
        out[i, 1] = 0.0
        out[i, 2] = 0.0
        for r in range(plan.n_roll):
            # The same random numbers for every candidate (rollout r starts alike): fairer comparisons.
            rs[0] = ((plan.seed + r * 7919) ^ _MUL) & MASK48
            w.owner[:] = t.owner
            w.hues[:, :] = t.hues
            w.seams[:, :] = t.seams
            w_hands[:, :] = sides.hands
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
            _decide(w, designs, foe, w_hands, policy, rs, opts, act)
            t_next[foe] = _next(rs, 24) / 16777216.0 * _delay(rs, reaction[foe], jitter)
            for z in range(6):
                act[me, z] = cands[i, z]
            if cands[i, 1] < 0:
                act[me, 1] = DISCARD
            t_next[me] = _delay(rs, reaction[me], jitter)
            winner = -1
            for _ in range(plan.horizon):
                side = me if t_next[me] < t_next[foe] else foe
                if _step(w, side, w_hands, deck, n_deck, disc, w_disc, act) == 1:
                    winner = side
                    break
                if sides_closed(w, 2):
                    break
                _decide(w, designs, side, w_hands, policy, rs, opts, act)
                t_next[side] += _delay(rs, reaction[side], jitter)
            if winner == me:
                out[i, 0] += 1.0
            elif winner == foe:
                out[i, 1] += 1.0
            else:
                out[i, 2] += 1.0


# ----- the plain-Python reference (the tests' yardstick) ----------------------------------------
_Face = tuple[int, ...]  # (left, right, top, bottom) codes
_Placement = tuple[int, int, _Face]  # (design, cell, face)
_Action = _Placement | tuple[str]  # a card laid, or ("discard",) or ("wait",)


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
    t: TableArrays, designs: DeckArrays, sides: SideArrays, me: int, cands: np.ndarray, plan: RolloutPlan
) -> np.ndarray:
    """The same as `rollouts` with lists, through the reference predicates; returns the (k, 3) counts."""
    foe = 1 - me
    n = t.width * t.height
    jitter, policy = plan.jitter, plan.policy

    def faces(d: int) -> list[_Face]:
        return [tuple(int(x) for x in designs.faces[d][k]) for k in range(designs.n_faces[d])]

    def decide(w: TableArrays, side: int, hands: list[list[int]], rng: _Rng) -> _Action:
        options: list[_Placement] = []
        blocking: list[_Placement] = []
        for cell in range(n):
            if not legal_cell_reference(w, cell, side, True, True, False):
                continue
            here = [(d, cell, f) for d in hands[side] for f in faces(d) if fits_reference(w, cell, side, f, FIT_ALL)]
            if policy >= 1 and here and wins_at_reference(w, cell, side):
                return here[0]
            options += here
            if policy >= 2 and here and win_cell_reference(w, cell, 1 - side):
                if any(fits_reference(w, cell, 1 - side, f, FIT_ALL) for d in hands[1 - side] for f in faces(d)):
                    blocking += here
        if not options:
            return ("discard",) if hands[side] else ("wait",)
        pool = blocking or options
        return pool[rng.below(len(pool))]

    def draw(side: int, hands: list[list[int]], decks: list[list[int]], piles: list[list[int]]) -> None:
        while len(hands[side]) < 3:
            if not decks[side]:
                if not piles[side]:
                    return
                decks[side], piles[side] = list(reversed(piles[side])), []
            hands[side].append(decks[side].pop())

    out = np.zeros((len(cands), 3))
    for i, cand in enumerate(cands):
        for r in range(plan.n_roll):
            rng = _Rng(((plan.seed + r * 7919) ^ _MUL) & MASK48)
            w = t.copy()
            held = [[int(d) for d in sides.hands[s] if d >= 0] for s in range(2)]
            decks: list[list[int]] = []
            piles: list[list[int]] = []
            for s in range(2):
                deck = [int(d) for d in sides.unseen[s][: sides.n_unseen[s]]]
                for q in range(len(deck) - 1, 0, -1):
                    z = rng.below(q + 1)
                    deck[q], deck[z] = deck[z], deck[q]
                decks.append(deck)
                piles.append([int(d) for d in sides.discards[s][: sides.n_disc[s]]])
            acts: dict[int, _Action] = {foe: decide(w, foe, held, rng)}
            t_next = {foe: rng.next(24) / 16777216.0 * rng.delay(sides.reaction[foe], jitter)}
            design, cell = int(cand[0]), int(cand[1])
            acts[me] = ("discard",) if cell < 0 else (design, cell, tuple(int(x) for x in cand[2:]))
            t_next[me] = rng.delay(sides.reaction[me], jitter)
            winner = -1
            for _ in range(plan.horizon):
                side = me if t_next[me] < t_next[foe] else foe
                action = acts[side]
                if len(action) == 3:  # a card laid: (design, cell, face)
                    d, c, f = action
                    if w.owner[c] < 0 and fits_reference(w, c, side, f, FIT_ALL):
                        w.owner[c], w.hues[c], w.seams[c] = side, f[:2], f[2:]
                        held[side].remove(d)
                        if not held[side]:
                            draw(side, held, decks, piles)
                        if wins_at_reference(w, c, side):
                            winner = side
                            break
                elif action == ("discard",):
                    piles[side] += held[side]
                    held[side] = []
                    draw(side, held, decks, piles)
                if sides_closed_reference(w, 2):
                    break
                acts[side] = decide(w, side, held, rng)
                t_next[side] += rng.delay(sides.reaction[side], jitter)
            out[i, 0 if winner == me else 1 if winner == foe else 2] += 1
    return out
