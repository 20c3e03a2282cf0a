"""A puzzle as one JSON line, read back whole or refused with the reason.

    >>> line = ('{"id": "oddy-1", "game": "oddy", "options": {"sides": 3, "size": 4, "pie": false},'
    ...         ' "moves": ["b2"], "solution": ["c2"], "themes": [], "difficulty": 1}')
    >>> puzzle = parse(line)
    >>> puzzle.game, puzzle.solution[0], parse(puzzle.to_line()) == puzzle
    ('oddy', 'c2', True)

Fields: `id`; `game` and its `options` (as `ogames.load` takes them); `moves`, the decisions from
the start that reach the position (for Omega one stone each, as the rules' `legal_moves` offer
them); `solution`, the main line from there: the one winning move first, then a best defence and
the winning reply, alternately by decision (Omega's two stones of a turn are two decisions of the
same seat), every step of the side to move proven to win against every defence; `themes` (named by
cheap detectors, see `themes.py`); `difficulty` 1 (easiest) to 5; `source`, where the game came
from. The puzzle's own facts (who is to move, what the others' moves lead to) are never stored:
the position is rebuilt through the rules and the proof is redone by `proof.verify`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

SHIPPED = Path(__file__).with_name("puzzles.jsonl")
GAMES = ("omny", "oddy", "omega", "onyx")
MAX_MOVES = 1_000  # decisions in `moves` or `solution`; no board of these games holds more
DIFFICULTIES = range(1, 6)


class BadPuzzle(ValueError):
    """A puzzle line that cannot be read, with the reason."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module's docstring for the fields)."""

    id: str
    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    solution: tuple[str, ...]
    themes: tuple[str, ...] = ()
    difficulty: int = 1
    source: str = ""

    @property
    def move(self) -> str:
        """The one winning move."""
        return self.solution[0]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("moves", "solution", "themes"):
            data[key] = list(data[key])
        return data

    def to_line(self) -> str:
        """Compact JSON on one line (no spaces after separators)."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)


def _strings(data: dict[str, Any], key: str, least: int) -> tuple[str, ...]:
    value = data.get(key, [] if key == "themes" else None)
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise BadPuzzle(f"'{key}' must be a list of non-empty strings")
    if not least <= len(value) <= MAX_MOVES:
        raise BadPuzzle(f"'{key}' must hold {least} to {MAX_MOVES} items, not {len(value)}")
    return tuple(value)


def from_json(data: Any) -> Puzzle:
    """A puzzle from its JSON object; BadPuzzle naming the first field that is wrong."""
    if not isinstance(data, dict):
        raise BadPuzzle("a puzzle is a JSON object")
    unknown = sorted(set(data) - {"id", "game", "options", "moves", "solution", "themes", "difficulty", "source"})
    if unknown:
        raise BadPuzzle(f"unknown field {unknown[0]!r}")
    ident = data.get("id")
    if not isinstance(ident, str) or not ident:
        raise BadPuzzle("'id' must be a non-empty string")
    game = data.get("game")
    if game not in GAMES:
        raise BadPuzzle(f"'game' must be one of {', '.join(GAMES)}")
    options = data.get("options")
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise BadPuzzle("'options' must be a JSON object")
    difficulty = data.get("difficulty", 1)
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or difficulty not in DIFFICULTIES:
        raise BadPuzzle(f"'difficulty' must be a whole number from {DIFFICULTIES[0]} to {DIFFICULTIES[-1]}")
    source = data.get("source", "")
    if not isinstance(source, str):
        raise BadPuzzle("'source' must be a string")
    return Puzzle(
        id=ident,
        game=game,
        options=dict(options),
        moves=_strings(data, "moves", 0),
        solution=_strings(data, "solution", 1),
        themes=_strings(data, "themes", 0),
        difficulty=difficulty,
        source=source,
    )


def parse(line: str) -> Puzzle:
    """A puzzle from one JSON line; BadPuzzle if it is not one."""
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise BadPuzzle(f"not JSON: {exc}") from None
    return from_json(data)


def read(path: str | Path = SHIPPED) -> Iterator[Puzzle]:
    """Every puzzle of a JSON-lines file (blank lines skipped); BadPuzzle naming the line number."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield parse(line)
            except BadPuzzle as exc:
                raise BadPuzzle(f"{path}, line {number}: {exc}") from None


def write(puzzles: list[Puzzle], path: str | Path) -> None:
    """Write puzzles as JSON lines (the whole file replaced)."""
    Path(path).write_text("".join(p.to_line() + "\n" for p in puzzles), encoding="utf-8")
