"""The lobby's whole list of open seeks, read once and written once for the pages that see it alike.

A lobby page is sent the whole list when it opens (and again when it falls too far behind the news).
With hundreds of seeks that list is a few hundred kilobytes read from the database and written as
JSON, and on one process that time is taken from every game's moves (the community load,
benchmarks/results/web-community-load.md). But the list changes only with news: until the next
seek comes or goes, every page opening reads the same rows, and every page whose visitor has no
seek in it (neither posted nor challenged) is shown the same text in its language. So a `Reading`
holds the rows read once news stood at some count, and the list written per language for those
pages; the lobby keeps it until the next news. A visitor with a seek of their own in the list has
their page's list written for it alone (their seeks are marked as theirs).

With several processes a reading is kept for a while at most (`Lobby` passes a third of the bus's
lease): the news of another process may be lost with Redis, and the seeks of a process that died
without a word are found out only by reading (`Lobby._alive`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ogames.web.lobby.news import News
from ogames.web.lobby.records import Seek


@dataclass
class Reading:
    """The open seeks as read once `heard` pieces of news had been delivered, and their lists."""

    heard: int
    seeks: asyncio.Future[list[Seek]]
    began: float = field(default_factory=time.monotonic)
    # The list for a page whose visitor has no seek in it, by the page's language.
    _shared: dict[str, asyncio.Future[News]] = field(default_factory=dict)
    _involved: frozenset[str] | None = None

    def serves(self, heard: int, kept_for: float | None) -> bool:
        """Whether a page that opens once `heard` pieces of news were delivered may be listed from
        this reading: nothing has happened since it began, it has not failed, and (with `kept_for`)
        it is young enough."""
        if self.heard != heard:
            return False
        if failed(self.seeks):
            return False
        return kept_for is None or time.monotonic() - self.began < kept_for

    def involves(self, visitor_id: str) -> bool:
        """Whether a visitor posted a seek of this list or is challenged by one (read once done)."""
        if self._involved is None:
            seeks = self.seeks.result()
            self._involved = frozenset({seek.poster_id for seek in seeks} | {seek.target_id for seek in seeks if seek.target_id})
        return visitor_id in self._involved

    async def shared(self, language: str, write: Callable[[], Awaitable[News]]) -> News:
        """The list in `language` as every page with no seek of its own in it is shown it: written by
        the first such page to ask (`write`), shared by the rest."""
        found = self._shared.get(language)
        if found is None or failed(found):
            found = self._shared[language] = asyncio.ensure_future(write())
        return await asyncio.shield(found)


def failed(future: asyncio.Future[Any]) -> bool:
    """Whether a future is done without a result (cancelled, or raised): not to be shared."""
    return future.done() and (future.cancelled() or future.exception() is not None)


__all__ = ["Reading", "failed"]
