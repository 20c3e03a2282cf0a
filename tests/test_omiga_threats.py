"""The bots' threat kernels against their plain-Python references, on random tables."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.players.omiga.threat_kernels import (
    race,
    race_reference,
    two_ply,
    two_ply_reference,
    win_weights,
    win_weights_reference,
)
from ogames.rules.omiga.cards import STANDARD
from ogames.rules.omiga.table import Table, deck_arrays, face_codes

DESIGNS = deck_arrays(STANDARD)


def bundle(table: Table, blocked: np.ndarray, me: int, forward: int):
    """The table's bundle with `me` playing in direction `forward` and the other owner the other way."""
    directions = np.array([forward, -forward] if me == 0 else [-forward, forward], dtype=np.int64)
    return table.arrays(blocked)._replace(forward=directions)


def random_table(rng: random.Random, width: int, height: int, fill: float) -> Table:
    table = Table(width, height)
    for cell in range(width * height):
        if rng.random() < fill:
            design = rng.randrange(36)
            table.place(cell, rng.choice(table.owners), design, rng.choice(STANDARD.faces(design)))
    return table


def random_weights(rng: random.Random) -> np.ndarray:
    weights = np.zeros(36)
    for d in rng.sample(range(36), rng.randint(0, 8)):
        weights[d] = rng.choice([1.0, 0.5, 0.25])
    return weights


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), width=st.integers(3, 9), height=st.integers(3, 8), fill=st.floats(0.1, 0.7))
def test_win_weights_match_reference(seed, width, height, fill):
    rng = random.Random(seed)
    table = random_table(rng, width, height, fill)
    blocked = np.array([rng.random() < 0.1 for _ in range(width * height)])
    me, forward, weights = rng.randrange(2), rng.choice([1, -1]), random_weights(rng)
    out = np.zeros(width * height)
    t = bundle(table, blocked, me, forward)
    total = win_weights(t, DESIGNS, me, weights, out)
    cells, ref_total = win_weights_reference(t, DESIGNS, me, weights)
    assert np.allclose(out, cells) and abs(total - ref_total) < 1e-9


def test_win_weights_see_behind_and_far_edge():
    table = Table()
    a = STANDARD.designs[0]  # AA//: fits next to itself on every side
    table.place(table.cell("h6"), "white", 0, a)
    table.place(table.cell("g7"), "black", 0, a)
    table.place(table.cell("g6"), "black", 0, a)
    out, blocked = np.zeros(150), np.zeros(150, dtype=np.bool_)
    weights = np.zeros(36)
    weights[0] = 1.0
    total = win_weights(table.arrays(blocked), DESIGNS, 1, weights, out)
    # Black (owner 1, playing upwards) wins on h7, behind the white card, beside its own g7.
    assert total == 1.0 and out[table.cell("h7")] == 1.0
    blocked[table.cell("h7")] = True
    assert win_weights(table.arrays(blocked), DESIGNS, 1, weights, out) == 0.0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_two_ply_matches_reference(seed):
    rng = random.Random(seed)
    width, height = rng.randint(4, 8), rng.randint(4, 7)
    table = random_table(rng, width, height, rng.uniform(0.2, 0.5))
    blocked = np.zeros(width * height, dtype=np.bool_)
    me, forward = rng.randrange(2), rng.choice([1, -1])
    foe = 1 - me

    def moves(owner_index: int) -> list[tuple[int, ...]]:
        found = []
        for design in rng.sample(range(36), 4):
            for cell, face in table.legal_placements(owner_index, design)[:3]:
                found.append((cell, *face_codes(face)))
        return [*found, (-1, 0, 0, 0, 0)]

    mine, theirs = moves(me), moves(foe)
    my_w = np.array([random_weights(rng) for _ in mine])
    foe_w = np.array([random_weights(rng) for _ in theirs])
    out = np.zeros((len(mine), len(theirs), 4))
    t = bundle(table, blocked, me, forward)
    work = t.copy()
    two_ply(work, DESIGNS, me, foe, np.array(mine, dtype=np.int64), my_w, np.array(theirs, dtype=np.int64), foe_w, out)
    ref = two_ply_reference(t, DESIGNS, me, foe, mine, my_w, theirs, foe_w)
    assert np.allclose(out, ref)
    assert (work.owner == table.owner).all()  # the kernel takes back every card it tried


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 5))
def test_race_matches_reference(seed, depth):
    rng = random.Random(seed)
    width, height = rng.randint(3, 9), rng.randint(3, 8)
    table = random_table(rng, width, height, rng.uniform(0.1, 0.6))
    blocked = np.array([rng.random() < 0.1 for _ in range(width * height)])
    me, forward = rng.randrange(2), rng.choice([1, -1])
    dist = np.zeros(width * height, dtype=np.int64)
    t = bundle(table, blocked, me, forward)
    total = race(t, me, depth, 0.5, dist)
    ref_total, ref_dist = race_reference(t, me, depth, 0.5)
    assert abs(total - ref_total) < 1e-9 and list(dist) == ref_dist


def test_race_counts_placements_to_a_win():
    table = Table()
    a = STANDARD.designs[0]
    table.place(table.cell("h6"), "white", 0, a)
    table.place(table.cell("h5"), "black", 0, a)
    dist = np.zeros(150, dtype=np.int64)
    blocked = np.zeros(150, dtype=np.bool_)
    race(table.arrays(blocked), 1, 5, 0.5, dist)
    # Black reaches h7 (behind h6) by g5, g6, g7 and then h7: four placements (or the mirror on the right).
    assert dist[table.cell("h7")] == 4 and dist[table.cell("g5")] == 1 and dist[table.cell("g6")] == 2
