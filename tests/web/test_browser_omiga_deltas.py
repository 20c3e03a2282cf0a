"""An Omiga table sent once, in a real browser: the table page draws the table's frame once and
then puts in only the cells each delta says changed (web/core/delta.py). After every action, a cut
connection and a delta the page never got, the table on the page is the server's own drawing
(`ogames.draw`, through the JSON API): the same card on every cell, the same titles and the same
last-move mark, and the same moves listed."""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from .serving import call
from .test_browser import new_page, playwright_api, pytestmark

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
NS = "{http://www.w3.org/2000/svg}"

# Every WebSocket the page opens on its table (not the chat's or the lobby's: so that a test can cut
# one), and a way to lose the next
# `window.__lose` deltas before the page reads them (as if a message went missing).
SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__lose = 0;
  window.__sizes = [];
  function Kept(url, protocols) {
    const socket = new Native(url, protocols);
    if (!String(url).includes("/ws/o/")) return socket;
    window.__sockets.push(socket);
    const add = socket.addEventListener.bind(socket);
    socket.addEventListener = function (type, listener, options) {
      if (type !== "message") return add(type, listener, options);
      return add(type, function (event) {
        window.__sizes.push([JSON.parse(event.data).type, event.data.length]);
        if (window.__lose > 0 && JSON.parse(event.data).type === "delta") { window.__lose -= 1; return; }
        listener(event);
      }, options);
    };
    return socket;
  }
  Kept.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) { Kept[name] = Native[name]; });
  window.WebSocket = Kept;
})();"""

# The table as the page shows it: per cell its card (owner and face), its title and whether it is
# marked as the last move; the last move's outline; the moves listed.
PAGE_TABLE = """() => {
  const cells = {};
  document.querySelectorAll("#table g.cell[data-cell]").forEach(function (cell) {
    const card = cell.querySelector("g.card");
    cells[cell.dataset.cell] = {
      card: card ? card.getAttribute("data-owner") + " " + card.getAttribute("data-face") : null,
      title: cell.querySelector("title").textContent,
      frozen: cell.classList.contains("frozen"),
    };
  });
  const outline = Array.from(document.querySelectorAll("#table .last-move")).map(function (mark) { return mark.dataset.cell; });
  return {cells: cells, outline: outline, moves: document.querySelectorAll("#moves li").length};
}"""


def server_table(svg: str, moves: int) -> dict[str, Any]:
    """The same facts from the server's whole drawing of the table."""
    root = ET.fromstring(svg)
    cells = {}
    for group in root.iter(f"{NS}g"):
        if "cell" not in group.get("class", "").split():
            continue
        card = next((part for part in group.iter(f"{NS}g") if "card" in part.get("class", "").split()), None)
        title = group.find(f"{NS}title")
        cells[group.get("data-cell")] = {
            "card": None if card is None else f"{card.get('data-owner')} {card.get('data-face')}",
            "title": "" if title is None else title.text or "",
            "frozen": "frozen" in group.get("class", "").split(),
        }
    outline = [mark.get("data-cell") for mark in root.iter() if mark.get("class") == "last-move"]
    return {"cells": cells, "outline": outline, "moves": moves}


def same_table(page: Any, server: str, table_id: str) -> None:
    """Wait until the page shows the server's table (a generous deadline), then compare them."""
    view = call(server, f"/api/omiga/{table_id}")[1]
    expected = server_table(view["table"], len(view["moves"]))
    try:
        page.wait_for_function(f"expected => JSON.stringify(({PAGE_TABLE})()) === JSON.stringify(expected)",
                               arg=expected, timeout=20_000)
    except playwright_api.Error:
        pass  # the comparison below says what differs
    shown = page.evaluate(PAGE_TABLE)
    differ = {label: (shown["cells"].get(label), cell) for label, cell in expected["cells"].items()
              if shown["cells"].get(label) != cell}
    assert not differ and len(shown["cells"]) == len(expected["cells"]), differ
    assert shown["outline"] == expected["outline"] and shown["moves"] == expected["moves"]


