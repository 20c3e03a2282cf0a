"""Every board game in a real browser, to its end, by clicking on the drawn board: one conformance
case of each game, variant, board geometry and number of seats (so every variant the registry
offers, Odd-Y on the triangle and the polar board, Omega for two, three and four, Onyx). Each game
is created with the new-game form; all but its last moves are played through the JSON API.
Also the hover preview, the coordinates toggle, Onyx's captures, stepping back through the moves,
and a phone-sized screen. Screenshots go to $OGAMES_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pytest

import ogames
from conformance.cases import CASES, Case
from ogames.rules import BOARD
from ogames.rules.protocol import is_board_game
from ogames.web.boards.board import board_part

from .serving import call
from .test_browser import PHONE, expect, new_page, pytestmark

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
COLOUR_WORDS = {"black": "Black", "white": "White", "red": "Red", "blue": "Blue"}


def fill_options(page: Any, fields: dict[str, str]) -> None:
    """Fill the new-game form's option fields by name: a menu's value chosen, a text field typed."""
    for name, value in fields.items():
        field = page.locator(f"#opt_{name}")
        if field.evaluate("element => element.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def create_in_browser(page: Any, server: str, game: str, fields: dict[str, str]) -> str:
    """Fill a game's new-game form (hotseat) and start it; its id once the page is live."""
    page.goto(f"{server}/new/{game}")
    fill_options(page, fields)
    page.click("button[type=submit]")
    expect(page.locator("#link-state")).to_have_text("live")
    return page.url.rsplit("/", 1)[-1]


def tokens_of(page: Any, game_id: str) -> dict[str, str]:
    """The seats' tokens the page keeps in the browser's storage."""
    return page.evaluate("id => JSON.parse(localStorage.getItem('ogames:seats:' + id))", game_id)


def plan(server: str, game_id: str, seed: int) -> tuple[list[tuple[str, str]], ogames.State]:
    """A whole game for the server's game, played here by the rules with random stone moves (no
    swap), and not drawn: each placement with the colour of its stone, and the final state."""
    options = call(server, f"/api/games/{game_id}")[1]["options"]
    name = call(server, f"/api/games/{game_id}")[1]["game"]
    for attempt in range(50):
        rng = random.Random(seed * 100 + attempt)
        state = ogames.load(name, **options).new_state()
        moves = []
        while not state.is_over:
            move = rng.choice([m for m in state.legal_moves() if m != "swap"])
            moves.append((move, str(state.to_move)))
            state.play(move)
        if state.winner != "draw":
            return moves, state
    raise AssertionError("every planned game was drawn")


def status_before(final: ogames.State, moves: list[tuple[str, str]], ply: int) -> str:
    """What the status line says before the planned game's placement `ply`: the colour to move,
    or in Omega (a seat places a stone of every colour) the seat's colour and the stone's."""
    state = final.game.new_state()
    for move, _ in moves[:ply]:
        state.play(move)
    stone = COLOUR_WORDS[str(state.to_move)]
    if final.game.name != "omega":
        return f"{stone} to move"
    assert state.mover is not None
    seat = COLOUR_WORDS[str(state.game.colours[state.mover])]
    return f"{seat} to move: the {stone} stone"


def advance(server: str, game_id: str, tokens: dict[str, str], moves: list[tuple[str, str]]) -> None:
    """Play moves through the JSON API, each for the seat to move."""
    view = call(server, f"/api/games/{game_id}")[1]
    for move, _ in moves:
        status, view = call(server, f"/api/games/{game_id}/moves",
                            {"move": move, "token": tokens[str(view["mover"])], "version": view["version"]})
        assert status == 200, view


def click(page: Any, move: str, colour: str) -> None:
    """Click a cell of the board and wait for the server's stone on it."""
    page.click(f'#board g.cell[data-cell="{move}"]')
    expect(page.locator(f'#board g.cell[data-cell="{move}"]')).to_have_attribute("data-stone", colour)


