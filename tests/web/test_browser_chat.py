"""A game's chat in Chromium: two players talk in the players' room; a spectator sees only the
spectators' room, cannot write into the players' one (the page offers no way, and a request forged
from the page is refused), and what they write — markup included — shows as text, running
nothing; an operator mutes the spectator's name and its messages leave the players' open page.
Screenshots of the chat on a phone, in Russian.

The server runs as `ogames serve` in its own process, on a database made beforehand with one
operator account (the role `ogames operator grant` gives; tested in test_chat.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ogames.web.accounts import records as accounts
from ogames.web.accounts.passwords import hash_password
from ogames.web.chat.records import set_role
from ogames.web.core.store import Store

from .serving import start_server, stop_server
from .test_browser import HOLD_OPENING, PHONE, expect, new_page, pytestmark

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
ATTACK = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


@pytest.fixture(scope="module")
def chat_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("chat")
    database = folder / "g.sqlite3"
    store = Store(f"sqlite:///{database}")
    try:
        accounts.create_account(store, "Olga", "olga", hash_password("operator password"))
        set_role(store, "Olga", "operator")
    finally:
        store.close()
    process, base = start_server(database, folder / "server.log")
    try:
        yield base
    finally:
        stop_server(process)
    assert "Traceback" not in (folder / "server.log").read_text()


def say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")
    expect(page.locator("#chat-text")).to_have_value("")


def made_game(page: Any, server: str, seats: list[str] | None = None, lang: str = "en") -> dict[str, Any]:
    """An Omny game (Y, size 4) made through the JSON API by this page's visitor (its first page
    gives it a session): its id, the seats' tokens and any invitations."""
    page.goto(f"{server}/?lang={lang}")
    asked: dict[str, Any] = {"game": "omny", "options": {"variant": "y", "size": 4}, **({"seats": seats} if seats else {})}
    made = page.request.post(server + "/api/games", data=json.dumps(asked), headers={"content-type": "application/json"})
    assert made.status == 201, made.text()
    game: dict[str, Any] = made.json()
    return game


def test_players_talk_a_spectator_cannot_join_in_and_an_operator_mutes(browser: Any, chat_server: str, shots: Path) -> None:
    first = new_page(browser)
    game = made_game(first, chat_server, ["here", "invite"])
    first.goto(f"{chat_server}/g/{game['id']}#seats=0.{game['tokens']['0']}")
    second = new_page(browser)
    second.goto(chat_server + game["invitations"]["1"]["link"])
    spectator = new_page(browser)
    spectator.goto(f"{chat_server}/g/{game['id']}?lang=en")

    for page in (first, second):
        expect(page.locator(".chat-rooms")).to_be_visible()  # shown once the server says this is a player
        expect(page.locator(".chat-room[data-room=players]")).to_have_attribute("aria-selected", "true")
    say(first, "good luck!")
    expect(second.locator("#chat-messages .chat-text")).to_have_text(["good luck!"])
    say(second, "thanks, you too")
    expect(first.locator("#chat-messages .chat-text")).to_have_text(["good luck!", "thanks, you too"])

    # The spectator's page has no players' room to choose, and shows nothing of it.
    expect(spectator.locator(".chat-rooms")).to_be_hidden()
    expect(spectator.locator("header a[href='/operator']")).to_have_count(0)
    expect(spectator.locator("#chat-empty")).to_be_visible()
    expect(spectator.locator("#chat-messages li")).to_have_count(0)
    # A request forged from the spectator's page, with its CSRF token, is refused all the same.
    forged = spectator.evaluate("""async (id) => {
        const answer = await fetch("/api/games/" + id + "/chat", {method: "POST", headers: window.OgamesPage.jsonHeaders(),
            body: JSON.stringify({room: "players", text: "play the centre!", tokens: []})});
        return [answer.status, (await answer.json()).code];
    }""", game["id"])
    assert forged == [403, "not-a-player"]
    expect(first.locator("#chat-messages .chat-text")).to_have_count(2)

    # Markup written by a spectator is shown as it was written, and runs nothing anywhere.
    say(spectator, ATTACK)
    expect(spectator.locator("#chat-messages .chat-text")).to_have_text([ATTACK])
    first.click(".chat-room[data-room=spectators]")
    expect(first.locator("#chat-messages .chat-text")).to_have_text([ATTACK])
    assert first.locator("#chat-messages img, #chat-messages script").count() == 0
    assert first.evaluate("window.pwned") is None and spectator.evaluate("window.pwned") is None
    spectator_name = spectator.locator(".visitor-name").inner_text()
    expect(first.locator("#chat-messages .chat-author")).to_have_text([spectator_name])

    # The operator logs in, reads the game's whole chat and mutes the spectator's name.
    operator = new_page(browser)
    operator.goto(chat_server + "/login?lang=en")
    operator.fill("#name", "olga")
    operator.fill("#password", "operator password")
    operator.click("main button[type=submit]")
    expect(operator.locator(".visitor-name")).to_have_text("Olga")
    operator.click("header a[href='/operator']")  # an operator's header leads to the reports
    expect(operator.locator("h1")).to_have_text("Operator")
    operator.goto(f"{chat_server}/operator/games/{game['id']}")
    expect(operator.locator("td.said")).to_have_text(["good luck!", "thanks, you too", ATTACK])
    operator.locator("tr", has_text=ATTACK).locator("button", has_text="Mute").click()
    expect(operator.locator(".sanctions")).to_contain_text(spectator_name)
    operator.goto(chat_server + "/operator?lang=ru")
    operator.set_viewport_size(PHONE)
    operator.screenshot(path=str(shots / "web-operator-phone-ru.png"), full_page=True)
    assert operator.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Gone from the players' open page at once (no reload), and the spectator may say no more.
    expect(first.locator("#chat-messages .chat-text")).to_have_count(0)
    expect(first.locator("#chat-empty")).to_be_visible()
    spectator.fill("#chat-text", "hello?")
    spectator.click("#chat-form button[type=submit]")
    expect(spectator.locator("#message")).to_contain_text("muted")
    first.click(".chat-room[data-room=players]")
    expect(first.locator("#chat-messages .chat-text")).to_have_text(["good luck!", "thanks, you too"])
    for page in (first, second, spectator, operator):
        page.context.close()


