"""Notifications by e-mail (web/notify/) in one server, against a local SMTP sink: an account
verifies its address by the link mailed to it (once: a reused or forged link is refused), asks for
"your move" and "game over", and over simulated days of a correspondence game receives "your move"
with the game's link and no seat token, then the loss on time; every mail can unsubscribe. An
address that would inject a header is refused with nothing stored and nothing sent; a mail server
that is down costs its mails only (one line in the log), never a move."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from forgery import forge
from ogames.web import create_app
from ogames.web.boards import clock as clocks
from ogames.web.notify import records
from ogames.web.notify.links import Links, clean_address

from .conftest import quick_settings
from .mailsink import Sink, body, mail_sink
from .serving import free_port
from .test_correspondence import Days, new_game, play, sweep

DAY = 86_400.0


@pytest.fixture
def sink() -> Iterator[Sink]:
    with mail_sink() as running:
        yield running


@pytest.fixture
def days(monkeypatch: pytest.MonkeyPatch) -> Days:
    simulated = Days()
    monkeypatch.setattr(clocks, "now", simulated.now)
    return simulated


def mail_settings(database: Path, port: int) -> Any:
    return quick_settings(database, smtp_host="127.0.0.1", smtp_port=port, smtp_tls="none", smtp_from="ogames@example.org",
                          site_url="http://games.example.org")


@pytest.fixture
def client(database: Path, sink: Sink, days: Days) -> Iterator[TestClient]:
    with TestClient(create_app(mail_settings(database, sink.port))) as test_client:
        yield test_client


def sign_up(client: TestClient, name: str) -> None:
    answer = client.post("/signup", data={"name": name, "password": "correct horse", "again": "correct horse"})
    assert answer.status_code == 200 and name in answer.text  # (redirected to the account page)


def verified_address(client: TestClient, sink: Sink, address: str) -> str:
    """Give the account an address and open the link mailed to it; the link."""
    assert client.post("/account/email", data={"address": address}).status_code == 200
    mail = sink.wait_for(lambda mail: mail["To"] == address and "your address" in str(mail["Subject"]))
    link = re.search(r"http://games\.example\.org(/account/email/verify\?token=\S+)", body(mail))
    assert link is not None
    opened = client.get(link.group(1))
    assert opened.status_code == 200 and "verified" in opened.text
    return link.group(1)


def _visitor(client: TestClient) -> str:
    """The id of the account signed up last."""
    with client.app.state.store.engine.connect() as conn:  # type: ignore[attr-defined]
        return str(conn.execute(text("select id from accounts order by created_at desc limit 1")).scalar_one())


def test_your_move_and_the_loss_on_time_arrive_by_mail(client: TestClient, sink: Sink, days: Days) -> None:
    sign_up(client, "Ada")
    verified_address(client, sink, "ada@example.org")
    assert client.post("/account/notices", data={"your_move": "1", "game_over": "1"}).status_code == 200
    game_id, tokens = new_game(client, days=1)
    view = play(client, game_id, tokens["0"], 0, "a1")  # Ada's move; her friend's turn (no account: no mail)
    play(client, game_id, tokens["1"], view["version"], "b1")
    mail = sink.wait_for(lambda mail: str(mail["Subject"]).startswith("Your move"))
    said = body(mail)
    assert mail["To"] == "ada@example.org" and mail["From"] == "ogames@example.org"
    assert f"http://games.example.org/g/{game_id}\n" in said
    assert all(token not in said and token not in str(mail["List-Unsubscribe"]) for token in tokens.values())
    assert "/notify/unsubscribe?token=" in said and str(mail["List-Unsubscribe"]).startswith("<http://games.example.org/notify/")
    days.ahead(1.5 * DAY)
    sweep(client)
    over = sink.wait_for(lambda mail: str(mail["Subject"]).startswith("Game over"))
    assert "on time" in body(over) and f"/g/{game_id}" in body(over)
    sweep(client)  # nothing new happened: no mail more
    assert [str(mail["Subject"])[:9] for mail in sink.received()] == ["ogames: i", "Your move", "Game over"]


def test_the_unsubscribe_link_stops_every_mail(client: TestClient, sink: Sink) -> None:
    sign_up(client, "Bea")
    verified_address(client, sink, "bea@example.org")
    client.post("/account/notices", data={"your_move": "1", "game_over": "1"})
    game_id, tokens = new_game(client, days=3)
    play(client, game_id, tokens["1"], play(client, game_id, tokens["0"], 0, "a1")["version"], "b1")
    mail = sink.wait_for(lambda mail: str(mail["Subject"]).startswith("Your move"))
    link = re.search(r"(/notify/unsubscribe\?token=\S+)", body(mail))
    assert link is not None
    client.cookies.clear()  # from a mail program: no session needed
    shown = client.get(link.group(1))
    assert shown.status_code == 200 and "bea@example.org" in shown.text
    token = link.group(1).split("token=")[1]
    store = client.app.state.store  # type: ignore[attr-defined]
    assert client.get(link.group(1)).status_code == 200 and records.recipients(store, [_visitor(client)], "your_move")
    assert client.post("/notify/unsubscribe", data={"token": token}).status_code == 200
    assert records.recipients(store, [_visitor(client)], "your_move") == []
    assert client.post("/notify/unsubscribe", data={"token": forge(token)}).status_code == 400


def test_a_verification_link_works_once_and_not_forged(client: TestClient, sink: Sink) -> None:
    sign_up(client, "Cyd")
    link = verified_address(client, sink, "cy@example.org")
    assert client.get(link).status_code == 400  # used already
    store = client.app.state.store  # type: ignore[attr-defined]
    me = _visitor(client)
    client.post("/account/email", data={"address": "other@example.org"})
    fresh = sink.wait_for(lambda mail: mail["To"] == "other@example.org")
    token = re.search(r"token=(\S+)", body(fresh)).group(1)  # type: ignore[union-attr]
    nonce = records.address_of(store, me).nonce  # type: ignore[union-attr]
    assert nonce is not None  # (the right one-time part, signed with another key: still refused)
    forged_links = [Links("not the site's secret").verify_token(me, "other@example.org", nonce), forge(token), "",
                    "a" * 5000]
    for link_token in forged_links:
        assert client.get("/account/email/verify", params={"token": link_token}).status_code == 400
        assert records.address_of(store, me).verified is False  # type: ignore[union-attr]
    old = re.search(r"token=(\S+)", link).group(1)  # type: ignore[union-attr]
    assert client.get("/account/email/verify", params={"token": old}).status_code == 400  # for the old address: refused
    assert client.get("/account/email/verify", params={"token": token}).status_code == 200


@pytest.mark.parametrize("address", ["ada@example.org\r\nBcc: evil@example.com", "ada@example.org\nSubject: x",
                                     "Ada <ada@example.org>", "ada@example.org, evil@example.com", "no-at-sign", "a@b",
                                     "ada@exa mple.org", "ünï@example.org", "a" * 250 + "@example.org"])
def test_an_address_that_is_not_one_is_refused_and_nothing_sent(client: TestClient, sink: Sink, address: str) -> None:
    sign_up(client, "Dee")
    answer = client.post("/account/email", data={"address": address})
    assert answer.status_code == 400 and "not an e-mail address" in answer.text
    assert records.address_of(client.app.state.store, _visitor(client)) is None  # type: ignore[attr-defined]
    assert sink.received() == []


@given(st.text(max_size=300))
def test_an_accepted_address_never_holds_a_line_break_or_a_second_recipient(written: str) -> None:
    address = clean_address(written)
    if address is not None:
        assert not set(address) & set("\r\n\t ,;<>\"()[]\\:") and address.count("@") == 1 and len(address) <= 254


def test_a_guest_has_no_address(client: TestClient, sink: Sink) -> None:
    assert client.post("/account/email", data={"address": "g@example.org"}).status_code == 200  # back to /account
    assert sink.received() == []


def test_a_mail_server_that_is_down_costs_the_mail_not_the_move(database: Path, days: Days,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(mail_settings(database, free_port()))) as client:  # nothing listens there
        sign_up(client, "Eve")
        store = client.app.state.store  # type: ignore[attr-defined]
        me = _visitor(client)
        nonce = records.set_address(store, me, "eve@example.org")
        assert records.verify(store, me, "eve@example.org", nonce)
        records.choose(store, me, your_move=True, game_over=False)
        game_id, tokens = new_game(client, days=2)
        with caplog.at_level(logging.WARNING, logger="ogames.web.notify"):
            view = play(client, game_id, tokens["1"], play(client, game_id, tokens["0"], 0, "a1")["version"], "b1")
            assert view["version"] == 2
            deadline = time.monotonic() + 60
            while not [r for r in caplog.records if "not sent" in r.getMessage()]:
                assert time.monotonic() < deadline, "the failure was not logged"
                time.sleep(0.05)
        failures = [record for record in caplog.records if "not sent" in record.getMessage()]
        assert len(failures) == 1 and "\n" not in failures[0].getMessage() and failures[0].exc_info is None
        assert "eve@" not in failures[0].getMessage()


def test_a_notice_is_claimed_once_whoever_asks(database: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from ogames.web.core.store import Store

    stores = [Store(f"sqlite:///{database}", shared=True) for _ in range(2)]  # as two server processes
    try:
        with ThreadPoolExecutor(8) as pool:
            won = list(pool.map(lambda i: records.claim(stores[i % 2], "move:g:3:a1"), range(16)))
        assert won.count(True) == 1
        assert records.claim(stores[0], "move:g:4:a1") and not records.claim(stores[1], "move:g:4:a1")
    finally:
        for store in stores:
            store.close()