def hover_preview(page: Any) -> None:
    """A ghost stone of the colour to move follows the pointer over legal cells only."""
    legal = page.locator("#board g.cell[data-legal]")
    label = legal.nth(legal.count() // 2).get_attribute("data-cell")
    # The cell by its label: the page may mark the legal cells again meanwhile (`nth` would then
    # find another one); the ghost follows such a redraw while the pointer rests on the cell.
    page.locator(f'#board g.cell[data-cell="{label}"]').hover()
    ghost = page.locator(f'#board .ghost-preview[data-mark="{label}"]')
    expect(ghost).to_have_count(1)
    status = page.locator("#status").inner_text()
    assert COLOUR_WORDS[ghost.get_attribute("data-colour")] in status
    occupied = page.locator("#board g.cell[data-stone]")
    if occupied.count():
        occupied.first.hover()
        expect(page.locator("#board .ghost-preview")).to_have_count(0)


def finish(page: Any, server: str, game_id: str, clicks: int, seed: int = 1) -> ogames.State:
    """Play a planned game: all but the last `clicks` moves through the API, those by clicking on
    the board (checking that the turn passes); then the result and the outlined win."""
    moves, final = plan(server, game_id, seed)
    tokens = tokens_of(page, game_id)
    cut = max(0, len(moves) - clicks)
    advance(server, game_id, tokens, moves[:cut])
    expect(page.locator("#moves li")).to_have_count(len(call(server, f"/api/games/{game_id}")[1]["moves"]))
    hover_preview(page)
    for index, (move, colour) in enumerate(moves[cut:], start=cut):
        click(page, move, colour)
        if index + 1 < len(moves) and moves[index + 1][1] != colour:
            expect(page.locator("#status")).to_contain_text(status_before(final, moves, index + 1))
    result = page.locator("#status.result")
    expect(result).to_contain_text(f"{COLOUR_WORDS[str(final.winner)]} won")
    winning = board_part(final)["winning"]
    assert winning
    expect(page.locator("#board g.cell[data-winning]")).to_have_count(len(winning))
    expect(page.locator("#board .highlight").first).to_be_attached()
    outlined = page.locator("#board g.cell[data-winning]").evaluate_all("cells => cells.map(c => c.dataset.cell)")
    assert sorted(outlined) == sorted(winning)
    expect(page.locator("#board g.cell[data-legal]")).to_have_count(0)  # nothing is offered after the end
    labels = page.locator("#board [data-cell]").evaluate_all("found => found.map(e => e.dataset.cell)")
    assert len(labels) == len(set(labels)) == len(final.board.labels)  # type: ignore[attr-defined]  # one element per cell
    return final


CLICKS = 8  # the last moves of a game, clicked (the rest through the API)


def geometry_of(case: Case) -> str:
    game = case.load()
    assert is_board_game(game)
    return game.board.geometry


def form_values(options: dict[str, Any]) -> dict[str, str]:
    """A case's options as the new-game form's fields take them: `2,3` for a pair, `true` for on."""
    def text(value: Any) -> str:
        if isinstance(value, bool):
            return str(value).lower()
        return ",".join(map(str, value)) if isinstance(value, tuple | list) else str(value)

    return {name: text(value) for name, value in options.items()}


# One case of each board game, variant, geometry and number of seats, from the conformance cases
# (which cover every variant of the registry: tests/conformance/test_registry.py).
BOARD_CASES = [case for case in CASES if case.load().played_on == BOARD]


def one_of_each(key: Callable[[Case], Hashable]) -> list[Case]:
    """The first board-game case of each distinct `key(case)`."""
    seen: dict[Hashable, Case] = {}
    for case in BOARD_CASES:
        seen.setdefault(key(case), case)
    return list(seen.values())


PLAYED = one_of_each(lambda case: (case.game, case.variant, geometry_of(case), case.load().seat_count))
ON_PHONE = one_of_each(lambda case: (case.game, geometry_of(case)))  # the board's fit: its shape, not its rules


def test_the_ghost_follows_a_move_made_while_the_pointer_rests_on_a_cell(browser: Any, server: str) -> None:
    """No mouseover comes when the game moves on under a resting pointer: the preview is drawn
    again with the new colour to move."""
    case = next(c for c in PLAYED if c.game == "omny" and c.load().seat_count == 2)
    page = new_page(browser)
    game_id = create_in_browser(page, server, case.game, form_values(case.options))
    moves, _ = plan(server, game_id, 2)
    (first, colour), (_, after) = moves[0], moves[1]
    assert colour != after
    label = next(cell for cell in page.locator("#board g.cell[data-legal]").evaluate_all(
        "cells => cells.map(c => c.dataset.cell)") if cell != first)
    page.locator(f'#board g.cell[data-cell="{label}"]').hover()
    ghost = page.locator(f'#board .ghost-preview[data-mark="{label}"]')
    expect(ghost).to_have_attribute("data-colour", colour)
    advance(server, game_id, tokens_of(page, game_id), moves[:1])
    expect(page.locator("#moves li")).to_have_count(1)
    expect(ghost).to_have_attribute("data-colour", after)


@pytest.mark.parametrize("case", PLAYED, ids=lambda case: case.id)
def test_a_board_game_to_its_end_by_clicking(browser: Any, server: str, shots: Path, case: Case) -> None:
    page = new_page(browser)
    game_id = create_in_browser(page, server, case.game, form_values(case.options))
    finish(page, server, game_id, CLICKS)
    if case.game == "omega":
        facts = page.locator("#board-facts li.groups")
        expect(facts).to_have_count(len(case.load().colours))
        expect(facts.first).to_contain_text("score")
    if case.game == "omny":
        expect(page.locator("#board-facts li.region.met")).to_have_count(1)
    page.screenshot(path=str(shots / f"web-board-{case.id}.png"), full_page=True)
    page.context.close()


def test_onyx_captures_show_as_they_happen_and_the_game_ends(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    game_id = create_in_browser(page, server, "onyx", {})
    moves, _ = plan(server, game_id, seed=3)
    tokens = tokens_of(page, game_id)
    state = ogames.load("onyx").new_state()
    capture = None
    for index, (move, _) in enumerate(moves):
        state.play(move)
        if state.last_captures:  # type: ignore[attr-defined]
            capture = index
            break
    assert capture is not None and capture < len(moves) - 4, "this game captures early"
    advance(server, game_id, tokens, moves[:capture])
    expect(page.locator("#moves li")).to_have_count(capture)
    click(page, *moves[capture])
    gone = state.last_captures  # type: ignore[attr-defined]
    for label in gone:
        expect(page.locator(f'#board g.cell[data-cell="{label}"]')).not_to_have_attribute("data-stone", "white")
        expect(page.locator(f'#board path.captured[data-mark="{label}"]')).to_have_count(1)
    expect(page.locator("#moves li").last).to_contain_text("× " + " ".join(gone))
    expect(page.locator("#board-facts .captured-now")).to_contain_text(" ".join(gone))
    page.screenshot(path=str(shots / "web-board-onyx-capture.png"), full_page=True)
    # On to the end: the API for most moves, then clicks.
    advance(server, game_id, tokens, moves[capture + 1 : len(moves) - 3])
    for move, colour in moves[len(moves) - 3 :]:
        click(page, move, colour)
    expect(page.locator("#status.result")).to_contain_text("won")
    expect(page.locator("#board circle.highlight").first).to_be_attached()
    page.screenshot(path=str(shots / "web-board-onyx-won.png"), full_page=True)
    page.context.close()


def test_coordinates_toggle_is_remembered(browser: Any, server: str) -> None:
    page = new_page(browser)
    create_in_browser(page, server, "omny", {"variant": "y", "size": "4"})
    label = page.locator("#board text.coord").first
    expect(label).to_be_visible()
    page.uncheck("#coords-toggle")
    expect(label).to_be_hidden()
    page.reload()
    expect(page.locator("#link-state")).to_have_text("live")
    expect(page.locator("#coords-toggle")).not_to_be_checked()
    expect(page.locator("#board text.coord").first).to_be_hidden()
    page.click('#board g.cell[data-cell="b2"]')  # a new drawing keeps the choice
    expect(page.locator('#board g.cell[data-cell="b2"]')).to_have_attribute("data-stone", "black")
    expect(page.locator("#board text.coord").first).to_be_hidden()
    page.check("#coords-toggle")
    expect(page.locator("#board text.coord").first).to_be_visible()
    page.context.close()


def test_stepping_back_through_the_moves_is_read_only(browser: Any, server: str, shots: Path) -> None:
    page = new_page(browser)
    create_in_browser(page, server, "omny", {"variant": "y", "size": "4"})
    for cell, colour in (("a1", "black"), ("b2", "white"), ("c1", "black")):
        click(page, cell, colour)
    stones = page.locator("#board g.cell[data-stone]")
    page.click('#moves button[data-k="1"]')
    expect(page.locator("#review")).to_be_visible()
    expect(page.locator("#review-text")).to_contain_text("move 1 of 3")
    expect(stones).to_have_count(1)
    expect(page.locator('#moves li.current button[data-k="1"]')).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#review-text")).to_contain_text("Start position")
    expect(stones).to_have_count(0)
    page.click('#board g.cell[data-cell="d1"]')  # no move from an earlier position
    expect(page.locator("#review-note")).to_contain_text("earlier position")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#review-text")).to_contain_text("move 2 of 3")
    expect(stones).to_have_count(2)
    page.screenshot(path=str(shots / "web-board-review.png"), full_page=True)
    assert call(page.url.rsplit("/g/", 1)[0], "/api/games/" + page.url.rsplit("/", 1)[-1])[1]["ply"] == 3
    page.click("#review-live")
    expect(page.locator("#review")).to_be_hidden()
    expect(stones).to_have_count(3)
    expect(page.locator('#board g.cell[data-cell="c1"]')).to_have_attribute("data-last", "true")
    page.keyboard.press("ArrowLeft")  # from the live game: the position before the last move
    expect(page.locator("#review-text")).to_contain_text("move 2 of 3")
    page.keyboard.press("Escape")
    expect(page.locator("#review")).to_be_hidden()
    click(page, "d1", "white")  # and play on
    page.context.close()


@pytest.mark.parametrize("case", ON_PHONE, ids=lambda case: case.id)
def test_the_board_on_a_phone(browser: Any, server: str, shots: Path, case: Case) -> None:
    page = new_page(browser, PHONE)
    create_in_browser(page, server, case.game, form_values(case.options))
    box = page.locator("#board svg").bounding_box()
    assert box["width"] >= 340, "the board takes the phone's width"
    legal = page.locator("#board g.cell[data-legal]")
    before = legal.count()
    target = legal.nth(before // 3)
    label = target.get_attribute("data-cell")
    target.click()
    first = case.load().new_state().to_move
    expect(page.locator(f'#board g.cell[data-cell="{label}"]')).to_have_attribute("data-stone", first)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(shots / f"web-board-{case.id}-phone.png"), full_page=True)
    page.context.close()
