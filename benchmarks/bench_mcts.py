"""MCTS speed: iterations per second of plain UCT on a few boards (run as a script)."""

from __future__ import annotations

import random
import time

from rich.console import Console
from rich.table import Table

import ogames
from ogames.players import MctsPlayer

CASES = [
    ("omny", {"variant": "y", "size": 7}, "Omny y 7"),
    ("omny", {"variant": "sunder", "size": 9}, "Omny sunder 9 (217 cells)"),
    ("omny", {"variant": "y", "size": 20}, "Omny y 20 (210 cells)"),
    ("oddy", {"sides": 5, "size": 5}, "Odd-Y 5-sided, n=5"),
    ("oddy", {"sides": 3, "size": 7}, "Odd-Y triangle 7"),
    ("omega", {"players": 2, "size": 5}, "Omega 2p hexagon 5"),
    ("omega", {"players": 3, "size": 8}, "Omega 3p hexagon 8 (169 cells)"),
    ("onyx", {}, "Onyx (204 points)"),
]
ITERATIONS = 2000


def measure(game: str, options: dict, iterations: int = ITERATIONS) -> tuple[float, float]:
    """(iterations per second, playouts per second alone) from the start position, after a warm-up."""
    try:
        state = ogames.load(game, **options).new_state()
    except Exception:  # a game still being written is skipped, not fatal
        return float("nan"), float("nan")
    MctsPlayer(iterations=50, seed=0).choose(state)  # compile kernels, warm caches
    start = time.perf_counter()
    MctsPlayer(iterations=iterations, seed=1).choose(state)
    search = iterations / (time.perf_counter() - start)
    rng = random.Random(2)
    start = time.perf_counter()
    for _ in range(iterations):
        state.random_playout(rng)
    playouts = iterations / (time.perf_counter() - start)
    return search, playouts


def main() -> None:
    """Print the table."""
    table = Table(title=f"plain UCT, {ITERATIONS} iterations from the empty board")
    table.add_column("game")
    table.add_column("MCTS iterations/s", justify="right")
    table.add_column("bare playouts/s", justify="right")
    for game, options, title in CASES:
        search, playouts = measure(game, options)
        table.add_row(title, f"{search:,.0f}", f"{playouts:,.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
