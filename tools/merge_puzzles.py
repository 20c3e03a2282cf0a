"""Merge puzzle files into one (by default the set shipped in the package): each puzzle proven
again (`proof.verify`; those that fail are left out and named), its themes found again by the
current detectors, positions kept once, and "mate in 1" puzzles kept a minority (at most
`--mate-share` of each game's).

    .venv/bin/python tools/merge_puzzles.py /tmp/oddy.jsonl /tmp/omega.jsonl [--out PATH]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from tool_cli import Parser, fail, refused, writable_file

from ogames.teach.puzzles import SHIPPED, BadPuzzle, Prover, Puzzle, position_of, read, verify, write
from ogames.teach.puzzles.format import GAMES
from ogames.teach.puzzles.mine import position_key
from ogames.teach.puzzles.themes import themes


def share(text: str) -> float:
    """An argparse type: a fraction from 0 up to (not including) 1."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction from 0 up to 1 (not 1 itself)")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--mate-share", type=share, default=0.2)
    args = parser.parse_args(argv)
    out = writable_file(args.out)
    # Every file read before the long proofs: a missing or corrupt one is refused at once.
    with refused(OSError, UnicodeDecodeError, BadPuzzle):
        read_in = [puzzle for path in args.files for puzzle in read(path)]
    kept: dict[str, list[Puzzle]] = defaultdict(list)
    seen: set[str] = set()
    provers: dict[str, Prover] = {}
    failed = 0
    for puzzle in read_in:
        try:
            state = position_of(puzzle)
        except ValueError as exc:  # IllegalMove, BadOption: a puzzle that fails, like an unproven one
            failed += 1
            print(f"left out {puzzle.id}: its moves do not replay: {exc}", flush=True)
            continue
        key = position_key(state)
        if key in seen:
            continue
        seen.add(key)
        prover = provers.setdefault(json.dumps([puzzle.game, puzzle.options], sort_keys=True), Prover(state.game))
        problems = verify(puzzle, prover)
        if problems:
            failed += 1
            print(f"left out {puzzle.id}: {'; '.join(problems)}", flush=True)
            continue
        found = tuple(themes(state, puzzle.solution))
        difficulty = 1 if "mate-in-1" in found else puzzle.difficulty
        kept[puzzle.game].append(dataclasses.replace(puzzle, themes=found, difficulty=difficulty))
    merged: list[Puzzle] = []
    for game in GAMES:
        puzzles = kept.get(game, [])
        mates = [p for p in puzzles if "mate-in-1" in p.themes]
        others = [p for p in puzzles if "mate-in-1" not in p.themes]
        # (a game with nothing but mates keeps them: better a few easy puzzles than none)
        room = int(args.mate_share * len(others) / (1 - args.mate_share)) if others else len(mates)
        merged += others + mates[:room]
    if not merged:
        fail(f"no puzzle left to write ({failed} failed their proof); {out} is left as it was")
    with refused(OSError):
        write(merged, out)
    print(f"{len(merged)} puzzles ({dict(Counter(p.game for p in merged))}); {failed} failed their proof", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
