"""The ground both live hubs stand on (the board games' `boards.hub.Hub` and Omiga's
`omiga.live.OmigaHub`): `BaseHub` — the store, who is at each game, a game loaded from the store
one at a time and refused when it is the other face's — and the refusals and record arithmetic
they share."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol, TypeVar

from pydantic import ValidationError

from ogames.rules import TABLE, game_class
from ogames.rules.protocol import State
from ogames.web.accounts.seats import claim_by_tokens
from ogames.web.accounts.visitor import Visitor
from ogames.web.core.common import Announcer, Outbox, PageHandler, Refusal, read_message
from ogames.web.core.presence import Presence
from ogames.web.core.protocol import PingMessage, SeatsHeld
from ogames.web.core.store import GameRow, Store
from ogames.web.core.store_faults import StorageError
from ogames.wording import say

log = logging.getLogger("ogames.web")


def other_kind(game_id: str, name: str) -> Refusal:
    """The answer of a hub asked for a game of the other kind (a card table on a board game's route,
    or a board game on a card table's): there is no such game here, and where it is."""
    if game_class(name).played_on == TABLE:
        return Refusal(say("a-card-table",
                           "there is no such board game: this is an Omiga card table, at {link}", link=f"/o/{game_id}"),
                       "not-found", 404)
    return Refusal(say("a-board-game", "there is no such card table: this is a board game, at {link}", link=f"/g/{game_id}"),
                   "not-found", 404)


def unavailable(exc: StorageError, about: str, what: str) -> Refusal:
    """The answer (503) to a request the database could not serve, nothing changed: `what` was
    not done, and why; one line in the log, no traceback (the fault is the database's, not a bug)."""
    log.warning("%s: %s: %s", about, what, exc)
    return Refusal(say("unavailable", "{what}: {reason}", what=what, reason=exc.args[0] if exc.args else ""), "storage", 503)


def not_your_turn(colour: str | None) -> str:
    """A move sent for a seat that is not to move."""
    return say("not-your-turn", "it is not your turn: {colour} is to move", colour=colour or "")


NO_SUCH_GAME = say("no-such-game-id", "there is no such game")
BAD_TOKEN = say("bad-token", "that token holds no seat in this game")


def new_entries(before: State, after: State) -> tuple[int, list[dict[str, Any]]]:
    """What an action wrote in a game's record: the index of the first entry it changed and the
    entries from there on (usually the one it appended; an Omega placement within a turn rewrites
    the turn's entry; an undo leaves none, the record ending before `first`). Looked for from the
    end of the record, as both copies share every entry before the last few: what a hub stores
    of an action, whatever the length of the game."""
    old, new = before.history, after.history
    first = min(len(old), len(new))
    while first and old[first - 1] is not new[first - 1] and old[first - 1] != new[first - 1]:
        first -= 1
    return first, [dict(entry) for entry in new[first:]]


class Held(Protocol):
    """A live game or table as the base hub knows it: its id, its watchers, the seats of tokens."""

    id: str
    watchers: dict[Outbox, str]

    def seat_of(self, token: str) -> int | None: ...


HeldT = TypeVar("HeldT", bound=Held)


class BaseHub(Announcer[HeldT]):
    """What both live hubs are: games of one kind held in memory by id and rebuilt from the store
    on demand (one load at a time), and who is at each (`presence`, shared by the processes). A hub
    says which stored games are its own (`owns_kind`) and how its games are named in the log."""

    kind = "game"  # how the log names one of the hub's games

    def __init__(self, store: Store, presence: Presence | None = None):
        self.store = store
        self.presence = presence or Presence()  # who has a page open on each game
        self._loading = asyncio.Lock()  # held while a game is read from the store

    def owns_kind(self, game: str) -> bool:
        """Whether a stored game of this name is played by this hub."""
        raise NotImplementedError

    async def stored(self, game_id: str) -> tuple[GameRow, dict[int, str]]:
        """A stored game of this hub's kind and its seats' token digests (call it holding
        `_loading`); Refusal if there is no such game, it is the other face's, or the database
        cannot be read."""
        try:
            row = await asyncio.to_thread(self.store.load_game, game_id)
            digests = await asyncio.to_thread(self.store.token_digests, game_id) if row is not None else {}
        except StorageError as exc:
            raise unavailable(exc, f"{self.kind} {game_id}", say("game-not-read", "the game cannot be read just now")) from None
        if row is None:
            raise Refusal(NO_SUCH_GAME, "not-found", 404)
        if not self.owns_kind(row.game):
            raise other_kind(row.id, row.game)  # the other face's: never played, shown or analysed here
        return row, digests

    async def here(self, live: HeldT, page: int, tokens: list[str]) -> None:
        """A page holds the seats of these tokens (unknown tokens are ignored: a watcher)."""
        seats = {seat for token in tokens if (seat := live.seat_of(token)) is not None}
        await self.presence.hold(live.id, page, seats)

    def handler(
        self,
        live: HeldT,
        visitor: Visitor | None,
        limit: int,
        parse: Callable[[Any], Any],
        explain: Callable[[ValidationError], str],
        act: Callable[[Any], Awaitable[dict[str, Any] | None]],
    ) -> PageHandler:
        """What a page's socket on a live game does with each message (`serve_socket`'s handler):
        one that is not a message `parse` accepts is refused (`read_message`), a ping is answered
        with a pong, and the seats a page says it holds (`SeatsHeld`) are shown as here and its
        visitor recorded in those nobody is recorded in (an invitation link followed:
        web/accounts/seats.py). Any other message is the game's to carry out: `act(message)`,
        whose answer (None: none) goes to that page alone."""

        async def handle(page: int, incoming: MutableMapping[str, Any]) -> dict[str, Any] | None:
            message, problem = read_message(incoming, limit, parse, explain)
            if problem is not None:
                return problem
            if isinstance(message, PingMessage):
                return {"type": "pong"}
            if isinstance(message, SeatsHeld):
                # Recorded first: the others' pages ask for the seat's name when they see it held.
                await claim_by_tokens(self.store, visitor, live.id, list(message.tokens))
                await self.here(live, page, list(message.tokens))
                return None
            return await act(message)

        return handle


def valid_id(game_id: object) -> bool:
    """Whether a game's id is one the server could have made (checked before the store is asked)."""
    return isinstance(game_id, str) and 1 <= len(game_id) <= 32


__all__ = ["BAD_TOKEN", "NO_SUCH_GAME", "BaseHub", "Held", "new_entries", "not_your_turn", "other_kind", "unavailable",
           "valid_id"]
