"""The board sent once, in a real browser: the game page has the board drawn once with no stones
and puts each position on it from what changed (web/core/delta.py). After every move, undo, Onyx
capture, Omega placement and reconnection, the board on the page is the server's own drawing of
the position (`ogames.draw.board_svg`, through the JSON API): the same stone on every cell, the
same last-move marks, Onyx's same open midpoints and capture crosses, the winning outline."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import ogames
from conformance.cases import CASES, Case
from ogames.rules.protocol import is_board_game

from .serving import call
from .test_browser import new_page, playwright_api, pytestmark

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
NS = "{http://www.w3.org/2000/svg}"

# Every WebSocket the page opens on its game (not the chat's or the lobby's), so that a test can
# cut one (the page then reconnects).
KEEP_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  function Kept(url, protocols) {
    const socket = new Native(url, protocols);
    if (String(url).includes("/ws/g/")) window.__sockets.push(socket);
    return socket;
  }
  Kept.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) { Kept[name] = Native[name]; });
  window.WebSocket = Kept;
})();"""

# The board as the page shows it: per cell its stone, whether it is marked as the last move,
# whether it shows an open midpoint or a capture cross; whether a winning outline is drawn; the moves listed.
PAGE_BOARD = """() => {
  const cells = {};
  document.querySelectorAll("#board g.cell[data-cell]").forEach(function (cell) {
    cells[cell.dataset.cell] = {
      stone: cell.dataset.stone || null,
      last: !!cell.querySelector(".last-move"),
      open: cell.classList.contains("open"),
      cross: !!cell.querySelector(".captured"),
    };
  });
  const moves = document.querySelectorAll("#moves li").length;
  return {cells: cells, outline: !!document.querySelector("#board .highlight"), moves: moves};
}"""


def server_board(svg: str) -> dict[str, Any]:
    """The same facts from the server's whole drawing of the position."""
    root = ET.fromstring(svg)
    cells = {}
    for group in root.iter(f"{NS}g"):
        classes = group.get("class", "").split()
        if "cell" not in classes:
            continue
        marks = [element.get("class", "").split() for element in group.iter()]
        cells[group.get("data-cell")] = {
            "stone": group.get("data-stone"),
            "last": any("last-move" in found for found in marks),
            "open": "open" in classes,
            "cross": any("captured" in found for found in marks),
        }
    return {"cells": cells, "outline": 'class="highlight"' in svg}


def same_board(page: Any, server: str, game_id: str) -> None:
    """Wait until the page shows the server's position (a generous deadline), then compare them."""
    view = call(server, f"/api/games/{game_id}")[1]
    expected = {**server_board(view["board"]["svg"]), "moves": len(view["moves"])}
    try:
        page.wait_for_function(f"expected => JSON.stringify(({PAGE_BOARD})()) === JSON.stringify(expected)",
                               arg=expected, timeout=20_000)
    except playwright_api.Error:
        pass  # the comparison below says what differs
    shown = page.evaluate(PAGE_BOARD)
    differ = {label: (shown["cells"].get(label), cell) for label, cell in expected["cells"].items()
              if shown["cells"].get(label) != cell}
    assert not differ and shown["outline"] == expected["outline"], (differ, shown["outline"], expected["outline"])
    assert shown["moves"] == expected["moves"]  # the move list too


def act(server: str, game_id: str, tokens: dict[str, str], path: str, **body: Any) -> dict[str, Any]:
    """A move or an undo through the JSON API for the seat to move (hotseat: every seat's token is here)."""
    view = call(server, f"/api/games/{game_id}")[1]
    seat = view["mover"] if view["mover"] is not None else 0
    status, answer = call(server, f"/api/games/{game_id}/{path}",
                          {"token": tokens[str(seat)], "version": view["version"], **body})
    assert status == 200, answer
    return answer


def open_game(browser: Any, server: str, game: str, options: dict[str, Any]) -> tuple[Any, str, dict[str, str]]:
    status, made = call(server, "/api/games", {"game": game, "options": options})
    assert status == 201, made
    tokens = made["tokens"]
    page = new_page(browser)
    page.add_init_script(KEEP_SOCKETS)
    fragment = ",".join(f"{seat}.{token}" for seat, token in tokens.items())
    page.goto(f"{server}/g/{made['id']}#seats={fragment}")
    playwright_api.expect(page.locator("#link-state")).to_have_text("live")
    return page, made["id"], tokens


