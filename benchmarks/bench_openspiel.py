"""ogames against OpenSpiel on the Game of Y: speed side by side, and a strength match.

    .venv/bin/pip install -e ".[openspiel]"          # OpenSpiel is an optional extra
    .venv/bin/python benchmarks/bench_openspiel.py speed [--sizes 9 13 19] [--seconds 1] [--rounds 3]
    .venv/bin/python benchmarks/bench_openspiel.py match --games 100 --seconds 0.1 --size 9 [--workers 1]
    .venv/bin/python benchmarks/bench_openspiel.py match --iterations 73000 --their-simulations 61000 \
        --seats second --games 40     # load-independent: fixed budgets (quiet-machine rates of 1 s)

Our `oddy` with sides=3 on the triangle is exactly OpenSpiel's game `y` (RULES.md §0, §2): the same
board, labels and adjacency. OpenSpiel names action x + y·n by our label of the cell (x, y) (`a1` is
(0, 0), `b1` is (1, 0), `a2` is (0, 1)); `tests/test_openspiel_y.py` checks this mapping by playing
random games in both engines move by move. Pie is off everywhere (OpenSpiel's y has no swap).

speed, per board size, one core, from the empty board; both sides are measured in turn, round after
round, and the median of the rounds is shown (the machine is shared: figures are noisy):
- random playouts per second: ours is `state.random_playout(rng)` (the compiled fill playout, the
  same call as `ogames bench playouts`); OpenSpiel's fastest path is C++: `MCTSBot.mcts_search` with
  one simulation and a `RandomRolloutEvaluator` of many rollouts, which plays them all from the
  root; and, for scale, random games through `state.apply_action` in a Python loop.
- MCTS iterations per second: ours is `ogames.players.player("mcts")` (its `info()`), OpenSpiel's is
  the C++ `MCTSBot` with one random rollout per simulation, by simulations done in the same time.

match: our `mcts` at its default settings against OpenSpiel's C++ MCTSBot (random rollouts, one per
simulation, uct_c 2, MCTS-solver on: the defaults of OpenSpiel's own mcts example), each with the
same wall-clock time per move (ours `think`, theirs `max_wall_clock_time`), seats alternating.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

import ogames
from ogames.arena.shares import wilson
from ogames.boards.hexes import format_label, parse_label
from ogames.cli.bench import measure_playouts, measure_search
from ogames.players import player

try:
    import pyspiel
except ImportError:  # pragma: no cover - the message is the point
    pyspiel = None

UCT_C = 2.0  # OpenSpiel's mcts example default (rewards are -1/+1 there, 0/1 here)
MAX_MEMORY_MB = 1000  # the bot prunes its tree beyond this
NO_LIMIT = 2**31 - 1  # simulations: the wall clock ends the search


# ----- the mapping between our labels and OpenSpiel's actions ------------------------------------


def action_of(label: str, size: int) -> int:
    """OpenSpiel's y action for our cell label: x + y·n for the cell (x, y)."""
    x, y = parse_label(label)
    if not (x >= 0 and y >= 0 and x + y < size):
        raise ValueError(f"{label} is not on the Y board of side {size}")
    return x + y * size


def label_of(action: int, size: int) -> str:
    """Our label of OpenSpiel's y action."""
    x, y = action % size, action // size
    if not (0 <= action < size * size and x + y < size):
        raise ValueError(f"action {action} is not a cell of the Y board of side {size}")
    return format_label(x, y)


def our_game(size: int) -> ogames.Game:
    """The Game of Y as ogames plays it: Odd-Y, three sides, the triangle, no pie."""
    return ogames.load("oddy", sides=3, size=size, board="triangle", pie=False)


def their_game(size: int) -> Any:
    return pyspiel.load_game("y", {"board_size": size})


