"""Omiga's card table on a phone in a real browser (Playwright driving Debian's Chromium as a touch
screen of 390 × 844 CSS pixels): in every mode every cell of the table and every card of the hand is
at least 32 pixels to tap, neighbouring cells' centres are as far apart, the page itself never
scrolls sideways (the table's frame does), and a card is laid by a tap on it and a tap on a cell —
with move confirmation a second tap on the cell (or the bar's button) lays it. Confirmation is off by
default on real-time tables and on by default on a touch screen for the turn-based ones, whose
setting is the board games' own.

Screenshots go to $OGAMES_SCREENSHOTS when it is set (else a temporary folder)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ogames
from conformance.cases import mode_of, modes_of

from .serving import call, start_server, stop_server
from .test_browser import PHONE, expect, pytestmark
from .test_browser_phone import FINGER, phone
from .test_browser_russian import COLLECT, english

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
LIVE = {"en": "live", "ru": "на связи"}
DEAL = 0  # every table dealt from this seed: the first toddler and kids hands have a card that fits

# The table as it is on the screen, in CSS pixels: the narrower side of the smallest cell's box (what
# a tap hits), the least distance between two cells' centres (the middles of their slots), the hand's
# smallest card, and how wide the page and the table's frame are.
MEASURE = """() => {
  const cells = [...document.querySelectorAll('#table g.cell[data-cell]')];
  let side = Infinity;
  const centres = cells.map(cell => {
    const box = cell.getBoundingClientRect();
    side = Math.min(side, box.width, box.height);
    const slot = cell.querySelector('.slot').getBoundingClientRect();
    return [slot.x + slot.width / 2, slot.y + slot.height / 2];
  });
  let apart = Infinity;
  for (let i = 0; i < centres.length; i++)
    for (let j = i + 1; j < centres.length; j++)
      apart = Math.min(apart, Math.hypot(centres[i][0] - centres[j][0], centres[i][1] - centres[j][1]));
  let hand = Infinity;
  document.querySelectorAll('#my-hands .hand-card').forEach(card => {
    const box = card.getBoundingClientRect();
    hand = Math.min(hand, box.width, box.height);
  });
  const frame = document.getElementById('table').getBoundingClientRect();
  return {cells: cells.length, side: side, apart: apart, hand: hand,
          cards: document.querySelectorAll('#my-hands .hand-card').length,
          page: document.documentElement.scrollWidth, frame: [frame.left, frame.right]};
}"""
SCROLLED = "(b => [b.scrollLeft, b.scrollTop])(document.getElementById('table'))"
OVERFLOW = "(b => [b.scrollWidth - b.clientWidth, b.scrollHeight - b.clientHeight])(document.getElementById('table'))"
# Where the card drawn on a chosen cell lies: its middle's offset from the cell's, and its width over
# the cell's slot.
GHOST_ON_CELL = """label => {
  const ghost = document.querySelector(`#table .pick-ghost[data-cell-mark="${label}"]`).getBoundingClientRect();
  const slot = document.querySelector(`#table g.cell[data-cell="${label}"] .slot`).getBoundingClientRect();
  return [ghost.x + ghost.width / 2 - slot.x - slot.width / 2, ghost.y + ghost.height / 2 - slot.y - slot.height / 2,
          ghost.width / slot.width];
}"""
CONFIRM_KEYS = "[localStorage.getItem('ogames:confirm'), localStorage.getItem('ogames:confirm-realtime')]"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`ogames serve` dealing every table from a known seed (else a hand may hold no card that fits)."""
    folder = tmp_path_factory.mktemp("server")
    process, base = start_server(folder / "g.sqlite3", folder / "server.log", deal=DEAL)
    try:
        yield base
    finally:
        stop_server(process)


def open_table(
    page: Any, server: str, options: dict[str, Any], seats: list[dict[str, Any]], language: str = "en"
) -> dict[str, Any]:
    """A table made through the API, opened on the page holding its seats here; the API's answer."""
    status, made = call(server, "/api/omiga", {"options": options, "seats": seats})
    assert status == 201, made
    held = ",".join(f"{seat}.{token}" for seat, token in made["tokens"].items())
    page.goto(f"{server}/o/{made['id']}?lang={language}#seats={held}")
    expect(page.locator("#link-state")).to_have_text(LIVE[language])
    return made


def view_of(server: str, made: dict[str, Any]) -> dict[str, Any]:
    status, view = call(server, f"/api/omiga/{made['id']}")
    assert status == 200, view
    return view


