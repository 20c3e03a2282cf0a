"""A match between two player specs on one game, seats alternating (run as a script).

    .venv/bin/python benchmarks/match_players.py mcts "mcts:rave=off" --game oddy \
        --options '{"sides": 3, "size": 9, "pie": false}' --games 60 --think 0.1

With more than two seats, A takes one seat (rotating) and B every other. Prints A's wins, its
share with a 95% interval (normal approximation) and the share an even match would give.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import ogames
from ogames.players import player
from ogames.players.mcts import warm_up


def play(game: ogames.rules.protocol.Game, specs: list[str], think: float | None, iterations: int | None, seed: int) -> int:
    """One game, seat i played by specs[i]; the winning seat (−1 for a draw)."""
    state = game.new_state()
    bots = [player(spec, think=think, iterations=iterations, seed=seed * 10 + i) for i, spec in enumerate(specs)]
    while not state.is_over:
        state.play(bots[state.mover].choose(state), t=0.0)
    return -1 if state.winner == "draw" else state.owner[state.winner]


def main() -> None:
    """Play the match and print the result."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--game", default="oddy")
    parser.add_argument("--options", default='{"sides": 3, "size": 9, "pie": false}')
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--think", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--first", type=int, default=0, help="number of the first game (its seed)")
    args = parser.parse_args()
    game = ogames.load(args.game, **json.loads(args.options))
    seats = len(game.colours)
    warm_up(game.new_state())
    wins = draws = 0
    start = time.perf_counter()
    for g in range(args.first, args.first + args.games):
        seat = g % seats
        specs = [args.a if s == seat else args.b for s in range(seats)]
        winner = play(game, specs, args.think, args.iterations, g)
        wins += winner == seat
        draws += winner == -1
        print(f"game {g}: {args.a} in seat {seat}, winner seat {winner}; {args.a} {wins}/{g - args.first + 1}", flush=True)
    n = args.games
    share = (wins + draws / seats) / n
    half = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / n)
    budget = f"{args.think} s/move" if args.think else f"{args.iterations} iterations/move"
    print(
        f"RESULT {args.game} {args.options} {budget}: {args.a} vs {args.b}: {wins} wins, {draws} draws in {n} games, "
        f"share {share:.0%} ± {half:.0%} (even: {1 / seats:.0%}); {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
