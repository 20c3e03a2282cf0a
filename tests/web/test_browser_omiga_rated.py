"""A rated Omiga table in Chromium: an account makes it on the form (ticking "Rated") against a bot
level, the table is played to its end (the person's actions through the JSON API with the seat's
token from the page's link, the bot's on its own), and the page shows the rating change under the
result; the profile shows the Omiga rating and links the table. A guest's form offers no "Rated".
A screenshot of the table's end goes to $OGAMES_SCREENSHOTS when it is set.

The server runs as `ogames serve` in its own process (fixtures `server`, `browser` in conftest.py)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from .serving import COMPUTER_WAIT_MS
from .test_browser import expect, new_page, pytestmark
from .test_browser_ratings import sign_up

__all__ = ["pytestmark"]  # the browser tests' marks, from test_browser.py
WAIT = COMPUTER_WAIT_MS / 1000  # seconds: the bot's first action waits for its worker to start


def view_until(page: Any, server: str, table_id: str, wanted: Any) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    while not wanted(view := page.request.get(f"{server}/api/omiga/{table_id}").json()):
        assert time.monotonic() < deadline, "the table never got there"
        page.wait_for_timeout(100)
    return dict(view)


def an_action(view: dict[str, Any]) -> str:
    """A legal action of seat 0 as the page would send it: a card that fits, else a discard."""
    for card in view["seats"][0]["hand"]:
        for cell, turned in card["spots"]:
            return f"{card['act']} {cell}" + (" turned" if turned else "")
    return "discard"


def test_a_rated_table_shows_the_rating_change_at_its_end(browser: Any, server: str, shots: Path) -> None:
    guest = new_page(browser)
    guest.goto(server + "/new/omiga?lang=en")
    expect(guest.locator("#rated")).to_have_count(0)
    page = new_page(browser)
    page.set_default_timeout(COMPUTER_WAIT_MS)
    sign_up(page, server, "Orla")
    page.goto(server + "/new/omiga?lang=en")
    page.select_option("select[name=seat1_kind]", "bot")
    page.select_option("select[name=seat1_level]", "10")
    page.check("#rated")
    page.click("main button[type=submit]")
    expect(page.locator(".omiga")).to_have_count(1)
    table_id = str(page.locator(".omiga").get_attribute("data-table-id"))
    # The seat's token, as the page keeps it from its link (static/omiga.js).
    # The script keeps it only after the table's element is on the page, so wait for it.
    kept = "id => (JSON.parse(localStorage.getItem('ogames:omiga:' + id) || '{}').seats || {})['0'] || null"
    token = str(page.wait_for_function(kept, arg=table_id).json_value())
    view = view_until(page, server, table_id, lambda seen: seen["started"])  # the page said Orla is here
    assert view["rated"] is True
    acted = page.request.post(f"{server}/api/omiga/{table_id}/act", data={"action": an_action(view), "token": token,
                                                                          "seq": 10**6})
    assert acted.ok, acted.text()
    view_until(page, server, table_id, lambda seen: any(move["by"] == "black" for move in seen["moves"]) or seen["over"])
    page.request.post(f"{server}/api/omiga/{table_id}/resign", data={"token": token, "seq": 10**6 + 1})
    changes = page.locator("#rating-changes li")
    expect(changes).to_have_count(1)
    expect(changes).to_contain_text(re.compile(r"^Orla: 1500\? → \d+\? \(-\d+\)"))
    page.screenshot(path=str(shots / "web-omiga-rated-end.png"))
    page.goto(server + "/@/Orla")
    expect(page.locator('.pool-rating[data-pool="omiga"] .rating')).to_have_text(re.compile(r"^\d+\?$"))
    expect(page.locator(f'.recent-games a[href="/o/{table_id}"]')).to_have_count(1)
    page.context.close()
    guest.context.close()
