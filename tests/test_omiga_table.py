"""Omiga table: the three placement rules, turned cards, win and draw tests, kernel vs reference."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.errors import UnknownLabel
from ogames.kernels.omiga import legal_cells, legal_cells_reference
from ogames.rules.omiga.cards import STANDARD, CardSet, Face
from ogames.rules.omiga.table import BASE_RULES, KIDS_RULES, TODDLER_RULES, ZEN_RULES, PlacementRules, Table, face_codes

F = Face.from_code


def small() -> Table:
    """A 5 × 4 table with a white card on c3 and a black card below it on c2."""
    t = Table(5, 4)
    t.place(t.cell("c3"), "white", 0, F("AB/^"))
    t.place(t.cell("c2"), "black", 1, F("BA\\/"))
    return t


def test_labels_and_cells():
    t = Table(15, 10)
    assert t.label(0) == "a1" and t.position(t.cell("o10")) == (14, 9)
    assert t.centre() == t.cell("h6")
    with pytest.raises(UnknownLabel):
        t.cell("p1")
    with pytest.raises(UnknownLabel):
        t.cell(150)


def test_rule1_colour_fits_but_seam_does_not():
    t = small()
    # Right of the white c3 (right hue B): left hue B fits the colour...
    good, bad_seam = F("BA//"), F("BA//")
    assert t.fits(t.cell("d3"), good)
    # ...but under the card above a seam must match: put a card on d4 whose bottom is '\'.
    t.place(t.cell("d4"), "black", 2, F("AA/\\"))
    assert not t.fits(t.cell("d3"), bad_seam)  # top '/' meets bottom '\' above
    assert t.fits(t.cell("d3"), F("BA\\/"))
    assert "does not match the card above it" in t.why_not(t.cell("d3"), "white", bad_seam)
    # Colour wrong on the left:
    assert not t.fits(t.cell("d3"), F("AA\\/"))


def test_vertical_fit_point_into_notch():
    t = Table(3, 3)
    t.place(t.cell("b1"), "black", 0, F("AA^^"))  # top edge a point up
    assert t.fits(t.cell("b2"), F("AA/^"))  # bottom '^': a notch taking the point
    assert not t.fits(t.cell("b2"), F("AA/v"))


def test_turned_card_fits_where_printed_does_not():
    t = small()
    printed = F("AB/^")
    assert not t.fits(t.cell("d3"), printed)  # left hue A against B
    assert t.fits(t.cell("d3"), printed.turned())  # turned: left hue B
    no_turn = Table(5, 4, CardSet(STANDARD.designs, turning=False))
    assert no_turn.faces_of(printed) == (printed,)
    assert t.faces_of(printed) == (printed, printed.turned())


def test_rule2_and_rule3_fail_separately():
    t = small()
    # b3 touches white c3 (own) and black c2 diagonally: both rules hold for white.
    assert t.touches_own(t.cell("b3"), "white") and t.touches_opponent(t.cell("b3"), "white")
    # c4 touches white c3 but no black card orthogonally or diagonally: rule 3 fails only.
    assert t.touches_own(t.cell("c4"), "white") and not t.touches_opponent(t.cell("c4"), "white")
    assert "rule 3" in t.why_not(t.cell("c4"), "white", F("AA^/"))
    # b2 touches black c2 orthogonally, white c3 diagonally, but no white card orthogonally: rule 2 fails only.
    assert not t.touches_own(t.cell("b2"), "white") and t.touches_opponent(t.cell("b2"), "white")
    assert "rule 2" in t.why_not(t.cell("b2"), "white", F("AB//"))
    # Kids rules drop rule 3, so c4 is fine there with a fitting face.
    assert t.why_not(t.cell("c4"), "white", F("AA^/"), KIDS_RULES) is None


def test_toddler_fit_only_own_and_zen_joining():
    t = small()
    # d3 next to white c3 (right hue B): a black card with left hue A does not fit, yet toddler ignores it.
    t.place(t.cell("d2"), "black", 3, F("AA//"))
    face = F("AA//")
    assert t.fits_own(t.cell("d3"), face, "black")
    assert not t.fits(t.cell("d3"), face)
    assert t.why_not(t.cell("d3"), "black", face, TODDLER_RULES) is None
    assert t.why_not(t.cell("e4"), "black", F("AA//"), ZEN_RULES) is not None  # joins nothing
    assert t.touches_any(t.cell("e2")) and not t.touches_any(t.cell("e4"))


def test_wins_far_edge_and_behind():
    t = Table(5, 4)
    assert t.reaches_far_edge(t.cell("b4"), "black") and not t.reaches_far_edge(t.cell("b4"), "white")
    assert t.reaches_far_edge(t.cell("b1"), "white")
    t.place(t.cell("c2"), "white", 0, F("AA//"))
    # Black plays upwards: behind the white c2 is c3 (its home side c2 holds white).
    assert t.is_behind(t.cell("c3"), "black") and not t.is_behind(t.cell("c1"), "black")
    assert "behind the card on c2" in t.win_reason(t.cell("c3"), "black")
    t.place(t.cell("b3"), "black", 0, F("AA//"))
    # White plays downwards: behind the black b3 is b2.
    assert t.is_behind(t.cell("b2"), "white") and not t.is_behind(t.cell("b4"), "white")
    assert t.win_reason(t.cell("d3"), "white") is None


def test_draw_both_players_on_both_side_edges():
    t = Table(4, 3)
    for label, owner in (("a1", "black"), ("d1", "black"), ("a2", "white")):
        t.place(t.cell(label), owner, 0, F("AA//"))
    assert not t.sides_closed()
    assert t.edge_reached_by_all("left") and not t.edge_reached_by_all("right")
    t.place(t.cell("d2"), "white", 0, F("AA//"))
    assert t.sides_closed()


def test_copy_is_independent():
    t = small()
    u = t.copy()
    u.place(u.cell("a1"), "white", 5, F("AA//"))
    assert t.at(t.cell("a1")) is None and u.at(u.cell("a1")).design == 5


def random_table(rng: random.Random, width: int, height: int, fill: float) -> Table:
    t = Table(width, height)
    for cell in range(width * height):
        if rng.random() < fill:
            design = rng.randrange(36)
            t.place(cell, rng.choice(t.owners), design, rng.choice(STANDARD.faces(design)))
    return t


RULE_SETS = [BASE_RULES, KIDS_RULES, TODDLER_RULES, ZEN_RULES, PlacementRules(fit="none")]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), width=st.integers(1, 9), height=st.integers(1, 8), fill=st.floats(0, 0.8))
def test_kernel_matches_references_on_random_tables(seed, width, height, fill):
    rng = random.Random(seed)
    t = random_table(rng, width, height, fill)
    blocked = np.array([rng.random() < 0.1 for _ in range(width * height)], dtype=np.bool_)
    owner = rng.choice(t.owners)
    design = rng.randrange(36)
    for rules in RULE_SETS:
        fast = t.legal_placements(owner, design, rules, blocked)
        slow = t.legal_placements_reference(owner, design, rules, blocked)
        assert fast == slow
        faces = np.array([face_codes(f) for f in t.faces_of(design)], dtype=np.int8)
        mode = {"all": 0, "own": 1, "none": 2}[rules.fit]
        flags = (mode, rules.own, rules.opponent, rules.touch)
        me = t.index_of(owner)
        ref = legal_cells_reference(t.arrays(blocked), me, faces, *flags)
        out = np.empty((width * height * 2, 2), dtype=np.int32)
        n = legal_cells(t.arrays(blocked), me, faces, *flags, out)
        assert [tuple(map(int, row)) for row in out[:n]] == ref


def test_every_legal_placement_obeys_the_three_rules():
    rng = random.Random(7)
    t = random_table(rng, 8, 6, 0.35)
    for design in range(36):
        for cell, face in t.legal_placements("black", design):
            assert t.fits(cell, face) and t.touches_own(cell, "black") and t.touches_opponent(cell, "black")


def test_bad_owner_and_home_rows():
    t = Table(3, 3)
    with pytest.raises(ValueError, match="red"):
        t.index_of("red")
    with pytest.raises(ValueError, match="home row"):
        Table(3, 3, home_rows=(1, 0))
    multi = Table(5, 5, owners=("white", "black", "red"), home_rows=(0, 0, 0))
    assert multi.forward("red") == 1 and multi.far_row("white") == 4
