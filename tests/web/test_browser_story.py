"""The whole first story of docs/web.md's accounts, lobby and ratings, in Chromium, as two people
live it: each signs up in a browser of their own (two contexts); one posts a rated seek in the
lobby, the other sees it appear (pushed, not polled) and accepts it; both land in the game, on
opposite seats, and play it through the page to a win; at its end both see their new ratings
(provisional, changed from the starting 1500) and a rematch offered, and both profiles `/@/NAME`
show the new rating and list the game. Screenshots of the end (wide; on a phone, in Russian) go to
$OGAMES_SCREENSHOTS when it is set.

The server runs as `ogames serve` in its own process (fixtures `server`, `browser` in conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .test_browser import expect, new_page, pytestmark
from .test_browser_lobby import held_seats
from .test_browser_ratings import PHONE, play_to_the_end, sign_up

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
PROVISIONAL_CHANGE = r"1500\? → \d+\? \([+-]\d+\)"  # a first rated game: provisional before and after


def fits_a_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is wider than a phone ({width} px)"


def test_two_people_meet_in_the_lobby_play_a_rated_game_and_see_their_ratings(browser: Any, server: str,
                                                                              shots: Path) -> None:
    poster, taker = new_page(browser), new_page(browser)
    sign_up(poster, server, "Story_Ada")
    sign_up(taker, server, "Story_Bo")

    # Ada posts a rated seek for the smallest board the lobby offers (Y of side 7: 28 cells).
    poster.goto(server + "/lobby?lang=en")
    taker.goto(server + "/lobby?lang=en")
    for page in (poster, taker):
        expect(page.locator("#link-state")).to_have_text("connected")
    expect(taker.locator("#no-seeks")).to_be_visible()
    poster.select_option("#seek-game", "omny")
    poster.select_option("#seek-variant-omny", "y")
    poster.select_option("#seek-time", "clock:10:5")
    poster.check("#seek-rated")
    poster.click("#seek-form button[type=submit]")
    expect(poster.locator("#seeks tr.mine")).to_have_count(1)

    # Bo sees it arrive on the page already open, rated, with Ada's provisional rating, and accepts.
    row = taker.locator("#seeks tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Story_Ada")
    expect(row).to_contain_text("10 min + 5 s")
    expect(row).to_contain_text(re.compile(r"1500\?? · rated"))
    row.locator("button", has_text="Accept").click()
    for page in (poster, taker):
        expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
        expect(page.locator("#link-state")).to_have_text("live")
        expect(page.locator(".rated-mark")).to_have_text("rated")
    game_id = taker.url.rsplit("/", 1)[1]
    assert poster.url.rsplit("/", 1)[1] == game_id
    seats = held_seats(poster, game_id), held_seats(taker, game_id)
    assert sorted(seats) == [[0], [1]], seats
    by_seat = {seats[0][0]: poster, seats[1][0]: taker}

    # They play it to its end through the board, each clicking for their own seat.
    play_to_the_end(by_seat, server, game_id)
    names = {poster: "Story_Ada", taker: "Story_Bo"}
    for page in (poster, taker):
        expect(page.locator("#status")).to_contain_text("won")
        changes = page.locator("#rating-changes li")
        expect(changes).to_have_count(2)
        for seat, player in by_seat.items():
            expect(changes.nth(seat)).to_contain_text(re.compile(f"^{names[player]}: {PROVISIONAL_CHANGE}"))
        expect(page.locator("#rematch-offer")).to_be_visible()
        expect(page.locator("#resign")).to_be_hidden()
        for seat, player in by_seat.items():  # the seats are named by the accounts, linked to their profiles
            expect(page.locator("#seats li").nth(seat).locator(f'a[href="/@/{names[player]}"]')).to_have_count(1)
    lines = poster.locator("#rating-changes li").all_inner_texts()
    assert any("(+" in line for line in lines) and any("(-" in line for line in lines), lines  # the winner up, the loser down
    poster.screenshot(path=str(shots / "web-story-end.png"), full_page=True)

    # Each profile shows the new, provisional rating (not 1500 any more) and lists the game.
    for page, name in ((poster, "Story_Ada"), (taker, "Story_Bo")):
        page.click(".visitor-name")  # the header's name: the profile
        expect(page.locator("h1")).to_have_text(name)
        rating = page.locator('.pool-rating[data-pool="omny"] .rating')
        expect(rating).to_have_text(re.compile(r"^\d+\?$"))
        assert rating.inner_text() != "1500?"
        expect(page.locator(f'.recent-games a[href="/g/{game_id}"]')).to_have_count(1)
        expect(page.locator(".recent-games .rated-mark")).to_have_count(1)
    # ... and the other's profile, reached from the game's seats, lists it too.
    poster.goto(f"{server}/g/{game_id}?lang=en")
    poster.click('#seats a[href="/@/Story_Bo"]')
    expect(poster.locator("h1")).to_have_text("Story_Bo")
    expect(poster.locator(f'.recent-games a[href="/g/{game_id}"]')).to_have_count(1)
    poster.screenshot(path=str(shots / "web-story-profile.png"), full_page=True)

    # On a phone, in Russian: the game's end and the profile fit the screen.
    taker.set_viewport_size(PHONE)
    taker.goto(f"{server}/g/{game_id}?lang=ru")
    expect(taker.locator("#rating-changes li")).to_have_count(2)
    expect(taker.locator("#rematch-offer")).to_have_text("Реванш")
    fits_a_phone(taker)
    taker.screenshot(path=str(shots / "web-story-end-phone-ru.png"), full_page=True)
    taker.goto(f"{server}/@/Story_Bo?lang=ru")
    expect(taker.locator(f'.recent-games a[href="/g/{game_id}"]')).to_have_count(1)
    fits_a_phone(taker)
    taker.screenshot(path=str(shots / "web-story-profile-phone-ru.png"), full_page=True)
    for page in (poster, taker):
        page.context.close()
