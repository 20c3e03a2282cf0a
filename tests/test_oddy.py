"""Odd-Y rules (RULES.md §2) through the library API: boards, wins, corners, options, pie, errors,
undo and records."""

from __future__ import annotations

import copy
import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.rules import game_class
from ogames.rules.oddy import OddY


def build(state: ogames.State, black: list[str], white: list[str]) -> ogames.State:
    """Black plays `black` in order with White answering from `white`; every move but the last
    must leave the game going (so a win, if any, comes from Black's last stone)."""
    assert len(white) >= len(black) - 1
    for k, move in enumerate(black):
        assert not state.is_over, f"the game ended before {move}"
        state.play(move)
        if k < len(black) - 1:
            assert not state.is_over, f"the game ended at {move}"
            state.play(white[k])
    return state


def snapshot(state: ogames.State) -> tuple:
    """Everything a move could change."""
    return (
        state.stones.copy().tolist(),
        copy.deepcopy(state.history),
        dict(state.owner),
        state.turn,
        state.result,
        state.winning_group,
        state.to_move,
    )


# ----- options ---------------------------------------------------------------------------------


def test_defaults_are_the_triangle_of_seven_with_pie():
    game = ogames.load("oddy")
    assert game.options == {"sides": 3, "size": 7, "board": "triangle", "pie": True}
    assert len(game.board) == 28 and game.board.kind == "triangle"


def test_more_sides_default_to_the_polar_board_of_five():
    game = ogames.load("oddy", sides=5)
    assert game.options == {"sides": 5, "size": 5, "board": "polar", "pie": True}
    assert len(game.board) == 5 * 5 * 4 // 2 + 1


@pytest.mark.parametrize(("m", "n"), [(3, 2), (3, 15), (5, 15), (7, 4), (9, 3), (25, 2), (25, 15)])
def test_polar_board_sizes(m, n):
    game = ogames.load("oddy", sides=m, size=n, board="polar")
    assert len(game.board) == m * n * (n - 1) // 2 + 1
    for s in range(m):
        assert len(game.board.cells(f"side{s}")) == n


def test_triangle_size_fifteen_and_options_as_text():
    game = ogames.load("oddy", sides="3", size="15", board="Triangle", pie="off")
    assert game.options == {"sides": 3, "size": 15, "board": "triangle", "pie": False}
    assert len(game.board) == 15 * 16 // 2


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"sides": 4}, ["sides=4", "odd"]),
        ({"sides": 6, "board": "polar"}, ["sides=6", "odd"]),
        ({"sides": 1}, ["sides=1", "at least 3"]),
        ({"sides": 27}, ["sides=27", "at most 25"]),
        ({"sides": 5, "board": "triangle"}, ["triangle", "sides=5", "polar"]),
        ({"size": 1}, ["size=1", "at least 2"]),
        ({"size": 31}, ["size=31", "at most 30"]),
        ({"board": "hexagon"}, ["board='hexagon'", "triangle, polar"]),
        ({"pie": "maybe"}, ["pie='maybe'"]),
        ({"colour": 3}, ["colour"]),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options, words):
    with pytest.raises(ogames.BadOption) as caught:
        ogames.load("oddy", **options)
    for word in words:
        assert word in str(caught.value)


def test_described_for_the_faces():
    # (through the registry, as ogames.games() does, without importing the other games)
    assert game_class("Odd-Y") is OddY
    described = OddY.describe()
    assert [o["name"] for o in described["options"]] == ["sides", "size", "board", "pie"]
    assert described["title"] == "Odd-Y" and described["options"][0]["default"] == 3


# ----- boards and labels -----------------------------------------------------------------------


def test_triangle_labels_and_sides():
    board = ogames.load("oddy", size=4).board
    assert board.labels == ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4")
    sides = [sorted(board.labels[c] for c in board.cells(f"side{s}")) for s in range(3)]
    assert sides == [["a1", "b1", "c1", "d1"], ["a4", "b3", "c2", "d1"], ["a1", "a2", "a3", "a4"]]


def test_polar_labels():
    board = ogames.load("oddy", sides=5, size=5).board
    assert board.labels[0] == "o"
    assert board.has("c4-2") and board.has("C04-2") and not board.has("c4-4") and not board.has("f1-0")
    state = ogames.load("oddy", sides=5, size=5).new_state()
    state.play("C4-2")
    assert state.history[-1]["move"] == "c4-2" and state.stone_at("c4-2") == "black"


# ----- winning and not winning -----------------------------------------------------------------


