"""Omiga kids («Дети») and toddler («Карапуз»), RULES.md §5: rules, bad input, shared wins, records."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.errors import BadOption, IllegalMove
from ogames.records import replay
from ogames.rules import load
from ogames.rules.omiga.cards import Face
from ogames.rules.omiga.table import KIDS_RULES


def kids(seed: int = 1, **extra):
    return load("omiga", variant="kids", seed=seed, **extra).new_state()


def toddler(players: int = 2, seed: int = 1, **extra):
    return load("omiga", variant="toddler", players=players, seed=seed, **extra).new_state()


def snapshot(state) -> tuple:
    return (
        state.ply,
        state.turn,
        tuple((c, tuple(h)) for c, h in state.hands.items()),
        tuple((cell, card) for cell, card in state.table.cards()),
        tuple((c, tuple(s.cards), tuple(s.discards)) for c, s in state.supplies.items()),
        state.result,
    )


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
        allowed = state.table.legal_placements_slow(colour, design, KIDS_RULES)
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


def test_kids_draw_when_both_close_the_side_edges(monkeypatch):
    state = kids(8)
    monkeypatch.setattr(state.table, "sides_closed", lambda owners=None: True)
    state.play(state.legal_moves()[0], t=0.0) if state.legal_moves() != ["discard"] else None
    assert state.winner == "draw" and "left and the right" in state.result.reason


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


# ----- toddler ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 6])
def test_toddler_areas_start_on_one_edge(players):
    state = toddler(players)
    assert state.colours == ("white", "black", "red", "blue", "green", "yellow")[:players]
    bottom = [state.table.owner_at(state.table.number(c, 0)) for c in range(state.table.width)]
    assert sorted(c for c in bottom if c) == sorted(state.colours)
    assert all(state.table.far_row(c) == state.table.height - 1 for c in state.colours)


def test_toddler_player_count_is_checked():
    with pytest.raises(BadOption, match="players=7"):
        load("omiga", variant="toddler", players=7)
    with pytest.raises(BadOption):
        load("omiga", variant="toddler", players=1)


def test_toddler_cards_of_other_players_need_not_fit():
    state = toddler(2, 3, width=3)  # areas at columns 0 and 1 (3 * 1 // 4 = 0, 3 * 3 // 4 = 2)
    white = state.table.number(0, 0)
    # A face that does not fit white's card at all is still fine beside it for black (own cards only).
    misfit = Face("B" if state.table.at(white).face.right == "A" else "A", "A", "/", "/")
    cell = state.table.number(1, 0)
    assert not state.table.fits(cell, misfit)
    black_start = state.table.number(2, 0)
    if state.table.misfit(cell, misfit, "black") is None:
        assert state.table.why_not(cell, "black", misfit, state.rules) is None
    assert state.table.touches_own(cell, "black") and black_start is not None


def test_toddler_round_everyone_draws_then_acts_in_seat_order():
    state = toddler(3, 4)
    assert all(len(h) == 1 for h in state.hands.values())
    order = []
    for _ in range(3):
        order.append(state.to_move)
        state.play(state.legal_moves()[0], t=0.0)
    assert order == ["white", "black", "red"] and state.round == 2
    assert all(len(h) == 1 for h in state.hands.values())


def _race(state):
    """Everyone plays the move that climbs highest."""
    while not state.is_over:
        moves = state.legal_moves()
        state.play(max(moves, key=lambda m: int(m.split()[1][1:]) if m.startswith("place") else -1), t=0.0)
    return state


def test_toddler_ties_within_a_round_share_the_win():
    shared = None
    for seed in range(60):
        state = _race(toddler(2, seed, height=3))
        assert state.winners, state.result
        if len(state.winners) == 2:
            shared = state
            break
    assert shared is not None
    assert shared.winner == "white+black" and "share" in shared.result.reason
    assert shared.rewards() == [0.5, 0.5]


def test_toddler_single_winner_is_a_colour_and_the_round_is_finished():
    state = _race(toddler(3, 11, height=4))
    assert state.winners and all(c in state.colours for c in state.winners)
    if len(state.winners) == 1:
        assert state.winner == state.winners[0]
        assert state.rewards()[state.colours.index(state.winner)] == 1.0
    assert state.ply % 3 == 0  # the game ends only at the end of a round


def test_toddler_resign_gives_the_others_a_shared_win():
    state = toddler(3, 2)
    state.resign("black")
    assert state.winners == ["white", "red"] and state.rewards() == [0.5, 0.0, 0.5]


def test_toddler_bad_move_changes_nothing():
    state = toddler(2, 5)
    before = snapshot(state)
    for move in ("place a9", "place zz1", "discard", "fly"):
        with pytest.raises(IllegalMove):
            state.play(move)
        assert snapshot(state) == before


# ----- records ---------------------------------------------------------------------------------
@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["kids", "toddler"]), st.integers(0, 5000), st.integers(2, 6), st.integers(0, 80))
def test_records_replay_every_mode_exactly(variant, seed, players, cut):
    extra = {"players": players} if variant == "toddler" else {}
    state = load("omiga", variant=variant, seed=seed, **extra).new_state()
    play_random(state, seed, cut)
    again = replay(state.record())
    assert snapshot(again) == snapshot(state)
    assert again.record() == state.record()
