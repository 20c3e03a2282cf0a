"""What pairing is worth to the second method (`strategy_check.check_win`): the same proven
classes of first moves checked with and without lines ending in a checked pairing, side by side
in one run: positions walked, lines ended by pairing, seconds.

The classes: every proven first move of Y 6 (their verdicts from the solver, as on
docs/solved.md), and Y 7's c3, where the plain walk stops at `--limit` positions.

Run: .venv/bin/python benchmarks/bench_strategy_check.py [--limit N] [--out benchmarks/results/strategy-check.md]
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

import ogames
from markdown_table import Table, refuse_bad_out
from ogames.players.solvers.connection import WIN, ConnectionSolver, solve
from ogames.players.solvers.strategy_check import Checked, check_win, solver_strategy

CASES = [("Y 6", 6, first) for first in ("a1", "b1", "c1", "b2", "c2")] + [("Y 7", 7, "c3")]
BUDGET = 2_000_000  # positions a solver search may take to name the winner's move


def check(size: int, first: str, pairing: bool, limit: int) -> tuple[str, Checked]:
    """The solver's verdict on Black's `first` stone on Y `size`, checked by the walk."""
    game = ogames.load("omny", variant="y", size=size)
    state = game.new_state()
    black = state.mover
    assert black is not None
    state.play(first, t=0.0)
    solver = ConnectionSolver(game, table_bits=22)
    value = solve(state, BUDGET, solver=solver).value  # for White, who moves
    winner = 1 - black if value == WIN else black
    return ("loss" if value == WIN else "win"), check_win(state, winner, solver_strategy(solver, BUDGET), limit, pairing)


def shown(checked: Checked) -> str:
    return "agrees" if checked.holds else checked.reason


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=1_000_000, help="positions a walk may take (default 1,000,000)")
    parser.add_argument("--out", type=Path, help="write the table there as Markdown too")
    args = parser.parse_args()
    if args.limit < 1:
        parser.error(f"--limit must be at least 1, not {args.limit}")
    refuse_bad_out(parser, args.out)
    solve(ogames.load("omny", variant="y", size=3).new_state())  # compile first
    table = Table(
        f"The second method with and without pairing ({platform.machine()} {platform.python_implementation()} "
        f"{platform.python_version()}, one core, walks of at most {args.limit:,} positions)",
        "",
        "| board | Black's first stone | verdict | plain walk | positions | seconds "
        "| with pairing | positions | lines ended by pairing | seconds |",
        "|---|---|---|---|---:|---:|---|---:|---:|---:|",
    )
    for title, size, first in CASES:
        verdict, plain = check(size, first, False, args.limit)
        _, paired = check(size, first, True, args.limit)
        row = (f"| {title} | {first} | {verdict} | {shown(plain)} | {plain.positions:,} | {plain.seconds:.1f} "
               f"| {shown(paired)} | {paired.positions:,} | {paired.pairings:,} | {paired.seconds:.1f} |")
        table.add(row)
    table.write(args.out)


if __name__ == "__main__":
    main()
