"""Virtual wins (`players/solvers/virtual_connections.py`), which let the connection solver stop
early on Y and Odd-Y: the compiled detector against its plain reference, the facts it rests on
(touched sides only grow; never two winners on a full board), and what it claims against plain
minimax over the rules."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ogames
from ogames.kernels.oddy import winning_group_counts_reference
from ogames.players.solvers.connection import ConnectionSolver, _sides_goal, solve, winner_reference
from ogames.players.solvers.virtual_connections import (
    must_play,
    must_play_reference,
    vc_scratch_for,
    virtual_win,
    virtual_win_reference,
)

# (game, options) whose goal is a set of sides: Y as Omny `y`, and Odd-Y boards of either shape.
SIDED = [
    ("omny", {"variant": "y", "size": 5}),
    ("omny", {"variant": "y", "size": 7}),
    ("oddy", {"sides": 3, "size": 6, "pie": False}),
    ("oddy", {"sides": 5, "size": 3, "pie": False}),
    ("oddy", {"sides": 7, "size": 2, "pie": False}),
    ("oddy", {"sides": 3, "size": 3, "board": "polar", "pie": False}),
    ("oddy", {"sides": 5, "size": 2, "board": "polar", "pie": False}),
]


def sides_of(name: str, options: dict) -> tuple:
    game = ogames.load(name, **options)
    sides, runs = _sides_goal(game)
    assert sides is not None and runs is not None
    m = 3 if name == "omny" else options["sides"]
    return game, np.asarray(sides, dtype=np.int64), np.asarray(runs, dtype=np.int64), m


def label_board(game, black: str = "", white: str = "") -> np.ndarray:
    board = np.zeros(len(game.board), dtype=np.int8)
    for colour, cells in ((1, black), (2, white)):
        for label in cells.split():
            board[game.board.labels.index(label)] = colour
    return board


def random_board(game, seed: int, fill: float) -> np.ndarray:
    """Any board (not only one legal play reaches): each cell a random stone with chance `fill`."""
    rng = random.Random(seed)
    return np.array([rng.choice((1, 2)) if rng.random() < fill else 0 for _ in range(len(game.board))], dtype=np.int8)


def compiled(game, board: np.ndarray, colour: int, sides: np.ndarray, runs: np.ndarray) -> tuple[bool, set[int]]:
    table = game.board.neighbour_table
    vc = vc_scratch_for(len(board), table.shape[1])
    found = virtual_win(board, colour, table, sides, runs, vc)
    return found >= 0, {int(c) for c in np.flatnonzero(vc[2] >= 0)}


# ----- the detector ----------------------------------------------------------------------------------


def test_a_lone_centre_stone_on_y4_reaches_every_side_by_templates() -> None:
    game, sides, runs, _ = sides_of("omny", {"variant": "y", "size": 4})
    found, carrier = compiled(game, label_board(game, black="b2"), 1, sides, runs)
    assert found and {game.board.labels[c] for c in carrier} == {"b1", "c1", "a2", "c2", "a3", "b3"}
    assert not compiled(game, label_board(game, black="b2"), 2, sides, runs)[0]
    # A White stone on one template's pair leaves Black one cell to that side: no longer virtual.
    assert not compiled(game, label_board(game, black="b2", white="a2"), 1, sides, runs)[0]


def test_a_bridge_joins_two_stones_and_the_answer_to_an_intrusion_mends_it() -> None:
    game, sides, runs, _ = sides_of("omny", {"variant": "y", "size": 6})
    # b2 reaches two sides by templates, c3 the third; they share exactly the free cells b3 and c2.
    found, carrier = compiled(game, label_board(game, black="b2 c3"), 1, sides, runs)
    assert found and {game.board.labels[c] for c in carrier} == {"a2", "a3", "b1", "c1", "b3", "c2", "c4", "d3"}
    assert not compiled(game, label_board(game, black="b2 c3", white="b3"), 1, sides, runs)[0]
    assert compiled(game, label_board(game, black="b2 c3 c2", white="b3"), 1, sides, runs)[0]
    assert not compiled(game, label_board(game, black="b2 b4"), 1, sides, runs)[0]  # one common cell only


def test_the_solver_stops_at_a_virtual_win_and_fills_one_of_its_pairs() -> None:
    """Not any stone (the centre, c3, would do too, but bring the end no nearer): a cell of the
    winning group's pairs, which makes one link solid."""
    game = ogames.load("omny", variant="y", size=7)
    state = game.new_state()
    for move in "g1 f1 b2 a1 c2 b5 e3 a5 d2 b1".split():
        state.play(move, t=0.0)
    proof = solve(state, solver=ConnectionSolver(game))
    assert proof.value == "win" and proof.nodes == 1
    assert proof.move in {"a2", "a3", "c1", "d1", "d3", "e2"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(SIDED) - 1), seed=st.integers(0, 2**32 - 1), fill=st.floats(0.0, 0.7))
