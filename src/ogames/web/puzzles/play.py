"""The puzzle judge (`ogames.teach.puzzles.judge`) as the API answers: its refusals as the
API's, in the visitor's language."""

from __future__ import annotations

from ogames.errors import IllegalMove, UnknownLabel
from ogames.teach.puzzles import Puzzle
from ogames.teach.puzzles import judge as judging
from ogames.teach.puzzles.judge import RIGHT, SOLVED, WRONG, Judged, side_colour, solution_state
from ogames.web.core.common import Refusal
from ogames.wording import say


def judge(puzzle: Puzzle, line: list[str], move: str) -> Judged:
    """`judging.judge`, with a line off the puzzle or a move that cannot be played refused (400)."""
    try:
        return judging.judge(puzzle, line, move)
    except judging.OffTheLine as exc:
        raise Refusal(exc.said, "bad-moves", 400) from None
    except (IllegalMove, UnknownLabel) as exc:
        raise Refusal(say("puzzle-illegal", "this move cannot be played: {reason}", reason=exc.said), "illegal", 400) from None


__all__ = ["RIGHT", "SOLVED", "WRONG", "judge", "side_colour", "solution_state"]
