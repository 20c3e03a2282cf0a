"""Onyx rules (RULES.md §4): setup, moves, the midpoint rule, captures, wins, pie, errors, undo, records."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import ogames
from ogames.errors import BadOption, BadRecord, IllegalMove
from ogames.rules.onyx import Onyx, OnyxState

SETUP_BLACK = {"a6", "a7", "l6", "l7"}
SETUP_WHITE = {"f1", "g1", "f12", "g12"}


def new(**options: Any) -> OnyxState:
    return ogames.load("onyx", **options).new_state(["ann", "bob"])


def play(state: OnyxState, *moves: str) -> OnyxState:
    for move in moves:
        state.play(move, t=0.0)
    return state


def snapshot(state: OnyxState) -> tuple:
    return (
        state.stones.tobytes(),
        json.dumps(state.record(), sort_keys=True),
        state.turn,
        dict(state.owner),
        dict(state.captured),
        list(state.last_captures),
        state.result,
    )


def stones(state: OnyxState, colour: str) -> set[str]:
    return set(state.colour_cells(colour))


# ----- setup ---------------------------------------------------------------------------------
def test_setup() -> None:
    state = new()
    assert stones(state, "black") == SETUP_BLACK
    assert stones(state, "white") == SETUP_WHITE
    assert state.ply == 0 and state.history == [] and state.to_move == "black"
    assert state.captured == {"black": 0, "white": 0} and state.last_captures == []
    assert state.stone_at("A6") == "black" and state.stone_at("g12") == "white" and state.stone_at("b1*") is None
    # 204 − 8 stones − 4 midpoints whose squares hold a set-up stone (a6*, k6*, f1*, f11*)
    legal = state.legal_moves()
    assert len(legal) == 192 and "swap" not in legal
    assert {"a6*", "k6*", "f1*", "f11*"}.isdisjoint(legal) and "b1*" in legal


def test_describe_and_options() -> None:
    assert [o["name"] for o in Onyx.describe()["options"]] == ["pie"]
    assert ogames.load("onyx").options == {"pie": False}
    assert ogames.load("onyx", pie="on").options == {"pie": True}
    with pytest.raises(BadOption, match="size"):
        ogames.load("onyx", size=9)
    with pytest.raises(BadOption, match="pie"):
        ogames.load("onyx", pie="maybe")


def test_alternation() -> None:
    state = play(new(), "d4")
    assert state.to_move == "white" and state.stone_at("d4") == "black"
    play(state, "D5")
    assert state.stone_at("d5") == "white" and state.history[-1]["move"] == "d5"
    assert state.history[-1]["by"] == "white" and state.history[-1]["captures"] == []


# ----- the midpoint rule -------------------------------------------------------------------
def test_midpoint_allowed_when_corners_empty() -> None:
    state = play(new(), "b1*")
    assert state.stone_at("b1*") == "black"
    assert state.history[-1] == {"move": "b1*", "captures": [], "by": "black", "t": 0.0}


@pytest.mark.parametrize("corner", ["b1", "c1", "c2", "b2"])
@pytest.mark.parametrize("mover_owns_corner", [True, False])
def test_midpoint_blocked_by_any_corner(corner: str, mover_owns_corner: bool) -> None:
    state = new()
    if mover_owns_corner:
        play(state, corner, "h8")  # black's own stone on the corner
    else:
        play(state, "h8", corner, "h9")  # white's stone on the corner, then white to move
    mover = state.to_move
    assert "b1*" not in state.legal_moves()
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=rf"b1\*.*midpoint.*{corner}"):
        state.play("b1*")
    assert snapshot(state) == before and state.to_move == mover


def test_corner_may_be_played_after_midpoint() -> None:
    state = play(new(), "b1*", "b1", "c2")
    assert state.stone_at("b1*") == "black" and state.stone_at("b1") == "white" and state.stone_at("c2") == "black"


# ----- captures ----------------------------------------------------------------------------
def test_single_capture() -> None:
    state = play(new(), "b1", "c1", "d10", "b2")
    assert "a2*" not in state.legal_moves()  # b2 (white) is a corner of a2*
    play(state, "c2")
    assert state.last_captures == ["c1", "b2"]  # in board order (c1 is cell 2, b2 cell 13)
    assert state.stone_at("c1") is None and state.stone_at("b2") is None
    assert state.stone_at("b1") == "black" and state.stone_at("c2") == "black"
    assert state.captured == {"black": 0, "white": 2}
    assert set(state.history[-1]["captures"]) == {"c1", "b2"}
    # The midpoint rule opens again once the stones are gone: a2*'s corners are all empty now.
    assert "a2*" in state.legal_moves()
    assert "b1*" not in state.legal_moves()  # b1 and c2 still hold black stones
    play(state, "e10")
    assert state.last_captures == []


def test_captured_points_can_be_played_again() -> None:
    state = play(new(), "b1", "c1", "d10", "b2", "c2")
    assert "c1" in state.legal_moves() and "b2" in state.legal_moves()
    play(state, "c1")  # white plays back on a captured point
    assert state.stone_at("c1") == "white"
    play(state, "h8", "b2")
    assert state.stone_at("b2") == "white"


def test_white_captures_too() -> None:
    state = play(new(), "b1", "c1", "c2", "d10", "j9", "b2")
    assert state.stone_at("b1") is None and state.stone_at("c2") is None
    assert state.captured == {"black": 2, "white": 0}
    assert set(state.last_captures) == {"b1", "c2"}


def test_double_capture() -> None:
    # b2 is a corner of b1* (opposite c1) and of a2* (opposite a3): both squares complete at once.
    state = play(new(), "c1", "b1", "a3", "c2", "e9", "a2", "e10", "b3", "b2")
    assert set(state.last_captures) == {"b1", "c2", "a2", "b3"}
    assert all(state.stone_at(p) is None for p in ("b1", "c2", "a2", "b3"))
    assert state.captured == {"black": 0, "white": 4}
    assert stones(state, "white") == SETUP_WHITE


def test_no_capture_when_midpoint_occupied() -> None:
    state = play(new(), "b1*", "c1", "b1", "b2", "c2")
    assert state.last_captures == [] and state.stone_at("c1") == "white" and state.stone_at("b2") == "white"
    assert state.captured == {"black": 0, "white": 0}


def test_no_capture_of_own_stones() -> None:
    state = play(new(), "b1", "h8", "c1", "h9", "b2", "h10", "c2")
    assert state.last_captures == [] and all(state.stone_at(p) == "black" for p in ("b1", "c1", "b2", "c2"))


@pytest.mark.parametrize(
    ("black", "white", "last"),
    [
        (["b2"], ["b1", "c1"], "c2"),  # enemies on adjacent corners, own stone on a side corner
        ([], ["b1", "c1", "b2"], "c2"),  # enemy on the opposite corner
        (["c1"], ["b1", "b2"], "c2"),  # own stone on a side corner, enemies elsewhere
        (["b1"], ["c1"], "c2"),  # only one enemy stone
        ([], ["c1", "b2"], "c2"),  # opposite corner empty
    ],
)
def test_no_capture_for_other_patterns(black: list[str], white: list[str], last: str) -> None:
    state = new()
    black_moves, white_moves = list(black), list(white)
    fillers = iter(["h3", "h4", "h5", "h9", "h10", "j9"])
    while black_moves or white_moves:
        play(state, black_moves.pop(0) if black_moves else next(fillers))
        play(state, white_moves.pop(0) if white_moves else next(fillers))
    play(state, last)
    assert state.last_captures == [] and state.captured == {"black": 0, "white": 0}
    assert set(white) <= stones(state, "white")


def test_no_capture_when_placing_a_midpoint() -> None:
    # A midpoint is no square's corner, even with enemy stones around it.
    state = play(new(), "h8", "b1*", "a1", "d1")
    assert state.history[-1]["captures"] == []
    assert state.captured == {"black": 0, "white": 0}


# ----- winning ---------------------------------------------------------------------------------
def test_black_wins_west_east_through_a_corner_point() -> None:
    black = [f"{c}2" for c in "bcdefghijkl"] + ["a1"]
    white = [f"{c}9" for c in "abcdefghijk"]
    state = new()
    for k, move in enumerate(black):
        play(state, move)
        if k < len(white):
            assert not state.is_over
            play(state, white[k])
    assert state.is_over and state.winner == "black" and state.to_move is None
    assert state.result.reason == "black connected west and east"
    assert state.legal_moves() == []
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="game is over"):
        state.play("e5")
    assert snapshot(state) == before


def test_white_wins_south_north_ending_on_a_corner() -> None:
    state = new()
    for k in range(11):
        play(state, f"b{k + 1}", f"k{k + 1}")
        assert not state.is_over
    play(state, "b12", "l12")  # k11–l12 is a diagonal; l12 is on the North side
    assert state.winner == "white" and state.result.reason == "white connected south and north"
    assert state.rewards() == [0.0, 1.0]


def test_connection_through_a_midpoint() -> None:
    # a2 and b3 are opposite corners of square a2*: not adjacent, but both touch the midpoint.
    black = ["a2*"] + [f"{c}3" for c in "bcdefghijkl"] + ["a2"]
    white = [f"{c}9" for c in "abcdefghijkl"]
    state = new()
    for move, reply in zip(black, [*white, None], strict=True):
        play(state, move)
        if reply is not None:
            assert not state.is_over
            play(state, reply)
    assert state.winner == "black"


def test_no_win_without_the_far_side() -> None:
    state = new()
    for c in "bcdefghijk":
        play(state, f"{c}4", f"{c}9")
    play(state, "a4")
    assert not state.is_over  # West reached, East (l4) still missing


# ----- pie -----------------------------------------------------------------------------------
def test_pie_swap() -> None:
    state = play(new(pie=True), "f6")
    assert "swap" in state.legal_moves()
    play(state, "swap")
    assert state.owner == {"black": 1, "white": 0} and state.seats == {"black": "bob", "white": "ann"}
    assert state.to_move == "white" and state.mover == 0
    assert state.stone_at("f6") == "black" and stones(state, "black") == SETUP_BLACK | {"f6"}
    assert "swap" not in state.legal_moves() and state.last_captures == []
    play(state, "g7")
    assert state.stone_at("g7") == "white"
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="swap"):
        state.play("swap")
    assert snapshot(state) == before


def test_swap_refused_when_pie_off_or_too_early_or_late() -> None:
    for state, reason in (
        (play(new(), "f6"), "pie rule is off"),
        (new(pie=True), "only allowed"),
        (play(new(pie=True), "f6", "g6"), "only allowed"),
    ):
        before = snapshot(state)
        with pytest.raises(IllegalMove, match=reason):
            state.play("swap")
        assert snapshot(state) == before


# ----- illegal input ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("a6", "occupied by black"),
        ("F1", "occupied by white"),
        ("m1", "not a cell"),
        ("a13", "not a cell"),
        ("b2*", "not a cell"),
        ("", "not a cell"),
        ("pass", "not a cell"),
        ("f1*", "midpoint"),
    ],
)
def test_illegal_moves_change_nothing(move: str, reason: str) -> None:
    state = play(new(), "b1", "c1", "d10", "b2", "c2")  # with a capture in the history
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=reason) as caught:
        state.play(move)
    assert repr(move.strip().lower()) in str(caught.value)
    assert snapshot(state) == before


def test_non_text_move() -> None:
    state = new()
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="text"):
        state.play(7)  # type: ignore[arg-type]
    assert snapshot(state) == before


# ----- undo, clone, resign -------------------------------------------------------------------
def test_undo_restores_captured_stones() -> None:
    state = play(new(), "b1", "c1", "d10", "b2")
    before = snapshot(state)
    play(state, "c2")
    state.undo()
    assert snapshot(state) == before
    assert state.stone_at("c1") == "white" and state.captured == {"black": 0, "white": 0}
    for _ in range(4):
        state.undo()
    assert snapshot(state) == snapshot(new())
    with pytest.raises(IllegalMove, match="no move"):
        state.undo()


def test_undo_after_double_capture_restores_last_captures() -> None:
    state = play(new(), "b1", "c1", "d10", "b2", "c2", "e10")
    state.undo()
    assert set(state.last_captures) == {"c1", "b2"} and state.captured["white"] == 2


def test_clone_is_independent() -> None:
    state = play(new(), "b1", "c1")
    twin = state.clone()
    play(twin, "d10", "b2", "c2")
    assert state.stone_at("c1") == "white" and state.captured == {"black": 0, "white": 0} and state.ply == 2


def test_resign() -> None:
    state = play(new(), "b1")
    state.resign()
    assert state.winner == "black" and state.result.reason == "white resigned"


# ----- records -----------------------------------------------------------------------------
def captured_game() -> OnyxState:
    state = play(new(pie=True), "b1", "swap", "c1", "d10", "b2", "c2")
    return state


def test_record_round_trip() -> None:
    state = captured_game()
    record = state.record()
    assert record["game"] == "onyx" and record["options"] == {"pie": True}
    assert record["seats"] == {"black": "bob", "white": "ann"}
    assert record["moves"][1] == {"move": "swap", "by": "white", "t": 0.0}
    assert set(record["moves"][-1]["captures"]) == {"c1", "b2"}
    again = ogames.replay(json.dumps(record))
    assert snapshot(again) == snapshot(state)


def test_record_round_trip_of_a_won_game() -> None:
    state = new()
    for k in range(11):
        play(state, f"b{k + 1}", f"k{k + 1}")
    play(state, "b12", "l12")
    again = ogames.replay(state.record())
    assert again.winner == "white" and snapshot(again) == snapshot(state)


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda r: r["moves"][-1].__setitem__("captures", ["c1"]), "captures"),
        (lambda r: r["moves"][-1].__setitem__("captures", []), "captures"),
        (lambda r: r["moves"][-1].__setitem__("captures", ["b2", "c1", "d1"]), "captures"),
        (lambda r: r["moves"][2].__setitem__("captures", ["b1"]), "captures"),
        (lambda r: r["moves"][-1].pop("captures"), "captures"),
        (lambda r: r["moves"][-1].__setitem__("move", "c2*"), "c2"),
        (lambda r: r["moves"][0].__setitem__("move", "a6"), "occupied"),
        (lambda r: r["moves"][2].__setitem__("by", "black"), "turn"),
        (lambda r: r.__setitem__("seats", {"black": "ann", "white": "bob"}), "seats"),
        (lambda r: r.__setitem__("result", {"winner": "black", "reason": "black connected west and east"}), "result"),
        (lambda r: r["options"].__setitem__("pie", False), "pie rule is off"),
    ],
)
def test_tampered_records_are_rejected(tamper, message: str) -> None:
    record = copy.deepcopy(captured_game().record())
    tamper(record)
    with pytest.raises(BadRecord, match=message):
        ogames.replay(record)


def test_legal_moves_are_the_empty_cells_the_midpoint_rule_allows() -> None:
    """The vectorised legal-move list agrees with placement_error, cell by cell, through random games."""
    rng = random.Random(4)
    for _ in range(5):
        state = new(pie=True)
        while not state.is_over:
            expected = [
                state.board.labels[c]
                for c in range(len(state.board))
                if state.stones[c] == 0 and state.placement_error(c) is None
            ]
            assert state.legal_moves() == expected + (["swap"] if state.pie_available() else [])
            state.play(rng.choice(state.legal_moves()), t=0.0)
