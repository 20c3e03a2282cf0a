"""Make the opening explorer's self-play book, src/ogames/teach/data/book.json: games of the search
against itself on small boards, and the connection solver's verdicts for the first moves.

    nice -n 10 .venv/bin/python tools/make_book.py            # every board below
    nice -n 10 .venv/bin/python tools/make_book.py --games 20 --only "Y 4"

Each game opens with a random first move (seeded), so that the book shows every first move and not
only the one the search likes best, then `mcts` plays both sides at a modest budget. The verdicts:
for every position of the book's first `--depth` plies, each legal move is proven a win or a loss
for its mover by `ogames.players.solvers.connection.solve` within `--budget` positions (a move not
proven within it is left out); on Y 7 the first moves only, with 20 million positions each. The
page reads them from the book; nothing is solved at request time.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from tool_cli import Parser, refused, whole, writable_file

import ogames
from ogames.players.solvers.connection import LOSS, WIN, ConnectionSolver, plays, solve
from ogames.teach.explorer import BOOK, Tree, Verdicts, position, position_key

# (title, game, options, its own (depth, budget) or None for --depth and --budget). Y 7's first
# moves need up to a few million positions each (docs/solved.md), so only they are proven there.
BOARDS: list[tuple[str, str, dict[str, Any], tuple[int, int] | None]] = [
    ("Y 4", "omny", {"variant": "y", "size": 4}, None),
    ("Y 5", "omny", {"variant": "y", "size": 5}, None),
    ("Y 6", "omny", {"variant": "y", "size": 6}, None),
    ("Y 7", "omny", {"variant": "y", "size": 7}, (1, 20_000_000)),
    ("Odd-Y 5 sides, size 3", "oddy", {"sides": 5, "size": 3, "pie": False}, None),
    ("Omny sunder 3", "omny", {"variant": "sunder", "size": 3}, None),
]


def selfplay(game: ogames.Game, games: int, spec: str, seed: int) -> list[list[str]]:
    """`games` lines (the moves, then the winner) of `spec` against itself, each opening at random."""
    lines = []
    for number in range(games):
        rng = random.Random(seed * 1_000_003 + number)
        player = ogames.player(f"{spec},seed={seed * 1000 + number}")
        state = game.new_state()
        state.play(rng.choice(state.legal_moves()))
        while not state.is_over:
            state.play(player.choose(state))
        assert state.result is not None
        lines.append([entry["move"] for entry in state.history] + [state.result.winner])
    return lines


def verdicts_of(tree: Tree, depth: int, budget: int, into: Verdicts) -> int:
    """Prove each move of the book's positions up to `depth` plies; how many were proven."""
    game, proven = tree.game, 0
    if not plays(game):
        return 0
    solver = ConnectionSolver(game, table_bits=22 if budget > 1_000_000 else 20)
    frontier: list[list[str]] = [[]]
    seen = set()
    for _ in range(depth):
        following: list[list[str]] = []
        for path in frontier:
            state = position(game, path)
            key = position_key(state, path)
            if key in seen or state.is_over:
                continue
            seen.add(key)
            for move in state.legal_moves():
                child = state.clone()
                child.play(move)
                if child.result is not None:
                    verdict = WIN if child.result.winner == state.to_move else LOSS
                else:
                    solver.clear()
                    proof = solve(child, budget, solver=solver)
                    if not proof.proved:
                        continue
                    same = child.to_move == state.to_move
                    verdict = proof.value if same else (LOSS if proof.value == WIN else WIN)
                into.put(tree.key, key, move, verdict)
                proven += 1
                if tree.nodes.get(key, {}).get(move):
                    following.append([*path, move])
        frontier = following
    return proven


def main() -> None:
    parser = Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=whole(1), default=60, help="self-play games per board")
    parser.add_argument("--spec", default="mcts:iterations=300", help="the player of both sides")
    parser.add_argument("--depth", type=whole(0), default=2, help="plies whose moves are proven")
    parser.add_argument("--budget", type=whole(1), default=300_000, help="solver positions per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=[title for title, *_ in BOARDS],
                        help="one board's title (the book then holds only it)")
    parser.add_argument("--out", type=Path, default=BOOK)
    args = parser.parse_args()
    writable_file(args.out)
    with refused(ValueError):  # a player spec that does not read
        ogames.player(args.spec)
    boards, verdicts = [], Verdicts()
    for title, name, options, own in BOARDS:
        if args.only and title != args.only:
            continue
        game = ogames.load(name, **options)
        start = time.perf_counter()
        lines = selfplay(game, args.games, args.spec, args.seed)
        tree = Tree(game)
        for *line, winner in lines:
            tree.add_line(line, winner)
        played = time.perf_counter() - start
        depth, budget = own or (args.depth, args.budget)
        proven = verdicts_of(tree, depth, budget, verdicts)
        solved = time.perf_counter() - start - played
        print(f"{title}: {len(lines)} games in {played:.0f} s, {proven} moves proven in {solved:.0f} s")
        boards.append({"title": title, "game": name, "options": game.jsonable_options(), "lines": lines})
    book = {"made_by": "tools/make_book.py", "spec": args.spec, "boards": boards, "verdicts": verdicts.table}
    with refused(OSError):
        args.out.write_text(json.dumps(book, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
