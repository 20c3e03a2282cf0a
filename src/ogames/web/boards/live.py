"""A board game in memory (`LiveGame`: the state the rules rebuilt, who plays each seat, who
watches, its clock and take-back request) and what its state allows: who may take back or
analyse, who lost on time, the result in a sentence. Plain functions of a game: the hub's
collaborators and the views read them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import ogames
from ogames.errors import BadRecord
from ogames.rules.protocol import State
from ogames.web.boards.board import Made
from ogames.web.boards.correspondence import GameClock
from ogames.web.boards.views import SeatView
from ogames.web.core.common import Outbox, Refusal
from ogames.web.core.seats import HUMAN, INVITED, OPEN
from ogames.web.core.store import GameRow, seat_of_token
from ogames.wording import say

log = logging.getLogger("ogames.web")

# Games the browser can play so far (turn-based board games); Omiga's cards come later.
BROWSER_GAMES = ("omny", "oddy", "omega", "onyx")

# Seat kinds (stored in games.seat_kinds): web/core/seats.py.

PEOPLE = (HUMAN, INVITED, OPEN)


@dataclass(frozen=True)
class RematchState:
    """A finished game's rematch as far as this process knows: the seats that have offered one, and
    the new game once it is made. It only grows (an offer stays; the game is made once), so what is
    read or heard is merged in, in whatever order it comes."""

    offered: frozenset[int] = frozenset()
    game: str | None = None

    def merged(self, other: RematchState) -> RematchState:
        return RematchState(self.offered | other.offered, self.game or other.game)

    def message(self) -> dict[str, Any]:
        """As the bus carries it (web/core/bus.py) and the GET answers it."""
        return {"offered": sorted(self.offered), "game": self.game}

    @classmethod
    def parsed(cls, message: Any, seats: int) -> RematchState | None:
        """A state another process sent (`message`), or None if it is not one."""
        if not isinstance(message, dict):
            return None
        offered, game = message.get("offered"), message.get("game")
        if not isinstance(offered, list) or not all(type(seat) is int and 0 <= seat < seats for seat in offered):
            return None
        if not (game is None or (isinstance(game, str) and 1 <= len(game) <= 32)):
            return None
        return cls(frozenset(offered), game)


@dataclass(eq=False)
class LiveGame:
    """A game in memory: the state the rules rebuilt, who plays each seat, and who watches."""

    id: str
    mode: str
    seat_kinds: list[str]
    state: State
    digests: dict[int, str]
    created_at: float
    version: int = 0  # actions accepted so far (moves and resignations; Omega: each placement)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[Outbox, str] = field(default_factory=dict)  # each watching page's outbox, and its language
    thinking: bool = False
    problem: str | None = None
    ai_task: asyncio.Task[None] | None = None
    clock: GameClock | None = None  # a Fischer clock, a correspondence clock (days per move), or none
    flag_timer: asyncio.TimerHandle | None = None
    # A request to take back a move in a game with invited people: (the asking seat, the version it
    # was made at; it lapses when the game moves on) and the seats that have agreed. Kept in memory
    # (and sent to the other server processes on the bus): a restart forgets it, and the asker asks again.
    undo_asked: tuple[int, int] | None = None
    undo_agreed: set[int] = field(default_factory=set)
    # The seat whose request was declined, and the version then: its page says so until the game moves on.
    undo_declined: tuple[int, int] | None = None
    # Who is here (web/core/presence.py, every server process): the seats an open page holds, and the pages.
    present: frozenset[int] = frozenset()
    pages: int = 0
    # Ended before every person had moved: no result (web/boards/endings.py).
    aborted: bool = False
    # When each person's seat was last seen leaving (or found away), on this process's clock: the
    # others may claim the win once it has been away long enough (web/boards/endings.py).
    gone_since: dict[int, float] = field(default_factory=dict)
    claim_grace: float = 60.0  # seconds away before a win may be claimed over a seat (the server's setting: the hub sets it)
    # The position its views showed last in each language, and its facts: the next position's are
    # made from them (web/boards/game_view.py `live_position`).
    positions: dict[str, Made] = field(default_factory=dict)
    # The seats as its views showed them last in each language (what they were made from, and the list).
    seats_shown: dict[str, tuple[Hashable, list[SeatView]]] = field(default_factory=dict)
    # Made rated: its end changes its players' ratings (web/ratings/); once it is rated, what that
    # did to each person's rating, as the view shows it (None: not known here yet; empty: not rated).
    rated: bool = False
    rating_changes: list[dict[str, Any]] | None = None
    # Once it is over (a game between two people): who has offered a rematch, and the new game once
    # made (web/lobby/rematch.py), as read from the store and heard from the other processes.
    rematch: RematchState = field(default_factory=RematchState)
    # Hints for a learner (web/boards/learner_hints.py): how many the game offers (0: none, as in
    # any game but a casual one of one person against the computer) and how many were taken (stored).
    hint_limit: int = 0
    hints_used: int = 0

    @property
    def ended(self) -> bool:
        """Whether the game is over: a result, or aborted."""
        return self.aborted or self.state.is_over

    def seat_of(self, token: str) -> int | None:
        """The seat a token belongs to (compared in constant time), or None."""
        return seat_of_token(self.digests, token)

    def is_computer(self, seat: int | None) -> bool:
        """Whether the computer plays a seat."""
        return seat is not None and self.seat_kinds[seat] not in PEOPLE

    @property
    def online(self) -> bool:
        """Whether people in other browsers play (invited seats, or an open seat waiting for one)."""
        return any(kind in (INVITED, OPEN) for kind in self.seat_kinds)

    def pending_undo(self) -> int | None:
        """The seat whose request to take back a move is waiting for agreement, if any."""
        if self.undo_asked is None or self.undo_asked[1] != self.version:
            return None
        return self.undo_asked[0]

    def declined_undo(self) -> int | None:
        """The seat whose request to take back a move was declined at this version, if any."""
        if self.undo_declined is None or self.undo_declined[1] != self.version:
            return None
        return self.undo_declined[0]

    def undo_voters(self, asker: int) -> set[int]:
        """The seats whose agreement a take-back asked for by `asker` needs: every other person's
        (seats nobody has taken yet and computers have no say)."""
        return {seat for seat, kind in enumerate(self.seat_kinds) if kind in (HUMAN, INVITED) and seat != asker}

    @property
    def busy(self) -> bool:
        """Whether dropping the game from memory now would lose anything running (a running clock included)."""
        thinking = self.ai_task is not None and not self.ai_task.done()
        return bool(self.watchers) or self.lock.locked() or thinking or self.flag_timer is not None


def seat_colour(state: State, seat: int) -> str | None:
    """The colour a seat gives up when it resigns or loses on time: the one to move if it is the
    seat's, else its first (Omega's seat places every colour's stone, but owns one)."""
    colours = [colour for colour, owner in state.owner.items() if owner == seat]
    return state.to_move if state.to_move in colours else (colours[0] if colours else None)