def test_triangle_win_needs_all_three_sides():
    state = ogames.load("oddy", size=5).new_state()
    build(state, ["a2", "a3", "a4", "b3", "c3", "c2"], ["e1", "d1", "d2", "b4", "a5"])
    assert not state.is_over and state.sides_touched("a2") == [1, 2]
    state.play("b1")  # White elsewhere
    state.play("c1")
    assert state.winner == "black"
    group = ["a2", "a3", "a4", "b3", "c1", "c2", "c3"]
    assert state.winning_group == sorted(group)
    assert state.history[-1]["group"] == sorted(group)
    assert " ".join(sorted(group)) in state.result.reason and "sides 0, 1, 2" in state.result.reason


def test_a_corner_counts_for_both_of_its_sides_on_the_triangle():
    # The bottom row alone: a1 is also on side x = 0 and c1 also on side x + y = n − 1.
    state = build(ogames.load("oddy", size=3).new_state(), ["a1", "b1", "c1"], ["a2", "b2"])
    assert state.winner == "black" and state.winning_group == ["a1", "b1", "c1"]


def test_an_edge_without_its_corners_does_not_win():
    state = build(ogames.load("oddy", size=4).new_state(), ["b1", "c1"], ["a2"])
    assert not state.is_over and state.sides_touched("b1") == [0]
    state.play("a1")  # White takes the corner
    assert state.sides_touched("a1") == [0, 2] and not state.is_over


def test_three_sided_polar_board():
    state = ogames.load("oddy", sides=3, size=3, board="polar").new_state()
    build(state, ["a2-1", "a1-0", "o", "b1-0", "b2-1"], ["c2-0", "a2-0", "b2-0", "c1-0"])
    assert not state.is_over and state.sides_touched("o") == [0, 1]
    state.play("c2-1")  # White joins c1-0 to the corners a2-0 (sides 0, 2) and c2-0 (sides 1, 2)
    assert state.winner == "white" and state.winning_group == ["a2-0", "c1-0", "c2-0", "c2-1"]


def test_three_sided_polar_board_win():
    state = build(
        ogames.load("oddy", sides=3, size=3, board="polar").new_state(),
        ["a2-1", "a1-0", "b1-0", "b2-1", "c2-1"],
        ["c2-0", "a2-0", "b2-0", "c1-0"],
    )
    assert state.winner == "black" and state.winning_group == ["a1-0", "a2-1", "b1-0", "b2-1", "c2-1"]


def test_pentagon_three_adjacent_sides_do_not_win():
    state = build(
        ogames.load("oddy", sides=5, size=3).new_state(),
        ["a2-1", "b1-0", "b2-1", "c1-0", "c2-1"],
        ["e2-0", "e2-1", "a2-0", "d2-0"],
    )
    assert not state.is_over and state.sides_touched("c2-1") == [0, 1, 2]


def test_pentagon_sides_0_1_3_win():
    state = build(
        ogames.load("oddy", sides=5, size=3).new_state(),
        ["a2-1", "b1-0", "b2-1", "o", "d1-0", "d2-1"],
        ["e2-0", "e2-1", "a2-0", "c2-0", "c2-1"],
    )
    assert state.winner == "black"
    assert state.winning_group == sorted(["a2-1", "b1-0", "b2-1", "o", "d1-0", "d2-1"])
    assert "sides 0, 1, 3" in state.result.reason


def test_pentagon_win_through_two_corners():
    # a2-0 is the corner of sides 4 and 0, c2-0 that of sides 1 and 2: together {0, 1, 2, 4}.
    # Counted for one side each ({0, 2} or {1, 4}, …) they would be inside a run of three.
    state = build(
        ogames.load("oddy", sides=5, size=3).new_state(),
        ["a2-0", "a1-0", "o", "c1-0", "c2-0"],
        ["d2-1", "e2-0", "b2-1", "d2-0"],
    )
    assert state.winner == "black" and state.sides_touched("o") == [0, 1, 2, 4]


def test_pentagon_one_corner_is_not_enough():
    state = build(ogames.load("oddy", sides=5, size=3).new_state(), ["a2-0", "a1-0", "b1-0", "b2-0"], ["d2-1", "e2-0", "c2-1"])
    assert not state.is_over and state.sides_touched("a2-0") == [0, 1, 4]  # a run: 4, 0, 1


