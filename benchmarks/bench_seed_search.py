"""How long finding an Omiga table's seed by trying every one would take: the attack that a secret
seed must withstand. The cards on the table and in the hands are public; an attacker deals the
white deck for seed after seed (as `base_variant.colour_rng` does) until the top cards match what
was seen, and then knows every card to come. This times one such trial in Python on one core and
scales it to the old default range (2^31 seeds) and the server's (2^53, `rules.omiga.game.SEEDS`).
A compiled search is faster by a constant factor, which 2^22 times more seeds outweighs.

    python benchmarks/bench_seed_search.py --trials 200000
"""

from __future__ import annotations

import argparse
import time

from ogames.rules.omiga.base_variant import colour_rng
from ogames.rules.omiga.game import SEEDS

HOUR, YEAR = 3600.0, 365.25 * 24 * 3600.0


def trial_seconds(trials: int, seen: list[int]) -> tuple[float, int]:
    """(seconds one trial takes, seeds that matched): deal the white deck of each seed and compare
    its top three cards with those seen."""
    designs = list(range(36))
    matched = 0
    started = time.perf_counter()
    for seed in range(trials):
        deck = designs[:]
        colour_rng(seed, "white").shuffle(deck)
        matched += deck[-3:] == seen
    return (time.perf_counter() - started) / trials, matched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=200_000)
    args = parser.parse_args()
    each, matched = trial_seconds(args.trials, [0, 1, 2])
    print(f"one trial: {each * 1e6:.1f} µs (Python, one core); {matched} of {args.trials:,} seeds matched")
    print(f"all 2^31 seeds (the old default range): {each * 2**31 / HOUR:,.1f} hours")
    print(f"all 2^53 seeds (the server's range):    {each * SEEDS / YEAR:,.0f} years")


if __name__ == "__main__":
    main()
