"""Zen solver and greedy simulation speed per form: run `python benchmarks/bench_zen.py [games]`."""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.table import Table

from ogames.players.omiga.zen_greedy import estimate
from ogames.players.solvers.zen import search_solve, solve
from ogames.rules.omiga.cards import STANDARD, CardSet
from ogames.rules.omiga.zen.forms import FORMS

BLOCKS = {
    f"block {w} x {h}": {(c, r): "black" for c in range(w) for r in range(h)} for w, h in ((2, 18), (18, 2), (6, 6), (4, 9))
}


def main(games: int = 20) -> None:
    """Print SAT solve time and conflicts, the old search's nodes, and greedy games per second for every form."""
    out = Table("form", "level", "solver", "SAT conflicts", "SAT ms", "search (50k nodes)", "greedy games/s")
    for form in FORMS:
        start = time.perf_counter()
        verdict = solve(form.cells)
        solved = (time.perf_counter() - start) * 1000
        rate = "—"
        if verdict.status == "possible":
            start = time.perf_counter()
            estimate(form.key, games)
            rate = f"{games / (time.perf_counter() - start):.0f}"
        out.add_row(form.key, form.level, verdict.status, str(verdict.nodes), f"{solved:.1f}", "", rate)
    for turning in (True, False):
        cards = CardSet(STANDARD.designs, turning=turning)
        for name, cells in BLOCKS.items():
            start = time.perf_counter()
            verdict = solve(cells, cards)
            solved = (time.perf_counter() - start) * 1000
            old = search_solve(cells, cards, budget=50_000)
            label = f"{name}{'' if turning else ', no turning'}"
            out.add_row(label, "—", verdict.status, str(verdict.nodes), f"{solved:.1f}", f"{old.status} ({old.nodes})", "—")
    Console().print(out)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
