"""Do the ratings find the players' real strengths? Simulated players of known strength play rated
games (`ogames.ratings.rate`, the models the site uses) and the final ratings are compared with
the strengths.

    .venv/bin/python benchmarks/bench_ratings.py                       # 200 players, 20,000 games
    .venv/bin/python benchmarks/bench_ratings.py --players 200 --games 20000 --seed 2

Strengths are drawn from a normal distribution (mean 1500, sd 350). A duel is won as Elo's model
says (1 / (1 + 10^(−d/400))); a table of three is finished in the order of each player's strength
plus Gumbel noise on the same scale (Plackett–Luce's model). Two pairings: *random* (any two
players) and *by rating* (a random player against one of the ten nearest by current rating, as
quick pairing does). Prints, per pool kind and pairing: Spearman's rank correlation of rating and
strength, the mean absolute error of the ratings (after both are centred), their spread (the
ratings' standard deviation over the strengths'), the share of players still provisional, and the
seconds the updates took (noisy on a loaded machine).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

from ogames.ratings import Rating, rate

GUMBEL_SCALE = 400 / math.log(10)  # Elo's logistic scale, as Gumbel noise


def spearman(first: list[float], second: list[float]) -> float:
    """Spearman's rank correlation (no ties among floats drawn at random)."""

    def ranks(values: list[float]) -> list[int]:
        order = sorted(range(len(values)), key=values.__getitem__)
        place = [0] * len(values)
        for rank, index in enumerate(order):
            place[index] = rank
        return place

    a, b = ranks(first), ranks(second)
    n = len(a)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) / (n * (n * n - 1))


def gumbel(rng: random.Random) -> float:
    return -math.log(-math.log(1e-12 + rng.random() * (1 - 2e-12)))


def seats_for(rng: random.Random, current: list[Rating], size: int, by_rating: bool) -> list[int]:
    """The players of one game: any `size` players, or a random one and the nearest by rating."""
    if not by_rating:
        return rng.sample(range(len(current)), size)
    first = rng.randrange(len(current))
    nearest = sorted((i for i in range(len(current)) if i != first), key=lambda i: abs(current[i].rating - current[first].rating))
    return [first, *rng.sample(nearest[:10], size - 1)]


def simulate(players: int, games: int, size: int, by_rating: bool, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    strengths = [rng.gauss(1500, 350) for _ in range(players)]
    current = [Rating() for _ in range(players)]
    spent = 0.0
    for _ in range(games):
        seats = seats_for(rng, current, size, by_rating)
        if size == 2:
            a, b = seats
            won = rng.random() < 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400))
            ranks = [0, 1] if won else [1, 0]
        else:
            performance = [strengths[seat] + GUMBEL_SCALE * gumbel(rng) for seat in seats]
            order = sorted(range(size), key=lambda i: -performance[i])
            ranks = [order.index(i) for i in range(size)]
        start = time.perf_counter()
        after = rate([current[seat] for seat in seats], ranks, table=size > 2)
        spent += time.perf_counter() - start
        for seat, new in zip(seats, after, strict=True):
            current[seat] = new
    ratings = [r.rating for r in current]
    centre_r, centre_s = statistics.fmean(ratings), statistics.fmean(strengths)
    error = statistics.fmean(abs((r - centre_r) - (s - centre_s)) for r, s in zip(ratings, strengths, strict=True))
    return {
        "spearman": spearman(ratings, strengths),
        "error": error,
        "spread": statistics.pstdev(ratings) / statistics.pstdev(strengths),
        "provisional": sum(r.provisional for r in current) / players,
        "seconds": spent,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = Table(title=f"{args.players} players of known strength, {args.games:,} rated games (seed {args.seed})")
    for column in ("games", "pairing", "rank correlation", "mean error", "spread", "provisional", "update time"):
        table.add_column(column, justify="left" if column in ("games", "pairing") else "right")
    for size, kind in ((2, "duels"), (3, "tables of three")):
        for by_rating in (False, True):
            found = simulate(args.players, args.games, size, by_rating, args.seed)
            table.add_row(
                kind,
                "by rating" if by_rating else "random",
                f"{found['spearman']:.3f}",
                f"{found['error']:.0f}",
                f"{found['spread']:.2f}",
                f"{found['provisional']:.0%}",
                f"{found['seconds']:.1f} s",
            )
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
