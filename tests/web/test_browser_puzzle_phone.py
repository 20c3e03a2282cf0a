"""A puzzle on a phone (Chromium as a 390 px touch screen): a tap that misses would cost the first
try, so an Onyx puzzle's board (12 × 12 points) is drawn with its points as large as a finger, and
moves are confirmed: a first tap selects a cell and sends nothing, a tap on another cell moves the
selection, a second tap (or the bar's button) plays. With confirmation off, one tap plays, and the
defence's refutation is scrolled into sight.

Screenshots go to $OGAMES_SCREENSHOTS when it is set."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ogames.teach.puzzles import PuzzleSet

from .test_browser import expect, in_sight, pytestmark
from .test_browser_phone import phone

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py

FINGER = 32  # CSS pixels a tap needs (board_touch.js draws the smallest cell 34 wide)


def _cell(page: Any, label: str) -> Any:
    return page.locator(f'#board g.cell[data-cell="{label}"]')


def _empty_cells(page: Any) -> list[str]:
    return list(page.locator("#board g.cell:not([data-stone])").evaluate_all("cells => cells.map(c => c.dataset.cell)"))


def test_a_puzzle_on_a_phone_is_tapped_twice(browser: Any, server: str, shots: Path) -> None:
    puzzle = next(p for p in PuzzleSet.load().chosen("onyx") if len(p.solution) == 1)  # wins at once
    page = phone(browser)
    page.goto(server + f"/puzzles/{puzzle.id}?lang=en")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bzoomed\b"))
    expect(page.locator("#confirm-toggle")).to_be_checked()  # on by default on a touch screen
    winning = _cell(page, puzzle.move)
    winning.scroll_into_view_if_needed()
    size = winning.bounding_box()
    assert size is not None and min(size["width"], size["height"]) >= FINGER, size

    other = next(label for label in _empty_cells(page) if label != puzzle.move)
    _cell(page, other).scroll_into_view_if_needed()
    _cell(page, other).tap()
    expect(page.locator("#confirm-text")).to_have_text(f"{other} selected: tap or click it again to play.")
    expect(_cell(page, other)).to_have_class(re.compile(r"\bselected\b"))
    winning.scroll_into_view_if_needed()
    winning.tap()  # another cell: the selection moves there, still nothing sent
    expect(page.locator("#confirm-play")).to_have_text(f"Play {puzzle.move}")
    expect(page.locator("#board g.cell.selected")).to_have_count(1)
    expect(page.locator("#verdict")).to_have_text("")
    expect(page.locator("#player-rating")).to_have_text("1500?")  # no try was counted
    page.screenshot(path=str(shots / "web-puzzle-phone-selected.png"))
    page.click("#confirm-play")
    expect(page.locator("#verdict")).to_have_text("Solved!")
    expect(page.locator("#confirm-bar")).to_be_hidden()
    expect(page.locator("#player-rating")).not_to_have_text("1500?")

    # Switched off (the choice is kept in this browser), one tap plays.
    page.goto(server + f"/puzzles/{puzzle.id}?lang=en")
    page.uncheck("#confirm-toggle")
    page.reload()
    expect(page.locator("#confirm-toggle")).not_to_be_checked()
    wrong = next(label for label in _empty_cells(page) if label != puzzle.move)
    _cell(page, wrong).scroll_into_view_if_needed()
    _cell(page, wrong).tap()
    expect(page.locator("#verdict")).to_contain_text("Not this one")
    expect(page.locator("#confirm-bar")).to_be_hidden()
    refutation = page.locator("#line li").nth(1)  # the defence's answer is drawn where it can be seen
    expect(refutation).to_be_attached()
    assert in_sight(page, refutation.inner_text())
    page.context.close()