def test_heptagon_four_consecutive_sides_do_not_win_three_spread_sides_do():
    game = ogames.load("oddy", sides=7, size=3)
    state = build(
        game.new_state(), ["a2-1", "a1-0", "o", "b1-0", "b2-1", "d1-0", "d2-1"], ["f2-0", "f2-1", "g2-0", "g2-1", "e2-0", "c2-0"]
    )
    assert not state.is_over and state.sides_touched("o") == [0, 1, 3]
    state.play("e2-1")  # White
    state.play("c2-1")  # Black adds side 2: {0, 1, 2, 3} is a run of four
    assert not state.is_over and state.sides_touched("o") == [0, 1, 2, 3]
    spread = build(
        game.new_state(), ["a2-1", "a1-0", "o", "c1-0", "c2-1", "e1-0", "e2-1"], ["g2-0", "g2-1", "f2-0", "b2-0", "d2-0", "f2-1"]
    )
    assert spread.winner == "black" and "sides 0, 2, 4" in spread.result.reason


def test_white_can_win_too():
    state = ogames.load("oddy", size=3, pie=False).new_state()
    for move in ["b2", "a1", "a3", "b1", "a2", "c1"]:
        state.play(move)
    assert state.winner == "white" and state.winning_group == ["a1", "b1", "c1"]
    assert state.to_move is None and state.legal_moves() == []


def midpoint_triangle_holds_centre(m: int, a: int, b: int, c: int) -> bool:
    """Whether the mid-points of sides a, b, c of the regular m-gon (corner s at 90° + 360°·s/m)
    make a triangle with the centre strictly inside (odd m: never on an edge)."""
    points = [(np.cos(t), np.sin(t)) for t in (np.radians(90 + 360 * (s + 0.5) / m) for s in (a, b, c))]
    signs = [points[k][0] * points[k - 2][1] - points[k][1] * points[k - 2][0] for k in range(3)]
    return all(s > 1e-12 for s in signs) or all(s < -1e-12 for s in signs)


@pytest.mark.parametrize("m", [3, 5, 7, 9, 11])
def test_win_rule_matches_the_geometric_statement(m):
    # RULES.md: some three sides of T have mid-points whose triangle contains the centre.
    game = ogames.load("oddy", sides=m, size=2, board="polar")
    for mask in range(1 << m):
        sides = [s for s in range(m) if mask >> s & 1]
        geometric = any(midpoint_triangle_holds_centre(m, *three) for three in itertools.combinations(sides, 3))
        assert game.wins(mask) == geometric, (m, sides)


# ----- pie rule --------------------------------------------------------------------------------


def test_pie_swap_exchanges_seats_not_stones():
    state = ogames.load("oddy").new_state(["ann", "bob"])
    assert "swap" not in state.legal_moves()
    state.play("d4")
    assert "swap" in state.legal_moves()
    state.play("swap")
    assert state.seats == {"black": "bob", "white": "ann"}
    assert state.stone_at("d4") == "black" and state.to_move == "white" and state.mover == 0
    assert "swap" not in state.legal_moves()
    state.play("a1")
    assert state.stone_at("a1") == "white" and state.to_move == "black"
    with pytest.raises(ogames.IllegalMove, match="swap"):
        state.play("swap")


def test_pie_off_refuses_swap():
    state = ogames.load("oddy", pie=False).new_state()
    state.play("d4")
    assert "swap" not in state.legal_moves()
    before = snapshot(state)
    with pytest.raises(ogames.IllegalMove, match="pie rule is off"):
        state.play("swap")
    assert snapshot(state) == before


def test_swap_winner_is_the_new_owner_of_the_colour():
    state = build(ogames.load("oddy", size=3).new_state(["ann", "bob"]), ["a1"], [])
    state.play("swap")
    for move in ["a2", "b1", "b2", "c1"]:
        state.play(move)
    assert state.winner == "black" and state.seats["black"] == "bob" and state.rewards() == [0.0, 1.0]


# ----- illegal input changes nothing ---------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("d4", "occupied"),
        ("z9", "not a cell"),
        ("h1", "not a cell"),
        ("", "not a cell"),
        ("swap2", "not a cell"),
        ("pass", "not a cell"),
    ],
)
def test_illegal_moves_leave_the_state_unchanged(move, reason):
    state = ogames.load("oddy", pie=False).new_state()
    state.play("d4")
    state.play("a1")
    before = snapshot(state)
    with pytest.raises(ogames.IllegalMove) as caught:
        state.play(move)
    assert reason in str(caught.value) and repr(move) in str(caught.value)
    assert snapshot(state) == before


@pytest.mark.parametrize("move", ["f1-0", "a1-1", "a5-0", "o-0", 17])
def test_bad_polar_moves_leave_the_state_unchanged(move):
    state = ogames.load("oddy", sides=5, size=5).new_state()
    state.play("o")
    before = snapshot(state)
    with pytest.raises(ogames.IllegalMove):
        state.play(move)
    assert snapshot(state) == before


