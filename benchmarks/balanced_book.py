"""A book of balanced openings: the openings of a few moves after which games between equal
players go either way.

    .venv/bin/python benchmarks/balanced_book.py omny --variant y --size 9 --plies 1 \
        --player mcts:level=8 --games 8 --low 0.25 --high 0.75 --out benchmarks/books/omny-y9.txt

From every opening of `--plies` moves (or `--sample` of them drawn at random, for longer openings)
the player plays `--games` games against itself (each seeded apart); the openings whose share of
wins for the side to move lies in [low, high] go to the book, one a line, the share beside it as a
comment. A tournament takes the book with `--book FILE` (`ogames tournament`, `bench_levels.py`):
each line is played once in every seat order. Random openings on boards like Y 9 are mostly
decided for one side at the levels that matter, so that two levels split the two games of an
opening whatever their strength; balanced openings are where the stronger player shows. (The
search's own value is no guide: after 100,000 iterations every first stone of Omny y 9 is worth
0.42–0.55 to the side to move, while games between level 8 and itself from most of them all end
the same way.)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import ogames
from ogames.cli.args import parse_play_args
from ogames.players import player


def openings(game: ogames.Game, plies: int, sample: int | None, seed: int) -> list[tuple[str, ...]]:
    """Every opening of `plies` moves that leaves the game going (or `sample` of them at random)."""
    found: list[tuple[str, ...]] = [()]
    for _ in range(plies):
        longer = []
        for line in found:
            state = game.new_state()
            for move in line:
                state.play(move, t=0.0)
            longer += [(*line, move) for move in state.legal_moves()]
        found = longer
    alive = []
    for line in found:
        state = game.new_state()
        for move in line:
            state.play(move, t=0.0)
        if not state.is_over:
            alive.append(line)
    if sample is not None and sample < len(alive):
        alive = random.Random(seed).sample(alive, sample)
    return alive


def share_of_mover(game: ogames.Game, line: tuple[str, ...], spec: str, games: int, seed: int) -> float:
    """The share of `games` self-play games of `spec` from the opening won by the side to move."""
    won = 0
    for g in range(games):
        state = game.new_state()
        for move in line:
            state.play(move, t=0.0)
        mover = state.to_move
        bots = [player(spec, seed=seed * 1000 + 2 * g + k) for k in range(len(state.players))]
        while not state.is_over:
            state.play(bots[state.mover].choose(state), t=0.0)
        won += state.winner == mover
    return won / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--plies", type=int, default=1, help="moves of each opening")
    parser.add_argument("--sample", type=int, help="search this many openings drawn at random (default: all)")
    parser.add_argument("--player", default="mcts:level=8", help="the player of the games (a spec)")
    parser.add_argument("--games", type=int, default=8, help="games from each opening")
    parser.add_argument("--low", type=float, default=0.25, help="lowest share of wins for the side to move")
    parser.add_argument("--high", type=float, default=0.75, help="highest share of wins for the side to move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args, rest = parser.parse_known_args()
    options, unknown = parse_play_args(args.game, rest)
    if unknown:
        sys.exit(f"unknown option --{sorted(unknown)[0]}")
    game = ogames.load(args.game, **options)
    lines = openings(game, args.plies, args.sample, args.seed)
    kept: list[tuple[float, tuple[str, ...]]] = []
    start = time.perf_counter()
    for k, line in enumerate(lines, 1):
        value = share_of_mover(game, line, args.player, args.games, args.seed)
        verdict = "kept" if args.low <= value <= args.high else "—"
        print(f"{k}/{len(lines)} {' '.join(line):12s} {value:.3f} {verdict}", flush=True)
        if verdict == "kept":
            kept.append((value, line))
    header = [
        f"# balanced openings of {args.game} {' '.join(rest)}: {len(kept)} of {len(lines)} openings of {args.plies} move(s)",
        f"# after which the side to move won a share in [{args.low}, {args.high}] of {args.games} games",
        f"# of {args.player} against itself",
        f"# (benchmarks/balanced_book.py, {time.perf_counter() - start:.0f} s)",
    ]
    body = [f"{' '.join(line)}  # {value:.3f}" for value, line in kept]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(header + body) + "\n", encoding="utf-8")
    print(f"{len(kept)} openings → {args.out}")


if __name__ == "__main__":
    main()
