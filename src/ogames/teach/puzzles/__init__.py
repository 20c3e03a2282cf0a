"""Puzzles from real games, proven: positions where the side to move has exactly one winning move
and every other move loses against perfect defence, each proven by a solver (never guessed by the
search), with the main line checked against every defence.

- `format.py`: a puzzle as one JSON line (`Puzzle`, `parse`, `read`, `write`; `SHIPPED` is the
  set shipped inside this package, `puzzles.jsonl`).
- `collection.py`: a set of puzzles by id (`PuzzleSet`): by game and theme, the day's puzzle.
- `proof.py`: each legal move's proven value per game and `verify(puzzle)`.
- `mine.py`: puzzles from self-play or stored games; `themes.py`: cheap theme detectors
  (`edges.py`: the edge templates and ladders of Omny and Odd-Y).

How puzzles are made and checked: docs/puzzles.md.
"""

from ogames.teach.puzzles.collection import PuzzleSet
from ogames.teach.puzzles.format import SHIPPED, BadPuzzle, Puzzle, parse, read, write
from ogames.teach.puzzles.proof import Prover, position_of, verify

__all__ = ["SHIPPED", "BadPuzzle", "Prover", "Puzzle", "PuzzleSet", "parse", "position_of", "read", "verify", "write"]