def test_no_move_after_the_end():
    state = build(ogames.load("oddy", size=3).new_state(), ["a1", "b1", "c1"], ["a2", "b2"])
    before = snapshot(state)
    for move in ["a3", "swap", "resign"]:
        with pytest.raises(ogames.IllegalMove, match="over"):
            state.play(move)
    assert snapshot(state) == before


# ----- undo and records ------------------------------------------------------------------------


def test_undo_takes_back_a_win_and_a_swap():
    state = build(ogames.load("oddy", size=3).new_state(["ann", "bob"]), ["a1"], [])
    state.play("swap")
    for move in ["a2", "b1", "b2", "c1"]:
        state.play(move)
    assert state.is_over
    state.undo()
    assert not state.is_over and state.winning_group is None and state.stone_at("c1") is None and state.to_move == "black"
    for _ in range(4):
        state.undo()
    assert state.seats == {"black": "ann", "white": "bob"} and "swap" in state.legal_moves()


def random_game(game: OddY, rng: random.Random) -> ogames.State:
    """A game of uniformly random legal moves (swap included) to the end."""
    state = game.new_state(["ann", "bob"])
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()), t=1000.0 + state.ply)
    return state


@pytest.mark.parametrize(
    ("options", "seed"), [({}, 1), ({"sides": 5}, 2), ({"sides": 7, "size": 4}, 3), ({"size": 4, "pie": False}, 4)]
)
def test_record_round_trip(options, seed):
    state = random_game(ogames.load("oddy", **options), random.Random(seed))
    record = state.record()
    assert record["moves"][-1]["group"] == state.winning_group
    again = ogames.replay(record)
    assert again.record() == record
    assert again.winning_group == state.winning_group and again.stones.tolist() == state.stones.tolist()
    assert ogames.replay(json.dumps(record)).record() == record


def test_tampered_records_are_refused():
    state = random_game(ogames.load("oddy", size=4), random.Random(7))
    record = state.record()
    tampered = []
    wrong_group = copy.deepcopy(record)
    wrong_group["moves"][-1]["group"] = wrong_group["moves"][-1]["group"][:-1]
    tampered.append(wrong_group)
    occupied = copy.deepcopy(record)
    occupied["moves"][2]["move"] = occupied["moves"][0]["move"]
    tampered.append(occupied)
    wrong_winner = copy.deepcopy(record)
    wrong_winner["result"]["winner"] = "white" if record["result"]["winner"] == "black" else "black"
    tampered.append(wrong_winner)
    bad_options = copy.deepcopy(record)
    bad_options["options"]["sides"] = 4
    tampered.append(bad_options)
    cut_short = copy.deepcopy(record)
    cut_short["moves"].pop()
    tampered.append(cut_short)
    for bad in tampered:
        with pytest.raises(ogames.BadRecord):
            ogames.replay(bad)


OPTION_CHOICES = [{}, {"size": 3}, {"sides": 3, "size": 4, "board": "polar"}, {"sides": 5, "size": 3}, {"sides": 9, "size": 3}]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(OPTION_CHOICES) - 1), stop=st.integers(0, 200))
def test_any_game_prefix_survives_a_record_round_trip(seed, which, stop):
    rng = random.Random(seed)
    state = ogames.load("oddy", **OPTION_CHOICES[which]).new_state(["ann", "bob"])
    while not state.is_over and state.ply < stop:
        state.play(rng.choice(state.legal_moves()), t=float(state.ply))
    if not state.is_over and rng.random() < 0.3:
        state.play("resign")
        assert state.winning_group is None and "resigned" in state.result.reason
    again = ogames.replay(json.loads(json.dumps(state.record())))
    assert again.record() == state.record() and again.stones.tolist() == state.stones.tolist()
    assert (again.winning_group, again.to_move, again.seats) == (state.winning_group, state.to_move, state.seats)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), junk=st.text(max_size=6))
def test_illegal_input_never_changes_a_position(seed, junk):
    rng = random.Random(seed)
    state = ogames.load("oddy", sides=5, size=3).new_state()
    for _ in range(rng.randrange(10)):
        state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            break
    occupied = [label for label in state.board.labels if state.stone_at(label) is not None]
    tries = [junk, *occupied[:3]] + (["swap"] if "swap" not in state.legal_moves() else [])
    for move in tries:
        if move.strip().lower() in state.legal_moves() or move.strip().lower() == "resign":
            continue
        before = snapshot(state)
        with pytest.raises(ogames.IllegalMove):
            state.play(move)
        assert snapshot(state) == before