def act(server: str, made: dict[str, Any], seat: int, action: str) -> None:
    """An action of a seat sent from elsewhere (through the API), accepted."""
    body = {"action": action, "token": made["tokens"][str(seat)], "seq": int(time.time() * 1e6)}
    status, verdict = call(server, f"/api/omiga/{made['id']}/act", body)
    assert status == 200, verdict


def choose_a_card_that_fits(page: Any, seat: int = 0) -> Any:
    """Tap the seat's hand cards (a second tap turns one) until the chosen card fits somewhere; the
    cells lit where it fits."""
    cards = page.locator(f'#my-hands .hand-card[data-seat="{seat}"]')
    fits = page.locator("#table g.cell[data-fits]")
    for index in range(cards.count()):
        for _turn in range(2):
            cards.nth(index).tap()
            expect(cards.nth(index)).to_have_class(re.compile(r"\bselected\b"))
            if fits.count():
                return fits
    raise AssertionError("no card of the hand fits anywhere")


def no_english(page: Any) -> list[tuple[str, str]]:
    """The texts of a Russian page holding English words (the table's column letters, aa… on a wide
    table, are labels)."""
    return [(where, text) for where, text in page.evaluate(COLLECT) if english(text) and where != "text.coord"]


BOT = {"kind": "bot", "level": 1}
TABLES = [  # (name, options, seats, cells)
    ("base", {"variant": "base"}, [{"kind": "here"}, BOT], 15 * 10),
    ("base-52", {"variant": "base", "width": 52, "height": 52}, [{"kind": "here"}, BOT], 52 * 52),  # the largest
    ("kids", {"variant": "kids"}, [{"kind": "here"}, BOT], 15 * 10),
    ("kids-turns", {"variant": "kids", "pace": "turns"}, [{"kind": "here"}, {"kind": "bot"}], 15 * 10),
    ("2v2", {"variant": "2v2"}, [{"kind": "here"}, BOT, BOT, BOT], 15 * 10),
    ("toddler-6", {"variant": "toddler", "players": 6}, [{"kind": "here"}, *[{"kind": "bot"}] * 5], 15 * 10),
    ("zen", {"variant": "zen"}, [{"kind": "here"}], 5 * 3),  # the fly: a 3 × 2 form
    ("zen-galaxy", {"variant": "zen", "form": "galaxy"}, [{"kind": "here"}], 21 * 21),  # the largest zen table
]


def test_the_tables_measured_here_cover_every_omiga_mode() -> None:
    """The tables above are picked for their size; every way the conformance cases play Omiga (its
    variants, and kids in real time and in turns) must be among them."""
    measured = {mode_of(ogames.load("omiga", **options)) for _, options, _, _ in TABLES}
    missing = modes_of("omiga") - measured
    assert not missing, f"no Omiga table on a phone for {sorted(missing, key=str)}: add one to TABLES"


@pytest.mark.parametrize(("name", "options", "seats", "cells"), TABLES, ids=[table[0] for table in TABLES])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_cell_and_card_is_large_enough_to_tap(
    browser: Any,
    server: str,
    shots: Path,
    name: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    cells: int,
    language: str,
) -> None:
    page = phone(browser)
    open_table(page, server, options, seats, language)
    if options["variant"] == "zen":  # zen's hand is empty until a colour is chosen and cards are drawn
        page.locator("#actions button").first.tap()
        expect(page.locator("#moves li")).to_have_count(1)
        page.locator('#actions [data-action^="draw"]').first.tap()
    expect(page.locator("#my-hands .hand-card").first).to_be_visible()
    measured = page.evaluate(MEASURE)
    assert measured["cells"] == cells
    assert measured["side"] >= FINGER and measured["apart"] >= FINGER, measured
    assert measured["hand"] >= FINGER and measured["cards"] >= 1, measured
    assert measured["page"] <= PHONE["width"], "the page itself does not scroll sideways: the table's frame does"
    assert 0 <= measured["frame"][0] and measured["frame"][1] <= PHONE["width"], measured
    if language == "ru":
        assert no_english(page) == []
    page.screenshot(path=str(shots / f"omiga-phone-{name}-{language}.png"))
    page.context.close()


