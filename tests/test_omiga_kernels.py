"""The compiled Omiga rules (kernels/omiga.py): each predicate against its plain reference, against the
Table's own rule methods, and the win and draw tests against the base game's engine."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.kernels import omiga as k
from ogames.rules.omiga.cards import STANDARD
from ogames.rules.omiga.table import BASE_RULES, KIDS_RULES, TODDLER_RULES, ZEN_RULES, PlacementRules, Table, face_codes

OWNERS = ("white", "black", "red")
ALL_FACES = sorted({f for d in range(len(STANDARD)) for f in STANDARD.faces(d)})
FIT_MODES = {"all": k.FIT_ALL, "own": k.FIT_OWN, "none": k.FIT_NONE}


def random_table(rng: random.Random) -> tuple[Table, np.ndarray]:
    """A random table (2 or 3 owners, random home rows, sizes down to one row or column) and blocked cells."""
    width, height = rng.randint(1, 8), rng.randint(1, 7)
    owners = OWNERS[: rng.randint(2, 3)]
    table = Table(width, height, owners=owners, home_rows=[rng.choice((0, height - 1)) for _ in owners])
    fill = rng.uniform(0.0, 0.8)
    for cell in range(width * height):
        if rng.random() < fill:
            design = rng.randrange(len(STANDARD))
            table.place(cell, rng.randrange(len(owners)), design, rng.choice(STANDARD.faces(design)))
    blocked = np.array([rng.random() < 0.15 for _ in range(width * height)], dtype=np.bool_)
    return table, blocked


def codes(face) -> np.ndarray:
    return np.array(face_codes(face), dtype=np.int8)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_each_predicate_matches_its_reference(seed):
    rng = random.Random(seed)
    table, blocked = random_table(rng)
    t = table.arrays(blocked)
    faces = rng.sample(ALL_FACES, 4)
    for cell in range(table.width * table.height):
        for me in range(len(table.owners)):
            for face in faces:
                for mode in FIT_MODES.values():
                    assert k.fits(t, cell, me, codes(face), mode) == k.fits_reference(t, cell, me, face_codes(face), mode)
            assert k.orthogonal_contacts(t, cell, me) == k.orthogonal_contacts_reference(t, cell, me)
            assert k.diagonal_opponent(t, cell, me) == k.diagonal_opponent_reference(t, cell, me)
            assert k.touches_opponent(t, cell, me) == k.touches_opponent_reference(t, cell, me)
            for flags in ((o, p, j) for o in (False, True) for p in (False, True) for j in (False, True)):
                assert k.legal_cell(t, cell, me, *flags) == k.legal_cell_reference(t, cell, me, *flags)
            assert k.reaches_far_edge(t, cell, me) == k.reaches_far_edge_reference(t, cell, me)
            assert k.is_behind(t, cell, me) == k.is_behind_reference(t, cell, me)
            assert k.wins_at(t, cell, me) == k.wins_at_reference(t, cell, me)
            assert k.win_cell(t, cell, me) == k.win_cell_reference(t, cell, me)
    for n in range(1, len(table.owners) + 1):
        assert k.sides_closed(t, n) == k.sides_closed_reference(t, n)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_compiled_rules_agree_with_the_table(seed):
    rng = random.Random(seed)
    table, blocked = random_table(rng)
    t = table.arrays(blocked)
    faces = rng.sample(ALL_FACES, 3)
    for cell in range(table.width * table.height):
        for me, name in enumerate(table.owners):
            for face in faces:
                assert k.fits(t, cell, me, codes(face), k.FIT_ALL) == table.fits(cell, face)
                assert k.fits(t, cell, me, codes(face), k.FIT_OWN) == table.fits_own(cell, face, name)
                for rules in (BASE_RULES, KIDS_RULES, TODDLER_RULES, ZEN_RULES, PlacementRules(fit="none", own=False)):
                    legal = k.legal_cell(t, cell, me, rules.own, rules.opponent, rules.touch) and k.fits(
                        t, cell, me, codes(face), FIT_MODES[rules.fit]
                    )
                    assert legal == (not blocked[cell] and table.why_not(cell, name, face, rules) is None)
            own, _ = k.orthogonal_contacts(t, cell, me)
            assert own == table.touches_own(cell, name)
            assert k.touches_opponent(t, cell, me) == table.touches_opponent(cell, name)
            # The win test: far edge or behind, exactly where the Table names a reason.
            assert k.reaches_far_edge(t, cell, me) == table.reaches_far_edge(cell, name)
            assert k.is_behind(t, cell, me) == table.is_behind(cell, name)
            assert k.wins_at(t, cell, me) == (table.win_reason(cell, name) is not None)
            # A win cell: a card there would be legal (fitting aside) under the base rules and win.
            loose = PlacementRules(fit="none")
            expected = not blocked[cell] and table.why_not(cell, name, faces[0], loose) is None and table.win_reason(cell, name)
            assert k.win_cell(t, cell, me) == bool(expected)
    assert k.sides_closed(t, len(table.owners)) == table.sides_closed()
    assert k.sides_closed(t, 2) == table.sides_closed(table.owners[:2])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_compiled_win_and_draw_tests_agree_with_the_base_game(seed):
    # Random placements in a base game: the engine declares a win exactly where the compiled test says a card
    # wins, and the side-edges draw exactly when the compiled draw test says the table is closed.
    rng = random.Random(seed)
    state = ogames.load("omiga", seed=seed, width=rng.randint(5, 9), height=rng.randint(4, 8)).new_state()
    clock = 0.0
    while state.result is None and clock < 200:
        clock += 1.0
        actor = rng.choice(state.actors)
        options = state.placements(actor)
        if not options:
            state.submit(actor, "discard", clock)
            continue
        design, cell, face = rng.choice(options)
        me = state.table.index_of(state.colour_of(actor))
        wins = k.wins_at(state.table.arrays(), cell, me)
        assert k.win_cell(state.table.arrays(), cell, me) == wins
        assert state.submit(actor, state.action_text(design, cell, face), clock).accepted
        won = state.result is not None and state.result.winner == state.colour_of(actor)
        assert won == wins
        closed = state.result is not None and state.result.reason == "both players reached both side edges"
        assert closed == (not wins and k.sides_closed(state.table.arrays(), 2))


def test_the_bundle_shares_the_tables_arrays_and_copies_apart():
    table = Table(5, 4)
    t = table.arrays()
    table.place(table.cell("c2"), "black", 0, STANDARD.designs[0])
    assert t.owner[table.cell("c2")] == 1 and list(t.forward) == [-1, 1] and (t.width, t.height) == (5, 4)
    u = t.copy()
    u.owner[0] = 0
    assert table.owner[0] == -1 and u.blocked is t.blocked
    blocked = np.ones(20, dtype=np.bool_)
    assert table.arrays(blocked).blocked is blocked and not table.arrays().blocked.any()


def test_win_geometry_on_a_hand_built_table():
    # Black (owner 1) plays upwards on a 5 × 4 table: its far edge is row 4; behind the white c2 is c3.
    table = Table(5, 4)
    table.place(table.cell("c2"), "white", 0, STANDARD.designs[0])
    table.place(table.cell("b3"), "black", 0, STANDARD.designs[0])
    t = table.arrays()
    c3, b4, c1 = table.cell("c3"), table.cell("b4"), table.cell("c1")
    assert k.is_behind(t, c3, 1) and k.win_cell(t, c3, 1)
    assert k.reaches_far_edge(t, b4, 1) and not k.win_cell(t, b4, 1)  # no opponent card near b4 (rule 3)
    assert not k.wins_at(t, c1, 1) and k.reaches_far_edge(t, c1, 0)