def their_bot(game: Any, seconds: float | None, seed: int, simulations: int = NO_LIMIT, solve: bool = True) -> Any:
    """OpenSpiel's C++ MCTS bot with one random rollout per simulation."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    clock = -1.0 if seconds is None else seconds
    return pyspiel.MCTSBot(game, evaluator, UCT_C, simulations, MAX_MEMORY_MB, solve, seed, False, max_wall_clock_time=clock)


# ----- speed -----------------------------------------------------------------------------------


def their_cpp_rollouts(size: int, seconds: float, batch: int = 1000) -> float:
    """Random games per second through OpenSpiel's C++ RandomRolloutEvaluator: one MCTS simulation
    from the empty board evaluates it with `batch` rollouts, so nearly all the time is rollouts."""
    game = their_game(size)
    state = game.new_initial_state()
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(batch, 1), UCT_C, 1, MAX_MEMORY_MB, False, 1, False)
    bot.mcts_search(state)  # warm-up
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        bot.mcts_search(state)
        count += batch
    return count / elapsed


def their_python_rollouts(size: int, seconds: float) -> float:
    """Random games per second with OpenSpiel's state driven from a Python loop."""
    game = their_game(size)
    rng = random.Random(1)
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        count += 1
    return count / elapsed


def their_mcts(size: int, seconds: float) -> float:
    """Simulations per second of the C++ MCTSBot from the empty board within `seconds`."""
    game = their_game(size)
    state = game.new_initial_state()
    their_bot(game, 0.05, 1).mcts_search(state)  # warm-up
    bot = their_bot(game, seconds, 2)
    start = time.perf_counter()
    root = bot.mcts_search(state)
    return root.explore_count / (time.perf_counter() - start)


