"""The board on a phone in a real browser (Playwright driving Debian's Chromium as a touch screen of
390 × 844 CSS pixels): every cell and point of every board kind is at least 32 pixels to tap at
the zoom the page offers, the board pans inside its frame and zooms with its buttons, and a tap
is confirmed by a second one when move confirmation is on (the default on touch screens).

Screenshots go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import ogames
from conformance.cases import CASES
from ogames.rules import BOARD
from ogames.rules.protocol import is_board_game

from .serving import call
from .test_browser import PHONE, WIDE, expect, pytestmark

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
FINGER = 32  # CSS pixels: the least a cell may measure to be tapped

# The cells as they are on the screen: the narrower side of the smallest cell's box, and the least
# distance between two cells' centres (where their stones go), in CSS pixels.
MEASURE = """() => {
  const svg = document.querySelector('#board svg');
  const toScreen = svg.getScreenCTM();
  const places = Object.values(JSON.parse(document.getElementById('board-setup').textContent).places);
  let side = Infinity;
  document.querySelectorAll('#board g.cell[data-cell]').forEach(cell => {
    const box = cell.getBoundingClientRect();
    side = Math.min(side, box.width, box.height);
  });
  const points = places.map(p => new DOMPoint(p[0], p[1]).matrixTransform(toScreen));
  const reach = 4 * side, grid = new Map();
  const key = (x, y) => Math.floor(x / reach) + ',' + Math.floor(y / reach);
  points.forEach(p => { const k = key(p.x, p.y); if (!grid.has(k)) grid.set(k, []); grid.get(k).push(p); });
  let apart = Infinity;
  points.forEach(p => {
    const gx = Math.floor(p.x / reach), gy = Math.floor(p.y / reach);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++)
      (grid.get((gx + dx) + ',' + (gy + dy)) || []).forEach(q => {
        if (q !== p) apart = Math.min(apart, Math.hypot(p.x - q.x, p.y - q.y));
      });
  });
  return {cells: places.length, side: side, apart: apart, page: document.documentElement.scrollWidth,
          frame: document.getElementById('board').getBoundingClientRect().width};
}"""


SCROLLED = "[document.getElementById('board').scrollLeft, document.getElementById('board').scrollTop]"


def phone(browser: Any, touch: bool = True, viewport: dict[str, int] = PHONE) -> Any:
    """A page on a phone: a touch screen unless `touch` is off (a narrow window with a mouse)."""
    context = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch)
    context.set_default_timeout(30_000)
    return context.new_page()


def open_game(page: Any, server: str, game: str, options: dict[str, Any], language: str = "en") -> str:
    """A game on one screen made through the API, opened on the page holding every seat; its id."""
    status, made = call(server, "/api/games", {"game": game, "options": options})
    assert status == 201, made
    seats = ",".join(f"{seat}.{token}" for seat, token in made["tokens"].items())
    page.goto(f"{server}/g/{made['id']}?lang={language}#seats={seats}")
    expect(page.locator("#link-state")).not_to_have_text("…")
    expect(page.locator("#board g.cell[data-legal]").first).to_be_attached()
    return made["id"]


BOARDS = [
    ("omny-y", "omny", {"variant": "y"}),
    ("omny-y-19", "omny", {"variant": "y", "size": 19}),
    ("omny-sunder", "omny", {"variant": "sunder"}),
    ("omny-gyre-30", "omny", {"variant": "gyre", "size": 30}),
    ("omny-free-y", "omny", {"variant": "free-y"}),
    ("omny-custom", "omny", {"variant": "custom", "shape": "irregular", "sides": (8, 10), "stars": "perimeter"}),
    ("omny-sunder-30", "omny", {"variant": "sunder", "size": 30}),  # the largest Omny board
    ("oddy-triangle", "oddy", {}),
    ("oddy-polar-5", "oddy", {"sides": 5}),
    ("oddy-polar-3", "oddy", {"sides": 3, "board": "polar"}),
    ("oddy-polar-11", "oddy", {"sides": 11}),
    ("omega-5", "omega", {}),
    ("omega-12", "omega", {"size": 12}),
    ("onyx", "onyx", {}),
]


def drawn(game: str, options: dict[str, Any]) -> tuple[str, str | None, str]:
    """What a board's fit depends on: its game, variant and geometry."""
    loaded = ogames.load(game, **options)
    assert is_board_game(loaded)
    return game, loaded.options.get("variant"), loaded.board.geometry


