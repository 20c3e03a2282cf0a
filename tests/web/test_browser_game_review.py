"""The computer's review of a finished game in the browser (Playwright driving Debian's Chromium):
a game played to its end on one screen offers its review; on the review page the person asks for
it, waits while it is computed, and sees the win-chance graph with the marked moves' dots, each
marked move of the list with its symbol (?! ? ??), and, clicking a point of the graph, the board
stepped there with what the computer thought of that move. In Russian the panel is worded too.
Screenshots go to $OGAMES_SCREENSHOTS when it is set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .serving import call
from .test_browser import PHONE, expect, new_page, pytestmark, start_omny
from .test_browser_access import violations

__all__ = ["pytestmark"]  # the browser fixtures come from conftest.py

REVIEWED = 120_000  # ms: the first review of a fresh server starts its worker and warms the search
WIN = ["a1", "d1", "a2", "c2", "a3", "b3", "a4"]  # black joins the three sides; white plays nowhere near


def played_to_the_end(page: Any, server: str) -> str:
    page.goto(server + "/?lang=en")
    start_omny(page, server, size=4)
    for n, cell in enumerate(WIN, start=1):
        page.click(f'g.cell[data-cell="{cell}"]')
        expect(page.locator("#moves li")).to_have_count(n)
    expect(page.locator("#review-offer")).to_be_visible()  # the game is over: its review is offered
    return str(page.locator(".game").get_attribute("data-game-id"))


def test_a_finished_games_review_shows_the_graph_and_the_marks(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    game_id = played_to_the_end(page, server)
    page.click("#review-offer a")
    expect(page.locator("#review-status")).to_have_text("Nobody has asked for this game's review yet.")
    page.click("#review-ask")
    expect(page.locator("#review-graph svg.review-graph")).to_be_visible(timeout=REVIEWED)
    status, review = call(server, f"/api/games/{game_id}/review")
    assert status == 200 and review["status"] == "ready"
    marked = [move for move in review["moves"] if move["symbol"]]
    assert marked, "white's moves far from the game lose it: the review marks some of them"
    expect(page.locator("#review-graph .review-mark")).to_have_count(len(marked))
    for move in marked:
        button = page.locator(f'#moves [data-ply="{move["ply"]}"]')
        expect(button).to_have_attribute("data-mark", move["mark"])
        expect(button.locator(".review-symbol")).to_have_text(move["symbol"])
    expect(page.locator("#moves .review-symbol")).to_have_count(len(marked))

    # A point of the graph: the board steps there, and the move is told.
    first = marked[0]
    page.click(f'#review-graph .review-hit[data-ply="{first["ply"]}"]')
    expect(page.locator("#slider")).to_have_value(str(first["ply"]))
    expect(page.locator("#board")).to_have_attribute("data-ply", str(first["ply"]))
    detail = page.locator("#review-move")
    expect(detail).to_have_attribute("data-ply", str(first["ply"]))
    expect(detail.locator(".review-head")).to_contain_text(f'{first["ply"]}. {first["move"]} {first["symbol"]}')
    if first["best"] != first["move"]:
        expect(detail.locator(".review-better")).to_have_text(f'Better: {first["best"]}')
    # Its line goes on from the better move (which it does not repeat).
    if len(first["line"]) > 1:
        expect(detail.locator(".review-line")).to_have_text("Expected line: " + " → ".join(first["line"][1:]))
    else:
        expect(detail.locator(".review-line")).to_have_count(0)
    # A good move is not corrected: the computer's own choice is named beside it, no "Better".
    good = next(move for move in review["moves"] if move["mark"] == "good" and move["best"])
    page.click(f'#review-graph .review-hit[data-ply="{good["ply"]}"]')
    expect(detail).to_have_attribute("data-ply", str(good["ply"]))
    own = "The computer's choice too." if good["best"] == good["move"] else f"The computer's own choice: {good['best']}."
    expect(detail.locator(".review-better")).to_have_text(own)
    expect(detail.locator(".review-line")).to_have_count(0)
    page.click(f'#review-graph .review-hit[data-ply="{first["ply"]}"]')
    page.screenshot(path=str(shots / "web-game-review.png"), full_page=True)
    assert violations(page) == []  # the marks' colours among them (?! and ? were too pale to read)

    # Practising the mistakes: the board steps to the position before each, and a click answers.
    practised = [move for move in review["moves"]
                 if move["mark"] in ("mistake", "blunder") and move["best"] and move["best"] != move["move"]]
    assert practised, "white's far moves are mistakes with a better move"
    page.click("#practice-start")
    asked, say = practised[0], page.locator("#practice-say")
    expect(page.locator("#board")).to_have_attribute("data-ply", str(asked["ply"] - 1))
    expect(say).to_contain_text(f'the game went on with {asked["move"]}')
    expect(page.locator("#practice-show")).to_be_visible()
    page.click(f'#board g.cell[data-cell="{asked["move"]}"]')
    expect(say).to_have_text("That is the move played here: look for a better one.")
    empty = page.locator("#board g.cell:not([data-stone])").evaluate_all("cells => cells.map(c => c.dataset.cell)")
    other = next(cell for cell in empty if cell not in (asked["best"], asked["move"]))
    page.click(f'#board g.cell[data-cell="{other}"]')
    expect(say).to_have_text("The computer prefers another move here. Try again, or see it.")
    page.click("#practice-ask .move-entry summary")  # the answer typed: a name of no cell first
    page.fill("#move-typed", "z99")
    page.press("#move-typed", "Enter")
    expect(page.locator("#move-typed-note")).to_have_text("z99 is not a legal move here.")
    page.fill("#move-typed", asked["best"].upper())
    page.press("#move-typed", "Enter")
    expect(page.locator("#move-typed-note")).to_be_hidden()
    expect(say).to_contain_text(f'Right: {asked["best"]} is the computer\'s move.')
    if len(practised) > 1:
        page.click("#practice-next")
        expect(page.locator("#board")).to_have_attribute("data-ply", str(practised[1]["ply"] - 1))
        page.click("#practice-show")
        expect(say).to_contain_text(f'Better: {practised[1]["best"]}')
    else:
        expect(say).to_contain_text("Done: found 1 of 1 without seeing them.")

    # The same review in Russian: read from the store, worded anew.
    russian = new_page(browser)
    russian.goto(server + f"/g/{game_id}/review?lang=ru")
    expect(russian.locator("#review-graph svg.review-graph")).to_be_visible()
    expect(russian.locator("#game-review h2")).to_have_text("Разбор компьютером")
    expect(russian.locator("#review-legend")).to_contain_text("грубая ошибка")

    # Practising on a phone, in Russian.
    phone = new_page(browser, PHONE)
    phone.goto(server + f"/g/{game_id}/review?lang=ru")
    phone.click("#practice-start")
    expect(phone.locator("#practice-say")).to_contain_text(f'в партии был сыгран ход {asked["move"]}')
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(shots / "web-review-practice-phone-ru.png"), full_page=True)
