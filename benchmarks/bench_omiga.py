"""Omiga speed: legal_placements per second (numba kernel vs the rule-predicate reference) and
simulated bot games per second. Run: .venv/bin/python benchmarks/bench_omiga.py"""

from __future__ import annotations

import random
import time

from rich.console import Console
from rich.table import Table as RichTable

from ogames.arena.realtime_match import run_match
from ogames.players.omiga.bots import Bot
from ogames.rules.omiga.cards import STANDARD
from ogames.rules.omiga.table import Table


def random_table(seed: int, fill: float = 0.25) -> Table:
    """A 15 × 10 table with about `fill` of its cells holding random cards."""
    rng = random.Random(seed)
    table = Table()
    for cell in range(150):
        if rng.random() < fill:
            design = rng.randrange(36)
            table.place(cell, rng.choice(table.owners), design, rng.choice(STANDARD.faces(design)))
    return table


def per_second(call, budget: float = 1.0) -> float:
    """Calls per second of a function, measured for about `budget` seconds."""
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        call()
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    """Measure and print the table."""
    table = random_table(1)
    table.legal_placements("white", 0)  # compile
    designs = iter(range(10**9))
    fast = per_second(lambda: table.legal_placements("white", next(designs) % 36))
    slow = per_second(lambda: table.legal_placements_reference("white", next(designs) % 36))
    out = RichTable(title="Omiga (15 × 10 table)")
    out.add_column("measure")
    out.add_column("per second", justify="right")
    out.add_row("legal_placements, numba kernel", f"{fast:,.0f}")
    out.add_row("legal_placements, reference predicates", f"{slow:,.0f}")
    out.add_row("kernel speed-up", f"{fast / slow:.0f}×")
    for a, b in (("random:reaction=1", "random:reaction=1"), ("racer:reaction=1", "racer:reaction=1")):
        start = time.perf_counter()
        report = run_match(Bot.make(a), Bot.make(b), games=20, seed=7)
        out.add_row(f"simulated games, {a} vs {b}", f"{report.games / (time.perf_counter() - start):,.1f}")
    Console().print(out)


if __name__ == "__main__":
    main()
