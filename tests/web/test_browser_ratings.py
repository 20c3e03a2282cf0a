"""Rated games in Chromium: two people sign up, one makes a rated game and invites the other by its
link, they play it to its end, both see their new ratings at the end of the game and the game on
their profiles; a person against a computer level gets a rating. Screenshots of the profile and
the leaderboard (wide, on a phone, in Russian) go to $OGAMES_SCREENSHOTS when it is set.

The server runs as `ogames serve` in its own process (fixtures `server`, `browser` in conftest.py)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from .serving import COMPUTER_WAIT_MS
from .test_browser import PHONE, expect, new_page, pytestmark

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py


def sign_up(page: Any, server: str, name: str) -> None:
    page.goto(server + "/signup?lang=en")
    page.fill("#name", name)
    page.fill("#password", "a long secret")
    page.fill("#again", "a long secret")
    page.click("main button[type=submit]")
    expect(page.locator(".visitor-name")).to_have_text(name)


def start_rated(page: Any, server: str, who: list[str]) -> str:
    """A rated Omny game on the Y board of side 3, seats chosen; its id once the page is live."""
    page.goto(server + "/new/omny?lang=en")
    page.fill("#opt_size", "3")
    page.check("input[name=mode][value=seats]")
    for n, choice in enumerate(who, start=1):
        page.select_option(f"#who_{n}", choice)
    page.check("#rated")
    page.click("main button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")
    expect(page.locator(".rated-mark")).to_have_text("rated")
    return str(page.locator(".game").get_attribute("data-game-id"))


def play_to_the_end(pages: dict[int, Any], server: str, game_id: str) -> None:
    """Click legal cells for the seats these pages hold until the game is over (the first legal
    move each turn, as the server lists them; the computer plays its own seats)."""
    api = next(iter(pages.values())).request
    deadline = time.monotonic() + COMPUTER_WAIT_MS / 1000  # the computer's first move starts its worker: slow when busy
    while time.monotonic() < deadline:
        view = api.get(f"{server}/api/games/{game_id}").json()
        if view["over"]:
            return
        if view["thinking"] or view["mover"] not in pages or not view["legal"]:
            next(iter(pages.values())).wait_for_timeout(100)  # the computer's move: the next view shows it
            continue
        cell = next((move for move in view["legal"] if re.fullmatch(r"[a-z]\d+", move)), None)
        assert cell is not None, view["legal"]
        page = pages[view["mover"]]
        expect(page.locator("#status")).to_contain_text("your turn")
        page.click(f'[data-cell="{cell}"]')
        expect(page.locator(f'[data-cell="{cell}"]')).to_have_attribute("data-stone", re.compile(".+"))
    raise AssertionError("the game did not end")


def test_two_people_play_a_rated_game_by_invitation(browser: Any, server: str, shots: Path) -> None:
    host, guest = new_page(browser), new_page(browser)
    sign_up(host, server, "Rhea")
    sign_up(guest, server, "Tycho")
    game_id = start_rated(host, server, ["here", "invite"])
    guest.goto(host.locator("#invite-1").input_value())
    expect(guest.locator("#link-state")).to_have_text("live")
    expect(host.locator("#seats .away")).to_have_count(0)  # the invited page is open: its seat is Tycho's
    play_to_the_end({0: host, 1: guest}, server, game_id)
    for page in (host, guest):
        changes = page.locator("#rating-changes li")
        expect(changes).to_have_count(2)
        expect(changes.nth(0)).to_contain_text(re.compile(r"^Rhea: 1500\? → \d+\?? \([+-]\d+\)"))
        expect(changes.nth(1)).to_contain_text(re.compile(r"^Tycho: 1500\? → \d+\?? \([+-]\d+\)"))
    host.screenshot(path=str(shots / "web-rated-end.png"))
    host.reload()  # the players' names are written into the page: Tycho's since the invitation was followed
    expect(host.locator('#seats a[href="/@/Tycho"]')).to_have_count(1)
    expect(host.locator("#rating-changes li")).to_have_count(2)
    for page, name in ((host, "Rhea"), (guest, "Tycho")):
        page.click(".visitor-name")  # the header's name: the profile
        expect(page.locator("h1")).to_have_text(name)
        expect(page.locator('.pool-rating[data-pool="omny"] .rating')).to_have_text(re.compile(r"^\d+\?$"))
        expect(page.locator('.pool-rating[data-pool="omny"] svg.rating-graph circle')).to_have_count(1)
        expect(page.locator(f'.recent-games a[href="/g/{game_id}"]')).to_have_count(1)
        expect(page.locator(".recent-games .rated-mark")).to_have_count(1)
    host.screenshot(path=str(shots / "web-profile.png"), full_page=True)
    for page in (host, guest):
        page.context.close()


def test_a_person_against_a_computer_level_gets_a_rating(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    sign_up(page, server, "Vera")
    game_id = start_rated(page, server, ["here", "computer:1"])
    page.set_default_timeout(COMPUTER_WAIT_MS)
    play_to_the_end({0: page}, server, game_id)
    expect(page.locator("#rating-changes li")).to_have_count(1)
    expect(page.locator("#rating-changes li")).to_contain_text(re.compile(r"^Vera: 1500\? → "))
    page.goto(server + "/@/vera")  # any case
    expect(page.locator("h1")).to_have_text("Vera")
    expect(page.locator(".level-record tbody tr")).to_have_count(1)
    expect(page.locator(".level-record tbody tr td").first).to_have_text("level 1")
    page.screenshot(path=str(shots / "web-profile-computer.png"), full_page=True)
    phone = new_page(browser, PHONE)
    for lang in ("en", "ru"):
        phone.goto(f"{server}/@/Vera?lang={lang}")
        expect(phone.locator(".rating-graph")).to_be_visible()
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the profile is wider than a phone ({width} px)"
        phone.screenshot(path=str(shots / f"web-profile-phone-{lang}.png"), full_page=True)
        phone.click(".places a[href='/leaderboard']")  # every page's header leads there
        expect(phone.locator(".leaderboard")).to_have_count(7)  # a board per pool (docs/ratings.md)
        phone.screenshot(path=str(shots / f"web-leaderboard-phone-{lang}.png"), full_page=True)
    expect(phone.locator("h1")).to_have_text("Рейтинг игроков")
    page.context.close()
    phone.context.close()
