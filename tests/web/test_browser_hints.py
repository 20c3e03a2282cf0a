"""A learner's hint in the browser (Playwright driving Debian's Chromium): in a casual game against
the computer the Hint button says how many hints are left, lights the best move on the board when
pressed, counts it, and the lit cell is a move like any other. In Russian the button is worded too.
Screenshots go to $OGAMES_SCREENSHOTS when it is set."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import ogames

from .serving import call
from .test_browser import expect, in_sight, new_page, pytestmark, start_omny
from .test_browser_phone import phone

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py

ANSWER = 60_000  # ms: the first search of a fresh server warms the rules' kernels in its worker


def test_a_hint_lights_the_best_move_and_counts_down(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server + "/?lang=en")
    start_omny(page, server, size=4, mode="ai", level="1")
    button = page.locator("#hint")
    expect(button).to_have_text("Hint (3 of 3 left)")
    button.click()
    lit = page.locator("#board .preview[data-mark]")
    expect(lit).to_have_count(1, timeout=ANSWER)
    best = str(lit.get_attribute("data-mark"))
    game_id = str(page.locator(".game").get_attribute("data-game-id"))
    assert best in ogames.replay(call(server, f"/g/{game_id}/record.json")[1]).legal_moves()
    expect(page.locator("#hint-note")).to_have_text(f"Hint: {best}")
    expect(button).to_have_text("Hint (2 of 3 left)")
    page.screenshot(path=str(shots / "web-hint.png"), full_page=True)
    page.click(f'g.cell[data-cell="{best}"]')  # the lit cell is played like any move
    expect(page.locator(f'[data-cell="{best}"]')).to_have_attribute("data-stone", "black")
    expect(page.locator("#board .preview")).to_have_count(0)
    assert call(server, f"/api/games/{game_id}")[1]["hints"] == {"used": 1, "left": 2, "limit": 3}


def test_a_hint_off_a_zoomed_phone_board_is_scrolled_into_sight(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    page.goto(server + "/new/onyx?lang=en")
    page.check("input[name=mode][value=ai]")
    page.select_option("#level", "1")
    page.click("button[type=submit]")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bzoomed\b"))  # Onyx's points, finger-wide
    expect(page.locator("#hint")).to_be_enabled()
    # The frame's scrolling: a cell far from the corner in sight is brought into sight.
    page.evaluate("() => { const box = document.getElementById('board'); box.scrollLeft = 0; box.scrollTop = 0; }")
    assert in_sight(page, "a12") and not in_sight(page, "l1")
    page.evaluate("() => window.OgamesTouch.reveal('l1')")
    assert in_sight(page, "l1")
    # A hint lights its cell where the player can see it.
    page.evaluate("() => { const box = document.getElementById('board'); box.scrollLeft = 0; box.scrollTop = 0; }")
    page.click("#hint")
    lit = page.locator("#board .preview[data-mark]")
    expect(lit).to_have_count(1, timeout=ANSWER)
    best = str(lit.get_attribute("data-mark"))
    assert in_sight(page, best), best
    page.screenshot(path=str(shots / "web-hint-phone.png"))
    page.context.close()


def test_the_hint_button_in_russian(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/?lang=ru")  # kept in a cookie
    page.goto(server + "/new/omny")
    page.fill("#opt_size", "4")
    page.check("input[name=mode][value=ai]")
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("на связи")
    expect(page.locator("#hint")).to_have_text("Подсказка (осталось 3 из 3)")


def test_no_hint_button_beside_a_game_on_one_screen(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/?lang=en")
    start_omny(page, server, size=4)
    page.click('[data-cell="a1"]')
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#hint")).to_be_hidden()
