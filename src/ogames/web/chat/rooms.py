"""Who may read and write which room of a game's chat.

The players' room belongs to the people holding a seat: a visitor recorded in one of the game's
seats (web/accounts/seats.py), or one whose page shows a seat's token. Everyone else is a
spectator: they read and write the spectators' room only, never the players'. Players read both.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterable

from ogames.web.accounts import records as accounts
from ogames.web.accounts.visitor import Visitor
from ogames.web.chat.records import PLAYERS, ROOMS, SPECTATORS
from ogames.web.core.store import Store, seat_of_token

MAX_TOKENS = 8  # seat tokens a page may show (a game has at most four seats; more is noise)


async def holds_a_seat(store: Store, game_id: str, visitor: Visitor, tokens: Iterable[object] = ()) -> bool:
    """Whether the visitor is one of the game's players: recorded in a seat, or holding a seat's token."""
    shown = [token for token in list(tokens)[:MAX_TOKENS] if isinstance(token, str) and 0 < len(token) <= 128]

    def check() -> bool:
        if visitor.id in accounts.seat_players_of(store, game_id).values():
            return True
        digests = store.token_digests(game_id) if shown else {}
        return any(seat_of_token(digests, token) is not None for token in shown)

    return await asyncio.to_thread(check)


def readable(player: bool) -> tuple[str, ...]:
    """The rooms a visitor reads: both for a player, the spectators' for anyone else."""
    return ROOMS if player else (SPECTATORS,)


def writable(room: str, player: bool) -> bool:
    """Whether a visitor may write into a room."""
    return room == SPECTATORS or (room == PLAYERS and player)


def handle(secret: str, player_id: str) -> str:
    """A short stable name for a message's author that a page can mute by, which says nothing of
    their player id (a keyed hash of it)."""
    return hashlib.blake2b(player_id.encode(), key=secret.encode()[:64], digest_size=8).hexdigest()


__all__ = ["MAX_TOKENS", "handle", "holds_a_seat", "readable", "writable"]
