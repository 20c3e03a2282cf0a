"""Make more proven puzzles: play self-play games (or read a folder of saved games), mine them, and
add the new puzzles to a JSON-lines file (by default the set shipped in the package).

    .venv/bin/python tools/make_puzzles.py oddy '{"sides": 3, "size": 7, "pie": false}' --level 6 --games 20
    .venv/bin/python tools/make_puzzles.py omega '{"size": 4}' --games 40 --folder /tmp/omega4
    .venv/bin/python tools/make_puzzles.py onyx '{}' --records /path/to/saved/folder

Each puzzle is proven as it is found (docs/puzzles.md says how); puzzles whose position is already
in the file are skipped. Run it niced on a shared machine: `nice -n 10 …`.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tool_cli import Parser, fail, json_object, refused, whole, writable_file

import ogames
from ogames.arena import tournament as arena
from ogames.errors import BadRecord
from ogames.records import load_file, replay
from ogames.teach.puzzles import SHIPPED, BadPuzzle, read, write
from ogames.teach.puzzles.mine import mine_records, position_key, records_in, selfplay_games
from ogames.teach.puzzles.proof import position_of


def saved_games(folder: Path) -> list[dict[str, Any]]:
    """The records saved in a folder, each checked against the rules; a bad one refused by name."""
    records = []
    for path in sorted(Path(folder, arena.GAMES).glob("*.json")):
        with refused(BadRecord):
            record = load_file(path)
            try:
                replay(record)
            except BadRecord as exc:
                raise BadRecord(f"{path}: {exc}") from None
        records.append(record)
    return records


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=["omny", "oddy", "omega", "onyx"])
    parser.add_argument("options", type=json_object, help="the game's options as a JSON object")
    parser.add_argument("--level", type=whole(1, 10), default=6, help="the self-play level (default 6)")
    parser.add_argument("--games", type=whole(1), default=10, help="self-play games to play (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", help="where the self-play games go (default: a temporary folder)")
    parser.add_argument("--records", help="mine the games saved in this folder instead of playing new ones")
    parser.add_argument("--out", type=Path, default=SHIPPED, help="the puzzle file to add to (default: the shipped set)")
    parser.add_argument("--sidelines", action="store_true", help="also try positions one other move off each game")
    parser.add_argument("--limit", type=whole(0), default=0, help="stop after this many new puzzles (0: no limit)")
    args = parser.parse_args(argv)
    options = args.options
    out = writable_file(args.out)
    # Everything read and checked before the first game is played or the first puzzle written.
    with refused(ValueError):  # BadOption
        ogames.load(args.game, **options)
    with refused(OSError, UnicodeDecodeError, BadPuzzle):
        known = list(read(out)) if out.exists() else []
    seen = set()
    for puzzle in known:
        try:
            seen.add(position_key(position_of(puzzle)))
        except ValueError as exc:  # IllegalMove, BadOption
            fail(f"{out}: puzzle {puzzle.id} does not replay: {exc}")
    if args.records:
        folder = Path(args.records)
        if not folder.is_dir():
            fail(f"{folder} is not a folder of saved games")
        records = saved_games(folder)
        if not records:
            fail(f"{folder} holds no saved games (they are in its games/ folder)")
        source = f"games in {folder.name}"
    else:
        if args.folder and Path(args.folder).exists() and not Path(args.folder).is_dir():
            fail(f"{args.folder} is a file, not a folder for the self-play games")
        folder = Path(args.folder or tempfile.mkdtemp(prefix=f"puzzles-{args.game}-"))
        started = time.perf_counter()
        selfplay_games(args.game, options, args.level, args.games, args.seed, folder)
        records = list(records_in(folder))
        print(f"{args.games} self-play games in {time.perf_counter() - started:.0f} s: {folder}", flush=True)
        source = f"self-play level {args.level} seed {args.seed}"
    added = 0
    started = time.perf_counter()
    for puzzle in mine_records(records, source, seen, sidelines=args.sidelines):
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
