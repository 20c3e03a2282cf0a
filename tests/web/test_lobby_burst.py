"""The lobby under a burst of news (web/lobby/news.py): a page that falls behind while hundreds of
seeks come and go at once is not closed, and ends with the right list; each piece of news is
written once for every page shown it alike."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ogames.web.accounts.visitor import Visitor
from ogames.web.lobby import records
from ogames.web.lobby.lobby import MAX_SEEKS, Lobby, LobbyPage
from ogames.web.lobby.news import BEHIND, News
from ogames.web.lobby.protocol import SeekMessage

from .conftest import quick_settings

SEEK = {"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}
POSTERS = 120  # x MAX_SEEKS seeks: several times what a page may fall behind by, and past the answers' bound


def shown_list(page: LobbyPage) -> tuple[dict[str, dict[str, Any]], list[Any]]:
    """Read everything queued for a page as the page's script (static/lobby.js) applies it: the
    seeks it lists at the end, and every message read."""
    import json

    seeks: dict[str, dict[str, Any]] = {}
    read = []
    while not page.outbox.empty():
        item = page.outbox.get_nowait()
        message = json.loads(item) if isinstance(item, str) else item
        read.append(message)
        if message["type"] == "seeks":
            seeks = {seek["id"]: seek for seek in message["seeks"]}
        elif message["type"] == "new":
            seeks[message["seek"]["id"]] = message["seek"]
        elif message["type"] == "gone":
            seeks.pop(message["seek"], None)
    return seeks, read


def test_a_page_flooded_with_news_stays_open_and_ends_with_the_whole_list(tmp_path: Any) -> None:
    from ogames.web import create_app

    settings = quick_settings(tmp_path / "g.sqlite3", seek_burst=2 * MAX_SEEKS)
    with TestClient(create_app(settings)) as client:
        assert client.portal is not None
        call = client.portal.call
        lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
        # The watcher's page reads nothing while the posters post (it reads it all at the end).
        _, watcher = call(lobby.join, Visitor("gwatcher", "watcher", True), "en")
        posters = [call(lobby.join, Visitor(f"gposter{n}", f"poster{n}", True), "en")[1] for n in range(POSTERS)]
        for page in posters:
            for _ in range(MAX_SEEKS):
                call(lobby.post, page, SeekMessage.model_validate(SEEK))
        for page in posters[::4]:  # some withdrawn by their posters among the news
            mine = [seek.id for seek in records.open_seeks(lobby.store) if seek.poster_id == page.visitor.id]
            call(lobby.cancel, page, mine[0])

        assert not watcher.outbox.overflowed  # still open: it was only slow
        assert watcher.outbox.qsize() <= 1 + BEHIND + 1  # the news it fell behind with was replaced by the list
        stored = records.open_seeks(lobby.store)
        assert len(stored) == POSTERS * MAX_SEEKS - len(posters[::4])  # nobody's seeks were withdrawn
        listed, read = shown_list(watcher)
        assert sorted(listed) == sorted(seek.id for seek in stored)
        assert read[0]["type"] == "seeks" and len(read) <= 1 + BEHIND + 1  # the list of now, then the news after it
        assert not any(seek["mine"] for seek in listed.values())
        for page in posters:  # the posters' own pages: each told of its seeks, none closed
            assert not page.outbox.overflowed
            listed, read = shown_list(page)
            assert sorted(listed) == sorted(seek.id for seek in stored)
            ids = {seek.id for seek in stored if seek.poster_id == page.visitor.id}
            assert {seek_id for seek_id, seek in listed.items() if seek["mine"]} == ids


def test_a_piece_of_news_is_written_once_for_the_pages_shown_it_alike(tmp_path: Any) -> None:
    from ogames.web import create_app

    with TestClient(create_app(quick_settings(tmp_path / "g.sqlite3"))) as client:
        assert client.portal is not None
        call = client.portal.call
        lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
        english = [call(lobby.join, Visitor(f"g{n}", f"reader{n}", True), "en")[1] for n in range(3)]
        russian = call(lobby.join, Visitor("gru", "reader-ru", True), "ru")[1]
        _, poster = call(lobby.join, Visitor("gposter", "poster", True), "en")
        for page in [*english, russian, poster]:
            shown_list(page)  # (the lists on opening)
        call(lobby.post, poster, SeekMessage.model_validate(SEEK))
        news = [page.outbox.get_nowait() for page in english]
        assert all(isinstance(item, News) for item in news)
        assert all(item is news[0] for item in news)  # the same text, written once
        theirs = [russian.outbox.get_nowait()]
        _, own = shown_list(poster)
        assert theirs[0] is not news[0] and own[-1]["seek"]["mine"] and own[0]["type"] == "posted"


def test_news_heard_while_a_list_is_read_follows_the_list(tmp_path: Any, monkeypatch: Any) -> None:
    import threading

    from ogames.web import create_app

    with TestClient(create_app(quick_settings(tmp_path / "g.sqlite3"))) as client:
        assert client.portal is not None
        call = client.portal.call
        lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
        _, poster = call(lobby.join, Visitor("gposter", "poster", True), "en")
        call(lobby.post, poster, SeekMessage.model_validate(SEEK))
        first = records.open_seeks(lobby.store)[0].id
        reading, go_on = threading.Event(), threading.Event()
        read = records.open_seeks

        def slow_read(*args: Any) -> list[records.Seek]:
            seeks = read(*args)
            reading.set()
            assert go_on.wait(60)
            return seeks

        monkeypatch.setattr(records, "open_seeks", slow_read)
        joining = client.portal.start_task_soon(lobby.join, Visitor("greader", "reader", True), "en")
        assert reading.wait(60)  # the reader's list is read (with the first seek): then news comes
        monkeypatch.setattr(records, "open_seeks", read)
        call(lobby.cancel, poster, first)
        call(lobby.post, poster, SeekMessage.model_validate(SEEK))
        go_on.set()
        _, reader = joining.result(60)
        listed, messages = shown_list(reader)
        assert [message["type"] for message in messages] == ["seeks", "gone", "new"]
        assert sorted(listed) == sorted(seek.id for seek in records.open_seeks(lobby.store))
        assert first not in listed
