"""A correspondence game in real browsers (Playwright driving Debian's Chromium), on a server whose
clocks run on simulated days: the new-game form's days per move, the days and hours left and the
deadline on the page, the tab's title saying "your move" to the browser whose move it is (and
only to it), the sound off until asked for, Abort offered until both have moved, and the loss on
time shown live when the days run out.

Screenshots go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .serving import simulate, start_server, stop_server
from .test_browser import expect, new_page, pytestmark

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py
DAY = 86_400.0


def correspondence_game(page: Any, server: str, days: str | None = None, size: str | None = None) -> None:
    """An Omny game at days per move made on the new-game form (`days` and board `size` as the form
    offers them, else its defaults): this browser holds Black's seat, White's is an invitation."""
    page.goto(f"{server}/new/omny?lang=en")
    expect(page.locator("#days")).to_be_hidden()  # live clocks are the default
    page.check("input[name=timing][value=days]")
    if days is not None:
        page.select_option("#days", days)
    if size is not None:
        page.fill("#opt_size", size)
    page.check("input[name=mode][value=seats]")
    page.select_option("#who_1", "here")
    page.select_option("#who_2", "invite")
    page.click("main button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")


@pytest.fixture(scope="module")
def days_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`ogames serve` on simulated time: its address, and the file that moves its clocks ahead."""
    folder = tmp_path_factory.mktemp("days")
    now = folder / "now"
    process, base = start_server(folder / "g.sqlite3", folder / "server.log", simulated=now)
    try:
        yield base, now
    finally:
        stop_server(process)


def test_a_correspondence_game_shows_its_days_and_says_your_move(browser: Any, days_server: tuple[str, Path],
                                                                 shots: Path) -> None:
    server, now = days_server
    host = new_page(browser)
    correspondence_game(host, server, days="2", size="4")
    mine, not_mine = re.compile("^Your move · "), re.compile("^(?!Your move)")

    # Black (this browser) is to move: its tab says so; two days for every move, and the deadline.
    expect(host).to_have_title(mine)
    expect(host.locator("#deadline")).to_contain_text("2 days per move · Move by")
    expect(host.locator("#clocks li").nth(0).locator(".time")).to_have_text(re.compile(r"^(1 d 23 h|2 d 0 h)$"))
    expect(host.locator("#sound-toggle")).not_to_be_checked()  # a sound only when asked for
    expect(host.locator("#abort")).to_be_visible()
    host.screenshot(path=str(shots / "web-correspondence.png"))

    guest = new_page(browser)
    guest.goto(host.locator("#invite-1").input_value())
    expect(guest.locator("#link-state")).to_have_text("live")
    expect(guest).to_have_title(not_mine)  # not the guest's move
    host.click('[data-cell="b2"]')
    expect(guest).to_have_title(mine)
    expect(host).to_have_title(not_mine)
    expect(guest.locator("#abort")).to_be_visible()  # White has not moved yet

    simulate(now, DAY + 600)  # a day and ten minutes later, White has less than a day left
    guest.reload()
    expect(guest.locator("#clocks li").nth(1).locator(".time")).to_have_text(re.compile(r"^23 h (4\d|50) min$"))
    guest.click('[data-cell="c2"]')
    expect(host).to_have_title(mine)
    expect(host.locator("#abort")).to_be_hidden()  # both have moved: resigning is the way out now
    expect(host.locator("#clocks li").nth(0).locator(".time")).to_have_text(re.compile(r"^(1 d 23 h|2 d 0 h)$"))

    simulate(now, 3 * DAY + 3600)  # Black lets its two days run out: the server ends the game, the pages see it
    expect(guest.locator("#status")).to_contain_text("lost on time")
    expect(host.locator("#status")).to_contain_text("lost on time")
    expect(host).to_have_title(not_mine)
    expect(host.locator("#deadline")).to_have_text("2 days per move")

    russian = new_page(browser)  # the watcher's page in Russian: the days in its words
    russian.goto(host.url.split("#")[0] + "?lang=ru")
    expect(russian.locator("#deadline")).to_have_text("2 дня на ход")


def test_a_game_is_aborted_from_the_page_before_both_have_moved(browser: Any, days_server: tuple[str, Path]) -> None:
    server, _ = days_server
    host = new_page(browser)
    correspondence_game(host, server)  # the form's default: three days a move
    host.click('[data-cell="b2"]')
    expect(host.locator("#moves li")).to_have_count(1)
    host.once("dialog", lambda dialog: dialog.accept())  # "Abort the game? It ends with no result."
    host.click("#abort")
    expect(host.locator("#status")).to_have_text("The game was aborted: no result.")
    expect(host.locator("#abort")).to_be_hidden()
    expect(host.locator("#resign")).to_be_hidden()
    expect(host.locator("#undo")).to_be_hidden()
    expect(host.locator("#deadline")).to_have_text("3 days per move")
