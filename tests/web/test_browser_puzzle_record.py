"""The puzzle rating on a profile, in Chromium: a new account solves a puzzle by clicking its
board, and its profile (/@/NAME) then shows the rating the puzzle page ended on, with the puzzle
counted under its game; the puzzles page shows the same. Screenshots of the profile (wide, and on
a phone in Russian) go to $OGAMES_SCREENSHOTS when it is set.

The server runs as `ogames serve` in its own process, on the test set of puzzles (OGAMES_PUZZLES)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .serving import CHROMIUM
from .test_browser import new_page
from .test_browser_puzzles import cell, puzzle_server  # noqa: F401 (a fixture)
from .test_browser_ratings import PHONE, sign_up
from .test_puzzles import SHORT

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (.ci/run installs it)"),
    pytest.mark.slow,
]
expect = playwright_api.expect


def test_a_solved_puzzle_shows_on_the_profile(browser: Any, puzzle_server: str, shots: Path) -> None:  # noqa: F811
    page = new_page(browser)
    sign_up(page, puzzle_server, "puzzler")
    page.goto(puzzle_server + "/@/puzzler?lang=en")
    expect(page.locator("h1.profile-name")).to_have_text("puzzler")
    expect(page.locator("#profile-puzzles")).to_have_count(0)  # nothing tried yet

    page.goto(puzzle_server + f"/puzzles/{SHORT}?lang=en")
    cell(page, "d4").click()  # wins at once
    expect(page.locator("#verdict")).to_have_text("Solved!")
    rating = page.locator("#player-rating")
    expect(rating).not_to_have_text("1500?")
    shown = rating.inner_text()

    page.goto(puzzle_server + "/@/puzzler?lang=en")
    expect(page.locator("#profile-puzzles #puzzle-rating")).to_have_text(shown)
    omny = page.locator('#profile-puzzles tr[data-game="omny"]')
    expect(omny.locator(".tried")).to_have_text("1")
    expect(omny.locator(".solved")).to_have_text("1")
    expect(page.locator('#profile-puzzles tr[data-game="oddy"] .tried')).to_have_text("0")
    page.screenshot(path=str(shots / "web-profile-puzzles.png"), full_page=True)
    phone = new_page(browser, PHONE)
    phone.goto(puzzle_server + "/@/puzzler?lang=ru")
    expect(phone.locator("#profile-puzzles")).to_contain_text("Рейтинг в задачах")
    phone.screenshot(path=str(shots / "web-profile-puzzles-phone-ru.png"), full_page=True)

    page.goto(puzzle_server + "/puzzles?lang=en")
    expect(page.locator("#my-puzzles #puzzle-rating")).to_have_text(shown)
    page.screenshot(path=str(shots / "web-puzzles-record.png"), full_page=True)