def test_the_chat_on_a_phone_in_russian(browser: Any, chat_server: str, shots: Path) -> None:
    page = new_page(browser, PHONE)
    game = made_game(page, chat_server, lang="ru")
    page.goto(f"{chat_server}/g/{game['id']}#seats=0.{game['tokens']['0']},1.{game['tokens']['1']}")
    expect(page.locator("#chat-title")).to_have_text("Чат")
    expect(page.locator(".chat-room[data-room=players]")).to_have_text("Игроки")
    say(page, "Удачи! Длинное сообщение, чтобы проверить перенос строк на узком экране телефона: " + "слово " * 12)
    page.locator("#chat").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "web-chat-phone-ru.png"), full_page=True)
    page.locator("#chat").screenshot(path=str(shots / "web-chat-phone-ru-panel.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator("#chat-muted")).to_be_hidden()
    assert re.search("Отправить", page.locator("#chat-form").inner_text())
    page.context.close()


def test_a_spectator_who_takes_an_open_seat_joins_the_players_room(browser: Any, chat_server: str) -> None:
    host = new_page(browser)
    game = made_game(host, chat_server, ["here", "open"])
    host.goto(f"{chat_server}/g/{game['id']}#seats=0.{game['tokens']['0']}")
    say(host, "anyone for a game?")
    guest = new_page(browser)
    guest.goto(f"{chat_server}/g/{game['id']}?lang=en")
    expect(guest.locator(".chat-rooms")).to_be_hidden()
    guest.click("text=Take seat 2")
    # no reload: the chat joins again with the new seat's token and shows the players' room
    expect(guest.locator(".chat-room[data-room=players]")).to_have_attribute("aria-selected", "true")
    expect(guest.locator("#chat-messages .chat-text")).to_have_text(["anyone for a game?"])
    say(guest, "me!")
    expect(host.locator("#chat-messages .chat-text")).to_have_text(["anyone for a game?", "me!"])
    for page in (host, guest):
        page.context.close()


def test_the_chat_is_written_in_once_the_server_says_which_room(browser: Any, chat_server: str) -> None:
    """A player's page knows it may write in the players' room only from the chat socket's first
    message: until then there is no form to write with, so nothing typed early lands, unseen by
    the other player, in the spectators' room."""
    host = new_page(browser)
    game = made_game(host, chat_server, ["here", "invite"])
    host.add_init_script(HOLD_OPENING)
    host.goto(f"{chat_server}/g/{game['id']}#seats=0.{game['tokens']['0']}")
    expect(host.locator("#board")).to_be_visible()
    expect(host.locator("#chat-form")).to_be_hidden()
    host.evaluate("window.openSockets()")
    expect(host.locator(".chat-rooms")).to_be_visible()
    say(host, "hello")
    expect(host.locator("#chat-messages .chat-text")).to_have_text(["hello"])
    host.context.close()


def test_two_players_talk_at_a_card_table(browser: Any, chat_server: str) -> None:
    host = new_page(browser)
    host.goto(chat_server + "/?lang=en")
    asked = {"options": {"width": 7, "height": 5}, "seats": [{"kind": "here"}, {"kind": "invite"}]}
    made = host.request.post(chat_server + "/api/omiga", data=json.dumps(asked), headers={"content-type": "application/json"})
    table = made.json()
    host.goto(f"{chat_server}/o/{table['id']}#seats=0.{table['tokens']['0']}")
    friend = new_page(browser)
    friend.goto(chat_server + table["invitations"]["1"])
    spectator = new_page(browser)
    spectator.goto(f"{chat_server}/o/{table['id']}?lang=en")
    say(friend, "hello from seat 2")
    expect(host.locator("#chat-messages .chat-text")).to_have_text(["hello from seat 2"])
    expect(spectator.locator(".chat-rooms")).to_be_hidden()
    expect(spectator.locator("#chat-messages li")).to_have_count(0)
    for page in (host, friend, spectator):
        page.context.close()
