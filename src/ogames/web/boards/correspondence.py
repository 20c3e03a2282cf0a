"""Correspondence clocks: a number of days for every move, kept by the server across restarts.

A game played over days has no running seconds to count: each turn has a deadline, `days` after it
began, and that deadline is stored with the game (the clock's JSON and the `games.deadline` column
the sweeper asks for). When a deadline passes, the seat to move has run out of days: it loses on
time (`flag`) — unless it has not made its first move yet, in which case the game never really
started and is aborted (no result; ratings skip it), as lichess does. Nothing in memory keeps the
time: a server that was down when a deadline passed ends the game when it starts again
(`web/boards/sweeper.py`).

The clocks' time is `clock.now()` (one source for both kinds of clock), so a test can run days in a
moment by replacing it; the server's other timestamps are untouched. `stored_clock` reads either
kind of clock from a database row.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from ogames.web.boards.clock import Clock, time_or_now

DAY = 86_400.0  # seconds
DAYS_CHOICES = (1, 2, 3, 5, 7, 14)  # the days per move a game may be given


@dataclass(frozen=True)
class DaysClock:
    """`days` for every move; the seat to move must move before `deadline`."""

    days: int
    seats: int
    deadline: float | None = None  # when the seat to move runs out of days; None: no turn runs (over)
    since: float | None = None  # when that turn began
    flagged: int | None = None  # the seat that lost on time, once one has
    moved: frozenset[int] = frozenset()  # the seats that have made a move (before that, running out aborts)

    correspondence = True  # swept by the server, not timed in memory (web/boards/timekeeper.py)

    @classmethod
    def start(cls, days: int, seats: int, at: float) -> DaysClock:
        """A clock of a game of `seats` whose first turn begins `at` (the game's creation)."""
        if days not in DAYS_CHOICES:
            raise ValueError(f"days per move must be one of {', '.join(map(str, DAYS_CHOICES))}, not {days}")
        return cls(days, seats, at + days * DAY, at)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> DaysClock:
        deadline, since, flagged = data.get("deadline"), data.get("since"), data.get("flagged")
        return cls(
            int(data["days"]),
            int(data["seats"]),
            None if deadline is None else float(deadline),
            None if since is None else float(since),
            None if flagged is None else int(flagged),
            frozenset(int(seat) for seat in data.get("moved", [])),
        )

    def stored(self) -> dict[str, Any]:
        return {"days": self.days, "seats": self.seats, "deadline": self.deadline, "since": self.since, "flagged": self.flagged,
                "moved": sorted(self.moved)}

    @property
    def per_move(self) -> float:
        """Seconds every turn is given."""
        return self.days * DAY

    def runs(self, mover: int | None) -> bool:
        """Whether a turn is being timed."""
        return mover is not None and self.deadline is not None

    def left(self, seat: int, mover: int | None, now: float | None = None) -> float:
        """Seconds a seat has left: the seat to move until its deadline, any other a whole turn."""
        if seat == mover and self.runs(mover) and self.deadline is not None:
            return self.deadline - time_or_now(now)
        return self.per_move

    def out_of_time(self, mover: int | None, now: float | None = None) -> bool:
        """Whether the seat to move has let its deadline pass."""
        return mover is not None and self.runs(mover) and self.left(mover, mover, now) <= 0

    def aborts(self, mover: int | None) -> bool:
        """Whether running out of days now aborts the game rather than losing it: the seat to move
        has not made its first move."""
        return mover is not None and mover not in self.moved

    def after_action(self, mover: int | None, next_mover: int | None, *, over: bool, now: float, ply: int) -> DaysClock:
        """The clock after an action by `mover`: a new turn of `days` for the next seat (none if the
        game is over). An action that leaves the same seat to move (an Omega placement within its
        turn) keeps its deadline."""
        del ply  # a turn's time does not depend on the position
        moved = self.moved if mover is None else self.moved | {mover}
        if over or next_mover is None:
            return replace(self, deadline=None, since=None, moved=moved)
        if next_mover == mover and self.deadline is not None:
            return replace(self, moved=moved)
        return replace(self, deadline=now + self.per_move, since=now, moved=moved)

    def taken_back(self, ply: int, mover: int | None, next_mover: int | None, computers: Collection[int], *,
                   now: float) -> DaysClock:
        """After a take-back (agreed by every person), the seat to move starts a new turn."""
        del ply, mover, computers
        if next_mover is None:
            return replace(self, deadline=None, since=None)
        return replace(self, deadline=now + self.per_move, since=now)

    def flag(self, seat: int) -> DaysClock:
        """The clock once a seat has lost on time: stopped."""
        return replace(self, deadline=None, since=None, flagged=seat)

    def stopped(self) -> DaysClock:
        """The clock of an aborted game: no turn runs."""
        return replace(self, deadline=None, since=None)

    def view(self, mover: int | None, now: float | None = None) -> dict[str, Any]:
        """What the pages see: the Fischer clock's fields (the seat to move's seconds left, every other
        seat a whole turn), plus the days per move and the deadline itself."""
        now = time_or_now(now)
        return {
            "base": self.per_move,
            "increment": 0.0,
            "remaining": [round(max(0.0, self.left(seat, mover, now)), 2) for seat in range(self.seats)],
            "running": mover if self.runs(mover) else None,
            "flagged": self.flagged,
            "days": self.days,
            "deadline": self.deadline,
        }


GameClock = Clock | DaysClock


def stored_clock(data: dict[str, Any] | None) -> GameClock | None:
    """The clock a database row holds: a correspondence clock (it has `days`), a Fischer clock, or
    None for an untimed game."""
    if data and "days" in data:
        return DaysClock.from_stored(data)
    return Clock.from_stored(data)


def deadline_of(stored: dict[str, Any] | None) -> float | None:
    """The deadline of a stored clock, for the `games.deadline` column the sweeper reads (only a
    correspondence clock has one: a live clock's flag is kept by a timer while the game is in memory)."""
    if not stored or "days" not in stored or stored.get("deadline") is None:
        return None
    return float(stored["deadline"])


__all__ = ["DAY", "DAYS_CHOICES", "DaysClock", "GameClock", "deadline_of", "stored_clock"]
