"""docs/solved.md checked by second methods: the strategy check (`strategy_check.check_win`)
against plain minimax, the page's stored verdicts against minimax on the smallest boards and
against the strategy check on a random mid-sized class each run, and the page in step with its
stored results (benchmarks/results/solved-openings.json)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from solve_openings import BOARDS, RESULTS, UNTRIED, check_opening, classes, write_page

import ogames
from ogames.errors import BadOption
from ogames.players.solvers import strategy_check
from ogames.players.solvers.connection import LOSS, WIN, ConnectionSolver, winner_reference
from ogames.players.solvers.strategy_check import check_win, solver_strategy

ROOT = Path(__file__).resolve().parent.parent
BOARD = {board.title: board for board in BOARDS}
TINY = ["Y 4", "Odd-Y 5 sides, size 2", "Omny sunder 2"]  # plain minimax proves every class in a second
MID = ["Y 5", "Odd-Y 5 sides, size 3", "Omny sunder 3", "Omny gyre 3", "Omny gyre 3, komi 0.5"]


def stored() -> dict:
    return json.loads(RESULTS.read_text(encoding="utf-8"))


def position(game, moves: list[str]):
    state = game.new_state()
    for move in moves:
        state.play(move, t=0.0)
    return state


# ----- the strategy check against plain minimax ---------------------------------------------------------------

SMALL_GAMES = [
    ("omny", {"variant": "y", "size": 4}),
    ("omny", {"variant": "sunder", "size": 2}),
    ("oddy", {"sides": 5, "size": 2, "pie": False}),
    ("omny", {"variant": "y", "size": 4, "komi": 0.5}),  # S + 2k even: both colours may connect, the race decides
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from(SMALL_GAMES), seed=st.integers(0, 2**32 - 1), stones=st.integers(0, 5))
def test_the_check_holds_exactly_for_minimaxs_winner(which, seed, stones) -> None:
    name, options = which
    game = ogames.load(name, **options)
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(stones):
        moves = state.legal_moves()
        if state.is_over or not moves:
            break
        state.play(rng.choice(moves), t=0.0)
    if state.is_over:
        return
    best = winner_reference(state)
    for seat, pairing in itertools.product((0, 1), (False, True)):
        checked = check_win(state, seat, solver_strategy(ConnectionSolver(game, table_bits=12)), pairing=pairing)
        assert checked.holds == (seat == best), (state.record_moves(), seat, pairing, checked)
        assert checked.positions >= 1


def test_pairing_ends_lines_early_and_still_refutes_a_false_claim() -> None:
    game = ogames.load("omny", variant="y", size=5)
    state = position(game, ["c2"])  # Black wins (docs/solved.md)
    strategy = solver_strategy(ConnectionSolver(game))
    walked, paired = check_win(state, 0, strategy), check_win(state, 0, strategy, pairing=True)
    assert walked.holds and paired.holds and walked.pairings == 0
    assert paired.pairings > 0 and paired.positions < walked.positions / 10
    assert not check_win(state, 1, solver_strategy(ConnectionSolver(game)), pairing=True).holds


def test_the_winner_takes_a_move_that_ends_the_line_before_asking_the_strategy() -> None:
    """A move the rules say wins, or one leaving a checked pairing, is taken first: a strategy
    that names nothing is never asked where such a move exists, and Y 7's c3, which the solver's
    moves alone did not close within 200,000 positions, closes in a few thousand."""
    game = ogames.load("omny", variant="y", size=4)
    state = position(game, ["b2", "a4", "c1", "a3", "b3", "d1"])  # Black to move, and a2 wins at once
    assert position(game, ["b2", "a4", "c1", "a3", "b3", "d1", "a2"]).result.winner == "black"
    assert check_win(state, 0, lambda here: None).holds
    assert not check_win(position(game, ["b2"]), 0, lambda here: None).holds  # asked where no move ends it
    y7 = ogames.load("omny", variant="y", size=7)
    checked = check_win(position(y7, ["c3"]), 0, solver_strategy(ConnectionSolver(y7, table_bits=20)), 20_000, True)
    assert checked.holds and checked.pairings > 1_000, checked


def test_a_pairing_that_does_not_win_every_fill_ends_nothing(monkeypatch) -> None:
    """The greedy search only proposes pairs; the fills decide. A detector that claimed a win
    everywhere (with no pairs) would let a false claim through if the fills were not checked."""
    monkeypatch.setattr(strategy_check, "virtual_links_reference", lambda *args: (True, []))
    game = ogames.load("omny", variant="y", size=4)
    state = position(game, ["b2"])  # Black wins: White's claim is false
    checked = check_win(state, 1, lambda here: here.legal_moves()[0], pairing=True)
    assert not checked.holds and checked.pairings == 0


def test_pairing_is_left_out_where_the_goal_is_not_a_set_of_sides() -> None:
    for options in ({"variant": "sunder", "size": 2}, {"variant": "y", "size": 4, "komi": 0.5}):
        game = ogames.load("omny", **options)
        state = position(game, [game.new_state().legal_moves()[0]])
        best = winner_reference(state)
        checked = check_win(state, best, solver_strategy(ConnectionSolver(game)), pairing=True)
        assert checked.holds and checked.pairings == 0


def test_a_strategy_that_plays_badly_is_refuted_by_a_line_the_rules_confirm() -> None:
    game = ogames.load("omny", variant="y", size=4)
    state = position(game, ["b2"])  # Black has won this (docs/solved.md, and minimax)
    black = 0

    def first_cell(here) -> str:  # a "strategy" that takes the first open cell
        return here.legal_moves()[0]

    checked = check_win(state, black, first_cell)
    assert not checked.holds
    assert checked.reason == "the defence connects"
    replay = state.clone()
    for move in checked.refuted_by:
        replay.play(move, t=0.0)
    assert replay.is_over and replay.owner[replay.result.winner] != black
    assert check_win(state, black, solver_strategy(ConnectionSolver(game))).holds  # while the real strategy holds


def test_a_strategy_with_no_move_and_a_walk_past_its_limit_do_not_hold() -> None:
    game = ogames.load("omny", variant="y", size=4)
    state = position(game, ["b2"])
    silent = check_win(state, 0, lambda here: None)
    assert not silent.holds and silent.reason == "the strategy names no winning move here"
    taken = check_win(state, 0, lambda here: "b2")  # a stone on a taken cell
    assert not taken.holds and taken.reason == "the strategy names 'b2', not a legal move here"
    assert taken.refuted_by and len(taken.refuted_by) == 1  # White's first reply, then Black is asked
    cut = check_win(state, 0, solver_strategy(ConnectionSolver(game)), limit=3)
    assert not cut.holds and "not finished within 3 positions" in cut.reason
    assert cut.positions == 3


def test_the_check_refuses_positions_with_a_swap_or_komi_choice_ahead() -> None:
    for game in (ogames.load("oddy", sides=5, size=2), ogames.load("omny", variant="y", size=3, komi_choice=True)):
        with pytest.raises(BadOption):
            check_win(game.new_state(), 0, lambda here: None)
    later = position(ogames.load("oddy", sides=5, size=2), ["o", "a1-0"])  # past the swap: checked
    game = later.game
    assert check_win(later, winner_reference(later), solver_strategy(ConnectionSolver(game))).holds


# ----- the page's verdicts ---------------------------------------------------------------------------------------


def verdicts(title: str) -> dict[str, str]:
    """Every first move's stored verdict for Black on a board (its class's)."""
    board = BOARD[title]
    game = ogames.load(board.game, **board.options)
    openings = stored()[title]["openings"]
    labels = game.board.labels
    return {labels[c]: openings[labels[orbit[0]]]["value"] for orbit in classes(game) for c in orbit}


@pytest.mark.parametrize("title", TINY)
def test_every_first_move_of_the_smallest_boards_is_minimaxs(title: str) -> None:
    board = BOARD[title]
    game = ogames.load(board.game, **board.options)
    memo: dict = {}
    found = verdicts(title)
    assert set(found) == set(game.board.labels)
    for move, value in found.items():
        state = position(game, [move])
        black_wins = state.is_over or winner_reference(state, memo) == 0
        assert value == (WIN if black_wins else LOSS), (title, move, value)


def test_a_random_mid_sized_class_holds_by_the_strategy_check() -> None:
    rng = random.Random()
    title = rng.choice(MID)
    openings = stored()[title]["openings"]
    first = rng.choice(sorted(openings))
    value = openings[first]["value"]
    assert value in (WIN, LOSS)
    checked = check_opening(BOARD[title], first, value)
    assert checked["agrees"], (title, first, value, checked)


def test_every_stored_check_agrees_and_the_small_boards_are_checked_in_full() -> None:
    results = stored()
    for board in BOARDS:
        known = results[board.title]
        proved = {first for first, entry in known["openings"].items() if entry["value"] in (WIN, LOSS)}
        checks = known.get("checks", {})
        assert set(checks) <= proved, board.title
        assert all(check["agrees"] for check in checks.values()), board.title
        if board.checks is None:
            assert set(checks) == proved, board.title
        elif proved:
            assert len(checks) == min(board.checks, len(proved)), board.title


def test_the_page_is_written_from_the_stored_results() -> None:
    results = stored()
    page = (ROOT / "docs" / "solved.md").read_text(encoding="utf-8")
    assert page == write_page(results)
    for board in BOARDS:
        assert f"## {board.title}\n" in page
    assert "## Onyx: not solved, and why" in page
    y6 = verdicts("Y 6")
    assert UNTRIED not in y6.values()


# ----- Onyx's section -------------------------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
@example(seed=621739)  # a capture opened Black's path: the bound once treated White's stones as walls
def test_onyx_stones_to_connect_is_a_lower_bound_on_the_winners_stones(seed) -> None:
    from solve_openings import stones_to_connect

    rng = random.Random(seed)
    state = ogames.load("onyx").new_state()
    assert stones_to_connect(state, 1) == stones_to_connect(state, 2) == 10  # the page's figure
    bounds = []  # (colour, its lower bound, its stones placed so far)
    placed = {1: 0, 2: 0}
    while not state.is_over:
        before = {colour: stones_to_connect(state, colour) for colour in (1, 2)}
        for colour in (1, 2):
            bounds.append((colour, before[colour], placed[colour]))
        colour = state.turn + 1
        state.play(rng.choice([m for m in state.legal_moves() if m != "swap"]), t=0.0)
        placed[colour] += 1
        # Why it is a bound: a placement, captures and all, lowers the mover's figure by at most
        # one stone and never lowers the opponent's.
        assert stones_to_connect(state, colour) >= before[colour] - 1
        assert stones_to_connect(state, 3 - colour) >= before[3 - colour]
    winner = 1 if state.result.winner == "black" else 2
    for colour, bound, before_stones in bounds:
        if colour == winner:
            assert placed[winner] - before_stones >= bound
