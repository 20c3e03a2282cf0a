"""Omiga 2v2: seats, shared team decks, drawing only when both hands are empty, freezing ends, rounds."""

from __future__ import annotations

import pytest

import ogames
from ogames.errors import IllegalMove


def new(**options):
    return ogames.load("omiga", **{"variant": "2v2", "seed": 3, **options}).new_state(["ann", "bob", "cat", "dan"])


def force(s, actor, label, t):
    """Give the actor a card that may be laid on the cell from the team's deck, and lay it."""
    colour = s.colour_of(actor)
    cell = s.table.cell(label)
    supply = s.supplies[colour]
    for design in list(supply.cards):
        for face in s.table.faces_of(design):
            if s.table.why_not(cell, colour, face) is None:
                supply.cards.remove(design)
                s.hands[actor].append(design)
                return s.act(actor, s.action_text(design, cell, face), t)
    raise AssertionError(f"no card in the deck fits {label}")


def test_seats_hands_and_shared_supply():
    s = new()
    assert s.actors == ("white1", "black1", "white2", "black2")
    assert s.seats == {"white": "ann & cat", "black": "bob & dan"}
    assert all(len(s.hands[a]) == 3 for a in s.actors)
    assert len(s.supplies["white"]) == 36 - 1 - 6
    with pytest.raises(IllegalMove, match="not playing"):
        s.act("white", "discard", 1)


def test_partner_draws_only_when_both_hands_are_empty():
    s = new()
    s.act("white1", "discard", 1)
    assert s.hands["white1"] == [] and len(s.hands["white2"]) == 3
    with pytest.raises(IllegalMove, match="no cards in hand"):
        s.act("white1", "discard", 2)
    s.act("white2", "discard", 3)
    assert len(s.hands["white1"]) == 3 and len(s.hands["white2"]) == 3
    assert len(s.supplies["white"].discards) == 6


def test_a_score_freezes_its_end():
    s = new()  # white h6, black h5
    force(s, "white1", "g6", 1)
    force(s, "white2", "g5", 2)
    force(s, "white1", "g4", 3)
    force(s, "white2", "h4", 4)  # behind black's h5: h is the start column, its neighbour g4 is left
    assert s.scores == {"white": 1, "black": 0} and s.frozen["left"] == "white" and s.frozen["right"] is None
    left_cols = range(s.start_col)
    for actor in s.actors:
        assert all(s.table.position(c)[0] not in left_cols for _, c, _ in s.placements(actor))
    # A left cell that the placement rules alone allow is refused because the end is frozen.
    s.table.place(s.table.cell("f4"), "black", 0, s.table.card_set.designs[0])
    colour = "white"
    design, cell, face = next(
        (d, c, f) for d in range(36) for c, f in s.table.legal_placements(colour, d) if s.table.position(c)[0] in left_cols
    )
    s.hands["white1"].append(design)
    before = s.table.owner.copy()
    with pytest.raises(IllegalMove, match="on the left end, which white scored and froze"):
        s.act("white1", s.action_text(design, cell, face), 5)
    assert (s.table.owner == before).all()


def test_an_end_freezes_scoreless_when_both_teams_reach_its_edge():
    s = new(width=5)  # white c6, black c5
    force(s, "white1", "b6", 1)
    force(s, "black1", "b5", 2)
    force(s, "white2", "a6", 3)
    assert s.frozen["left"] is None
    force(s, "black2", "a5", 4)
    assert s.frozen["left"] == "closed" and s.scores == {"white": 0, "black": 0}


def test_round_ends_when_both_ends_freeze_and_points_carry():
    s = new(width=5)
    force(s, "white1", "b6", 1)
    force(s, "black1", "b5", 2)
    force(s, "white2", "a6", 3)
    force(s, "black2", "a5", 4)
    force(s, "white1", "d6", 5)
    force(s, "black1", "d5", 6)
    force(s, "white2", "e6", 7)
    force(s, "black2", "e5", 8)
    assert s.round == 2 and s.points == {"white": 0, "black": 0} and len(s.table) == 2
    assert s.round_log[0] == {"round": 1, "white": 0, "black": 0}


def test_target_and_the_tie_rule():
    s = new(target=1)
    s.points = {"white": 1, "black": 1}
    s.round_points = {"white": 0, "black": 0}
    s._end_round()  # tied at the target: play on
    assert s.result is None and s.round == 2
    s.round_points = {"white": 1, "black": 0}
    s._end_round()
    assert s.winner == "white" and "2 points to 1" in s.result.reason


def test_2v2_record_replays():
    s = new()
    s.act("black2", "discard", 1)
    s.play(next(m for m in s.legal_moves() if m.startswith("white1: place")), t=2)
    s.submit("black1", "place 0 a1", 3)  # rejected: kept in meta, not in the moves
    again = ogames.replay(s.record())
    assert again.hands == s.hands and again.history == s.history
    assert again.record()["moves"] == s.record()["moves"] and s.record()["meta"]["rejected"]


