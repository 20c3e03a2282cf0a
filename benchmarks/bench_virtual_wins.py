"""What virtual wins, and then must-play regions, are worth to the connection solver: the same
positions proved with and without them, side by side in one run: positions expanded and seconds.

`--what virtual`: without virtual wins against with them (`ConnectionSolver(virtual=…)`, no
must-play regions either way); `--what mustplay`: virtual wins alone against virtual wins with
must-play regions (`ConnectionSolver(mustplay=…)`), where every first move of Y 7 is solved too;
`--what moves`: the moves of open positions computed anew at each re-entry (a cache of one slot,
`moves_bits=0`) against kept in the cache (the default), with the first moves of Y 7 too (the
same searches step for step: the seconds differ, the positions do not).
The positions: every first move of Y 5 and of Odd-Y 5 sides size 3 (White's reply position,
summed over the moves), and the empty boards of Y 5, Y 6 and Y 7, each with a budget of
20,000,000 positions (a table of 2^22 entries; "unknown" where the budget ran out).

Run: .venv/bin/python benchmarks/bench_virtual_wins.py [--what virtual|mustplay|moves] [--budget N] [--out FILE]
(results: benchmarks/results/virtual-wins.md, must-play.md and moves-cache.md)
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from pathlib import Path

import ogames
from markdown_table import Table, refuse_bad_out
from ogames.players.solvers.connection import ConnectionSolver, solve

ROOT = Path(__file__).resolve().parent.parent


# The solvers compared, without and with the thing measured.
COMPARED: dict[str, tuple[dict, dict]] = {
    "virtual": ({"virtual": False, "mustplay": False}, {"virtual": True, "mustplay": False}),
    "mustplay": ({"virtual": True, "mustplay": False}, {"virtual": True, "mustplay": True}),
    "moves": ({"moves_bits": 0}, {}),
}
TITLES = {"virtual": "Virtual wins", "mustplay": "Must-play regions (beside virtual wins)",
          "moves": "The moves cache (beside virtual wins and must-play regions)"}


Run = tuple[str, int, float, int]  # (verdicts, positions, seconds, positions whose moves came from the cache)


def first_moves(name: str, options: dict, solver: dict, budget: int) -> Run:
    """Every first move's reply position solved: (verdicts, positions, seconds, from the cache) summed."""
    game = ogames.load(name, **options)
    nodes, seconds, reused, values = 0, 0.0, 0, []
    for move in game.new_state().legal_moves():
        state = game.new_state()
        state.play(move, t=0.0)
        searcher = ConnectionSolver(game, table_bits=22, **solver)
        proof = solve(state, budget, solver=searcher)
        nodes, seconds, reused = nodes + proof.nodes, seconds + proof.seconds, reused + searcher.reused
        values.append(f"{move}:{proof.value}")
    return " ".join(values), nodes, seconds, reused


def empty_board(name: str, options: dict, solver: dict, budget: int) -> Run:
    game = ogames.load(name, **options)
    start = time.perf_counter()
    searcher = ConnectionSolver(game, table_bits=22, **solver)
    proof = solve(game.new_state(), budget, solver=searcher)
    return f"{proof.value} {proof.move or ''}".strip(), proof.nodes, time.perf_counter() - start, searcher.reused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--what", choices=sorted(COMPARED), default="virtual", help="what is compared (default virtual)")
    parser.add_argument("--budget", type=int, default=20_000_000, help="positions per search (default 20,000,000)")
    parser.add_argument("--out", type=Path, help="write the table there as Markdown too")
    args = parser.parse_args()
    if args.budget < 1:
        parser.error(f"--budget must be at least 1, not {args.budget}")
    refuse_bad_out(parser, args.out)
    solve(ogames.load("omny", variant="y", size=3).new_state())  # compile first
    solve(ogames.load("oddy", sides=5, size=2, pie=False).new_state())
    cases: list[tuple[str, Callable[[str, dict, dict, int], Run], str, dict]] = [
        ("every first move of Y 5", first_moves, "omny", {"variant": "y", "size": 5}),
        ("every first move of Odd-Y 5 sides, size 3", first_moves, "oddy", {"sides": 5, "size": 3, "pie": False}),
        ("the empty board of Y 5", empty_board, "omny", {"variant": "y", "size": 5}),
        ("the empty board of Y 6", empty_board, "omny", {"variant": "y", "size": 6}),
        ("the empty board of Y 7", empty_board, "omny", {"variant": "y", "size": 7}),
    ]
    if args.what in ("mustplay", "moves"):
        cases.insert(2, ("every first move of Y 7", first_moves, "omny", {"variant": "y", "size": 7}))
    table = Table(
        f"{TITLES[args.what]} in the connection solver ({platform.machine()} {platform.python_implementation()} "
        f"{platform.python_version()}, one core, budget {args.budget:,} positions a search)",
        "",
        "| positions solved | without: result | positions | seconds | with: result | positions | seconds | same verdicts |",
        "|---|---|---:|---:|---|---:|---:|---|",
    )
    served = []
    for title, run, name, options in cases:
        without, with_it = COMPARED[args.what]
        plain = run(name, options, without, args.budget)
        helped = run(name, options, with_it, args.budget)
        verdicts = [value if run is first_moves else value.split()[0] for value in (plain[0], helped[0])]
        same = ("yes" if verdicts[0] == verdicts[1]
                else "the search without them ran out" if "unknown" in verdicts[0] else "NO")
        shown = [value if run is empty_board else "all proved" if "unknown" not in value else "some unknown"
                 for value in (plain[0], helped[0])]
        row = (f"| {title} | {shown[0]} | {plain[1]:,} | {plain[2]:.2f} "
               f"| {shown[1]} | {helped[1]:,} | {helped[2]:.2f} | {same} |")
        table.add(row)
        served.append(f"{title}: {helped[3]:,} of {helped[1]:,} ({helped[3] / max(helped[1], 1):.0%})")
    if args.what == "moves":
        table.add("")
        table.add("Positions whose moves the cache gave (DFPN entering them again): " + "; ".join(served) + ".")
    table.write(args.out)


if __name__ == "__main__":
    main()
