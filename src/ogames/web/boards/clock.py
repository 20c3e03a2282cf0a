"""Fischer clocks kept by the server: each seat's remaining time, and when the running one started.

A clock is a value: every action makes a new one (`after_action`), which is stored with the action
in one transaction and only then becomes the game's. What is stored — each seat's time left at the
last action, that action's time (`since`) and the seats that have made their first move — is
enough for a restarted server to continue: the seat to move has `remaining - (now - since)` left.
A seat's clock starts after its first turn (that turn is not timed, so a game waiting for an
invited friend, or for someone to take an open seat, costs nobody time); from then on the seat to
move is charged the time since the previous action, and gains the increment when its turn passes
on. A seat whose time runs out loses on time (`flag`).

**Take-backs give nobody time.** The clock keeps a mark for every position of the game (each seat's
time, the increments it has earned so far, whose clocks run), so that an undo can put the clocks
where the rules want them (`taken_back`): a person keeps every second it has used, the time it
thought about moves now taken back included, and loses the increments those moves earned (so undo
and play again never earns an increment twice); a computer's clock goes back to what it was at
the position taken back to (it cannot refuse a take-back, so it must not lose time to one).
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from ogames.wording import say


def now() -> float:
    """The clocks' time (epoch seconds), read by both kinds of clock and the code that acts on them;
    a test replaces this function to simulate minutes or days (web/boards/correspondence.py)."""
    return time.time()


def time_or_now(given: float | None) -> float:
    """`given`, or the clocks' time now when it is None."""
    return now() if given is None else given


class NoTakeBack(Exception):
    """The clocks cannot be put back to a position (the message says why, for people)."""


@dataclass(frozen=True)
class Mark:
    """The clocks as a position of the game found them."""

    remaining: tuple[float, ...]  # each seat's time left when the position arose
    earned: tuple[float, ...]  # the increments each seat had earned by then
    started: frozenset[int]  # the seats whose clocks ran by then

    def stored(self) -> list[Any]:
        return [list(self.remaining), list(self.earned), sorted(self.started)]

    @classmethod
    def from_stored(cls, data: Any) -> Mark:
        remaining, earned, started = data
        return cls(tuple(float(v) for v in remaining), tuple(float(v) for v in earned), frozenset(int(s) for s in started))


