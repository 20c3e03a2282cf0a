"""State copies and take-backs: µs per `clone()`, per `clone()` + `play()`, and per `undo()`, for
every game and variant, from a position some way into a random game (run as a script).

.venv/bin/python benchmarks/bench_clone.py [--save FILE.json] [--compare BEFORE.json] [--quick]

`--save` writes the figures as JSON; `--compare` adds the figures of an earlier run (e.g. one made
on the code before a change) beside the new ones.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

import ogames
from ogames.rules.protocol import State

# (title, game, options, plies played before measuring)
CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("Omny y 7", "omny", {"variant": "y", "size": 7}, 12),
    ("Omny sunder 5", "omny", {"variant": "sunder", "size": 5}, 24),
    ("Omny sunder 9", "omny", {"variant": "sunder", "size": 9}, 40),
    ("Omny gyre 5", "omny", {"variant": "gyre", "size": 5}, 24),
    ("Omny free-y 5,6", "omny", {"variant": "free-y"}, 24),
    ("Omny custom rhombus 6", "omny", {"variant": "custom", "shape": "rhombus", "size": 6}, 24),
    ("Omny y 7 komi choice + pie", "omny", {"variant": "y", "size": 7, "komi_choice": True, "pie": True}, 12),
    ("Odd-Y triangle 7", "oddy", {"sides": 3, "size": 7}, 12),
    ("Odd-Y 5 sides n=5", "oddy", {"sides": 5, "size": 5}, 24),
    ("Omega 2p hexagon 5", "omega", {"players": 2, "size": 5}, 24),
    ("Omega 3p hexagon 6", "omega", {"players": 3, "size": 6}, 36),
    ("Omega 4p hexagon 7", "omega", {"players": 4, "size": 7}, 48),
    ("Omega 2p match", "omega", {"players": 2, "size": 5, "match": True}, 24),
    ("Omega 2p pie", "omega", {"players": 2, "size": 5, "pie": True}, 24),
    ("Onyx", "onyx", {}, 40),
    ("Onyx pie", "onyx", {"pie": True}, 40),
    ("Omiga base", "omiga", {"variant": "base", "seed": 1}, 10),
    ("Omiga 2v2", "omiga", {"variant": "2v2", "seed": 1}, 10),
    ("Omiga kids", "omiga", {"variant": "kids", "seed": 1}, 10),
    ("Omiga toddler 4", "omiga", {"variant": "toddler", "players": 4, "seed": 1}, 10),
    ("Omiga zen", "omiga", {"variant": "zen", "seed": 1, "form": "fly"}, 6),
]
COLUMNS = ("clone", "clone+play", "undo")
LATER = 1e6  # the time stamp of measured moves: after every earlier one (real-time Omiga needs that)


def position(game: str, options: dict[str, Any], plies: int, seed: int = 7) -> State:
    """A state after up to `plies` random moves (stopping one move short of the end)."""
    rng = random.Random(seed)
    state = ogames.load(game, **options).new_state()
    for ply in range(plies):
        moves = state.legal_moves()
        trial = state.clone()
        move = rng.choice(moves)
        trial.play(move, t=float(ply))
        if trial.is_over:
            break
        state.play(move, t=float(ply))
    return state


def per_call(run: Callable[[int], float], budget: float) -> float:
    """µs per call: the best of three batches sized to take about `budget` seconds each."""
    count, spent = 1, 0.0
    while True:
        spent = run(count)
        if spent >= budget / 10 or count >= 1 << 20:
            break
        count *= 4
    count = max(1, int(count * budget / max(spent, 1e-9)))
    return min(run(count) for _ in range(3)) / count * 1e6


def measure(state: State, budget: float) -> dict[str, float]:
    """µs per clone, per clone + play (averaged over the legal moves), and per undo of one move."""
    moves = state.legal_moves()

    def clone(n: int) -> float:
        start = time.perf_counter()
        for _ in range(n):
            state.clone()
        return time.perf_counter() - start

    def clone_play(n: int) -> float:
        chosen = [moves[i % len(moves)] for i in range(n)]
        start = time.perf_counter()
        for move in chosen:
            state.clone().play(move, t=LATER)
        return time.perf_counter() - start

    def undo(n: int) -> float:
        played = []
        for i in range(n):
            copy = state.clone()
            copy.play(moves[i % len(moves)], t=LATER)
            played.append(copy)
        start = time.perf_counter()
        for copy in played:
            copy.undo()
        return time.perf_counter() - start

    return {
        "clone": per_call(clone, budget),
        "clone+play": per_call(clone_play, budget),
        "undo": per_call(undo, budget),
    }


def main() -> None:
    """Measure every case and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--save", help="write the figures to this JSON file")
    parser.add_argument("--compare", help="show the figures of an earlier --save beside the new ones")
    parser.add_argument("--quick", action="store_true", help="shorter batches (rougher figures)")
    args = parser.parse_args()
    budget = 0.02 if args.quick else 0.1
    before = json.loads(open(args.compare).read()) if args.compare else {}
    results: dict[str, dict[str, Any]] = {}
    title = "µs per state copy, copy + move, and take-back" + (f" (before: {args.compare})" if before else "")
    table = Table(title=title)
    table.add_column("game", no_wrap=True)
    table.add_column("cells", justify="right")
    table.add_column("ply", justify="right")
    for column in COLUMNS:
        if before:
            table.add_column(f"{column} before", justify="right")
        table.add_column(column, justify="right")
    for name, game, options, plies in CASES:
        state = position(game, options, plies)
        figures = measure(state, budget)
        board = getattr(state, "board", None) or getattr(getattr(state, "table", None), "board", None)
        cells = len(board) if board is not None else 0
        results[name] = {"ply": state.ply, "cells": cells, **figures}
        row = [name, str(cells), str(state.ply)]
        for column in COLUMNS:
            if before:
                old = before.get(name, {}).get(column)
                row.append("–" if old is None else f"{old:,.1f}")
            row.append(f"{figures[column]:,.1f}")
        table.add_row(*row)
    Console(width=200).print(table)
    if args.save:
        with open(args.save, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
