"""What a sanction forbids besides chatting: a banned name creates no games (and no seeks: the
lobby asks the same). A dependency any creating route adds (`NotBanned`)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import Depends

from ogames.web.accounts.visitor import Visitor
from ogames.web.chat import records
from ogames.web.core.common import Refusal
from ogames.web.core.deps import StoreDep, VisitorDep
from ogames.web.core.store import Store
from ogames.wording import say


def banned() -> Refusal:
    return Refusal(say("banned", "an operator banned this name: it cannot chat or create games"), "banned", 403)


def muted() -> Refusal:
    return Refusal(say("muted", "an operator muted this name: it cannot chat"), "muted", 403)


async def refuse_if_banned(store: Store, visitor: Visitor) -> None:
    """Refusal (403 `banned`) if an operator banned the visitor."""
    if await asyncio.to_thread(records.sanction_of, store, visitor.id) == records.BAN:
        raise banned()


async def not_banned(store: StoreDep, visitor: VisitorDep) -> None:
    await refuse_if_banned(store, visitor)


NotBanned = Annotated[None, Depends(not_banned)]

__all__ = ["NotBanned", "banned", "muted", "not_banned", "refuse_if_banned"]