def test_a_card_laid_by_two_taps_with_confirmation_on_and_by_one_with_it_off(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    made = open_table(page, server, {"variant": "base"}, [{"kind": "here"}, {"kind": "here"}], language="ru")
    expect(page.locator("#confirm-toggle")).not_to_be_checked()  # a real-time table: off by default, even under a finger
    page.locator("#confirm-toggle").check()
    assert page.evaluate(CONFIRM_KEYS) == [None, "on"], "a real-time table keeps its own choice"
    expect(page.locator("#status")).to_contain_text("Играйте!", timeout=20_000)
    fits = choose_a_card_that_fits(page, seat=0)
    cell = fits.first
    label = cell.get_attribute("data-cell")
    cell.tap()  # chosen, not laid: outlined, the card on it as it would lie, and the bar
    expect(page.locator("#confirm-bar")).to_be_visible()
    said = f"Выбрана клетка {label}: коснитесь или нажмите её ещё раз, чтобы выложить туда карту."
    expect(page.locator("#confirm-text")).to_have_text(said)
    expect(page.locator("#confirm-play")).to_have_text(f"Выложить на {label}")
    expect(page.locator(f'#table g.cell[data-cell="{label}"]')).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator(f'#table .pick-ghost[data-cell-mark="{label}"]')).to_have_count(1)
    dx, dy, width = page.evaluate(GHOST_ON_CELL, label)
    assert abs(dx) <= 1 and abs(dy) <= 1 and 0.95 <= width <= 1.1, (dx, dy, width)  # the card on its cell, as large
    expect(page.locator(f'#table g.cell[data-cell="{label}"]')).not_to_have_attribute("data-stone", re.compile(".+"))
    assert no_english(page) == []
    page.screenshot(path=str(shots / "omiga-phone-confirm-ru.png"))
    # The table moves on (the other seat lays a card from another page): the choice stays while the
    # card still fits there, and the frame stays where the player left it.
    scrolled = page.evaluate(SCROLLED)
    other = view_of(server, made)["seats"][1]
    card, spot = next((card, spot) for card in other["hand"] for spot in card["spots"] if spot[0] != label)
    act(server, made, 1, f"{card['act']} {spot[0]}" + (" turned" if spot[1] else ""))
    expect(page.locator(f'#table g.cell[data-cell="{spot[0]}"]')).to_have_attribute("data-stone", "black")
    expect(page.locator(f'#table .pick-ghost[data-cell-mark="{label}"]')).to_have_count(1)
    expect(page.locator("#confirm-bar")).to_be_visible()
    after = page.evaluate(SCROLLED)
    assert abs(after[0] - scrolled[0]) <= 2 and abs(after[1] - scrolled[1]) <= 2, (scrolled, after)  # (sub-pixel rounding)
    # The second tap lays it.
    page.locator(f'#table g.cell[data-cell="{label}"]').tap()
    expect(page.locator(f'#table g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", "white")
    expect(page.locator("#confirm-bar")).to_be_hidden()
    expect(page.locator("#table .pick-ghost")).to_have_count(0)
    # Chosen, then the bar's button lays it.
    fits = choose_a_card_that_fits(page, seat=0)
    label = fits.first.get_attribute("data-cell")
    fits.first.tap()
    page.locator("#confirm-play").tap()
    expect(page.locator(f'#table g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", "white")
    # A choice lapses when its card leaves the hand (here the whole hand discarded from elsewhere),
    # and Cancel drops it.
    fits = choose_a_card_that_fits(page, seat=0)
    fits.first.tap()
    expect(page.locator("#confirm-bar")).to_be_visible()
    act(server, made, 0, "discard")
    expect(page.locator("#confirm-bar")).to_be_hidden()
    expect(page.locator("#table .pick-ghost")).to_have_count(0)
    fits = choose_a_card_that_fits(page, seat=0)
    fits.first.tap()
    page.locator("#confirm-cancel").tap()
    expect(page.locator("#confirm-bar")).to_be_hidden()
    expect(page.locator("#table g.cell.picked")).to_have_count(0)
    # A tap where the chosen card does not fit goes to the server at once, which says why.
    page.locator('#table g.cell[data-stone="black"]').first.tap()
    expect(page.locator("#message")).to_contain_text("занята")
    expect(page.locator("#confirm-bar")).to_be_hidden()
    # Off: one tap lays the card, and the choice is kept in this browser for real-time tables.
    page.locator("#confirm-toggle").uncheck()
    fits = choose_a_card_that_fits(page, seat=0)
    label = fits.first.get_attribute("data-cell")
    fits.first.tap()
    expect(page.locator(f'#table g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", "white")
    expect(page.locator("#confirm-bar")).to_be_hidden()
    assert page.evaluate(CONFIRM_KEYS) == [None, "off"]
    page.context.close()


def test_turn_based_tables_confirm_by_default_and_share_the_board_games_setting(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    made = open_table(page, server, {"variant": "toddler", "players": 3}, [{"kind": "here"}, {"kind": "bot"}, {"kind": "bot"}])
    expect(page.locator("#confirm-toggle")).to_be_checked()  # turn-based, on a touch screen
    fits = choose_a_card_that_fits(page)
    label = fits.first.get_attribute("data-cell")
    fits.first.tap()
    expect(page.locator("#confirm-text")).to_have_text(f"{label} chosen: tap or click it again to lay the card there.")
    expect(page.locator("#moves li")).to_have_count(0)
    page.screenshot(path=str(shots / "omiga-phone-toddler-confirm.png"))
    # Turned the other way, the card stays on the chosen cell if it fits there so, else the choice lapses.
    selected = page.locator("#my-hands .hand-card.selected")
    spots = view_of(server, made)["seats"][0]["hand"][int(selected.get_attribute("data-index") or "")]["spots"]
    turned = "turned" in (selected.get_attribute("class") or "")
    page.locator("#turn").tap()
    if turned:
        expect(page.locator("#my-hands .hand-card.selected")).not_to_have_class(re.compile(r"\bturned\b"))
    else:
        expect(page.locator("#my-hands .hand-card.selected")).to_have_class(re.compile(r"\bturned\b"))
    bar = expect(page.locator("#confirm-bar"))
    if [label, not turned] in spots:
        bar.to_be_visible()
        expect(page.locator(f'#table .pick-ghost[data-cell-mark="{label}"]')).to_have_count(1)
        page.locator("#confirm-cancel").tap()
    else:
        bar.to_be_hidden()
        expect(page.locator("#table .pick-ghost")).to_have_count(0)
    fits = choose_a_card_that_fits(page)
    label = fits.first.get_attribute("data-cell")
    fits.first.tap()
    fits.first.tap()
    expect(page.locator(f'#table g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", "white")
    expect(page.locator("#moves li")).to_have_count(3, timeout=20_000)  # the two bots answered in turn
    # The board games' page and the turn-based tables share the setting.
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('ogames:confirm', 'off')")
    made = open_table(page, server, {"variant": "kids", "pace": "turns"}, [{"kind": "here"}, {"kind": "bot"}])
    expect(page.locator("#confirm-toggle")).not_to_be_checked()
    fits = choose_a_card_that_fits(page)
    label = fits.first.get_attribute("data-cell")
    fits.first.tap()
    expect(page.locator(f'#table g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", "white")
    page.context.close()


def test_a_zen_card_confirmed_and_the_hint_on_a_zoomed_table(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    open_table(page, server, {"variant": "zen", "form": "galaxy"}, [{"kind": "here"}], language="ru")
    expect(page.locator("#confirm-toggle")).to_be_checked()
    page.locator("#actions button").first.tap()
    expect(page.locator("#moves li")).to_have_count(1)
    page.locator('#actions [data-action^="draw"]').first.tap()
    expect(page.locator("#my-hands .hand-card").first).to_be_visible()
    assert page.evaluate("window.getComputedStyle(document.getElementById('table')).overflow") == "auto"  # zoomed: 21 × 21
    page.locator("#zen-hint-button").tap()
    hinted = page.locator("#table g.cell[data-hint]")  # with this deal the hint lays a card
    expect(hinted).to_have_count(1)
    ghost = page.locator(f'#table svg .hint-ghost[data-cell-mark="{hinted.get_attribute("data-cell")}"]')
    expect(ghost).to_have_count(1)  # the card faint on its cell, inside the drawing: it zooms and scrolls with it
    fits = choose_a_card_that_fits(page)
    label = fits.first.get_attribute("data-cell")
    fits.first.tap()
    expect(page.locator("#confirm-bar")).to_be_visible()
    assert no_english(page) == []
    page.screenshot(path=str(shots / "omiga-phone-zen-confirm-ru.png"))
    fits.first.tap()
    expect(page.locator(f'#table g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", re.compile("white|black"))
    expect(page.locator("#moves li")).to_have_count(3)
    page.context.close()


def test_the_zoom_buttons_and_the_whole_table(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    open_table(page, server, {"variant": "base"}, [{"kind": "here"}, {"kind": "bot", "level": 1}])
    expect(page.locator("#zoom-tools")).to_be_visible()
    expect(page.locator("#zoom-fit")).to_have_text("Whole table")
    assert page.evaluate(OVERFLOW)[0] > 0, "zoomed: the frame scrolls sideways"
    page.locator("#zoom-in").tap()
    assert page.evaluate(MEASURE)["side"] > FINGER * 1.2
    page.locator("#zoom-fit").tap()
    assert page.evaluate(OVERFLOW) == [0, 0], "the whole table fits its frame"
    expect(page.locator("#zoom-out")).to_be_disabled()
    page.screenshot(path=str(shots / "omiga-phone-whole-table.png"))
    page.locator("#zoom-in").tap()
    assert page.evaluate(OVERFLOW)[0] > 0
    page.context.close()