def onyx_game_with_captures(seed: int = 0) -> list[str]:
    """Random Onyx moves (no swap) up to and past its first captures."""
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        state = ogames.load("onyx").new_state()
        moves: list[str] = []
        while not state.is_over and len(moves) < 80:
            move = rng.choice([m for m in state.legal_moves() if m != "swap"])
            moves.append(move)
            state.play(move)
            if state.history[-1].get("captures"):
                return moves if state.is_over else [*moves, rng.choice([m for m in state.legal_moves() if m != "swap"])]
    raise AssertionError("no random Onyx game captured")


def drawn_alike() -> list[Case]:
    """One conformance case of each board game and board geometry (what the page's drawing and its
    deltas follow), the one with the most seats (the most colours on the board)."""
    chosen: dict[tuple[str, str], Case] = {}
    for case in CASES:
        game = case.load()
        if not is_board_game(game):
            continue
        key = (case.game, game.board.geometry)
        if key not in chosen or game.seat_count > chosen[key].load().seat_count:
            chosen[key] = case
    return list(chosen.values())


@pytest.mark.parametrize("case", drawn_alike(), ids=lambda case: case.id)
def test_every_move_undo_and_reconnection_shows_the_server_s_board(browser: Any, server: str, case: Case) -> None:
    page, game_id, tokens = open_game(browser, server, case.game, case.options)
    drawn = page.locator("#board svg").element_handle()
    rng = random.Random(7)
    same_board(page, server, game_id)
    for number in range(1, 13):
        legal = call(server, f"/api/games/{game_id}")[1]["legal"]
        act(server, game_id, tokens, "moves", move=rng.choice(legal))
        same_board(page, server, game_id)
        if number in (4, 9):  # take back a move (an Omega placement within a turn, or a whole one)
            act(server, game_id, tokens, "undo")
            same_board(page, server, game_id)
    assert page.evaluate("drawn => drawn.isConnected", drawn)  # the board was drawn once: the same element all along
    # The connection cut, moves made meanwhile: the page reconnects and shows the game as it is.
    page.evaluate("window.__sockets[window.__sockets.length - 1].close()")
    for _ in range(3):
        act(server, game_id, tokens, "moves", move=rng.choice(call(server, f"/api/games/{game_id}")[1]["legal"]))
    same_board(page, server, game_id)
    assert page.evaluate("window.__sockets.length") >= 2
    # A page that falls behind (a burst of moves faster than it draws) still ends on the server's board.
    view = call(server, f"/api/games/{game_id}")[1]
    while not view["over"] and view["version"] < 60:
        view = act(server, game_id, tokens, "moves", move=rng.choice(view["legal"]))
    same_board(page, server, game_id)
    page.context.close()


def test_onyx_captures_and_open_midpoints_are_the_server_s(browser: Any, server: str) -> None:
    page, game_id, tokens = open_game(browser, server, "onyx", {})
    moves = onyx_game_with_captures()
    for number, move in enumerate(moves, start=1):
        view = act(server, game_id, tokens, "moves", move=move)
        if number % 5 == 0 or view["board"]["captures"] or number >= len(moves) - 2:
            same_board(page, server, game_id)
    captured = [label for label, cell in page.evaluate(PAGE_BOARD)["cells"].items() if cell["cross"]]
    assert captured or not call(server, f"/api/games/{game_id}")[1]["board"]["captures"]
    act(server, game_id, tokens, "undo")  # the capture taken back: the stones come back
    same_board(page, server, game_id)
    page.context.close()


def test_the_page_reads_every_delta_it_is_sent_in_the_order_sent(browser: Any, server: str) -> None:
    """What the page does with a delta is what `apply_delta` does: after a game's moves its view is
    the server's view (as the page keeps it) field by field."""
    page, game_id, tokens = open_game(browser, server, "omny", {"variant": "y", "size": 5})
    page.evaluate("""() => { window.__seen = []; window.__sockets[window.__sockets.length - 1]
        .addEventListener("message", function (event) { window.__seen.push(JSON.parse(event.data)); }); }""")
    rng = random.Random(3)
    for _ in range(6):
        act(server, game_id, tokens, "moves", move=rng.choice(call(server, f"/api/games/{game_id}")[1]["legal"]))
    same_board(page, server, game_id)
    seen = page.evaluate("window.__seen")
    kinds = {message["type"] for message in seen}
    assert "delta" in kinds and all(len(json.dumps(message)) < 2000 for message in seen if message["type"] == "delta")
    page.context.close()
