"""A live Omiga table: the state in memory, who plays each seat, who is here, who watches, and the
clock that maps the server's monotonic time to game time (the hub, `omiga/live.py`, acts on it)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from ogames.rules.omiga.realtime import RealtimeState
from ogames.rules.protocol import State
from ogames.web.core.common import Outbox
from ogames.web.core.seats import HUMAN
from ogames.web.core.store import seat_of_token
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.omiga.view import is_realtime, is_zen, table_view, whole_view


@dataclass(eq=False)
class LiveTable:
    """An Omiga game in memory: the state, who plays each seat, who is here and who watches."""

    id: str
    seat_kinds: list[str]
    state: State
    digests: dict[int, str]
    version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[Outbox, str] = field(default_factory=dict)  # each watching page's outbox, and its language
    ready: set[int] = field(default_factory=set)  # the seats of people with a page open (any process)
    pages: int = 0  # pages open on the table (any process)
    signal_at: float | None = None  # monotonic time of the signal (real time), once everyone is here
    origin: float | None = None  # monotonic time of game time 0 (the clock resumes at state.clock)
    last_seq: dict[int, int] = field(default_factory=dict)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    problem: str | None = None
    zen_verdict: tuple[str, str] | None = None
    # Several processes: True while another process referees the table (this one relays), with
    # that referee's newest view in each language.
    remote: bool = False
    relayed: dict[str, dict[str, Any]] | None = None
    # Made rated: its end changes its people's ratings (web/ratings/finish.py); once it is rated,
    # what that did to each person's rating, as the view shows it (None: not known here yet;
    # empty: not rated after all, a seat not held by an account).
    rated: bool = False
    rating_changes: list[dict[str, Any]] | None = None

    aborted = False  # a table has no abort: one ended before everyone acted is left unrated by the ratings

    def is_computer(self, seat: int) -> bool:
        """Whether a bot plays a seat."""
        return self.seat_kinds[seat] != HUMAN

    def seat_of(self, token: str) -> int | None:
        """The seat a token belongs to (compared in constant time), or None."""
        return seat_of_token(self.digests, token)

    @property
    def realtime(self) -> bool:
        """Whether the table is played in real time."""
        return is_realtime(self.state)

    @property
    def people(self) -> set[int]:
        """The seats people play."""
        return {seat for seat, kind in enumerate(self.seat_kinds) if kind == HUMAN}

    @property
    def started(self) -> bool:
        """Whether play is on (turn-based tables always; real time after the signal)."""
        return self.signal_at is not None and time.monotonic() >= self.signal_at

    def clock(self) -> float:
        """Game time now (seconds since the signal, never before the last accepted action)."""
        state = self.state
        base = state.clock if isinstance(state, RealtimeState) else 0.0
        if self.origin is None:
            return base
        return max(base, time.monotonic() - self.origin)

    def signal_in(self) -> float | None:
        """Seconds until the signal while counting down, else None."""
        if self.signal_at is None:
            return None
        left = self.signal_at - time.monotonic()
        return round(left, 2) if left > 0 else None

    def zen_hint(self) -> str | None:
        """The greedy zen player's move here (cheap), as a hint."""
        if not is_zen(self.state) or self.state.is_over:
            return None
        from ogames.players.omiga.zen_greedy import greedy_move

        return greedy_move(self.state)

    def view(self, language: str = ENGLISH) -> dict[str, Any]:
        """What every watcher sees now, in a language (the JSON API's: English), with the table's
        whole drawing."""
        return whole_view(self.wire(language))

    def wire(self, language: str = ENGLISH) -> dict[str, Any]:
        """What every watcher sees now, the drawing in its parts (a page that takes deltas holds
        it); a new dict, for the sender to stamp (web/core/delta.py)."""
        if self.remote and self.relayed is not None:
            return dict(self.relayed.get(language) or self.relayed.get(ENGLISH) or {})
        return table_view(self, self.clock(), self.signal_in(), language).shown()


__all__ = ["HUMAN", "LiveTable"]