def test_the_compiled_detector_is_the_reference(which: int, seed: int, fill: float) -> None:
    game, sides, runs, m = sides_of(*SIDED[which])
    board = random_board(game, seed, fill)
    neighbours = [list(n) for n in game.board.neighbours]
    for colour in (1, 2):
        reference = virtual_win_reference(list(board), colour, neighbours, list(sides), m)
        assert compiled(game, board, colour, sides, runs) == reference


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(SIDED) - 1), seed=st.integers(0, 2**32 - 1), fill=st.floats(0.0, 0.8))
def test_the_carrier_is_pairs_of_free_cells(which: int, seed: int, fill: float) -> None:
    """Every carrier cell is empty, and they come in pairs (links take two cells each)."""
    game, sides, runs, _ = sides_of(*SIDED[which])
    board = random_board(game, seed, fill)
    for colour in (1, 2):
        _, carrier = compiled(game, board, colour, sides, runs)
        assert all(board[c] == 0 for c in carrier) and len(carrier) % 2 == 0


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(SIDED) - 1), seed=st.integers(0, 2**32 - 1), fill=st.floats(0.0, 0.6))
def test_the_compiled_must_play_region_is_the_reference(which: int, seed: int, fill: float) -> None:
    game, sides, runs, m = sides_of(*SIDED[which])
    board = random_board(game, seed, fill)
    table = game.board.neighbour_table
    neighbours = [list(n) for n in game.board.neighbours]
    for colour in (1, 2):
        children = np.flatnonzero(board == 0).astype(np.int32)
        kept = must_play(board.copy(), colour, table, sides, runs, vc_scratch_for(len(board), table.shape[1]),
                         children, len(children))  # fmt: skip
        assert {int(c) for c in children[:kept]} == must_play_reference(list(board), colour, neighbours, list(sides), m)


# ----- the facts it rests on -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), SIDED)
def test_never_two_winners_on_a_full_board(name: str, options: dict) -> None:
    """Exactly one colour wins a full board, so both can never hold a winning group at once."""
    game, sides, _, m = sides_of(name, options)
    neighbours = [list(n) for n in game.board.neighbours]
    rng = random.Random(5)
    for _ in range(200):
        full = [rng.choice((1, 2)) for _ in range(len(game.board))]
        counts = winning_group_counts_reference(full, neighbours, list(sides), m)
        assert (counts[1] > 0) != (counts[2] > 0)


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_omny_y_wins_exactly_where_the_triangle_s_sides_are_touched(size: int) -> None:
    """Omny `y` (no region with two corners) is Odd-Y's 3-sided triangle (all three sides touched)."""
    game = ogames.load("omny", variant="y", size=size)
    oddy = ogames.load("oddy", sides=3, size=size, pie=False)
    rng = random.Random(size)
    for _ in range(150):
        omny, triangle = game.new_state(), oddy.new_state()
        while not omny.is_over:
            move = rng.choice(omny.legal_moves())
            omny.play(move, t=0.0)
            triangle.play(move, t=0.0)
            assert triangle.is_over == omny.is_over
        assert omny.result.winner == triangle.result.winner


def random_positions(game, stones: int, rng: random.Random, tries: int = 5000) -> Iterator:
    """Positions of legal play, not over: `stones` to `stones` + 3 random moves from the start (at
    most `tries` games played; then the test asking for more fails)."""
    for _ in range(tries):
        state = game.new_state()
        for _ in range(stones + rng.randrange(4)):
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()), t=0.0)
        if not state.is_over:
            yield state
    raise AssertionError(f"fewer cases than wanted in {tries} random games")


