"""Omiga kids («Дети») in its turn-based form (`pace=turns`), RULES.md §5: start, rules 1–2 without
rule 3, far edge, draws, bad input; records of turn-based kids and toddler. Real-time kids (the
default) is tested in test_omiga_kids_realtime.py."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.errors import IllegalMove
from ogames.records import replay
from ogames.rules import load
from ogames.rules.omiga.cards import STANDARD, Face
from ogames.rules.omiga.table import KIDS_RULES
from omiga_turns_helpers import snapshot


def kids(seed: int = 1, **extra):
    return load("omiga", variant="kids", pace="turns", seed=seed, **extra).new_state()


def play_random(state, seed: int, limit: int = 10_000):
    rng = random.Random(seed)
    while not state.is_over and state.ply < limit:
        state.play(rng.choice(state.legal_moves()), t=0.0)
    return state


# ----- kids ---------------------------------------------------------------------------------
def test_kids_start_cards_at_each_home_edge_in_one_line():
    state = kids()
    w, h = state.table.width, state.table.height
    assert state.stone_at(state.table.label(state.table.number(w // 2, 0))) == "black"
    assert state.stone_at(state.table.label(state.table.number(w // 2, h - 1))) == "white"
    assert len(state.table) == 2
    assert all(len(hand) == 1 for hand in state.hands.values())  # one card at a time
    assert state.to_move == "white"


def test_kids_moves_are_exactly_the_rule_1_and_2_placements_without_rule_3():
    state = kids(4)
    for _ in range(30):
        if state.is_over:
            break
        colour = state.to_move
        design = state.hands[colour][0]
        allowed = state.table.legal_placements_reference(colour, design, KIDS_RULES)
        moves = state.legal_moves()
        if allowed:
            assert len(moves) == len(allowed)
            for cell, _ in allowed:
                assert state.table.touches_own(cell, colour)
        else:
            assert moves == ["discard"]
        state.play(random.Random(state.ply).choice(moves), t=0.0)


def test_kids_far_edge_wins_and_no_behind_win():
    state = kids(2, height=3)
    # On a 3-row table, a white card in the middle row is "behind" nothing that counts; the far edge does.
    while not state.is_over:
        moves = state.legal_moves()
        far = [m for m in moves if m.startswith("place") and m.split()[1][-1] == ("1" if state.to_move == "white" else "3")]
        state.play((far or moves)[0], t=0.0)
    assert state.winner in ("white", "black", "draw")
    if state.winner != "draw":
        assert "far edge" in state.result.reason


def test_kids_discard_only_when_the_card_fits_nowhere():
    state = kids(1)
    before = snapshot(state)
    assert state.legal_moves() != ["discard"]
    with pytest.raises(IllegalMove, match="discarded only when it fits nowhere"):
        state.play("discard")
    assert snapshot(state) == before


def test_kids_draw_after_place_and_the_turn_passes():
    state = kids(3)
    colour = state.to_move
    top = state.supplies[colour].cards[-1]
    state.play(state.legal_moves()[0], t=0.0)
    assert state.hands[colour] == [top] and state.to_move != colour


@pytest.mark.parametrize(
    "move, why",
    [("place zz99", "not a cell"), ("jump", "say 'place"), ("place", "say 'place CELL'"), ("discard now", "nothing more")],
)
def test_kids_bad_actions_change_nothing(move, why):
    state = kids(5)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=why):
        state.play(move)
    assert snapshot(state) == before


def test_kids_placement_not_touching_own_card_is_refused():
    state = kids(6)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="rule 2"):
        state.play("place a5")
    assert snapshot(state) == before


def test_kids_acting_for_the_other_player_is_impossible_in_a_record():
    state = kids(7)
    record = state.play(state.legal_moves()[0], t=0.0).record()
    record["moves"][0]["by"] = "black"
    from ogames.errors import BadRecord

    with pytest.raises(BadRecord, match="white's turn"):
        replay(record)


def _give(state, colour: str, face: Face) -> None:
    """Put the design showing `face` into the colour's hand, swapping it with the card held (the supply stays whole)."""
    design = STANDARD.designs.index(face)
    supply, hand = state.supplies[colour], state.hands[colour]
    if design in supply.cards:
        supply.cards[supply.cards.index(design)] = hand[0]
    elif design in supply.discards:
        supply.discards[supply.discards.index(design)] = hand[0]
    hand[0] = design


def _relay(state, label: str, face: Face) -> None:
    """Replace a start card by the card of the same colour showing `face` (swapped with it in the supply)."""
    cell = state.table.cell(label)
    old = state.table.at(cell)
    design = STANDARD.designs.index(face)
    supply = state.supplies[old.owner]
    if design in supply.cards:
        supply.cards[supply.cards.index(design)] = old.design
    state.table.remove(cell)
    state.table.place(cell, old.owner, design, face)


def test_kids_draw_when_both_close_the_side_edges():
    # A 3 × 5 table: the start cards are b5 (white) and b1 (black); both players then reach a and c.
    state = kids(8, width=3, height=5)
    _relay(state, "b5", Face.from_code("AA//"))
    _relay(state, "b1", Face.from_code("AA//"))
    plan = [("white", "a5", "AA\\\\"), ("black", "a1", "AA\\\\"), ("white", "c5", "AA^^"), ("black", "c1", "AA^^")]
    for colour, cell, code in plan:
        assert not state.is_over and state.to_move == colour
        _give(state, colour, Face.from_code(code))
        assert f"place {cell}" in state.legal_moves()
        state.play(f"place {cell}", t=0.0)
        if cell == "c5":
            # One player on both side edges is not enough.
            assert state.table.on_side_edges("white") == (True, True) and state.table.on_side_edges("black") == (True, False)
            assert not state.is_over
    assert state.winner == "draw"
    assert state.result.reason == "both players have cards on the left and the right table edges"
    assert state.to_move is None and state.legal_moves() == []


def test_kids_draw_when_a_player_runs_out_of_placeable_cards():
    draws = [play_random(kids(seed), seed) for seed in range(4)]
    for state in draws:
        assert state.is_over
        if state.winner == "draw" and "run out" in state.result.reason:
            colour = state.result.reason.split()[0]
            assert state.stuck(colour)


def test_kids_after_the_end_nothing_goes():
    state = play_random(kids(9), 9)
    with pytest.raises(IllegalMove, match="game is over"):
        state.play("discard")


# ----- records ---------------------------------------------------------------------------------
@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["kids", "toddler"]), st.integers(0, 5000), st.integers(2, 6), st.integers(0, 80))
def test_records_replay_every_mode_exactly(variant, seed, players, cut):
    extra = {"players": players} if variant == "toddler" else {"pace": "turns"}
    state = load("omiga", variant=variant, seed=seed, **extra).new_state()
    play_random(state, seed, cut)
    again = replay(state.record())
    assert snapshot(again) == snapshot(state)
    assert again.record() == state.record()
