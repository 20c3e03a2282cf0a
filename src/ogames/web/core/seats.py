"""The kinds of seat a stored game or table holds (games.seat_kinds), shared by both faces and the
ratings: a person at the creating browser, a person invited by a link (or who took an open seat),
an open seat anyone may take; anything else is a computer's player spec
(`mcts:level=7,iterations=4000,think=10`; games stored before levels: `mcts:think=1`)."""

from __future__ import annotations

HUMAN = "human"

INVITED = "invited"

OPEN = "open"

__all__ = ["HUMAN", "INVITED", "OPEN"]
