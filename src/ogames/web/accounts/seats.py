"""Who sits where: the seats a visitor takes are recorded under the visitor's player id
(`records.seat_players`), beside the seat tokens that still decide who may act for a seat.

A game's creator is recorded in the seats whose tokens the creator's browser receives, someone who
takes an open seat in that seat, and someone who comes to a game through an invitation link in the
seat of the token the page shows (`claim_by_tokens`). The first recorded stays: a seat token handed
on to someone else lets them play, but the game stays the first holder's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from ogames.web.accounts import records
from ogames.web.accounts.visitor import Visitor
from ogames.web.core.store import Store, seat_of_token


async def sit(store: Store, visitor: Visitor | None, game_id: str, seats: Iterable[int]) -> None:
    """Record the visitor in each of these seats nobody is recorded in yet."""
    if visitor is None:
        return
    chosen = list(seats)

    def record() -> None:
        for seat in chosen:
            records.seat_player(store, game_id, seat, visitor.id)

    await asyncio.to_thread(record)


async def claim_by_tokens(store: Store, visitor: Visitor | None, game_id: str, tokens: Iterable[str]) -> None:
    """Record the visitor in the seats whose tokens they hold and nobody is recorded in yet."""
    shown = [token for token in tokens if isinstance(token, str)]
    if visitor is None or not shown:
        return

    def claim() -> None:
        recorded = records.seat_players_of(store, game_id)
        digests = store.token_digests(game_id)
        for token in shown:
            seat = seat_of_token(digests, token)
            if seat is not None and seat not in recorded:
                records.seat_player(store, game_id, seat, visitor.id)

    await asyncio.to_thread(claim)


__all__ = ["claim_by_tokens", "sit"]
