"""The teaching pages on a phone in Russian (Chromium as a 390 px touch screen, `?lang=ru`, whose
words are longer than English ones): the home page's puzzle of the day, the puzzle list and a
puzzle, the opening explorer and one of its boards, and a game's review. On each, no text is cut
off (no element holds more than it shows, but for the boxes that scroll by design) and nothing
makes the page wider than the screen.

Screenshots go to $OGAMES_SCREENSHOTS when it is set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .serving import play_through
from .test_browser import PHONE, expect, pytestmark, words_fit
from .test_browser_explore import LINES
from .test_browser_phone import phone

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py

# What does not fit on the page: the document's width beyond the screen's, and every element whose
# content is wider than its box while its overflow is visible (text cut off or spilling over).
# Passed over: drawings (SVG text sits where the board puts it), form fields (an address field
# scrolls its own text) and whatever is inside a box that scrolls sideways by design.
UNFITTED = """() => {
  const cut = [];
  const scrolls = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  document.querySelectorAll('body *').forEach(el => {
    if (el.closest('svg') || ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) return;
    for (let up = el.parentElement; up; up = up.parentElement) if (scrolls(up)) return;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !scrolls(el))
      cut.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
  });
  return {page: document.documentElement.scrollWidth, cut: cut};
}"""

def assert_fits(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"phone-ru-{name}.png"), full_page=True)
    found = page.evaluate(UNFITTED)
    # (not window.innerWidth: a mobile browser widens its layout viewport to a page that is too wide)
    assert found["page"] <= PHONE["width"], f"{name}: the page is wider than the phone: {found}"
    assert found["cut"] == [], f"{name}: {found['cut']}"


def test_the_daily_puzzles_button_fits_a_russian_phone(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    page.goto(server + "/?lang=ru")
    button = page.locator("#daily-puzzle a.button")
    expect(button).to_have_text("Omega: Чёрные: ход и выигрыш")  # the longest the button holds (serving.TEST_DAY)
    sizes = button.evaluate("b => [b.scrollWidth, b.clientWidth, b.getBoundingClientRect().right]")
    assert sizes[0] <= sizes[1], f"the button's text is wider than the button: {sizes}"
    assert sizes[2] <= PHONE["width"], f"the button reaches past the screen: {sizes}"
    assert_fits(page, shots, "home")


def test_the_teaching_pages_fit_a_russian_phone(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    page.goto(server + "/puzzles?lang=ru")
    expect(page.locator("#daily-link a")).to_have_text("Задача дня")
    assert_fits(page, shots, "puzzles")
    assert words_fit(page, "#next-page"), "the pages' button squeezes its words"

    page.click("#daily-link a")
    expect(page.locator("#board svg")).to_be_visible()
    page.goto(page.url.split("?")[0] + "?lang=ru")
    expect(page.locator("#board svg")).to_be_visible()
    assert_fits(page, shots, "puzzle")

    page.goto(server + "/explore?lang=ru")
    assert_fits(page, shots, "explore")
    page.locator("main li a").first.click()
    expect(page.locator("#next-moves")).to_be_visible()  # a board of the book: the table of next moves
    expect(page.locator("h1")).to_contain_text("Справочник дебютов")
    assert_fits(page, shots, "explore-board")

    page.goto(server + f"/g/{play_through(server, LINES[0])}/review?lang=ru")  # a game black won
    expect(page.locator("#game-review h2")).to_have_text("Разбор компьютером")
    assert_fits(page, shots, "review")
