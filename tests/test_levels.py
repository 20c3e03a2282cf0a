"""Levels 1–10 of `mcts` (`mcts:level=N`): they exist, their budgets grow with the level, the
settings beside a level win over it, and a high level beats a low one. The tournament that shows
each level beats the one below is `benchmarks/bench_levels.py` (docs/levels.md), not a test."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import ogames
from ogames.errors import BadOption
from ogames.kernels.omega import scores_into
from ogames.players import player
from ogames.players.levels import HIGHEST, LEVELS, LOWEST, OMEGA_FOUR_LEVELS, OMEGA_MULTI_LEVELS, ladder, level_settings
from ogames.players.mcts import CompiledMcts
from ogames.players.mcts.adapter import adapter_for


@pytest.mark.parametrize("levels", [LEVELS, OMEGA_MULTI_LEVELS, OMEGA_FOUR_LEVELS], ids=["common", "omega-multi", "omega-four"])
def test_every_level_exists_and_budgets_grow(levels: dict[int, Any]) -> None:
    assert sorted(levels) == list(range(LOWEST, HIGHEST + 1)) == list(range(1, 11))
    budgets = [levels[n].iterations for n in sorted(levels)]
    assert budgets == sorted(budgets) and len(set(budgets)) == len(budgets)
    temperatures = [levels[n].temperature for n in sorted(levels)]
    assert temperatures == sorted(temperatures, reverse=True) and temperatures[-1] == 0
    assert not any(levels[n].prove for n in range(LOWEST, HIGHEST))
    # A player fits its level to the game's ladder when it sees the game; the exploration constant
    # that follows from `rave` is set before then, so every ladder keeps each level's `rave`.
    assert all(levels[n].rave == LEVELS[n].rave for n in levels)
    assert LEVELS[HIGHEST].prove > 0


@pytest.mark.parametrize(
    ("game", "options", "levels"),
    [
        ("omega", {"players": 3}, OMEGA_MULTI_LEVELS),
        ("omega", {"players": 4}, OMEGA_FOUR_LEVELS),
        ("omega", {"players": 2}, LEVELS),
        ("omny", {}, LEVELS),
    ],
)
def test_each_game_has_its_ladder(game: str, options: dict[str, Any], levels: dict[int, Any]) -> None:
    assert ladder(game, ogames.load(game, **options).options) is levels


def test_a_level_plays_at_the_budget_of_its_games_ladder() -> None:
    omega3 = ogames.load("omega", players=3, size=4).new_state()
    omega2 = ogames.load("omega", players=2, size=4).new_state()
    bot = player("mcts:level=3", seed=1)
    before = (bot.iterations, bot.settings["temperature"])
    assert before == (LEVELS[3].iterations, LEVELS[3].temperature)  # before it sees a game
    bot.choose(omega3)
    assert bot.last["iterations"] == OMEGA_MULTI_LEVELS[3].iterations != LEVELS[3].iterations
    multi = OMEGA_MULTI_LEVELS[3]
    assert (bot.iterations, bot.settings["temperature"]) == (multi.iterations, multi.temperature)
    bot.choose(omega2)  # the same player on another game takes that game's ladder again
    assert bot.last["iterations"] == LEVELS[3].iterations
    written = player("mcts:level=3,iterations=77,temperature=0", seed=1)
    written.choose(omega3)  # settings written beside the level still win
    assert (written.last["iterations"], written.settings["temperature"]) == (77, 0.0)
    timed = player("mcts:level=10,think=0.05", seed=1)
    timed.choose(omega3)  # level 10 with a time has no iteration cap on any ladder
    assert timed.iterations is None


def test_only_four_player_level_10_searches_with_a_score_share() -> None:
    assert [n for n in OMEGA_FOUR_LEVELS if OMEGA_FOUR_LEVELS[n].share] == [10]
    assert all(OMEGA_FOUR_LEVELS[n] is OMEGA_MULTI_LEVELS[n] for n in range(1, 10))
    assert not any(level.share for ladder_ in (LEVELS, OMEGA_MULTI_LEVELS) for level in ladder_.values())
    shares = {}
    for players in (2, 3, 4):
        bot = player("mcts:level=10,iterations=50,nodes=5000", seed=1)
        bot.choose(ogames.load("omega", players=players, size=4).new_state())
        shares[players] = bot.settings["share"]
    assert shares == {2: 0.0, 3: 0.0, 4: 0.5}
    written = player("mcts:level=10,share=0,iterations=50,nodes=5000", seed=1)
    written.choose(ogames.load("omega", players=4, size=4).new_state())
    assert written.settings["share"] == 0.0  # written beside the level, it wins (the level 10 before)


@pytest.mark.parametrize("level", range(1, 11))
def test_a_level_is_a_spec_and_a_keyword(level: int) -> None:
    bot = player(f"mcts:level={level}")
    same = player("mcts", level=level)
    assert isinstance(bot, CompiledMcts) and bot.level == level
    assert bot.settings == same.settings
    assert bot.iterations == LEVELS[level].iterations and bot.think is None


def test_settings_beside_a_level_win_and_level_10_takes_all_the_time() -> None:
    assert player("mcts:level=3,iterations=500").iterations == 500
    assert player("mcts:level=2", temperature=0).settings["temperature"] == 0
    capped = player("mcts:level=5,think=0.5")
    assert (capped.iterations, capped.think) == (LEVELS[5].iterations, 0.5)
    full = player("mcts:level=10,think=2")
    assert (full.iterations, full.think) == (None, 2.0)
    assert level_settings(10)["iterations"] == LEVELS[10].iterations


@pytest.mark.parametrize("spec", ["mcts:level=0", "mcts:level=11", "mcts:level=high"])
def test_a_level_outside_1_to_10_is_refused(spec: str) -> None:
    with pytest.raises(BadOption, match="level"):
        player(spec)


def test_terminal_seat_with_a_level_keeps_its_iteration_budget() -> None:
    from ogames.cli.app import build_players

    players = build_players(("black", "white"), {"white": "mcts:level=4"}, 2, think=1.0)
    assert (players[1].iterations, players[1].think) == (LEVELS[4].iterations, None)


def test_temperature_draws_among_the_searched_moves() -> None:
    state = ogames.load("oddy", sides=3, size=5, pie=False).new_state()
    drawn = {player("mcts:level=1", seed=seed).choose(state) for seed in range(12)}
    best = {player("mcts:iterations=10,rave=off,bridges=off", seed=seed).choose(state) for seed in range(3)}
    assert len(drawn) >= 4 and all(m in state.legal_moves() for m in drawn | best)


def test_level_6_beats_level_1_on_a_small_board() -> None:
    game = ogames.load("omny", variant="y", size=4)
    wins = 0
    for g in range(4):
        state = game.new_state()
        strong = g % 2  # the seat of level 6, alternating
        bots = [player("mcts", level=6 if seat == strong else 1, seed=g * 2 + seat) for seat in range(2)]
        while not state.is_over:
            state.play(bots[state.mover].choose(state), t=0.0)
        wins += state.owner[state.winner] == strong
    assert wins == 4


# ----- the solver inside the search (`prove`) ------------------------------------------------------


def positions(moves: str, **options):
    state = ogames.load("oddy", sides=3, size=4, pie=False, **options).new_state()
    for move in moves.split():
        state.play(move, t=0.0)
    return state


def test_prove_plays_the_proven_win() -> None:
    state = positions("a2 b3 b2 d1 b1 a4")
    bot = CompiledMcts(iterations=1, seed=3, prove=10_000, level=10)
    assert bot.choose(state) == "c2"
    info = bot.info()
    assert (info["by"], info["proven"], info["iterations"], info["level"]) == ("solver", "win", 0, 10)


def test_prove_replaces_a_move_proven_to_lose() -> None:
    # White must block c2 (Black wins there); a4 loses, and the solver proves it.
    state = positions("a2 b3 b2 d1 b1")
    bot = CompiledMcts(iterations=1500, seed=1, prove=10_000)
    bot.compiled_search(state)
    assert bot._avoid_proven_losses(state, adapter_for(state), "a4") == "c2"
    assert bot.info()["avoided"] == ("a4",)


def test_prove_is_searched_with_the_pie() -> None:
    state = ogames.load("oddy", sides=3, size=3).new_state()
    state.play("b2", t=0.0)
    assert CompiledMcts(iterations=50, seed=1, prove=10_000).choose(state) in state.legal_moves()


# ----- Omega's scores --------------------------------------------------------------------------------


def test_omega_scores_follow_the_rules() -> None:
    import random

    for players in (3, 4):
        game = ogames.load("omega", players=players, size=4)
        for seed in range(5):
            rng = random.Random(seed)
            state = game.new_state()
            while not state.is_over:
                state.play(rng.choice(state.legal_moves()), t=0.0)
            stones = np.ascontiguousarray(state.stones, dtype=np.int8)
            n = len(stones)
            logs = np.log(np.maximum(np.arange(n + 2), 1))
            sums = np.zeros(4)
            queue = np.empty(n, dtype=np.int32)
            mark = np.zeros(n, dtype=np.int64)
            winner = scores_into(stones, game.board.neighbour_table, players, logs, queue, mark, 1, sums)
            scores = state.scores
            for k, colour in enumerate(game.colours):
                assert math.isclose(sums[k], math.log(scores[colour]), abs_tol=1e-9)
            assert game.colours[winner] == state.winner


def _bench_levels() -> object:
    """benchmarks/bench_levels.py as a module (it is a script, not part of the package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_levels.py"
    spec = importlib.util.spec_from_file_location("bench_levels", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_level_proof_counts_tables_won_and_the_pairwise_score_of_the_higher_level() -> None:
    from ogames.arena.schedule import Pairing
    from ogames.arena.tournament import Outcome

    bench = _bench_levels()
    # Level N + 1 (entrant 0) against two of level N: it wins one table, is second at one (above
    # one of them), last at one, and at the fourth loses with the same score as one of them.
    standings = [{0: (1.0, 9), 1: (0.0, 5), 2: (0.0, 3)}, {0: (0.0, 6), 1: (1.0, 9), 2: (0.0, 2)},
                 {0: (0.0, 1), 1: (0.0, 4), 2: (1.0, 7)}, {0: (0.0, 4), 1: (0.0, 4), 2: (1.0, 8)}]
    outcomes = [Outcome(Pairing(k, 0, (0, 1, 2)), standing, "black", 30) for k, standing in enumerate(standings)]
    result = bench.pair_result(outcomes, 3)  # type: ignore[attr-defined]
    assert (result["points"], result["games"], result["even"]) == (1, 4, 1 / 3)
    assert result["pairwise"] == pytest.approx((1.0 + 0.5 + 0.0 + 0.25) / 4)
    two = [Outcome(Pairing(k, 0, (0, 1)), {0: (r, 0), 1: (1 - r, 0)}, "black", 9) for k, r in enumerate([1.0, 1.0, 0.0])]
    assert bench.pair_result(two, 2)["pairwise"] == pytest.approx(2 / 3)  # type: ignore[attr-defined]
