"""The lobby in Chromium: two people in two browsers (two contexts: two guests); one posts a seek,
the other sees it appear live and accepts it, and both land in the same game on opposite seats,
where each moves for their own seat; at its end both ask for a rematch (each told of the other's
offer on the game's socket, never by asking) and go to a new game with the colours swapped.
Screenshots of the lobby (wide, and on a phone in Russian) go to $OGAMES_SCREENSHOTS when it is set.

The server runs as `ogames serve` in its own process (fixtures `server`, `browser` in conftest.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .test_browser import HOLD_OPENING, PHONE, expect, new_page, pytestmark
from .test_browser_ratings import sign_up

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py


def held_seats(page: Any, game_id: str) -> list[int]:
    """The seats whose tokens this browser keeps for a game (the game page's storage)."""
    stored = page.evaluate(f"localStorage.getItem('ogames:seats:{game_id}')")
    return sorted(int(seat) for seat in json.loads(stored or "{}"))


def test_a_seek_posted_in_one_browser_and_accepted_in_another_seats_both(browser: Any, server: str, shots: Path) -> None:
    poster, taker = new_page(browser), new_page(browser)
    poster.goto(server + "/lobby?lang=en")
    taker.goto(server + "/?lang=en")
    taker.click('a[href="/lobby"]')
    expect(taker.locator("#no-seeks")).to_be_visible()
    expect(poster.locator("#link-state")).to_have_text("connected")

    poster.select_option("#seek-game", "omny")
    poster.select_option("#seek-variant-omny", "y")
    poster.select_option("#seek-time", "clock:10:5")
    poster.click("#seek-form button[type=submit]")
    mine = poster.locator("#seeks tr.mine")
    expect(mine).to_have_count(1)
    expect(mine.locator("button")).to_have_text("Cancel")
    row = taker.locator("#seeks tr")
    expect(row).to_have_count(1)  # pushed to the other page, not polled
    expect(row).to_contain_text("10 min + 5 s")
    expect(row.locator("button")).to_have_text("Accept")
    taker.screenshot(path=str(shots / "web-lobby.png"), full_page=True)

    row.locator("button").click()
    expect(taker).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    expect(poster).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    game_id = taker.url.rsplit("/", 1)[1]
    assert poster.url.rsplit("/", 1)[1] == game_id
    # The seats' tokens are kept and a move is sent by game.js, on the game page's socket: wait
    # until the script says the socket is open (the page itself is the server's).
    for page in (poster, taker):
        expect(page.locator("#link-state")).to_have_text("live")
    seats = held_seats(poster, game_id), held_seats(taker, game_id)
    assert sorted(seats) == [[0], [1]], seats
    black, white = (poster, taker) if seats[0] == [0] else (taker, poster)
    black.click('[data-cell="c3"]')
    expect(white.locator('[data-cell="c3"]')).to_have_attribute("data-stone", "black")
    white.click('[data-cell="b2"]')
    expect(black.locator('[data-cell="b2"]')).to_have_attribute("data-stone", "white")

    # A rematch: black resigns, both ask for one, and both go to a new game with the colours swapped.
    # The offer and the new game come on the game's socket: no page asks for them (GET …/rematch).
    asked: list[str] = []

    def note_asking(request: Any) -> None:
        if request.method == "GET" and re.search(r"/api/games/[^/]+/rematch$", request.url):
            asked.append(request.url)

    for page in (black, white):
        page.on("request", note_asking)
    black.once("dialog", lambda dialog: dialog.accept())
    black.click("#resign")
    for page in (black, white):
        expect(page.locator("#rematch-offer")).to_be_visible()
    white.click("#rematch-offer")
    expect(white.locator("#rematch-note")).to_have_text("Rematch offered: waiting for your opponent…")
    expect(black.locator("#rematch-note")).to_have_text("Your opponent offers a rematch.")
    black.click("#rematch-offer")
    for page in (black, white):
        expect(page).not_to_have_url(re.compile(f"/g/{game_id}$"))
        expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    assert asked == [], asked
    rematch = white.url.rsplit("/", 1)[1]
    assert black.url.rsplit("/", 1)[1] == rematch != game_id
    for page in (black, white):
        expect(page.locator("#link-state")).to_have_text("live")
    assert (held_seats(white, rematch), held_seats(black, rematch)) == ([0], [1])
    white.click('[data-cell="c3"]')  # white of the first game opens the rematch as black
    expect(black.locator('[data-cell="c3"]')).to_have_attribute("data-stone", "black")
    for page in (poster, taker):
        page.context.close()


# The page's sockets go to a port nothing listens on: each closes before it opens.
NO_SERVER = """
(() => {
  const Real = window.WebSocket;
  window.WebSocket = class extends Real { constructor(url) { super(url.replace(/\\/\\/[^/]+/, "//127.0.0.1:9")); } };
})();
"""


def post_quick_seek(page: Any) -> None:
    page.select_option("#seek-game", "oddy")
    page.click("#seek-form button[type=submit]")


def test_a_seek_made_as_the_lobby_opens_is_posted_once_connected(browser: Any, server: str) -> None:
    """A seek posted while the lobby's socket is still connecting waits for it (page.js's
    socketTo), and one posted while it is down says so instead of vanishing."""
    page = new_page(browser)
    page.add_init_script(HOLD_OPENING)
    page.goto(server + "/lobby?lang=en")
    post_quick_seek(page)
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#seeks tr.mine")).to_have_count(0)
    page.evaluate("window.openSockets()")
    expect(page.locator("#link-state")).to_have_text("connected")
    expect(page.locator("#seeks tr.mine")).to_have_count(1)
    page.context.close()

    down = new_page(browser)
    down.add_init_script(NO_SERVER)
    down.goto(server + "/lobby?lang=en")
    expect(down.locator("#link-state")).to_have_text("reconnecting…")
    post_quick_seek(down)
    expect(down.locator("#message")).to_have_text("Not connected: nothing was sent. Try again once connected.")
    down.context.close()


def test_the_lobby_on_a_phone_in_russian(browser: Any, server: str, shots: Path) -> None:
    poster, watcher = new_page(browser, PHONE), new_page(browser, PHONE)
    poster.goto(server + "/lobby?lang=ru")
    watcher.goto(server + "/lobby?lang=ru")
    expect(poster.locator("h1")).to_have_text("Зал ожидания")
    # The heading is the server's; a seek goes on the page's socket, which lobby.js drops while
    # it is not open yet: wait until the script says it is.
    expect(poster.locator("#link-state")).to_have_text("на связи")
    poster.select_option("#seek-time", "days:3")
    poster.click("#seek-form button[type=submit]")
    row = watcher.locator("#seeks tr")
    expect(row).to_have_count(1)
    expect(row.locator("button")).to_have_text("Принять")
    expect(row.locator("button")).to_be_visible()
    expect(row).to_contain_text("дней на ход: 3")
    width = watcher.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing wider than the phone
    watcher.screenshot(path=str(shots / "web-lobby-phone-ru.png"), full_page=True)
    poster.context.close()
    watcher.context.close()


def test_a_challenge_shows_under_the_header_of_the_challenged_players_page(browser: Any, server: str) -> None:
    challenger, challenged = new_page(browser), new_page(browser)
    sign_up(challenger, server, "Ada_Lobby")
    sign_up(challenged, server, "Bob_Lobby")
    challenged.goto(server + "/?lang=en")  # any page with the header
    challenger.goto(server + "/lobby?lang=en")
    expect(challenger.locator("#link-state")).to_have_text("connected")
    challenger.fill("#seek-to", "bob_lobby")
    challenger.click("#seek-form button[type=submit]")
    expect(challenger.locator("#seeks tr.mine")).to_contain_text("a challenge to Bob_Lobby")
    line = challenged.locator("#challenges .challenge")
    expect(line).to_contain_text("Ada_Lobby challenges you:")
    line.locator("button", has_text="Accept").click()
    for page in (challenger, challenged):
        expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    assert challenger.url.rsplit("/", 1)[1] == challenged.url.rsplit("/", 1)[1]
    for page in (challenger, challenged):
        page.context.close()
