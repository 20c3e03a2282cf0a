"""Zen solver and greedy simulation speed per form: run `python benchmarks/bench_zen.py [games]`."""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.table import Table

from ogames.rules.omiga.zen.forms import FORMS
from ogames.rules.omiga.zen.simulate import estimate
from ogames.rules.omiga.zen.solver import solve


def main(games: int = 20) -> None:
    """Print solver time, search nodes and greedy games per second for every form."""
    out = Table("form", "level", "solver", "nodes", "solve ms", "greedy games/s")
    for form in FORMS:
        start = time.perf_counter()
        verdict = solve(form.cells)
        solved = (time.perf_counter() - start) * 1000
        rate = "—"
        if verdict.status == "possible":
            start = time.perf_counter()
            estimate(form.key, games)
            rate = f"{games / (time.perf_counter() - start):.0f}"
        out.add_row(form.key, form.level, verdict.status, str(verdict.nodes), f"{solved:.1f}", rate)
    Console().print(out)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
