"""A rematch across two server processes behind one PostgreSQL and one Redis (docs/web.md, "Lobby"):
the players' pages are on different processes; one offers a rematch through one process and the
other's page, on the other process, is told on its socket (not asked); the other agrees through its
own process, and both pages are told the new game — exactly one, with the colours swapped. The
services are started as tests/web/test_scale_out.py says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from .scaling import needs_services, two_servers
from .serving import call
from .test_scale_out import Seat

pytestmark = pytest.mark.slow


@needs_services
def test_a_rematch_offered_on_one_process_is_seen_and_agreed_on_the_other(services: tuple[Any, Any], tmp_path: Path) -> None:
    from ogames.web.core.store import Store

    tabs: list[Seat] = []
    with two_servers(services, tmp_path, "rematch_across") as (url, base_a, base_b):
        try:
            status, made = call(base_a, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 3},
                                                       "seats": ["here", "invite"], "clock": {"minutes": 5, "increment": 2}})
            assert status == 201, made
            game, black, white = made["id"], made["tokens"]["0"], made["invitations"]["1"]["token"]
            tabs = [Seat(base_a, game, 0, black), Seat(base_b, game, 1, white)]
            assert tabs[1].view["rematch"] is None  # not over yet: no rematch to offer
            assert call(base_a, f"/api/games/{game}/resign", {"token": black, "version": 0})[0] == 200
            assert tabs[1].until_seen(lambda view: view["over"])["rematch"] == {"offered": [], "game": None}

            status, first = call(base_a, f"/api/games/{game}/rematch", {"token": black})
            assert status == 200 and first["offered"] == [0] and first["game"] is None, first
            # Told on the other process's socket: black (seat 0) offers.
            assert tabs[1].until_seen(lambda view: (view["rematch"] or {}).get("offered") == [0])["rematch"]["game"] is None
            assert call(base_b, f"/api/games/{game}/rematch")[1] == {"offered": [0], "game": None, "over": True}

            status, second = call(base_b, f"/api/games/{game}/rematch", {"token": white})
            assert status == 200 and second["game"], second
            new = second["game"]
            for tab in tabs:  # both pages are told the new game, the first one through the bus
                assert tab.until_seen(lambda view: bool((view["rematch"] or {}).get("game")))["rematch"] == \
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
