"""MCTS speed and strength (run as a script; `--strength` adds the match table).

Speed: iterations per second from the empty board (after the first move where a first move is
forced or trivial) of the plain UCT (`uct`), the compiled search bare (no RAVE, no solver) and the
compiled search at its defaults (`mcts`), measured in rounds that alternate the players so that a
busy machine slows them alike; the median over the rounds is shown.

Strength: `mcts` (defaults) against `uct` at equal time per move, seats alternating.
    .venv/bin/python benchmarks/bench_mcts.py [--rounds 3] [--seconds 0.5] [--strength --games 20 --think 0.1]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

import ogames
from ogames.players import player
from ogames.players.mcts import warm_up

SPEED_CASES = [
    ("oddy", {"sides": 3, "size": 9, "pie": False}, "Y 9 (Odd-Y triangle, 45 cells)"),
    ("omny", {"variant": "y", "size": 9}, "Omny y 9"),
    ("oddy", {"sides": 3, "size": 13, "pie": False}, "Y 13 (91 cells)"),
    ("omny", {"variant": "y", "size": 20}, "Omny y 20 (210 cells)"),
    ("omny", {"variant": "sunder", "size": 5}, "Omny sunder 5 (61 cells)"),
    ("omny", {"variant": "sunder", "size": 9}, "Omny sunder 9 (217 cells)"),
    ("omny", {"variant": "gyre", "size": 5}, "Omny gyre 5"),
    ("oddy", {"sides": 5, "size": 5}, "Odd-Y 5-sided polar, n=5"),
    ("omega", {"players": 2, "size": 5}, "Omega 2p hexagon 5"),
    ("omega", {"players": 3, "size": 8}, "Omega 3p hexagon 8 (169 cells)"),
    ("onyx", {}, "Onyx (204 points)"),
]
SPEC = {"uct": "uct", "bare": "mcts:rave=off,solver=off", "mcts": "mcts"}

STRENGTH_CASES = [
    ("omny", {"variant": "sunder", "size": 5}, "Omny sunder 5"),
    ("omny", {"variant": "gyre", "size": 5}, "Omny gyre 5"),
    ("omny", {"variant": "custom", "shape": "hexagon", "size": 5, "stars": "all", "komi": 0.5}, "Omny hex 5 all stars k=0.5"),
    ("oddy", {"sides": 3, "size": 9, "pie": False}, "Y 9"),
    ("omega", {"players": 2, "size": 5}, "Omega 2p"),
    ("omega", {"players": 3, "size": 5}, "Omega 3p"),
    ("onyx", {}, "Onyx"),
]


def speed(game: str, options: dict, spec: str, seconds: float) -> tuple[float, float]:
    """Iterations per second of one search of `seconds` from the start position: per second of
    wall-clock time and per second of this process's CPU time (which other loads on a shared
    machine do not count)."""
    state = ogames.load(game, **options).new_state()
    bot = player(spec, think=seconds, seed=1)
    start, cpu = time.perf_counter(), time.process_time()
    bot.choose(state)
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    iterations = bot.info()["iterations"]
    return iterations / elapsed, iterations / max(used, 1e-9)


def speed_table(rounds: int, seconds: float) -> None:
    """Iterations per second of each kind on each board, median of alternating rounds."""
    title = f"MCTS iterations/s from the start position (median of {rounds} alternating rounds of {seconds} s; wall / CPU)"
    table = Table(title=title)
    table.add_column("game")
    for kind in SPEC:
        table.add_column(kind, justify="right")
    table.add_column("mcts / uct", justify="right")
    for game, options, name in SPEED_CASES:
        warm_up(ogames.load(game, **options).new_state())
        figures: dict[str, list[tuple[float, float]]] = {kind: [] for kind in SPEC}
        for r in range(rounds):
            kinds = list(SPEC) if r % 2 == 0 else list(reversed(SPEC))
            for kind in kinds:
                figures[kind].append(speed(game, options, SPEC[kind], seconds))
        wall = {kind: statistics.median(f[0] for f in values) for kind, values in figures.items()}
        cpu = {kind: statistics.median(f[1] for f in values) for kind, values in figures.items()}
        cells = [f"{wall[k]:,.0f} / {cpu[k]:,.0f}" for k in SPEC]
        table.add_row(name, *cells, f"{cpu['mcts'] / cpu['uct']:.0f}×")
    Console().print(table)


def play(game_name: str, options: dict, specs: list[str], think: float, seed: int) -> int:
    """One game, seat i played by specs[i]; the winning seat (−1 for a draw)."""
    game = ogames.load(game_name, **options)
    state = game.new_state()
    bots = [player(spec, think=think, seed=seed * 10 + i) for i, spec in enumerate(specs)]
    while not state.is_over:
        state.play(bots[state.mover].choose(state), t=0.0)
    return -1 if state.winner == "draw" else state.owner[state.winner]


def strength_table(games: int, think: float, new: str = "mcts", old: str = "uct") -> None:
    table = Table(title=f"{new} vs {old}, {think} s per move, {games} games each, seats alternating")
    table.add_column("game")
    table.add_column(f"{new} wins", justify="right")
    table.add_column("share", justify="right")
    table.add_column("even share", justify="right")
    for game_name, options, title in STRENGTH_CASES:
        seats = options.get("players", 2)
        warm_up(ogames.load(game_name, **options).new_state())
        wins = 0
        for g in range(games):
            seat = g % seats
            specs = [new if s == seat else old for s in range(seats)]
            wins += play(game_name, options, specs, think, g) == seat
        table.add_row(title, f"{wins}/{games}", f"{wins / games:.0%}", f"{1 / seats:.0%}")
        Console().print(f"[dim]{title}: {wins}/{games}[/]")
    Console().print(table)


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--strength", action="store_true")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--new", default="mcts")
    parser.add_argument("--old", default="uct")
    args = parser.parse_args()
    if not args.no_speed:
        speed_table(args.rounds, args.seconds)
    if args.strength:
        strength_table(args.games, args.think, args.new, args.old)


if __name__ == "__main__":
    main()
