"""The lobby's whole list (web/lobby/listing.py): read once until the next news, and written once
per language for the pages whose visitor has no seek in it; a poster's page still sees its own
seeks as its own, and news, a failed read or (with other processes) time make a fresh reading."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ogames.web.accounts.visitor import Visitor
from ogames.web.core.store_faults import StorageError
from ogames.web.lobby import records
from ogames.web.lobby.lobby import Lobby, LobbyPage
from ogames.web.lobby.news import News
from ogames.web.lobby.protocol import SeekMessage

from .conftest import quick_settings

SEEK = {"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}


class Lobbyist:
    """A test's lobby and what it reads from the database (counted)."""

    def __init__(self, client: TestClient, monkeypatch: Any) -> None:
        assert client.portal is not None
        self.call = client.portal.call
        self.lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
        self.reads = 0
        self.failing = False
        read = records.open_seeks

        def counted(*args: Any, **kwargs: Any) -> list[records.Seek]:
            if not kwargs and len(args) == 1:  # the whole list (a header's challenges are read apart)
                self.reads += 1
                if self.failing:
                    raise StorageError("the database is away")
            return read(*args, **kwargs)

        monkeypatch.setattr(records, "open_seeks", counted)

    def open(self, name: str, language: str = "en") -> LobbyPage:
        return self.call(self.lobby.join, Visitor("g" + name, name, True), language)[1]

    def post(self, page: LobbyPage) -> None:
        self.call(self.lobby.post, page, SeekMessage.model_validate(SEEK))
        while not page.outbox.empty():
            page.outbox.get_nowait()


def first_message(page: LobbyPage) -> Any:
    return page.outbox.get_nowait()


@pytest.fixture
def lobby(tmp_path: Any, monkeypatch: Any) -> Iterator[Lobbyist]:
    from ogames.web import create_app

    with TestClient(create_app(quick_settings(tmp_path / "g.sqlite3"))) as client:
        yield Lobbyist(client, monkeypatch)


def test_pages_opened_with_no_news_between_share_one_reading_and_one_text(lobby: Lobbyist) -> None:
    poster = lobby.open("poster")
    lobby.post(poster)
    lobby.post(poster)
    reads = lobby.reads
    english = [first_message(lobby.open(f"reader{n}")) for n in range(3)]
    russian = first_message(lobby.open("reader-ru", "ru"))
    assert lobby.reads == reads + 1  # one reading for all four
    assert all(isinstance(item, News) and item is english[0] for item in english)  # one text
    assert russian is not english[0] and russian != english[0]  # worded in Russian
    listed = json.loads(english[0])["seeks"]
    assert len(listed) == 2 and not any(seek["mine"] for seek in listed)


def test_a_posters_page_is_listed_for_itself_with_its_seeks_marked(lobby: Lobbyist) -> None:
    poster = lobby.open("poster")
    lobby.post(poster)
    shared = first_message(lobby.open("reader"))
    own = first_message(lobby.open("poster"))  # the poster's second page
    assert own is not shared
    assert [seek["mine"] for seek in json.loads(own)["seeks"]] == [True]
    assert [seek["mine"] for seek in json.loads(shared)["seeks"]] == [False]


def test_news_makes_the_next_page_read_the_list_again(lobby: Lobbyist) -> None:
    poster = lobby.open("poster")
    lobby.post(poster)
    before = json.loads(first_message(lobby.open("early")))["seeks"]
    reads = lobby.reads
    lobby.post(poster)
    after = json.loads(first_message(lobby.open("late")))["seeks"]
    assert lobby.reads == reads + 1
    assert len(before) == 1 and len(after) == 2


def test_a_failed_reading_is_not_kept(lobby: Lobbyist) -> None:
    poster = lobby.open("poster")
    lobby.post(poster)
    lobby.failing = True
    with pytest.raises(StorageError):
        lobby.open("unlucky")
    lobby.failing = False
    reads = lobby.reads
    listed = json.loads(first_message(lobby.open("lucky")))["seeks"]
    assert lobby.reads == reads + 1 and len(listed) == 1


def test_with_other_processes_a_reading_is_kept_only_a_while(lobby: Lobbyist) -> None:
    lobby.lobby._reading_kept_for = 0.0  # as with Redis, a lease's third: here at once too old
    lobby.open("first")
    reads = lobby.reads
    lobby.open("second")
    assert lobby.reads == reads + 1
