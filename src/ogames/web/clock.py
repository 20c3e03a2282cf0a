"""Fischer clocks kept by the server: each seat's remaining time, and when the running one started.

A clock is a value: every action makes a new one (`after_action`), which is stored with the action
in one transaction and only then becomes the game's. What is stored — each seat's time left at the
last action, that action's time (`since`) and the seats that have made their first move — is
enough for a restarted server to continue: the seat to move has `remaining - (now - since)` left.
A seat's clock starts after its first turn (that turn is not timed, so a game waiting for an
invited friend, or for someone to take an open seat, costs nobody time); from then on the seat to
move is charged the time since the previous action, and gains the increment when its turn passes
on. A seat whose time runs out loses on time (`flag`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Clock:
    """Every seat's time (seconds) in a timed game."""

    base: float  # seconds every seat starts with
    increment: float  # seconds a seat gains after each of its turns
    remaining: tuple[float, ...]  # seconds each seat had left at the last action
    since: float | None = None  # when the seat to move started thinking (epoch seconds); None: stopped
    flagged: int | None = None  # the seat that lost on time, once one has
    started: frozenset[int] = frozenset()  # the seats whose first turn is over: their clocks run

    @classmethod
    def start(cls, minutes: float, increment: float, seats: int) -> Clock:
        """A stopped clock giving every seat `minutes` (it starts with the first move)."""
        base = round(minutes * 60, 3)
        return cls(base, float(increment), tuple([base] * seats))

    @classmethod
    def from_stored(cls, data: dict[str, Any] | None) -> Clock | None:
        """The clock a database row holds (None for an untimed game)."""
        if not data:
            return None
        since = data.get("since")
        flagged = data.get("flagged")
        return cls(
            float(data["base"]),
            float(data["increment"]),
            tuple(float(value) for value in data["remaining"]),
            None if since is None else float(since),
            None if flagged is None else int(flagged),
            frozenset(int(seat) for seat in data.get("started", [])),
        )

    def stored(self) -> dict[str, Any]:
        """What the database keeps."""
        return {
            "base": self.base,
            "increment": self.increment,
            "remaining": list(self.remaining),
            "since": self.since,
            "flagged": self.flagged,
            "started": sorted(self.started),
        }

    def runs(self, mover: int | None) -> bool:
        """Whether the seat to move's clock is running (the game is on and its first turn is over)."""
        return mover is not None and self.since is not None and mover in self.started

    def left(self, seat: int, mover: int | None, now: float | None = None) -> float:
        """Seconds a seat has left now (the seat to move's clock runs while `since` is set)."""
        value = self.remaining[seat]
        if seat == mover and self.runs(mover) and self.since is not None:
            value -= (time.time() if now is None else now) - self.since
        return value

    def out_of_time(self, mover: int | None, now: float | None = None) -> bool:
        """Whether the seat to move has used up its time."""
        return mover is not None and self.runs(mover) and self.left(mover, mover, now) <= 0

    def after_action(self, mover: int | None, next_mover: int | None, *, over: bool, undo: bool = False, now: float) -> Clock:
        """The clock after an action by `mover` (a move, a resignation, an undo) that leaves
        `next_mover` to move: the mover is charged its thinking time and gains the increment if its
        turn passed (not for an undo) — from its second turn on —, and the next seat's clock starts
        (none if the game is over)."""
        remaining = list(self.remaining)
        started = self.started
        turn_passed = mover is not None and next_mover != mover and not undo
        if mover is not None and self.runs(mover) and self.since is not None:
            remaining[mover] = max(0.0, remaining[mover] - (now - self.since))
            if turn_passed:
                remaining[mover] += self.increment
        elif turn_passed and mover is not None:
            started = started | {mover}  # its first turn is over: its clock runs from its next turn
        running = not over and next_mover is not None
        rounded = tuple(round(value, 3) for value in remaining)
        return replace(self, remaining=rounded, since=now if running else None, started=started)

    def flag(self, seat: int) -> Clock:
        """The clock once a seat has lost on time: stopped, that seat at zero."""
        remaining = list(self.remaining)
        remaining[seat] = 0.0
        return replace(self, remaining=tuple(remaining), since=None, flagged=seat)

    def view(self, mover: int | None, now: float | None = None) -> dict[str, Any]:
        """What the pages see: every seat's time left now and which clock runs."""
        now = time.time() if now is None else now
        return {
            "base": self.base,
            "increment": self.increment,
            "remaining": [round(max(0.0, self.left(seat, mover, now)), 2) for seat in range(len(self.remaining))],
            "running": mover if self.runs(mover) else None,
            "flagged": self.flagged,
        }
