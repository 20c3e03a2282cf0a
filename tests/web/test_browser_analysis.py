"""The computer's analysis beside the live board (Playwright driving Debian's Chromium): in a game
on one screen a player analyses the position shown — the live one, or an earlier one picked from
the move list — and sees the best move marked, the chance and the line; a new position clears the
answer, and an answer for a position no longer shown is dropped. Beside a game still played
against another person there is no panel, and the server refuses. Screenshots go to
$OGAMES_SCREENSHOTS when it is set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ogames

from .serving import call
from .test_browser import PHONE, expect, new_page, pytestmark, start_omny
from .test_browser_together import start_by_seat

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py

ANSWER = 60_000  # ms: the first search of a fresh server warms the rules' kernels in its worker


def game_id_of(page: Any) -> str:
    return str(page.locator(".game").get_attribute("data-game-id"))


def analysed(page: Any, server: str, ply: int) -> str:
    """Ask for the analysis of the position shown (1 s) and wait for it; its best move, checked
    against the rules at position `ply` and marked on the board."""
    page.select_option("#seconds", "1")
    page.click("#analyse")
    best_line = page.locator("#analysis .best-move")
    expect(best_line).to_be_visible(timeout=ANSWER)
    best = str(best_line.get_attribute("data-move"))
    record = call(server, f"/g/{game_id_of(page)}/record.json")[1]
    assert best in ogames.replay(record, upto=ply).legal_moves()
    expect(page.locator(f'#board .preview[data-mark="{best}"]')).to_have_count(1)  # the best move marked
    return best


def test_analysis_beside_a_hotseat_board_live_and_stepping_back(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    page.goto(server + "/?lang=en")
    start_omny(page, server, size=4)
    panel = page.locator("#analysis-panel")
    expect(panel).to_be_visible()  # one screen: analysis at any time
    for cell, colour in (("a1", "black"), ("d1", "white"), ("b2", "black")):
        page.click(f'[data-cell="{cell}"]')  # each once the last is made: a third quick click replaces the second
        expect(page.locator(f'[data-cell="{cell}"]')).to_have_attribute("data-stone", colour)
    expect(page.locator("#moves li")).to_have_count(3)

    # The live position: white to move after three moves.
    best = analysed(page, server, 3)
    box = page.locator("#analysis")
    expect(box).to_contain_text("White's chance to win")
    chance = page.locator("#analysis .chance")
    if chance.count():  # not a proven result: a percentage and its bar
        percent = int(str(chance.get_attribute("data-percent")))
        assert 0 <= percent <= 100
        expect(page.locator("#analysis .chance .bar")).to_be_visible()
        expect(page.locator("#analysis .chance .bar span")).to_have_attribute("style", f"width: {percent}%;")
    expect(box).to_contain_text("Expected line")
    expect(box).to_contain_text("playouts in")
    page.screenshot(path=str(shots / "web-live-analysis.png"), full_page=True)

    # The marked cell is still a legal move: playing it is a new position, and the answer goes.
    page.click(f'g.cell[data-cell="{best}"]')
    expect(page.locator(f'[data-cell="{best}"]')).to_have_attribute("data-stone", "white")
    expect(box).to_be_hidden()
    expect(page.locator("#board .preview")).to_have_count(0)

    # An earlier position from the move list: black to move after the first two moves.
    page.click('#moves button[data-k="2"]')
    expect(page.locator("#review")).to_be_visible()
    analysed(page, server, 2)
    expect(box).to_contain_text("Black's chance to win")
    page.screenshot(path=str(shots / "web-review-analysis.png"), full_page=True)
    page.click('#moves button[data-k="1"]')  # another position: the answer of the first goes
    expect(box).to_be_hidden()
    expect(page.locator("#board .preview")).to_have_count(0)

    # An answer that comes back after its position was left is dropped, not drawn.
    page.click("#analyse")
    expect(page.locator("#analyse")).to_be_disabled()
    page.click("#review-live")
    expect(page.locator("#review")).to_be_hidden()
    expect(page.locator("#analyse")).to_be_enabled(timeout=ANSWER)  # the answer has come
    expect(box).to_be_hidden()
    expect(page.locator("#board .preview")).to_have_count(0)
    expect(page.locator("#moves li")).to_have_count(4)
    page.context.close()


def test_analysis_on_a_phone_in_russian(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser, PHONE)
    page.goto(server + "/?lang=en")
    start_omny(page, server, size=4)
    page.goto(f"{server}/g/{game_id_of(page)}?lang=ru")  # the seats' tokens stay in the browser
    expect(page.locator("#link-state")).to_have_text("на связи")
    for cell in ("b2", "c2"):
        page.click(f'[data-cell="{cell}"]')
    expect(page.locator("#moves li")).to_have_count(2)  # analysed after both are made, not between
    expect(page.locator("#analyse")).to_have_text("Анализировать позицию")
    analysed(page, server, 2)
    expect(page.locator("#analysis")).to_contain_text("Лучший ход")
    expect(page.locator("#analysis")).to_contain_text("Шансы на победу (Чёрные)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#analysis-panel").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "web-live-analysis-phone.png"))
    page.context.close()


def test_no_analysis_beside_a_game_against_a_person_until_it_is_over(browser: Any, server: str) -> None:
    page = new_page(browser)
    page.goto(server + "/?lang=en")
    start_by_seat(page, server, "omny", ["here", "invite"], opt_size="3")
    page.click('[data-cell="a1"]')
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#analysis-panel")).to_be_hidden()
    game_id = game_id_of(page)
    status, refused = call(server, f"/api/games/{game_id}/analysis", {"ply": 1, "seconds": 1.0})
    assert status == 403 and refused["code"] == "not-allowed", refused
    # Over (a resignation), the game may be analysed: not its final position, an earlier one.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator("#status")).to_contain_text("won")
    expect(page.locator("#analysis-panel")).to_be_visible()
    expect(page.locator("#analyse")).to_be_disabled()
    expect(page.locator("#analysis-over")).to_be_visible()
    page.click('#moves button[data-k="1"]')
    expect(page.locator("#analyse")).to_be_enabled()
    expect(page.locator("#analysis-over")).to_be_hidden()
    analysed(page, server, 1)
    page.context.close()
