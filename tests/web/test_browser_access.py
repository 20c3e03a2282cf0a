"""Accessibility in a real browser (Playwright driving Debian's Chromium): axe-core, the engine of
the browsers' own accessibility audits (through axe-playwright-python), finds no violation of its
rules on the site's pages — on a wide screen in English and on a phone in Russian; on the pages
every visitor meets, a rules page with its drawings, a game against the computer being played (on
a phone its board is zoomed), an Omiga table, an account's own pages, and (in
test_browser_game_review.py) a finished game's computer review with its marks. And a game played
with the keyboard alone: "Type a move" takes a cell's name, refusing one that is not legal.
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from .serving import COMPUTER_WAIT_MS
from .test_browser import PHONE, WIDE, expect, new_page, pytestmark, start_omny
from .test_browser_ratings import sign_up

__all__ = ["pytestmark", "violations"]  # the browser fixtures come from conftest.py

AXE = Axe()  # (it carries axe-core's script, injected into each page it checks)

PAGES = ("/", "/lobby", "/archive", "/explore", "/puzzles", "/puzzles/next", "/leaderboard", "/login", "/signup",
         "/new/omny", "/new/omega", "/new/omiga", "/rules/omny", "/rules/onyx", "/replay", "/no-such-page")


def violations(page: Any) -> list[str]:
    """What axe-core finds wrong with the page as it is now: each rule broken, with where."""
    found = AXE.run(page).response["violations"]
    return [f"{rule['id']} ({rule['help']}): {[node['target'] for node in rule['nodes']][:5]}" for rule in found]


@pytest.mark.parametrize(("viewport", "language"), [(WIDE, "en"), (PHONE, "ru")], ids=["wide-en", "phone-ru"])
def test_the_pages_break_no_accessibility_rule(browser: Any, server: str, viewport: dict[str, int], language: str) -> None:
    page = new_page(browser, viewport)
    page.goto(f"{server}/?lang={language}")
    for path in PAGES:
        page.goto(server + path)
        assert violations(page) == [], path

    # A game against the computer, being played (Onyx: on a phone its board is zoomed, and scrolls).
    page.goto(server + "/new/onyx")
    page.check("input[name=mode][value=ai]")
    page.click("main button[type=submit]")
    expect(page.locator("#link-state")).to_have_text({"en": "live", "ru": "на связи"}[language])
    if viewport is PHONE:
        expect(page.locator("#board.zoomed")).to_have_count(1)
    assert violations(page) == [], "a game being played"

    # An Omiga table, against a bot.
    page.goto(server + "/new/omiga")
    page.click("main button[type=submit]")
    expect(page.locator("#table svg")).to_be_visible()
    assert violations(page) == [], "an Omiga table"

    # An account's own pages, its games among them.
    name = f"access_{language}"
    sign_up(page, server, name)
    page.goto(f"{server}/?lang={language}")
    for path in ("/account", "/games/mine", f"/@/{name}"):
        page.goto(server + path)
        assert violations(page) == [], path
    page.context.close()


def test_a_game_against_the_computer_played_by_typing_the_moves(browser: Any, server: str) -> None:
    page = new_page(browser)
    # the page's own hooks see its api (game.js): kept, to draw the same view again below
    page.add_init_script("(window.ogamesHooks = window.ogamesHooks || []).push(function (v, api) { window.__pageApi = api; });")
    start_omny(page, server, size=4, mode="ai", level="1")
    page.focus(".move-entry summary")  # the keyboard alone: open "Type a move", tab to its field
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator("#move-typed")).to_be_focused()
    page.keyboard.type("B2")  # (any case)
    page.keyboard.press("Enter")
    expect(page.locator("#moves li")).to_have_count(2, timeout=COMPUTER_WAIT_MS)
    expect(page.locator('[data-cell="b2"]')).to_have_attribute("data-stone", "black")
    expect(page.locator("#move-typed")).to_have_value("")
    expect(page.locator("#status")).to_contain_text("your turn")
    # The status, a live region, begins with the last move for a screen reader (unseen: the board
    # shows it), and is written only when its words change: drawing the same view again (as a
    # clock's tick does) leaves it alone, so that nothing is said again.
    reply = page.locator("#moves li").nth(1).locator("button").inner_text().split()[-1]
    expect(page.locator("#status .visually-hidden")).to_have_text(f"White played {reply}. ")
    changes = page.evaluate("""() => new Promise(function (resolve) {
      let count = 0;
      const watch = new MutationObserver(function (found) { count += found.length; });
      watch.observe(document.getElementById("status"), { childList: true, subtree: true, characterData: true });
      window.__pageApi.render();
      setTimeout(function () { watch.disconnect(); resolve(count); }, 0);
    })""")
    assert changes == 0
    for wrong in ("b2", "z99"):  # a cell taken, and no cell at all: refused on the page, nothing sent
        page.fill("#move-typed", wrong)
        page.keyboard.press("Enter")
        expect(page.locator("#move-typed-note")).to_have_text(f"{wrong} is not a legal move here.")
        expect(page.locator("#move-typed")).to_have_value(wrong)
    free = page.locator("[data-cell][data-legal]").first.get_attribute("data-cell")
    page.fill("#move-typed", str(free))
    page.keyboard.press("Enter")
    expect(page.locator("#move-typed-note")).to_be_hidden()
    expect(page.locator(f'[data-cell="{free}"]')).to_have_attribute("data-stone", "black")
    page.context.close()