SEQ = itertools.count(1)


def act(server: str, table_id: str, tokens: dict[str, str], lay: bool = True) -> dict[str, Any]:
    """A legal action through the JSON API: the seat to move's (a turn-based table) or any seat's
    that has one (real time): a card laid where it fits, else its other action (with `lay` False,
    its other action first: a real-time race of cards laid at random may end in a few)."""
    view = call(server, f"/api/omiga/{table_id}")[1]
    seats = [view["mover"]] if view["mover"] is not None else range(len(view["seats"]))
    for seat in seats:
        shown = view["seats"][seat]
        actions = [f"{card['act']} {cell}" + (" turned" if turned else "")
                   for card in shown["hand"] for cell, turned in card["spots"]]
        for action in actions[:1] + shown["actions"] if lay else shown["actions"] + actions[:1]:
            status, verdict = call(server, f"/api/omiga/{table_id}/act", {"action": action, "token": tokens[str(seat)],
                                                                          "seq": next(SEQ)})
            if status == 200:
                return verdict
    raise AssertionError(f"no seat could act: {json.dumps(view['result'])}, {view['moves'][-3:]}")


def open_table(browser: Any, server: str, options: dict[str, Any]) -> tuple[Any, str, dict[str, str]]:
    status, made = call(server, "/api/omiga", {"options": options, "seats": [{"kind": "here"}, {"kind": "here"}]})
    assert status == 201, made
    tokens = made["tokens"]
    page = new_page(browser)
    page.add_init_script(SOCKETS)
    fragment = ",".join(f"{seat}.{token}" for seat, token in tokens.items())
    page.goto(f"{server}/o/{made['id']}#seats={fragment}")
    playwright_api.expect(page.locator("#link-state")).to_have_text("live")
    return page, made["id"], tokens


@pytest.mark.parametrize("options", [{"variant": "toddler", "players": 2}, {"variant": "base", "width": 9, "height": 7}],
                         ids=["turns", "real-time"])
def test_every_action_a_cut_connection_and_a_lost_delta_show_the_server_s_table(browser: Any, server: str,
                                                                                 options: dict[str, Any]) -> None:
    page, table_id, tokens = open_table(browser, server, options)
    page.wait_for_function("() => window.__sizes.some(function (sent) { return sent[0] === 'state'; })")  # its first view, read
    if options["variant"] == "base":  # the page holds both seats: the signal comes by itself
        playwright_api.expect(page.locator("#status")).to_contain_text("Play!", timeout=20_000)
    drawn = page.locator("#table svg").element_handle()
    same_table(page, server, table_id)
    realtime = options["variant"] == "base"
    for number in range(8):
        act(server, table_id, tokens, lay=not realtime or number % 3 == 0)
        same_table(page, server, table_id)
    assert page.evaluate("drawn => drawn.isConnected", drawn)  # the frame was drawn once: the same element all along
    deltas = [size for kind, size in page.evaluate("window.__sizes") if kind == "delta"]
    assert deltas and max(deltas) < 20_000  # what changed, not the table
    # A delta lost: the next one is for a view the page does not hold, so it starts again whole.
    page.evaluate("window.__lose = 1")
    act(server, table_id, tokens, lay=not realtime)
    act(server, table_id, tokens, lay=not realtime)
    same_table(page, server, table_id)
    assert page.evaluate("window.__sockets.length") >= 2
    # The connection cut, actions made meanwhile: the page reconnects and shows the table as it is.
    sockets = page.evaluate("window.__sockets.length")
    page.evaluate("window.__sockets[window.__sockets.length - 1].close()")
    for _ in range(3):
        act(server, table_id, tokens, lay=not realtime)
    same_table(page, server, table_id)
    assert page.evaluate("window.__sockets.length") > sockets
    page.context.close()