# ----- what it claims --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "stones"),
    [
        ("omny", {"variant": "y", "size": 5}, 3),
        ("oddy", {"sides": 5, "size": 3, "pie": False}, 4),
        ("oddy", {"sides": 3, "size": 3, "board": "polar", "pie": False}, 3),
    ],
)
def test_a_virtual_win_is_a_win_by_minimax(name: str, options: dict, stones: int) -> None:
    """On random positions of legal play, a colour the detector says has a virtual win wins by plain
    minimax over the rules, whether it moves or not; checked until both cases were seen often."""
    game, sides, runs, _ = sides_of(name, options)
    rng = random.Random(11)
    memo: dict = {}
    seen = {True: 0, False: 0}  # virtual wins found for the mover, and for the other colour
    positions = random_positions(game, stones, rng)
    while min(seen.values()) < 15:
        state = next(positions)
        board = state.stones.copy()
        for colour in (1, 2):
            if compiled(game, board, colour, sides, runs)[0]:
                moves = colour == state.turn + 1
                seen[moves] += 1
                winner = winner_reference(state, memo)
                assert (winner == state.mover) == moves, (state.record_moves(), colour)


@pytest.mark.parametrize(
    ("name", "options", "stones"),
    [
        ("omny", {"variant": "y", "size": 5}, 4),
        ("oddy", {"sides": 5, "size": 3, "pie": False}, 5),
        ("oddy", {"sides": 3, "size": 3, "board": "polar", "pie": False}, 4),
    ],
)
def test_every_move_outside_the_must_play_region_loses_by_minimax(name: str, options: dict, stones: int) -> None:
    """On random positions of legal play, each move the region leaves out hands the opponent a win by
    plain minimax over the rules; checked until the region had left out moves often."""
    game, _, _, m = sides_of(name, options)
    sides, _ = _sides_goal(game)
    neighbours = [list(n) for n in game.board.neighbours]
    rng = random.Random(13)
    memo: dict = {}
    pruned = 0
    positions = random_positions(game, stones, rng)
    while pruned < 60:
        state = next(positions)
        board = [int(v) for v in state.stones]
        region = must_play_reference(board, state.turn + 1, neighbours, [int(b) for b in sides], m)
        seat = state.mover
        for cell in (c for c, v in enumerate(board) if v == 0 and c not in region):
            pruned += 1
            state.play(game.board.labels[cell], t=0.0)
            assert not state.is_over and winner_reference(state, memo) != seat, state.record_moves()
            state.undo()


Y5, Y6, PENTAGON = ({"variant": "y", "size": 5}, {"variant": "y", "size": 6}, {"sides": 5, "size": 3, "pie": False})


@pytest.mark.parametrize(
    ("without", "with_it", "boards"),
    [
        # Virtual wins: a fiftieth of the positions on Y 5, a quarter on the pentagon when this was written.
        pytest.param(
            {"virtual": False, "mustplay": False}, {"mustplay": False}, [("omny", Y5), ("oddy", PENTAGON)], id="virtual"
        ),
        # Must-play regions beside them: a tenth on Y 6, a fifth on the pentagon.
        pytest.param({"mustplay": False}, {}, [("omny", Y6), ("oddy", PENTAGON)], id="mustplay"),
    ],
)
def test_the_solver_keeps_its_verdicts_in_fewer_positions(without: dict, with_it: dict, boards: list) -> None:
    """Every first move of the boards keeps its verdict, in fewer than half the positions."""
    for name, options in boards:
        game = ogames.load(name, **options)
        plain, pruned = 0, 0
        for move in game.new_state().legal_moves():
            state = game.new_state()
            state.play(move, t=0.0)
            before = solve(state, solver=ConnectionSolver(game, table_bits=18, **without))
            after = solve(state, solver=ConnectionSolver(game, table_bits=18, **with_it))
            assert before.proved and after.value == before.value, move
            plain, pruned = plain + before.nodes, pruned + after.nodes
        assert pruned * 2 < plain, (name, pruned, plain)