def test_the_boards_measured_here_cover_every_board_game_variant_and_geometry() -> None:
    """The boards above are picked for their size (the largest of each); each variant and geometry
    of the conformance cases (which follow the registry) must be among them."""
    measured = {drawn(game, options) for _, game, options in BOARDS}
    missing = {drawn(case.game, case.options) for case in CASES if case.load().played_on == BOARD} - measured
    assert not missing, f"no board on a phone for {sorted(missing, key=str)}: add one to BOARDS"


@pytest.mark.parametrize(("name", "game", "options"), BOARDS, ids=[board[0] for board in BOARDS])
def test_every_cell_is_large_enough_to_tap(browser: Any, server: str, shots: Path, name: str, game: str,
                                           options: dict[str, Any]) -> None:
    page = phone(browser)
    open_game(page, server, game, options)
    measured = page.evaluate(MEASURE)
    assert measured["side"] >= FINGER and measured["apart"] >= FINGER, measured
    assert measured["page"] <= PHONE["width"], "the page itself does not scroll sideways: the board's frame does"
    assert measured["frame"] <= PHONE["width"]
    page.screenshot(path=str(shots / f"web-phone-{name}.png"))
    # A cell at the far corner of the drawing is reached by panning the frame (a tap scrolls it
    # into view), selected by a first tap and played by a second.
    cells = page.locator("#board g.cell[data-legal]")
    corner = cells.nth(cells.count() - 1)
    label = corner.get_attribute("data-cell")
    corner.tap()
    expect(page.locator("#confirm-bar")).to_be_visible()
    expect(corner).to_have_class(re.compile(r"\bselected\b"))
    expect(corner).not_to_have_attribute("data-stone", re.compile(".+"))
    scrolled = page.evaluate(SCROLLED)
    corner.tap()
    first = "white" if game == "omega" else "black"
    expect(page.locator(f'#board g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", first)
    expect(page.locator("#confirm-bar")).to_be_hidden()
    # The new drawing keeps the frame where the player left it.
    after = page.evaluate(SCROLLED)
    assert abs(after[0] - scrolled[0]) <= 2 and abs(after[1] - scrolled[1]) <= 2, (scrolled, after)  # (sub-pixel rounding)
    page.context.close()


def test_move_confirmation_on_and_off(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    open_game(page, server, "omny", {"variant": "y", "size": 9}, language="ru")
    toggle = page.locator("#confirm-toggle")
    expect(toggle).to_be_checked()  # on by default on a touch screen
    first, second = page.locator('#board g.cell[data-cell="c3"]'), page.locator('#board g.cell[data-cell="d3"]')
    first.tap()
    expect(page.locator("#confirm-text")).to_have_text("Выбрано c3: коснитесь или нажмите ещё раз, чтобы сходить.")
    expect(page.locator('#board .selection-ghost[data-mark="c3"]')).to_have_count(1)
    page.screenshot(path=str(shots / "web-phone-confirm-ru.png"))
    second.tap()  # another cell: the selection moves there, nothing is played
    expect(second).to_have_class(re.compile(r"\bselected\b"))
    expect(first).not_to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#board .selection-ghost")).to_have_count(1)
    expect(page.locator("#moves li")).to_have_count(0)
    page.click("#confirm-play")  # the bar's button plays the selected cell
    expect(second).to_have_attribute("data-stone", "black")
    expect(page.locator("#moves li")).to_have_count(1)
    first.tap()
    page.click("#confirm-cancel")
    expect(page.locator("#confirm-bar")).to_be_hidden()
    expect(page.locator("#board g.cell.selected")).to_have_count(0)
    # A tap on an occupied cell is not selected: it goes to the server, which says why not.
    second.tap()
    expect(page.locator("#message")).to_contain_text("клетка d3 уже занята")  # in the page's language
    expect(page.locator("#confirm-bar")).to_be_hidden()
    # Off: one tap plays, and the choice is kept in this browser.
    toggle.uncheck()
    first.tap()
    expect(first).to_have_attribute("data-stone", "white")
    page.reload()
    expect(page.locator("#link-state")).not_to_have_text("…")
    expect(page.locator("#confirm-toggle")).not_to_be_checked()
    page.locator('#board g.cell[data-cell="e3"]').tap()
    expect(page.locator('#board g.cell[data-cell="e3"]')).to_have_attribute("data-stone", "black")
    page.context.close()


def test_a_selection_lapses_when_the_game_moves_on(browser: Any, server: str) -> None:
    page = phone(browser)
    game_id = open_game(page, server, "onyx", {})
    tokens = page.evaluate("id => JSON.parse(localStorage.getItem('ogames:seats:' + id))", game_id)
    page.locator('#board g.cell[data-cell="c3"]').tap()
    expect(page.locator("#confirm-bar")).to_be_visible()
    # The move is played elsewhere (another page holding the seat).
    status, _ = call(server, f"/api/games/{game_id}/moves", {"move": "d4", "token": tokens["0"], "version": 0})
    assert status == 200
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#confirm-bar")).to_be_hidden()  # the cell chosen for the old position is forgotten
    expect(page.locator("#board g.cell.selected")).to_have_count(0)
    page.locator('#board g.cell[data-cell="c3"]').tap()  # a first tap selects again, it does not play
    expect(page.locator("#confirm-bar")).to_be_visible()
    expect(page.locator("#moves li")).to_have_count(1)
    page.context.close()


def test_zoom_buttons_and_the_whole_board(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    open_game(page, server, "omega", {"size": 12})
    zoom = "window.OgamesTouch.zoom()"
    offered = page.evaluate(zoom)
    assert offered > 1
    expect(page.locator("#zoom-tools")).to_be_visible()
    page.click("#zoom-in")
    assert page.evaluate(zoom) > offered
    assert page.evaluate(MEASURE)["side"] > FINGER * 1.2
    page.click("#zoom-fit")
    assert page.evaluate(zoom) == 1
    overflow = "(b => [b.scrollWidth - b.clientWidth, b.scrollHeight - b.clientHeight])(document.getElementById('board'))"
    whole = page.evaluate(overflow)
    assert whole == [0, 0], "the whole board fits its frame"
    expect(page.locator("#zoom-out")).to_be_disabled()
    page.screenshot(path=str(shots / "web-phone-whole-board.png"))
    page.click("#zoom-in")
    assert page.evaluate(zoom) > 1
    page.context.close()


def test_a_wide_screen_with_a_mouse_shows_the_whole_board_and_plays_at_once(browser: Any, server: str) -> None:
    page = phone(browser, touch=False, viewport=WIDE)
    open_game(page, server, "omny", {"variant": "sunder", "size": 20})
    assert page.evaluate("window.OgamesTouch.zoom()") == 1
    expect(page.locator("#zoom-tools")).to_be_visible()  # its cells are small: zooming in is offered
    expect(page.locator("#confirm-toggle")).not_to_be_checked()
    cell = page.locator("#board g.cell[data-legal]").nth(40)
    label = cell.get_attribute("data-cell")
    cell.click()
    expect(page.locator(f'#board g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", "black")
    page.context.close()


def test_the_page_and_the_server_count_alike(browser: Any, server: str) -> None:
    """The page's forms by number come from the browser's Intl.PluralRules, the server's from
    i18n.plural_category: the same for every number."""
    from ogames.web import i18n

    page = phone(browser)
    for language in i18n.LANGUAGES:
        page.goto(f"{server}/?lang={language}")
        rules = "new Intl.PluralRules(document.documentElement.lang)"
        seen = page.evaluate(f"() => Array.from({{length: 300}}, (_, n) => {rules}.select(n))")
        assert seen == [i18n.plural_category(n, language) for n in range(300)], language
    open_game(page, server, "omny", {"variant": "y"}, language="ru")
    expect(page.locator("#board-facts .stars")).to_have_text("3 звёздные клетки (★)")
    page.context.close()
