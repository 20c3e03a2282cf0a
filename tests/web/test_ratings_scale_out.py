"""A rated game across two server processes behind one PostgreSQL and one Redis (docs/web.md,
"Ratings"): its seats' pages on different processes, the game ends on one of them, and it is
rated once — both pages are shown the same changes, and the database holds one history row per
person. The services are started as tests/web/test_scale_out.py says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from sqlalchemy import text

from .scaling import needs_services, two_servers
from .test_scale_out import Seat

pytestmark = pytest.mark.slow


def signed_up(base: str, name: str) -> tuple[httpx.Client, str]:
    """A client holding a new account's session, and the CSRF token its pages carry."""
    client = httpx.Client(base_url=base, timeout=60)
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/signup").text)
    assert token
    answer = client.post("/signup", data={"csrftoken": token.group(1), "name": name, "password": "a long secret",
                                          "again": "a long secret"}, headers={"origin": base})
    assert answer.status_code == 303, answer.text
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/account").text)
    assert token
    return client, token.group(1)


@needs_services
def test_a_rated_game_ending_on_one_process_is_rated_once_and_shown_on_both(services: tuple[Any, Any],
                                                                            tmp_path: Path) -> None:
    from ogames.web.accounts import records
    from ogames.web.core.store import Store

    tabs: list[Seat] = []
    with two_servers(services, tmp_path, "rated_across") as (url, base_a, base_b):
        try:
            ada, ada_token = signed_up(base_a, "Across_Ada")
            signed_up(base_b, "Across_Bea")
            made = ada.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3},
                                                 "seats": ["here", "invite"], "rated": True},
                            headers={"origin": base_a, "x-csrftoken": ada_token})
            assert made.status_code == 201, made.text
            game = made.json()
            store = Store(url)
            try:  # Bea's page would record her seat as it opens the invitation (web/accounts/seats.py)
                bea = records.account_by_key(store, "across_bea")
                assert bea is not None and records.seat_player(store, game["id"], 1, bea.id)
            finally:
                store.close()
            tabs = [Seat(base_a, game["id"], 0, game["tokens"]["0"]),
                    Seat(base_b, game["id"], 1, game["invitations"]["1"]["token"])]
            view = tabs[0].view
            while not view["over"]:
                mover = tabs[view["mover"]]
                mover.until(view["version"])
                mover.move(next(move for move in view["legal"] if re.fullmatch(r"[a-z]\d+", move)))
                view = tabs[1 - view["mover"]].until(view["version"] + 1)
            # (the ratings come in a view of their own, once the game is rated)
            shown = [tab.until_seen(lambda view: bool(view.get("ratings")))["ratings"] for tab in tabs]
            assert shown[0] == shown[1] and [change["name"] for change in shown[0]] == ["Across_Ada", "Across_Bea"]
            store = Store(url)
            try:
                with store.engine.connect() as conn:
                    counted = conn.execute(text("SELECT count(*) FROM rating_history WHERE game_id = :g"),
                                           {"g": game["id"]}).scalar()
                assert counted == 2
            finally:
                store.close()
        finally:
            for tab in tabs:
                tab.close()
