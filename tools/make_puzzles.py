"""Make more proven puzzles: play self-play games (or read a folder of saved games), mine them, and
add the new puzzles to a JSON-lines file (by default the set shipped in the package).

    .venv/bin/python tools/make_puzzles.py oddy '{"sides": 3, "size": 7, "pie": false}' --level 6 --games 20
    .venv/bin/python tools/make_puzzles.py omega '{"size": 4}' --games 40 --folder /tmp/omega4
    .venv/bin/python tools/make_puzzles.py onyx '{}' --records /path/to/saved/folder

Each puzzle is proven as it is found (docs/puzzles.md says how); puzzles whose position is already
in the file are skipped. Run it niced on a shared machine: `nice -n 10 …`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from ogames.teach.puzzles import SHIPPED, read, write
from ogames.teach.puzzles.mine import mine_records, position_key, records_in, selfplay_games
from ogames.teach.puzzles.proof import position_of


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=["omny", "oddy", "omega", "onyx"])
    parser.add_argument("options", help="the game's options as a JSON object")
    parser.add_argument("--level", type=int, default=6, help="the self-play level (default 6)")
    parser.add_argument("--games", type=int, default=10, help="self-play games to play (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", help="where the self-play games go (default: a temporary folder)")
    parser.add_argument("--records", help="mine the games saved in this folder instead of playing new ones")
    parser.add_argument("--out", default=str(SHIPPED), help="the puzzle file to add to (default: the shipped set)")
    parser.add_argument("--sidelines", action="store_true", help="also try positions one other move off each game")
    parser.add_argument("--limit", type=int, default=0, help="stop after this many new puzzles (0: no limit)")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    out = Path(args.out)
    known = list(read(out)) if out.exists() else []
    seen = {position_key(position_of(p)) for p in known}
    if args.records:
        folder = Path(args.records)
        source = f"games in {folder.name}"
    else:
        folder = Path(args.folder or tempfile.mkdtemp(prefix=f"puzzles-{args.game}-"))
        started = time.perf_counter()
        selfplay_games(args.game, options, args.level, args.games, args.seed, folder)
        print(f"{args.games} self-play games in {time.perf_counter() - started:.0f} s: {folder}", flush=True)
        source = f"self-play level {args.level} seed {args.seed}"
    added = 0
    started = time.perf_counter()
    for puzzle in mine_records(records_in(folder), source, seen, sidelines=args.sidelines):
        known.append(puzzle)
        added += 1
        write(known, out)  # kept whole after each find: a stopped run loses nothing
        print(
            f"{puzzle.id} {' '.join(puzzle.solution)} themes={','.join(puzzle.themes) or '-'} d={puzzle.difficulty}", flush=True
        )
        if args.limit and added >= args.limit:
            break
    print(f"{added} new puzzles in {time.perf_counter() - started:.0f} s; {len(known)} in {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