def speed(sizes: list[int], seconds: float, rounds: int) -> dict[str, Any]:
    """Every figure for every size, the two sides measured in turn, `rounds` times; medians."""
    measures: dict[str, Callable[[int], float]] = {
        "ogames_playouts": lambda n: measure_playouts(our_game(n).new_state(), seconds, seed=1)["games_per_second"],
        "openspiel_cpp_rollouts": lambda n: their_cpp_rollouts(n, seconds),
        "openspiel_python_loop": lambda n: their_python_rollouts(n, seconds),
        "ogames_mcts": lambda n: measure_search(our_game(n).new_state(), "mcts", seconds)["iterations_per_second"],
        "openspiel_mcts": lambda n: their_mcts(n, seconds),
    }
    samples: dict[int, dict[str, list[float]]] = {n: {key: [] for key in measures} for n in sizes}
    for _ in range(rounds):
        for n in sizes:
            for key, measure in measures.items():
                samples[n][key].append(measure(n))
    return {
        str(n): {key: statistics.median(values) for key, values in figures.items()}
        | {f"{key}_range": [min(values), max(values)] for key, values in figures.items()}
        | {"cells": n * (n + 1) // 2}
        for n, figures in samples.items()
    }


def print_speed(figures: dict[str, Any], seconds: float, rounds: int, console: Console) -> None:
    note = f"one core, empty board; median of {rounds} alternating rounds of {seconds:g} s each; shared machine"
    table = Table(title=f"Game of Y: random playouts per second ({note})")
    for column in ("size", "cells", "ogames fill", "OpenSpiel C++", "OpenSpiel Python loop", "ogames / C++"):
        table.add_column(column, justify="right")
    for n, f in figures.items():
        ratio = f["ogames_playouts"] / f["openspiel_cpp_rollouts"]
        table.add_row(
            n,
            str(f["cells"]),
            f"{f['ogames_playouts']:,.0f}",
            f"{f['openspiel_cpp_rollouts']:,.0f}",
            f"{f['openspiel_python_loop']:,.0f}",
            f"{ratio:.2f}×",
        )
    console.print(table)
    table = Table(title=f"Game of Y: MCTS iterations per second ({note})")
    for column in ("size", "ogames mcts", "OpenSpiel C++ MCTSBot", "ogames / C++"):
        table.add_column(column, justify="right")
    for n, f in figures.items():
        ratio = f["ogames_mcts"] / f["openspiel_mcts"]
        table.add_row(n, f"{f['ogames_mcts']:,.0f}", f"{f['openspiel_mcts']:,.0f}", f"{ratio:.2f}×")
    console.print(table)


# ----- match -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What every game of a match shares. The budget per move is `seconds` of wall-clock time for
    both sides, or, with `iterations`, that many iterations for ours and simulations for theirs
    (to tell search speed from search quality)."""

    size: int = 9
    seconds: float = 0.1
    iterations: int | None = None
    spec: str = "mcts"
    solve: bool = True
    their_simulations: int | None = None  # with `iterations`: theirs per move, if not the same
    seats: str = "both"  # both (alternating), first or second: the seat ours takes

    def budget(self) -> str:
        if not self.iterations:
            return f"{self.seconds:g} s"
        theirs = self.their_simulations or self.iterations
        return f"{self.iterations} it" if theirs == self.iterations else f"{self.iterations}/{theirs} it"

    def ours_first(self, index: int) -> bool:
        """Whether ours moves first in game `index` (even games when alternating)."""
        return self.seats == "first" or (self.seats == "both" and index % 2 == 0)


def play_game(setup: Setup, ours_first: bool, seed: int) -> dict[str, Any]:
    """One game of Y between our player and OpenSpiel's bot, both engines kept move by move; their
    verdicts on the end and the winner must agree."""
    size = setup.size
    state = our_game(size).new_state(["ogames", "openspiel"] if ours_first else ["openspiel", "ogames"])
    game = their_game(size)
    theirs_state = game.new_initial_state()
    if setup.iterations:
        ours = player(setup.spec, iterations=setup.iterations, seed=seed)
        simulations = setup.their_simulations or setup.iterations
        theirs = their_bot(game, None, seed, simulations=simulations, solve=setup.solve)
    else:
        ours = player(setup.spec, think=setup.seconds, seed=seed)
        theirs = their_bot(game, setup.seconds, seed, solve=setup.solve)
    our_colour = "black" if ours_first else "white"
    spent = {"ours": 0.0, "theirs": 0.0}
    moves = {"ours": 0, "theirs": 0}
    iterations = 0
    while not state.is_over:
        colour = state.to_move
        assert theirs_state.current_player() == (0 if colour == "black" else 1)
        start = time.perf_counter()
        if colour == our_colour:
            label = ours.choose(state)
            action = action_of(label, size)
            iterations += ours.info().get("iterations", 0)
            side = "ours"
        else:
            action = theirs.step(theirs_state)
            label = label_of(action, size)
            side = "theirs"
        spent[side] += time.perf_counter() - start
        moves[side] += 1
        state.play(label, t=0.0)
        theirs_state.apply_action(action)
        assert theirs_state.is_terminal() == state.is_over, f"the engines disagree on the end after {label}"
    their_winner = "black" if theirs_state.returns()[0] > 0 else "white"
    assert their_winner == state.winner, f"the engines disagree on the winner: {their_winner} vs {state.winner}"
    return {
        **asdict(setup),
        "budget": setup.budget(),
        "seed": seed,
        "ours": our_colour,
        "winner": state.winner,
        "ours_won": state.winner == our_colour,
        "plies": state.ply,
        "our_seconds_per_move": spent["ours"] / max(moves["ours"], 1),
        "their_seconds_per_move": spent["theirs"] / max(moves["theirs"], 1),
        "our_iterations_per_move": iterations / max(moves["ours"], 1),
        "moves": [entry["move"] for entry in state.history],
    }


def _warm_up(setup: Setup) -> None:
    """Compile our player's kernels before its first timed move."""
    player(setup.spec, iterations=64).choose(our_game(setup.size).new_state())


def _play_indexed(job: tuple[Setup, int, int]) -> dict[str, Any]:
    setup, index, seed = job
    return play_game(setup, ours_first=setup.ours_first(index), seed=seed + index)


def match(setup: Setup, games: int, seed: int, workers: int, out: str | None) -> list[dict]:
    """Play the games (alternating seats; game i has ours as Black when i is even), printing a line
    per game, and append each result as a JSON line to `out` if given."""
    jobs = [(setup, i, seed) for i in range(games)]
    results = []
    sink = open(out, "a") if out else None  # kept open for the whole match
    try:
        if workers > 1:
            with ProcessPoolExecutor(workers, initializer=_warm_up, initargs=(setup,)) as pool:
                results = _collect(pool.map(_play_indexed, jobs), sink)
        else:
            _warm_up(setup)
            results = _collect(map(_play_indexed, jobs), sink)
    finally:
        if sink:
            sink.close()
    return results


def _collect(outcomes: Any, sink: Any) -> list[dict]:
    results = []
    for result in outcomes:
        results.append(result)
        mark = "won" if result["ours_won"] else "lost"
        print(
            f"game {len(results)}: ogames as {result['ours']} {mark} in {result['plies']} plies "
            f"({result['our_seconds_per_move']:.3f} s vs {result['their_seconds_per_move']:.3f} s per move)",
            file=sys.stderr,
        )
        if sink:
            sink.write(json.dumps(result) + "\n")
            sink.flush()
    return results


def print_match(results: list[dict], console: Console) -> None:
    table = Table(title="ogames mcts vs OpenSpiel C++ MCTSBot on Y (seats alternating, pie off)")
    for column in (
        "size",
        "budget/move",
        "games",
        "ogames wins",
        "win rate (95% CI)",
        "as black",
        "as white",
        "plies",
        "s/move ours / theirs",
        "our it/move",
    ):
        table.add_column(column, justify="right")
    groups: dict[tuple[int, str], list[dict]] = {}
    for result in results:
        groups.setdefault((result["size"], result["budget"]), []).append(result)
    for (size, budget), group in sorted(groups.items()):
        wins = sum(r["ours_won"] for r in group)
        low, high = wilson(wins, len(group))
        by_colour = {
            colour: f"{sum(r['ours_won'] for r in group if r['ours'] == colour)}/{sum(r['ours'] == colour for r in group)}"
            for colour in ("black", "white")
        }
        table.add_row(
            str(size),
            budget,
            str(len(group)),
            str(wins),
            f"{wins / len(group):.0%} ({low:.0%}–{high:.0%})",
            by_colour["black"],
            by_colour["white"],
            f"{statistics.mean(r['plies'] for r in group):.0f}",
            f"{statistics.mean(r['our_seconds_per_move'] for r in group):.3f} / "
            f"{statistics.mean(r['their_seconds_per_move'] for r in group):.3f}",
            f"{statistics.mean(r['our_iterations_per_move'] for r in group):,.0f}",
        )
    console.print(table)


# ----- command line ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command")
    fast = commands.add_parser("speed", help="playouts and MCTS iterations per second, side by side")
    fast.add_argument("--sizes", type=int, nargs="+", default=[9, 13, 19])
    fast.add_argument("--seconds", type=float, default=1.0, help="time of each measurement")
    fast.add_argument("--rounds", type=int, default=3, help="alternating rounds (the median is shown)")
    fast.add_argument("--json", action="store_true", help="also print the figures as one JSON object")
    duel = commands.add_parser("match", help="a strength match at equal wall-clock time per move")
    duel.add_argument("--games", type=int, default=20)
    duel.add_argument("--seconds", type=float, default=0.1, help="wall-clock time per move, both sides")
    duel.add_argument("--iterations", type=int, help="instead of a time: iterations (ours) = simulations (theirs) per move")
    duel.add_argument("--their-simulations", type=int, help="with --iterations: OpenSpiel's simulations per move (default: same)")
    duel.add_argument("--seats", choices=("both", "first", "second"), default="both", help="ours alternates, or first/second")
    duel.add_argument("--size", type=int, default=9)
    duel.add_argument("--seed", type=int, default=0)
    duel.add_argument("--workers", type=int, default=1, help="games in parallel processes (each side gets less CPU)")
    duel.add_argument("--player", default="mcts", help="our player spec (its budget is set by --seconds or --iterations)")
    duel.add_argument("--no-solve", action="store_true", help="OpenSpiel's bot without its MCTS-solver")
    duel.add_argument("--out", help="append each game's result to this file as a JSON line")
    args = parser.parse_args(argv)
    if pyspiel is None:
        print('OpenSpiel is not installed: .venv/bin/pip install -e ".[openspiel]"', file=sys.stderr)
        return 2
    console = Console(width=max(Console().width, 120))
    if args.command == "match":
        if args.games < 1 or not (0 < args.seconds <= 60) or not (2 <= args.size <= 26) or args.workers < 1:
            parser.error("--games ≥ 1, 0 < --seconds ≤ 60, 2 ≤ --size ≤ 26, --workers ≥ 1")
        if args.iterations is not None and args.iterations < 1:
            parser.error("--iterations ≥ 1")
        if args.their_simulations is not None and (args.iterations is None or args.their_simulations < 1):
            parser.error("--their-simulations ≥ 1, and only with --iterations")
        setup = Setup(
            args.size, args.seconds, args.iterations, args.player, not args.no_solve, args.their_simulations, args.seats
        )
        results = match(setup, args.games, args.seed, args.workers, args.out)
        print_match(results, console)
        return 0
    sizes = getattr(args, "sizes", [9, 13, 19])
    seconds = getattr(args, "seconds", 1.0)
    rounds = getattr(args, "rounds", 3)
    figures = speed(sizes, seconds, rounds)
    print_speed(figures, seconds, rounds, console)
    if getattr(args, "json", False):
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
