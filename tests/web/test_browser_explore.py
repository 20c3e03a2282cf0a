"""The opening explorer in Chromium: from the places' link to a board, a move clicked in the table
steps into it (the board gets the stone, the table the replies), a move clicked on the board steps
further, the back button steps out again; the same page in Russian.

The server runs as `ogames serve` in its own process (fixtures `server`, `browser` in conftest.py)."""

from __future__ import annotations

import re
from typing import Any

from .serving import play_through
from .test_browser import expect, new_page, pytestmark, words_fit

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py

LINES = [["a1", "d1", "a2", "c2", "a3", "b3", "a4"], ["a1", "b2", "a2", "c2", "a3", "b3", "a4"]]


def table_moves(page: Any) -> dict[str, str]:
    """The next moves' table: move → games."""
    rows = page.locator("#next-moves tbody tr")
    return {rows.nth(i).get_attribute("data-move"): rows.nth(i).locator("td.count").first.inner_text()
            for i in range(rows.count())}


def test_stepping_through_an_opening(browser: Any, server: str) -> None:
    for line in LINES:
        play_through(server, line)
    page = new_page(browser)
    page.goto(server + "/?lang=en")
    page.click(".places >> text=Openings")
    expect(page.locator("h1")).to_have_text("Opening explorer")
    page.goto(server + "/explore?game=omny&variant=y&size=4&source=site&lang=en")
    expect(page.locator("#next-moves tbody tr")).to_have_count(1)
    assert table_moves(page) == {"a1": "2"}
    expect(page.locator('#board g.cell[data-cell="a1"]')).not_to_have_attribute("data-stone", "black")

    page.click('#next-moves a[data-move="a1"]')  # a move in the table
    expect(page).to_have_url(re.compile(r"moves=a1$"))
    expect(page.locator('#board g.cell[data-cell="a1"]')).to_have_attribute("data-stone", "black")
    expect(page.locator("#next-moves tbody tr")).to_have_count(2)
    assert table_moves(page) == {"b2": "1", "d1": "1"}
    expect(page.locator("#line li")).to_have_text(["a1"])

    # The board's clicks are explore.js's, and the page above is the server's: wait for the script
    # to mark the next moves' cells before clicking one (the click would be lost before it runs).
    next_move = re.compile(r"\bexplore-next\b")
    expect(page.locator('#board g.cell[data-cell="d1"]')).to_have_class(next_move)
    page.click('#board g.cell[data-cell="d1"]')  # a move on the board
    expect(page).to_have_url(re.compile(r"moves=a1%2Cd1$"))
    expect(page.locator('#board g.cell[data-cell="d1"]')).to_have_attribute("data-stone", "white")
    assert table_moves(page) == {"a2": "1"}
    expect(page.locator("#line li")).to_have_text(["a1", "d1"])

    expect(page.locator('#board g.cell[data-cell="a2"]')).to_have_class(next_move)  # the script listens here too
    page.click('#board g.cell[data-cell="b1"]')  # not a move played from here: nothing happens
    expect(page).to_have_url(re.compile(r"moves=a1%2Cd1$"))

    # Back and start load another page: wait for its table before reading it (read at once, it may
    # still be the page before, or none).
    # The stepper's buttons hold their words (a line's height, not squeezed onto their borders).
    for button in ("#back", "#start"):
        assert words_fit(page, button), f"{button} is squeezed"
    page.click("#back")
    expect(page).to_have_url(re.compile(r"moves=a1$"))
    expect(page.locator("#next-moves tbody tr")).to_have_count(2)
    assert table_moves(page) == {"b2": "1", "d1": "1"}
    expect(page.locator('#board g.cell[data-cell="d1"]')).not_to_have_attribute("data-stone", "white")
    page.click("#start")
    expect(page.locator("#line li")).to_have_count(0)
    expect(page.locator("#next-moves tbody tr")).to_have_count(1)
    assert table_moves(page) == {"a1": "2"}

    page.goto(server + "/explore?game=omny&variant=y&size=4&lang=ru")  # with the book: the solver's verdicts
    expect(page.locator("h1")).to_contain_text("Справочник дебютов")
    expect(page.locator("#next-moves thead")).to_contain_text("Решатель")
    expect(page.locator('#next-moves tr[data-move="a1"]')).to_contain_text("доказанный проигрыш")  # docs/solved.md
    expect(page.locator('#next-moves tr[data-move="b2"]')).to_contain_text("доказанный выигрыш")
