"""The Monte-Carlo rollout kernel against its plain-Python reference, and its bookkeeping."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.players.omiga.rollout_kernels import RolloutPlan, SideArrays, rollouts, rollouts_reference
from ogames.rules.omiga.cards import STANDARD
from ogames.rules.omiga.table import Table, deck_arrays, face_codes

DESIGNS = deck_arrays(STANDARD)


def random_position(rng: random.Random, width: int, height: int, fill: float):
    """A random table (cards of either colour), hands, hidden decks, discard piles and candidate moves for owner 0."""
    table = Table(width, height)
    used = [set(), set()]
    for cell in range(width * height):
        if rng.random() < fill:
            o = rng.randrange(2)
            design = rng.choice([d for d in range(36) if d not in used[o]])
            used[o].add(design)
            table.place(cell, o, design, rng.choice(STANDARD.faces(design)))
    hands = np.full((2, 3), -1, dtype=np.int64)
    unseen = np.zeros((2, 36), dtype=np.int64)
    piles = np.zeros((2, 36), dtype=np.int64)
    n_unseen, n_piles = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    for o in range(2):
        rest = [d for d in range(36) if d not in used[o]]
        rng.shuffle(rest)
        k = rng.randint(1, min(3, len(rest)))
        hands[o, :k] = rest[:k]
        pile = rest[k : k + rng.randint(0, 5)]
        deck = rest[k + len(pile) :]
        if rng.random() < 0.2:
            pile, deck = pile + deck, []  # decks run out: the pile turns over
        piles[o, : len(pile)], n_piles[o] = pile, len(pile)
        unseen[o, : len(deck)], n_unseen[o] = deck, len(deck)
    cands = [(-1, -1, 0, 0, 0, 0)]
    for d in hands[0][hands[0] >= 0]:
        for cell, face in table.legal_placements(0, int(d))[:3]:
            cands.append((int(d), cell, *face_codes(face)))
    blocked = np.array([rng.random() < 0.05 for _ in range(width * height)])
    return table, blocked, hands, unseen, n_unseen, piles, n_piles, np.array(cands, dtype=np.int64)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6), width=st.integers(3, 9), height=st.integers(3, 8), fill=st.floats(0.1, 0.6),
    policy=st.sampled_from([0, 1, 2]), jitter=st.sampled_from([0.0, 0.2]),
)
def test_rollouts_match_reference(seed, width, height, fill, policy, jitter):
    rng = random.Random(seed)
    table, blocked, hands, unseen, n_unseen, piles, n_piles, cands = random_position(rng, width, height, fill)
    assert list(table.arrays().forward) == [-1, 1]  # owner 0 (white) plays downwards
    sides = SideArrays(hands, unseen, n_unseen, piles, n_piles, np.array([1.0, rng.choice([0.5, 1.0, 2.0])]))
    args = (table.arrays(blocked), DESIGNS, sides, 0, cands, RolloutPlan(6, 30, policy, jitter, seed))
    out = np.zeros((len(cands), 3))
    before = (table.owner.copy(), hands.copy(), unseen.copy(), piles.copy())
    rollouts(*args, out)
    assert np.array_equal(out, rollouts_reference(*args))
    assert (out.sum(axis=1) == 6).all()
    # The kernel plays on its own buffers: the caller's table, hands and decks are untouched.
    assert all(np.array_equal(a, b) for a, b in zip(before, (table.owner, hands, unseen, piles), strict=True))


def run(table: Table, hands, cands, n_roll: int = 40) -> np.ndarray:
    """Rollouts on a small hand-built table with empty decks; owner 0 plays downwards."""
    empty, none = np.zeros((2, 36), dtype=np.int64), np.zeros(2, dtype=np.int64)
    out = np.zeros((len(cands), 3))
    sides = SideArrays(np.array(hands, dtype=np.int64), empty, none, empty, none, np.array([1.0, 1.0]))
    rollouts(table.arrays(), DESIGNS, sides, 0, np.array(cands, dtype=np.int64), RolloutPlan(n_roll, 30, 2, 0.2, 3), out)
    return out


def move(table: Table, label: str) -> tuple[int, ...]:
    return (0, table.cell(label), *face_codes(STANDARD.designs[0]))


def test_an_immediate_win_is_always_won():
    # Owner 0 plays downwards: a card on row 1 (the far edge) ends every rollout at once, before the foe can win.
    table = Table(5, 4)
    table.place(table.cell("c2"), 0, 0, STANDARD.designs[0])
    table.place(table.cell("b2"), 1, 1, STANDARD.designs[0])
    out = run(table, [[0, -1, -1], [2, -1, -1]], [move(table, "c1")])
    assert out[0, 0] == 40


def test_blocking_a_threat_is_worth_more_than_ignoring_it():
    # The foe (upwards) holds card 0, which wins on c4 (its far edge) beside its c3; only a card on c4 can stop it,
    # and only when that card lands before the foe's, which was already on its way.
    table = Table(5, 4)
    for label, owner in (("c3", 1), ("b3", 0), ("b4", 0), ("c2", 1)):
        table.place(table.cell(label), owner, 0, STANDARD.designs[0])
    out = run(table, [[0, -1, -1], [0, -1, -1]], [move(table, "c4"), (-1, -1, 0, 0, 0, 0)])
    assert out[1, 1] == 40  # a discard leaves the win on the table: the foe takes it every time
    assert 0 < out[0, 0] + out[0, 2] and out[0, 1] < 40