def flagged_colours(live: LiveGame) -> list[str] | None:
    """The colours of the seat that lost on time, or None."""
    if live.clock is None or live.clock.flagged is None:
        return None
    seat = live.clock.flagged
    return [colour for colour, owner in live.state.owner.items() if owner == seat] or [say("seat-n", "seat {n}", n=seat + 1)]

def on_time_reason(live: LiveGame) -> str | None:
    """Why a game lost on time ended (`black lost on time`), or None."""
    late = flagged_colours(live)
    return None if late is None else say("lost-on-time", "{colour} lost on time", colour=late)

def describe_result(live: LiveGame) -> str:
    """The result in a sentence; a loss on time says so (the record writes it as a resignation)."""
    if live.aborted:
        return say("aborted", "the game was aborted before every player had moved")
    result = live.state.result
    if result is None:
        return ""
    late = on_time_reason(live)
    return say("won", "{winner} won ({reason})", winner=result.winner, reason=late) if late else result.describe()

def rebuild(row: GameRow) -> State:
    """The state a stored game is in, rebuilt by replaying its record through the rules."""
    try:
        return ogames.replay(row.record())
    except BadRecord as exc:
        log.error("game %s cannot be rebuilt: %s", row.id, exc)
        raise Refusal(say("broken-record", "this game's stored record cannot be replayed: {reason}", reason=exc.said),
                      "broken", 500) from None

def may_take_back(live: LiveGame) -> bool:
    """Whether a game's moves may still be taken back: while it goes on, and at any time when both
    sides play on one screen. A game against someone else (a person or the computer) is final once
    over, as its analysis is then allowed: reopened, the analysis would be a hint to one side."""
    return not live.state.is_over or live.mode == "hotseat"

def may_rematch(live: LiveGame) -> bool:
    """Whether a game may be played again (web/lobby/rematch.py): a finished (not aborted) game of
    two people, each in a seat of their own browser."""
    return (live.state.is_over and not live.aborted and len(live.seat_kinds) == 2
            and all(kind in (HUMAN, INVITED) for kind in live.seat_kinds) and live.mode == "online")

def may_analyse(live: LiveGame) -> bool:
    """Whether the computer may analyse a game's positions: once the game is over, or at any time
    when both sides play on one screen. Never while a game against someone else (a person or the
    computer) goes on: its best move would be a hint to one side (and such a game, once over, is
    never taken back: `may_take_back`)."""
    return live.state.is_over or live.mode == "hotseat"

def undo_seats(live: LiveGame) -> list[int]:
    """The seats that may ask to take back a move now, as `Hub.undo` decides (the page offers Undo
    to a browser holding one): on one screen or against the computer every person's seat once a
    person has moved (the take-back goes back to that move), with invited people each seat that
    has moved itself; none after a loss on time or an abort, nor once a game against someone is over
    (`may_take_back`), nor while a request waits for agreement."""
    if live.aborted or (live.clock is not None and live.clock.flagged is not None):
        return []
    if not may_take_back(live):
        return []
    people = [seat for seat in range(len(live.seat_kinds)) if not live.is_computer(seat)]
    state = live.state
    if not state.history or not people:
        return []
    if live.online:
        if live.pending_undo() is not None:
            return []
        moved = _movers(state, wanted=set(people))
        return [seat for seat in people if seat in moved]
    if live.mode == "hotseat":
        return people
    return people if _movers(state, wanted=set(people), enough=1) else []

def _movers(state: State, wanted: set[int], enough: int | None = None) -> set[int]:
    """Which of the `wanted` seats have decided a move of the game — the seat to move at an
    earlier position (Omega's player places every colour's stone of a turn, and a swap changes who
    owns a colour) —, looking back from the last move until all of them (or `enough`) are found:
    a few steps back in a game where seats take turns."""
    found: set[int] = set()
    trial = state.clone()
    while trial.history and len(found) < (len(wanted) if enough is None else enough):
        trial.undo()
        if trial.mover in wanted:
            found.add(trial.mover)
    return found

def seats_that_moved(state: State, wanted: set[int]) -> set[int]:
    """Which of the `wanted` seats have decided a move of the game (`_movers`)."""
    return _movers(state, wanted)

__all__ = ["BROWSER_GAMES", "HUMAN", "INVITED", "OPEN", "PEOPLE", "LiveGame", "RematchState", "describe_result", "may_analyse",
           "may_rematch", "may_take_back", "on_time_reason", "rebuild", "seat_colour", "seats_that_moved", "undo_seats"]