@dataclass(frozen=True)
class Clock:
    """Every seat's time (seconds) in a timed game."""

    base: float  # seconds every seat starts with
    increment: float  # seconds a seat gains after each of its turns
    remaining: tuple[float, ...]  # seconds each seat had left at the last action
    since: float | None = None  # when the seat to move started thinking (epoch seconds); None: stopped
    flagged: int | None = None  # the seat that lost on time, once one has
    started: frozenset[int] = frozenset()  # the seats whose first turn is over: their clocks run
    earned: tuple[float, ...] = ()  # increments each seat has earned (and kept: take-backs remove them)
    # The clocks at each position of the game, by its count of history entries (a game stored by a
    # server before take-backs kept them has none for its earlier positions).
    marks: dict[int, Mark] = field(default_factory=dict)

    correspondence = False  # timed in memory (web/boards/timekeeper.py), not swept

    @classmethod
    def start(cls, minutes: float, increment: float, seats: int) -> Clock:
        """A stopped clock giving every seat `minutes` (it starts with the first move)."""
        base = round(minutes * 60, 3)
        remaining, earned = tuple([base] * seats), tuple([0.0] * seats)
        return cls(base, float(increment), remaining, earned=earned, marks={0: Mark(remaining, earned, frozenset())})

    @classmethod
    def from_stored(cls, data: dict[str, Any] | None) -> Clock | None:
        """The clock a database row holds (None for an untimed game)."""
        if not data:
            return None
        since = data.get("since")
        flagged = data.get("flagged")
        remaining = tuple(float(value) for value in data["remaining"])
        return cls(
            float(data["base"]),
            float(data["increment"]),
            remaining,
            None if since is None else float(since),
            None if flagged is None else int(flagged),
            frozenset(int(seat) for seat in data.get("started", [])),
            tuple(float(value) for value in data.get("earned") or [0.0] * len(remaining)),
            {int(ply): Mark.from_stored(mark) for ply, mark in (data.get("marks") or {}).items()},
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
            "earned": list(self._earned),
            "marks": {str(ply): mark.stored() for ply, mark in sorted(self.marks.items())},
        }

    @property
    def _earned(self) -> tuple[float, ...]:
        return self.earned or tuple([0.0] * len(self.remaining))

    def runs(self, mover: int | None) -> bool:
        """Whether the seat to move's clock is running (the game is on and its first turn is over)."""
        return mover is not None and self.since is not None and mover in self.started

    def left(self, seat: int, mover: int | None, now: float | None = None) -> float:
        """Seconds a seat has left now (the seat to move's clock runs while `since` is set)."""
        value = self.remaining[seat]
        if seat == mover and self.runs(mover) and self.since is not None:
            value -= time_or_now(now) - self.since
        return value

    def out_of_time(self, mover: int | None, now: float | None = None) -> bool:
        """Whether the seat to move has used up its time."""
        return mover is not None and self.runs(mover) and self.left(mover, mover, now) <= 0

    def after_action(self, mover: int | None, next_mover: int | None, *, over: bool, now: float, ply: int) -> Clock:
        """The clock after an action by `mover` (a move, a resignation) that leaves `next_mover` to
        move at a position of `ply` history entries: the mover is charged its thinking time and
        gains the increment if its turn passed — from its second turn on —, and the next seat's
        clock starts (none if the game is over)."""
        remaining = list(self.remaining)
        earned = list(self._earned)
        started = self.started
        turn_passed = mover is not None and next_mover != mover
        if mover is not None and self.runs(mover) and self.since is not None:
            remaining[mover] = max(0.0, remaining[mover] - (now - self.since))
            if turn_passed:
                remaining[mover] += self.increment
                earned[mover] += self.increment
        elif turn_passed and mover is not None:
            started = started | {mover}  # its first turn is over: its clock runs from its next turn
        running = not over and next_mover is not None
        rounded = tuple(round(value, 3) for value in remaining)
        return self._at(ply, rounded, tuple(round(value, 3) for value in earned), started, now if running else None)

    def taken_back(self, ply: int, mover: int | None, next_mover: int | None, computers: Collection[int], *, now: float) -> Clock:
        """The clock once the game is taken back to its position of `ply` history entries, where
        `next_mover` is to move (`mover` was to move before): each person's seat keeps the time it
        has used (its thinking now charged) less the increments it earned since that position; each
        computer's seat has the time it had there. NoTakeBack if that position's mark is not kept
        or a person would be left with no time."""
        mark = self.marks.get(ply)
        if mark is None:
            raise NoTakeBack(say("clocks-not-kept",
                                 "the clocks of that position were not kept (the game was stored by an older server)"))
        earned_now = self._earned
        remaining, started = list(mark.remaining), set(mark.started)
        for seat in range(len(remaining)):
            if seat in computers:
                continue
            remaining[seat] = self.left(seat, mover, now) - (earned_now[seat] - mark.earned[seat])
            if remaining[seat] <= 0:
                raise NoTakeBack(say("no-time-left",
                                     "seat {n} would have no time left: the moves taken back earned the time it has",
                                     n=seat + 1))
            if seat in self.started:
                started.add(seat)  # a person's clock, once running, never stops for a take-back
        rounded = tuple(round(value, 3) for value in remaining)
        return self._at(ply, rounded, mark.earned, frozenset(started), now if next_mover is not None else None)

    def _at(self, ply: int, remaining: tuple[float, ...], earned: tuple[float, ...], started: frozenset[int],
            since: float | None) -> Clock:
        """This clock with new times at the position of `ply` entries (its mark made, later ones dropped)."""
        marks = {key: mark for key, mark in self.marks.items() if key < ply}
        marks[ply] = Mark(remaining, earned, started)
        return replace(self, remaining=remaining, earned=earned, started=started, since=since, marks=marks)

    def flag(self, seat: int) -> Clock:
        """The clock once a seat has lost on time: stopped, that seat at zero."""
        remaining = list(self.remaining)
        remaining[seat] = 0.0
        return replace(self, remaining=tuple(remaining), since=None, flagged=seat)

    def stopped(self) -> Clock:
        """The clock of an aborted game: no clock runs."""
        return replace(self, since=None)

    def view(self, mover: int | None, now: float | None = None) -> dict[str, Any]:
        """What the pages see: every seat's time left now and which clock runs."""
        now = time_or_now(now)
        return {
            "base": self.base,
            "increment": self.increment,
            "remaining": [round(max(0.0, self.left(seat, mover, now)), 2) for seat in range(len(self.remaining))],
            "running": mover if self.runs(mover) else None,
            "flagged": self.flagged,
        }
