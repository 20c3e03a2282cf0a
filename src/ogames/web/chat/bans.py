"""What a sanction forbids besides chatting: a banned name creates no games and no seeks. A
dependency any creating route adds (`NotBanned`); the lobby asks `refuse_if_banned` itself.

A guest is refused by its address too: an operator's ban of a guest bans, for the setting
`guest_ban_hours`, the client addresses it chatted from (web/chat/records.py), so clearing its
cookies does not bring it back. Accounts are never refused by address: people behind one shared
address sign up or log in to play."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ogames.web.accounts.visitor import Visitor
from ogames.web.chat import records
from ogames.web.core.common import Refusal
from ogames.web.core.deps import SettingsDep, StoreDep, VisitorDep
from ogames.web.core.store import Store
from ogames.wording import say


def banned() -> Refusal:
    return Refusal(say("banned", "an operator banned this name: it cannot chat or create games"), "banned", 403)


def muted() -> Refusal:
    return Refusal(say("muted", "an operator muted this name: it cannot chat"), "muted", 403)


def address_banned() -> Refusal:
    sentence = say("address-banned", "an operator banned a guest from your address: sign up or log in to chat and create games")
    return Refusal(sentence, "address-banned", 403)


def address_of(connection: HTTPConnection) -> str | None:
    """The client's address (the proxy's forwarded one behind a trusted proxy: docs/deploy.md), or
    None when the server is not told (then no guest is refused by address, rather than all)."""
    return connection.client.host if connection.client and connection.client.host else None


def ban_period(hours: float) -> float:
    """A guest ban's reach in seconds."""
    return hours * 3600.0


async def refusal_of(store: Store, visitor: Visitor, address: str | None, hours: float) -> Refusal | None:
    """What stops a visitor chatting: its own sanction (403 `banned` or `muted`), or for a guest a
    ban of its address (403 `address-banned`); None if nothing does."""

    def look() -> Refusal | None:
        sanction = records.sanction_of(store, visitor.id)
        if sanction is not None:
            return banned() if sanction == records.BAN else muted()
        if visitor.is_guest and address is not None and records.address_banned(store, address, ban_period(hours)):
            return address_banned()
        return None

    return await asyncio.to_thread(look)


async def refuse_if_banned(store: Store, visitor: Visitor, address: str | None, hours: float) -> None:
    """Refusal (403 `banned`, or `address-banned` for a guest) if an operator banned the visitor or,
    for a guest, its address; a mute does not stop creating."""
    refusal = await refusal_of(store, visitor, address, hours)
    if refusal is not None and refusal.code != "muted":
        raise refusal


async def not_banned(connection: HTTPConnection, store: StoreDep, settings: SettingsDep, visitor: VisitorDep) -> None:
    await refuse_if_banned(store, visitor, address_of(connection), settings.guest_ban_hours)


NotBanned = Annotated[None, Depends(not_banned)]

__all__ = ["NotBanned", "address_banned", "address_of", "ban_period", "banned", "muted", "not_banned", "refusal_of",
           "refuse_if_banned"]
