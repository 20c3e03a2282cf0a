"""The connection-game solver (`players/solvers/connection.py`) against plain minimax over the rules:
every reachable position of small boards, random positions of larger ones, the pie rule and
Omny's komi choice, komi races (S + 2k even), and the `solver` player."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ogames
from ogames.kernels.oddy import winning_group_counts_reference
from ogames.kernels.omny import satisfied_colours_reference
from ogames.players import player
from ogames.players.solver_player import SolverPlayer
from ogames.players.solvers.connection import (
    LOSS,
    UNKNOWN,
    WIN,
    ConnectionSolver,
    solve,
    winner_reference,
    winning_moves_reference,
)


def reachable(state, limit: int | None = None) -> list:
    """Every position reachable from `state` through the rules (not over), each once."""
    seen: dict = {}
    stack = [state.clone()]
    while stack:
        here = stack.pop()
        key = (here.stones.tobytes(), here.turn, here.swapped, here.placements, getattr(here, "twice_komi", 0))
        if key in seen or here.is_over:
            continue
        seen[key] = here
        if limit and len(seen) >= limit:
            break
        for move in here.legal_moves():
            child = here.clone()
            child.play(move, t=0.0)
            stack.append(child)
    return list(seen.values())


def random_position(game, stones: int, rng: random.Random):
    """A position after `stones` random placements (None if the game ended on the way)."""
    state = game.new_state()
    for _ in range(stones):
        if state.is_over:
            return None
        moves = [m for m in state.legal_moves() if m != "swap"]
        state.play(rng.choice(moves), t=0.0)
    return None if state.is_over else state


def check_against_minimax(state, solver: ConnectionSolver, memo: dict) -> None:
    """The solver's value for the mover equals minimax's, and its winning move wins."""
    proof = solve(state, solver=solver)
    assert proof.proved, (state.record_moves(), proof)
    best = winner_reference(state, memo)
    assert (proof.value == WIN) == (best == state.mover), ([e["move"] for e in state.history], proof)
    if proof.value == WIN and proof.move is not None:
        child = state.clone()
        child.play(proof.move, t=0.0)
        won = child.owner[child.result.winner] if child.is_over else winner_reference(child, memo)
        assert won == state.mover, ([e["move"] for e in state.history], proof.move)
    if proof.value == LOSS:
        assert proof.move is None


# ----- exhaustive: every reachable position -----------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "y", "size": 3},
        {"variant": "y", "size": 4},
        {"variant": "y", "size": 4, "komi": 0.5},  # S + 2k = 4: a race
        {"variant": "sunder", "size": 2},
        {"variant": "sunder", "size": 2, "komi": 0.5},  # a race
        {"variant": "sunder", "size": 2, "komi": 1},
        {"variant": "gyre", "size": 2, "komi": 1.5},
        {"variant": "y", "size": 3, "pie": True},
        {"variant": "y", "size": 3, "komi_choice": True},
        {"variant": "y", "size": 3, "komi_choice": True, "pie": True},
    ],
)
def test_omny_agrees_with_minimax_on_every_reachable_position(options):
    game = ogames.load("omny", **options)
    solver = ConnectionSolver(game, table_bits=10)  # a small table: entries are overwritten, work is redone
    memo: dict = {}
    positions = reachable(game.new_state())
    assert positions
    for state in positions:
        check_against_minimax(state, solver, memo)


@pytest.mark.parametrize(
    "options",
    [
        {"sides": 3, "size": 3},
        {"sides": 3, "size": 4, "pie": False},
        {"sides": 5, "size": 2},
        {"sides": 7, "size": 2, "pie": False},
        {"sides": 3, "size": 3, "board": "polar", "pie": False},
    ],
)
def test_oddy_agrees_with_minimax_on_every_reachable_position(options):
    game = ogames.load("oddy", **options)
    solver = ConnectionSolver(game, table_bits=10)
    memo: dict = {}
    for state in reachable(game.new_state()):
        check_against_minimax(state, solver, memo)


# ----- random positions of larger boards --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "stones", "count"),
    [
        ("omny", {"variant": "y", "size": 5}, 6, 60),
        ("omny", {"variant": "sunder", "size": 3}, 10, 30),
        ("omny", {"variant": "gyre", "size": 3}, 10, 30),
        ("omny", {"variant": "gyre", "size": 3, "komi": 0.5}, 10, 30),  # S = 13, k = 0.5: a race
        ("oddy", {"sides": 5, "size": 3, "pie": False}, 6, 60),
        ("oddy", {"sides": 3, "size": 5, "pie": False}, 6, 60),
    ],
)
def test_random_positions_agree_with_minimax(name, options, stones, count):
    game = ogames.load(name, **options)
    solver = ConnectionSolver(game, table_bits=14)
    rng = random.Random(7)
    memo: dict = {}
    checked = 0
    while checked < count:
        state = random_position(game, stones + rng.randrange(3), rng)
        if state is not None:
            check_against_minimax(state, solver, memo)
            checked += 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), stones=st.integers(8, 13))
def test_random_omny_custom_rhombus_positions_agree(seed, stones):
    game = ogames.load("omny", variant="custom", shape="rhombus", size=4, stars="perimeter", komi=0.5)
    state = random_position(game, stones, random.Random(seed))
    if state is not None:
        check_against_minimax(state, ConnectionSolver(game, table_bits=8), {})


# ----- the facts the search relies on ---------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "y", "size": 5},
        {"variant": "y", "size": 4, "komi": 0.5},
        {"variant": "sunder", "size": 3, "komi": 0.5},
        {"variant": "gyre", "size": 3, "komi": 1},
        {"variant": "custom", "shape": "rhombus", "size": 4, "stars": "perimeter"},
    ],
)
def test_every_full_omny_board_has_a_winning_group(options):
    """No draws: what makes 'win or loss' the only values (with S + 2k even both colours may)."""
    game = ogames.load("omny", **options)
    state = game.new_state()
    neighbours = [list(n) for n in game.board.neighbours]
    stars = list(game.star_mask)
    rng = random.Random(3)
    for _ in range(300):
        full = [rng.choice((1, 2)) for _ in range(len(game.board))]
        assert satisfied_colours_reference(full, neighbours, stars, state.bound(0), state.bound(1))


def test_every_full_oddy_board_has_exactly_one_winner():
    game = ogames.load("oddy", sides=5, size=3)
    neighbours = [list(n) for n in game.board.neighbours]
    rng = random.Random(4)
    for _ in range(300):
        full = [rng.choice((1, 2)) for _ in range(len(game.board))]
        counts = winning_group_counts_reference(full, neighbours, list(game.cell_sides), 5)
        assert (counts[1] > 0) != (counts[2] > 0)


def test_a_stone_elsewhere_never_spoils_a_threat():
    """Why one threat must be blocked and two lose: an opponent's immediate win on a cell stays one
    whatever the mover plays elsewhere (random positions of Omny gyre 3 and Odd-Y 5-sided 3)."""
    rng = random.Random(5)
    for game in (ogames.load("omny", variant="gyre", size=3), ogames.load("oddy", sides=5, size=3, pie=False)):
        for _ in range(40):
            state = random_position(game, rng.randrange(4, 12), rng)
            if state is None:
                continue
            for cell in state.legal_moves():
                trial = state.clone()
                trial.turn = 1 - trial.turn  # the opponent to move instead
                trial.play(cell, t=0.0)
                if not trial.is_over:
                    continue
                for other in state.legal_moves():
                    if other == cell:
                        continue
                    after = state.clone()
                    after.play(other, t=0.0)
                    if after.is_over:
                        continue
                    after.play(cell, t=0.0)
                    assert after.is_over and after.winner == trial.winner


# ----- the pie rule and the komi choice -----------------------------------------------------------


def test_the_empty_board_with_pie_is_lost_without_search_and_the_swap_node_is_won():
    state = ogames.load("oddy", sides=3, size=7).new_state()  # pie on by default; far too big to search
    proof = solve(state, budget=10)
    assert (proof.value, proof.move, proof.nodes) == (LOSS, None, 0)
    state.play("a1", t=0.0)  # a corner: White swaps only if Black's corner wins
    proof = solve(state, budget=10)
    assert proof.value == WIN and proof.move is None and "budget" in proof.reason
    small = ogames.load("oddy", sides=3, size=4).new_state()
    small.play("b2", t=0.0)  # the centre of Y 4 wins, so White swaps
    assert solve(small).move == "swap"
    small = ogames.load("oddy", sides=3, size=4).new_state()
    small.play("a1", t=0.0)  # a corner loses on Y 4: White plays on
    proof = solve(small)
    assert proof.value == WIN and proof.move not in ("swap", None)


def test_komi_choice_is_lost_for_the_chooser():
    game = ogames.load("omny", variant="gyre", size=3, komi_choice=True)
    state = game.new_state()
    assert solve(state, budget=1).value == LOSS
    state.play("komi=3.5", t=0.0)
    assert solve(state, budget=1).value == WIN  # White may swap: the mover wins either way


def test_swap_is_right_exactly_when_the_colour_to_move_loses():
    game = ogames.load("omny", variant="y", size=4, pie=True)
    memo: dict = {}
    for first in game.new_state().legal_moves():
        state = game.new_state()
        state.play(first, t=0.0)
        proof = solve(state)
        assert proof.value == WIN
        plain = ogames.load("omny", variant="y", size=4).new_state()  # the same position without pie
        plain.play(first, t=0.0)
        white_wins = winner_reference(plain, memo) == plain.mover
        assert (proof.move == "swap") == (not white_wins)
        assert proof.move in winning_moves_reference(state, {})


# ----- budgets and the API ---------------------------------------------------------------------------


def test_out_of_budget_is_unknown_and_says_so():
    state = ogames.load("omny", variant="y", size=6).new_state()
    proof = solve(state, budget=50)
    assert proof.value == UNKNOWN and proof.move is None and not proof.proved
    assert 50 <= proof.nodes < 100 and proof.seconds >= 0


def test_a_time_limit_stops_the_search():
    state = ogames.load("omny", variant="y", size=10).new_state()
    assert solve(state, budget=10**9, seconds=0.2).value == UNKNOWN


def test_refusals():
    with pytest.raises(ValueError, match="Omny and Odd-Y"):
        solve(ogames.load("onyx").new_state())
    state = ogames.load("omny", variant="y", size=2).new_state()
    with pytest.raises(ValueError, match="budget"):
        solve(state, budget=0)
    for move in ("a1", "a2", "b1"):
        if not state.is_over:
            state.play(move, t=0.0)
    with pytest.raises(ValueError, match="over"):
        solve(state)


def test_the_table_is_kept_between_searches_and_cleared_for_a_new_komi():
    game = ogames.load("omny", variant="y", size=5)
    solver = ConnectionSolver(game)
    state = game.new_state()
    first = solve(state, solver=solver)
    again = solve(state, solver=solver)
    assert first.value == again.value == WIN and again.nodes < first.nodes
    komi = ogames.load("omny", variant="y", size=5, komi=1).new_state()
    assert solve(komi, solver=ConnectionSolver(komi.game)).value == solve(komi, solver=solver).value
    assert np.array_equal(solver.bounds, [komi.bound(0), komi.bound(1)])


# ----- the player ---------------------------------------------------------------------------------------


def test_the_solver_player_wins_every_game_it_can_prove():
    game = ogames.load("omny", variant="y", size=4)
    rng = random.Random(1)
    for seed in range(4):
        bot = player(f"solver:budget=100000,fallback=random,seed={seed}")
        state = game.new_state()
        while not state.is_over:
            if state.turn == 0:
                state.play(bot.choose(state), t=0.0)
                assert bot.info()["by"] == "solver"
            else:
                state.play(rng.choice(state.legal_moves()), t=0.0)
        assert state.winner == "black"


def test_the_solver_player_falls_back_when_nothing_is_proved():
    bot = player("solver:budget=1,fallback=mcts,iterations=5,seed=2")
    assert isinstance(bot, SolverPlayer) and bot.fallback.iterations == 5
    state = ogames.load("omny", variant="y", size=6).new_state()
    move = bot.choose(state)
    assert move in state.legal_moves() and bot.info()["by"] == "mcts"
    assert bot.info()["proof"].value == UNKNOWN
    omega = ogames.load("omega").new_state()  # a game the solver does not play
    assert bot.choose(omega) in omega.legal_moves() and bot.info()["proof"] is None
    bot.reset()
    assert bot.info() == {}


def test_bad_solver_specs_are_refused():
    for spec, message in [
        ("solver:budget=0", "budget must be at least 1"),
        ("solver:fallback=solver", "cannot be a solver"),
        ("solver:depth=3", "has no setting 'depth'"),
    ]:
        with pytest.raises(ValueError, match=message):
            player(spec)


# ----- the openings page (tools/solve_openings.py) ------------------------------------------------------


def test_symmetries_found_for_the_solved_boards():
    from solve_openings import automorphisms, classes

    cases = [
        (ogames.load("omny", variant="y", size=4), 6, 3),
        (ogames.load("omny", variant="sunder", size=2), 12, 2),
        (ogames.load("omny", variant="gyre", size=3), 12, 4),
        (ogames.load("oddy", sides=5, size=3), 10, 4),
    ]
    for game, symmetries, count in cases:
        assert len(automorphisms(game)) == symmetries
        assert len(classes(game)) == count


def test_the_openings_table_of_y4_is_minimaxs():
    from solve_openings import WIN as TOOL_WIN
    from solve_openings import Board, solve_board

    report = solve_board(Board("Y 4", "omny", {"variant": "y", "size": 4}, 10**6), {}, lambda: None)
    proved = sorted(c for o in report.openings if o.value == TOOL_WIN for c in o.cells)
    assert proved == sorted(winning_moves_reference(ogames.load("omny", variant="y", size=4).new_state()))


@pytest.mark.parametrize(
    ("name", "options", "moves"),
    [
        ("omny", {"variant": "y", "size": 6}, None),  # virtual wins and must-play regions
        ("oddy", {"sides": 5, "size": 3, "pie": False}, None),
        ("omny", {"variant": "sunder", "size": 3}, 3),  # stars' regions: neither (a few moves, 200,000 positions each)
    ],
)
def test_the_moves_cache_changes_nothing_but_the_work(name: str, options: dict, moves: int | None) -> None:
    """DFPN entering a position again takes its moves from the cache rather than expanding it anew:
    every first move's search (or the first `moves`) is the same, step for step (value, move,
    positions), with the cache or with next to none (one slot), and the cache served re-entries."""
    game = ogames.load(name, **options)
    served = 0
    for move in game.new_state().legal_moves()[:moves]:
        state = game.new_state()
        state.play(move, t=0.0)
        cached = ConnectionSolver(game, table_bits=18)
        proofs = [solve(state, solver=solver) for solver in (ConnectionSolver(game, table_bits=18, moves_bits=0), cached)]
        assert [(p.value, p.move, p.nodes) for p in proofs[:1]] == [(p.value, p.move, p.nodes) for p in proofs[1:]], move
        served += cached.reused
    assert served > 0
