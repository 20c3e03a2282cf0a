"""A rematch across two server processes behind one PostgreSQL and one Redis (docs/web.md, "Lobby"):
the players' pages are on different processes; one offers a rematch through one process and the
other's page, on the other process, is told on its socket (not asked); the other agrees through its
own process, and both pages are told the new game — exactly one, with the colours swapped. The
services are started as tests/web/test_scale_out.py says."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from .scaling import needs_services
from .serving import call, start_server, stop_server
from .test_scale_out import VIEW_WAIT, Seat

pytestmark = pytest.mark.slow


def until_seen(tab: Seat, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The view a tab holds, or the first one it is sent, that is `wanted` (errors fail the test)."""
    deadline = time.monotonic() + VIEW_WAIT
    while not wanted(tab.view):
        message = json.loads(tab.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        assert message["type"] != "error", message
        if message["type"] == "state":
            tab.view = message
    return tab.view


@needs_services
def test_a_rematch_offered_on_one_process_is_seen_and_agreed_on_the_other(services: tuple[Any, Any], tmp_path: Path) -> None:
    from ogames.web.core.store import Store

    pg, redis = services
    url = pg.new_database("rematch_across")
    a, base_a = start_server(url, tmp_path / "a.log", redis=redis.url)
    b, base_b = start_server(url, tmp_path / "b.log", redis=redis.url)
    tabs: list[Seat] = []
    try:
        status, made = call(base_a, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 3},
                                                   "seats": ["here", "invite"], "clock": {"minutes": 5, "increment": 2}})
        assert status == 201, made
        game, black, white = made["id"], made["tokens"]["0"], made["invitations"]["1"]["token"]
        tabs = [Seat(base_a, game, 0, black), Seat(base_b, game, 1, white)]
        assert tabs[1].view["rematch"] is None  # not over yet: no rematch to offer
        assert call(base_a, f"/api/games/{game}/resign", {"token": black, "version": 0})[0] == 200
        assert until_seen(tabs[1], lambda view: view["over"])["rematch"] == {"offered": [], "game": None}

        status, first = call(base_a, f"/api/games/{game}/rematch", {"token": black})
        assert status == 200 and first["offered"] == [0] and first["game"] is None, first
        # Told on the other process's socket: black (seat 0) offers.
        assert until_seen(tabs[1], lambda view: (view["rematch"] or {}).get("offered") == [0])["rematch"]["game"] is None
        assert call(base_b, f"/api/games/{game}/rematch")[1] == {"offered": [0], "game": None, "over": True}

        status, second = call(base_b, f"/api/games/{game}/rematch", {"token": white})
        assert status == 200 and second["game"], second
        new = second["game"]
        for tab in tabs:  # both pages are told the new game, the first one through the bus
            assert until_seen(tab, lambda view: bool((view["rematch"] or {}).get("game")))["rematch"] == \
                {"offered": [0, 1], "game": new}

        # The colours are swapped: white of the first game (its new token) moves first, black's does not.
        assert call(base_a, f"/api/games/{new}/moves", {"move": "b2", "token": first["token"], "version": 0})[0] == 409
        assert call(base_a, f"/api/games/{new}/moves", {"move": "b2", "token": second["token"], "version": 0})[0] == 200
        # Offering again changes nothing: exactly one new game was made.
        assert call(base_a, f"/api/games/{game}/rematch", {"token": black})[1]["game"] is None
        store = Store(url)
        try:
            with store.engine.connect() as conn:
                assert conn.execute(text("SELECT count(*) FROM games")).scalar() == 2
                assert conn.execute(text("SELECT new_game_id FROM rematches WHERE game_id = :g"), {"g": game}).scalar() == new
        finally:
            store.close()
    finally:
        for tab in tabs:
            tab.close()
        stop_server(a)
        stop_server(b)
    for log in ("a.log", "b.log"):
        assert "Traceback" not in (tmp_path / log).read_text()
