"""The lobby's news as a page's connection holds it: written once, droppable, replaced when late.

A seek posted or withdrawn is news for every lobby page. It is written as JSON once (`written`) and
the same text is queued for every page that is shown it alike, instead of once per page. News is
not an answer: a page is never closed for news piling up (a page that reads can fall behind when
hundreds of seeks come and go at once). A page more than `BEHIND` pieces of news behind has them
dropped and is sent the whole list again, fresh (`Lobby._refresh`): the newest state, in one message.
"""

from __future__ import annotations

import json
from typing import Any

from ogames.web.core.common import Outbox

BEHIND = 64  # news waiting for one page before it is dropped and the page sent the whole list instead


class News(str):
    """A piece of the lobby's news (or the whole list), written as the page's JSON text."""

    __slots__ = ()


def written(message: dict[str, Any]) -> News:
    """A message as news, written as Starlette's `send_json` would write it."""
    return News(json.dumps(message, separators=(",", ":"), ensure_ascii=False))


class NewsOutbox(Outbox):
    """A lobby page's outbox: its answers, bounded as any page's are, and the lobby's news, which
    does not count against that bound (it is bounded by being dropped: `drop_news`)."""

    def __init__(self) -> None:
        super().__init__()
        self.news_waiting = 0

    def news(self, item: News) -> None:
        """Queue a piece of news (or the whole list) for this page."""
        self._items.append(item)
        self.news_waiting += 1
        self._arrived.set()

    def drop_news(self) -> None:
        """Forget the news not sent yet (the page is to be sent the whole list instead); answers stay."""
        if self.news_waiting:
            self._items = type(self._items)(item for item in self._items if not isinstance(item, News))
            self.news_waiting = 0

    def answers_waiting(self) -> int:
        return super().answers_waiting() - self.news_waiting

    def get_nowait(self) -> Any:
        message = super().get_nowait()
        if isinstance(message, News):
            self.news_waiting -= 1
        return message


__all__ = ["BEHIND", "News", "NewsOutbox", "written"]