# ----- which end a card in the start column joins (teams.py, docs/rules/omiga.md "2v2") -------------
# The default table is 15 × 10: the start column is h, White's start card on h6, Black's on h5.


def lay(s, label, colour, side=None):
    """Put a card on a cell as a laid card of an end (None: as a start card, of no end), rules aside."""
    cell = s.table.cell(label)
    s.table.place(cell, colour, 0, s.table.card_set.designs[0])
    if side is not None:
        s.side_of_cell[cell] = side


def end_of(s, label):
    return s.side_of(s.table.cell(label))


def test_the_halves_are_the_ends_and_a_start_column_card_touching_no_end_joins_the_first_open_one():
    s = new()
    assert s.start_col == s.table.position(s.table.cell("h6"))[0]
    assert end_of(s, "a3") == "left" and end_of(s, "g9") == "left" and end_of(s, "i2") == "right" and end_of(s, "o10") == "right"
    assert end_of(s, "h7") == "left" and end_of(s, "h4") == "left"  # beside the start cards only: the left end
    s.frozen["left"] = "white"
    assert end_of(s, "h7") == "right" and end_of(s, "h4") == "right"  # the first end still open
    assert end_of(s, "g7") == "left"  # a half stays its end, frozen or not
    s.frozen = {"left": None, "right": "closed"}
    assert end_of(s, "h7") == "left"


@pytest.mark.parametrize("frozen", [None, "white", "closed"])
def test_a_start_column_card_touching_one_end_joins_it_even_frozen(frozen):
    s = new()
    lay(s, "g7", "white", "left")
    lay(s, "i4", "black", "right")
    s.frozen = {"left": frozen, "right": None}
    assert end_of(s, "h7") == "left"  # touches the left end's g7 (and White's start card)
    assert end_of(s, "h4") == "right"  # touches the right end's i4 (and Black's start card)
    blocked = s.blocked()
    assert (blocked is not None and bool(blocked[s.table.cell("h7")])) == (frozen is not None)


def test_a_start_column_card_touching_both_ends_joins_the_left_while_both_are_open_else_the_open_one():
    s = new()
    lay(s, "g7", "white", "left")
    lay(s, "i7", "white", "right")
    assert end_of(s, "h7") == "left"
    s.frozen = {"left": "black", "right": None}
    assert end_of(s, "h7") == "right"
    s.frozen = {"left": None, "right": "closed"}
    assert end_of(s, "h7") == "left"
    s.frozen = {"left": "black", "right": "white"}
    assert end_of(s, "h7") == "left"  # both frozen: closed either way (the round is over)


def test_a_laid_start_column_card_keeps_its_end_and_passes_it_on():
    s = new()
    lay(s, "h7", "white", "right")  # laid while it joined the right end
    lay(s, "g7", "white", "left")
    assert end_of(s, "h7") == "right"  # its end does not change with what is laid beside it later
    assert end_of(s, "h8") == "right"  # touches only h7: the right end
    s.frozen["right"] = "black"
    assert end_of(s, "h8") == "right" and s.blocked()[s.table.cell("h8")]  # lengthening a frozen end: closed


def test_a_card_laid_in_the_start_column_records_the_end_of_the_rule_and_its_score_freezes_that_end():
    s = new()  # white h6, black h5
    for label, side in (("g6", "left"), ("g5", "left"), ("g4", "left"), ("i6", "right"), ("i5", "right"), ("i4", "right")):
        lay(s, label, "white", side)
    lay(s, "j5", "black", "right")  # Black is not walled in: the round goes on after a point
    lay(s, "g2", "black", "left")  # beside h3 diagonally: rule 3 alone would let White lay there
    force(s, "white1", "h4", 1)  # touches g4 (left) and i4 (right), both open: the left end; behind h5: a point
    assert s.round == 1 and s.side_of_cell[s.table.cell("h4")] == "left"
    assert s.frozen == {"left": "white", "right": None} and s.scores == {"white": 1, "black": 0}
    # h3 touches only h4, of the frozen left end: closed, so no placement lists it and laying there is refused.
    h3 = s.table.cell("h3")
    assert s.blocked()[h3] and all(c != h3 for a in s.actors for _, c, _ in s.placements(a))
    design, face = next((d, f) for d in range(36) for f in s.table.faces_of(d) if s.table.why_not(h3, "white", f) is None)
    s.hands["white2"].append(design)
    with pytest.raises(IllegalMove, match="h3 is on the left end, which white scored and froze"):
        s.act("white2", s.action_text(design, h3, face), 2)
