"""A puzzle in Chromium: from the home page's puzzle of the day to a puzzle, a wrong move clicked
on the board is refuted (the board shows it with the defence's answer, the first try's rating goes
down), "Try again" puts the position back, the right moves (one typed by its name) are answered by the
stored defence until the puzzle is solved; "See the solution" shows the line.

The server runs as `ogames serve` in its own process, on the test set of puzzles (OGAMES_PUZZLES)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ogames.web.core.settings import PUZZLES_ENV

from .serving import start_server, stop_server
from .test_browser import expect, new_page, pytestmark
from .test_puzzles import FIXTURE, LONG, SHORT

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py


@pytest.fixture
def puzzle_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv(PUZZLES_ENV, str(FIXTURE))
    process, base = start_server(tmp_path / "g.sqlite3", tmp_path / "server.log")
    try:
        yield base
    finally:
        stop_server(process)
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def cell(page: Any, label: str) -> Any:
    return page.locator(f'#board g.cell[data-cell="{label}"]')


def test_a_wrong_move_then_the_right_ones(browser: Any, puzzle_server: str) -> None:
    page = new_page(browser)
    page.goto(puzzle_server + "/?lang=en")
    expect(page.locator("#daily-puzzle a.button")).to_contain_text("to play and win")
    page.goto(puzzle_server + f"/puzzles/{LONG}?lang=en")
    expect(page.locator("#task")).to_contain_text("White to play and win")
    expect(page.locator("#player-rating")).to_have_text("1500?")
    bar = "element => getComputedStyle(element).borderLeftColor"
    assert page.eval_on_selector("#verdict", bar) == "rgba(0, 0, 0, 0)"  # no verdict yet: no empty bar under the task

    cell(page, "a1").click()  # wrong: the defence answers d4 and wins
    expect(page.locator("#verdict")).to_have_text("Not this one: the defence answers d4 and wins.")
    assert page.eval_on_selector("#verdict", bar) != "rgba(0, 0, 0, 0)"
    expect(cell(page, "a1")).to_have_attribute("data-stone", "white")
    expect(cell(page, "d4")).to_have_attribute("data-stone", "black")
    expect(page.locator("#retry")).to_be_visible()
    rating = page.locator("#player-rating").inner_text()
    assert rating.endswith("?") and int(rating[:-1]) < 1500

    page.click("#retry")  # the position again
    expect(cell(page, "a1")).not_to_have_attribute("data-stone", "white")
    expect(page.locator("#retry")).to_be_hidden()
    page.click(".move-entry summary")  # typed instead of clicked: a name of no cell is refused here
    page.fill("#move-typed", "z99")
    page.press("#move-typed", "Enter")
    expect(page.locator("#move-typed-note")).to_have_text("z99 is not a legal move here.")
    page.fill("#move-typed", "D4")  # (any case)
    page.press("#move-typed", "Enter")
    expect(page.locator("#move-typed-note")).to_be_hidden()
    expect(page.locator("#verdict")).to_have_text("Right! The defence replies a1. Go on.")
    expect(cell(page, "d4")).to_have_attribute("data-stone", "white")
    expect(cell(page, "a1")).to_have_attribute("data-stone", "black")
    cell(page, "f1").click()
    expect(page.locator("#verdict")).to_have_text("Solved!")
    expect(page.locator("#line li")).to_have_text(["d4", "a1", "f1"])
    expect(page.locator("#player-rating")).to_have_text(rating)  # (only the first try is rated)
    page.click("#next")  # on to an untried puzzle (tried: only this one)
    expect(page).not_to_have_url(re.compile(LONG))
    expect(page.locator("#task")).to_contain_text("to play and win")
    expect(page.locator("#next")).to_be_hidden()  # until this one is settled

    page.goto(puzzle_server + f"/puzzles/{SHORT}?lang=ru")
    expect(page.locator("#task")).to_contain_text("ход и выигрыш")
    page.click("#show")
    expect(page.locator("#verdict")).to_have_text("Решение: d4")
    expect(cell(page, "d4")).to_have_attribute("data-stone", "white")
