"""The lobby's news under a burst, in one process (web/lobby/news.py).

`PAGES` lobby pages that read nothing while `POSTS` seeks are posted (from `POSTS / 3` visitors,
three each): how long telling every page took on the event loop (`Lobby._deliver`), compared side
by side in one run with wording and writing each piece of news once per page (what `_deliver` and
Starlette's `send_json` did before); the most messages that waited for one page; whether any page
was closed; and whether every page ends with exactly the stored seeks.

    python benchmarks/bench_lobby_news.py [--pages 170] [--posts 500]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from ogames.web import create_app
from ogames.web.accounts.visitor import Visitor
from ogames.web.core.settings import Settings
from ogames.web.lobby import records
from ogames.web.lobby.lobby import MAX_SEEKS, Lobby, LobbyPage, for_page
from ogames.web.lobby.protocol import SeekMessage

SEEK = {"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}


def applied(page: LobbyPage) -> tuple[set[str], int]:
    """The seeks a page lists once it has read everything queued (as static/lobby.js applies it),
    and how many messages it read."""
    seeks: set[str] = set()
    count = 0
    while not page.outbox.empty():
        item = page.outbox.get_nowait()
        message: dict[str, Any] = json.loads(item) if isinstance(item, str) else dict(item)  # type: ignore[arg-type]
        count += 1
        if message["type"] == "seeks":
            seeks = {seek["id"] for seek in message["seeks"]}
        elif message["type"] == "new":
            seeks.add(message["seek"]["id"])
        elif message["type"] == "gone":
            seeks.discard(message["seek"])
    return seeks, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=170)
    parser.add_argument("--posts", type=int, default=500)
    args = parser.parse_args()
    def settings(folder: str) -> Settings:
        return Settings(database_url=f"sqlite:///{Path(folder) / 'g.sqlite3'}", seek_burst=2 * MAX_SEEKS)

    with tempfile.TemporaryDirectory() as folder, \
            TestClient(create_app(settings(folder))) as client:
        assert client.portal is not None
        call = client.portal.call
        lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
        posters = [call(lobby.join, Visitor(f"gp{n}", f"poster{n}", True), "en")[1]
                   for n in range((args.posts + MAX_SEEKS - 1) // MAX_SEEKS)]
        readers = [call(lobby.join, Visitor(f"gr{n}", f"reader{n}", True), "en")[1]
                   for n in range(max(0, args.pages - len(posters)))]
        pages = posters + readers
        delivering = 0.0
        deliver = lobby._deliver

        def timed(event: dict[str, Any]) -> None:
            nonlocal delivering
            started = time.perf_counter()
            deliver(event)
            delivering += time.perf_counter() - started

        lobby._deliver = timed  # type: ignore[method-assign]
        most = 0
        posted = 0
        for page in posters:
            for _ in range(MAX_SEEKS):
                if posted < args.posts:
                    call(lobby.post, page, SeekMessage.model_validate(SEEK))
                    posted += 1
                    most = max(most, max(page_.outbox.qsize() for page_ in pages))

        async def settle() -> None:  # the lists being read for the pages that fell behind
            while any(getattr(page, "refreshing", False) for page in pages):  # (main: none)
                await asyncio.sleep(0.01)

        call(settle)
        stored = {seek.id for seek in records.open_seeks(lobby.store)}
        closed = sum(page.outbox.overflowed for page in pages)
        right = 0
        read = 0
        for page in pages:
            listed, count = applied(page)
            right += listed == stored
            read += count

        # Side by side: each piece of news worded and written once per page, as before.
        public = [lobby._public(seek) for seek in records.open_seeks(lobby.store)]
        started = time.perf_counter()
        for seek in public:
            for page in pages:
                if page.lists(seek):
                    json.dumps({"type": "new", "seek": for_page(seek, page)}, separators=(",", ":"), ensure_ascii=False)
        per_page = time.perf_counter() - started

    print(json.dumps({
        "pages": len(pages), "posts": posted, "stored": len(stored),
        "deliver_ms_per_post": round(1000 * delivering / posted, 2),
        "worded_per_page_ms_per_post": round(1000 * per_page / len(public), 2),
        "most_waiting_for_a_page": most, "pages_closed": closed, "pages_listing_every_seek": right,
        "messages_read_per_page": round(read / len(pages), 1),
    }, indent=1))


if __name__ == "__main__":
    main()
