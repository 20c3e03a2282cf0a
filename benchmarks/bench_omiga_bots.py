"""Omiga bot strength and speed: win rates of seeded bot matches on the simulated clock, and each
strategy's decisions per second. Run: .venv/bin/python benchmarks/bench_omiga_bots.py [games] [seeds] [filter]
(`filter`: only pairs whose bot A starts with it, e.g. `rollout`)."""

from __future__ import annotations

import random
import sys
import time

from rich.console import Console
from rich.table import Table as RichTable

import ogames
from ogames.arena.realtime_match import run_match
from ogames.players.omiga.bots import Bot

# Equal speeds scale the whole simulated clock, so `x@0.4` vs `y@0.4` replays `x@1` vs `y@1` exactly;
# the unequal pairs are the informative ones.
PAIRS = (
    ("rollout:reaction=1", "random:reaction=1"),
    ("rollout:reaction=1", "random:reaction=0.8"),
    ("rollout:reaction=1", "racer:reaction=1"),
    ("rollout:reaction=1", "greedy:reaction=1"),
    ("racer:reaction=1", "random:reaction=1"),
    ("racer:reaction=0.4", "random:reaction=0.4"),
    ("racer:reaction=2", "random:reaction=2"),
    ("greedy:reaction=1", "random:reaction=1"),
    ("racer:reaction=1", "greedy:reaction=1"),
    ("racer:reaction=1", "random:reaction=0.8"),
    ("racer:reaction=0.8", "random:reaction=1"),
)


def decisions_per_second(spec: str = "racer:reaction=1", budget: float = 2.0) -> float:
    """A bot's decisions per second on positions from seeded random-vs-random games."""
    states = []
    for seed in range(6):
        state = ogames.load("omiga", seed=seed).new_state()
        rng = random.Random(seed)
        for _ in range(12):
            for actor in state.actors:
                action = Bot.make("random:reaction=1").decide(state, actor, rng)
                if action and not state.is_over:
                    state.submit(actor, action, state.clock)
        if not state.is_over:
            states.append(state)
    bot, rng = Bot.make(spec), random.Random(0)
    bot.decide(states[0], "white", rng)  # compile the kernels before timing
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        for state in states:
            bot.decide(state, "white", rng)
            count += 1
    return count / (time.perf_counter() - start)


def main(games: int = 80, seeds: int = 4, only: str = "") -> None:
    """Play every pair over several seeds and print win rates (share of decisive games)."""
    out = RichTable(title=f"Omiga bots: {games} games per seed, bot A White in even games")
    out.add_column("bot A")
    out.add_column("bot B")
    for s in range(seeds):
        out.add_column(f"seed {100 + 1000 * s}", justify="right")
    out.add_column("A wins / decisive", justify="right")
    out.add_column("draws", justify="right")
    for a, b in PAIRS:
        if not a.startswith(only):
            continue
        cells, wins, decisive, draws = [], 0, 0, 0
        for s in range(seeds):
            report = run_match(Bot.make(a), Bot.make(b), games=games, seed=100 + 1000 * s)
            share = report.wins[0] / max(1, sum(report.wins))
            cells.append(f"{share:.0%}")
            wins, decisive, draws = wins + report.wins[0], decisive + sum(report.wins), draws + report.draws
        out.add_row(a, b, *cells, f"{wins}/{decisive} = {wins / max(1, decisive):.1%}", str(draws))
    console = Console(width=160)
    console.print(out)
    for spec in ("racer:reaction=1", "rollout:reaction=1"):
        console.print(f"{spec} decisions per second: {decisions_per_second(spec):,.0f}")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]), *sys.argv[3:4])
