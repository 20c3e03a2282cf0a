"""A rated Omiga table across two server processes behind one PostgreSQL and one Redis: its two
people's pages on different processes, the referee (the process that made it) rates it when it
ends and both pages are shown the same changes; then the referee stops, the other process takes
the ended table over, sees its end again and finds it rated: one history row per person. The
services are started as tests/web/test_scale_out.py says."""

from __future__ import annotations

import time
from typing import Any

import httpx2 as httpx
import pytest
from sqlalchemy import text

from .scaling import needs_services
from .serving import stop_server
from .test_ratings_scale_out import signed_up
from .test_scale_out_omiga import SMALL, TWO_PEOPLE, Tab, spot, two_workers

pytestmark = [pytest.mark.slow, needs_services]
__all__ = ["two_workers"]  # the fixture, used below


def history_rows(url: str, table_id: str) -> int:
    from ogames.web.core.store import Store

    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM rating_history WHERE game_id = :g"), {"g": table_id}).scalar_one())
    finally:
        store.close()


def test_a_rated_table_ending_across_two_processes_is_rated_once(two_workers: list[Any]) -> None:
    from ogames.web.accounts import records
    from ogames.web.core.store import Store

    url, _, tmp_path, (a, base_a), (_, base_b) = two_workers
    ada, ada_token = signed_up(base_a, "Omiga_Ada")
    signed_up(base_b, "Omiga_Bea")
    answer = ada.post("/api/omiga", json={"options": SMALL, "seats": TWO_PEOPLE, "rated": True},
                      headers={"origin": base_a, "x-csrftoken": ada_token})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    table_id, invited = body["id"], body["invitations"]["1"].split("seats=1.")[1]
    store = Store(url)
    try:  # Bea's page would record her seat as it opens the invitation (web/accounts/seats.py)
        bea = records.account_by_key(store, "omiga_bea")
        assert bea is not None and records.seat_player(store, table_id, 1, bea.id)
    finally:
        store.close()
    on_a = Tab(base_a, table_id, {0: body["tokens"]["0"]})  # the referee's page
    on_b = Tab(base_b, table_id, {1: invited})  # relayed
    try:
        view = on_a.until(lambda seen: seen["started"])
        on_a.act(0, spot(view, 0), 1)
        assert on_a.verdict(1)["accepted"]
        view = on_b.until(lambda seen: seen["count"] >= 1)
        on_b.act(1, spot(view, 1), 1)
        assert on_b.verdict(1)["accepted"]
        on_b.act(1, "resign", 2)  # Bea gives up on B; A referees it
        shown = [tab.until(lambda seen: bool(seen["over"] and seen.get("ratings")))["ratings"] for tab in (on_a, on_b)]
        assert shown[0] == shown[1] and [change["name"] for change in shown[0]] == ["Omiga_Ada", "Omiga_Bea"]
        assert int(shown[0][0]["diff"]) > 0 > int(shown[0][1]["diff"])
        assert history_rows(url, table_id) == 2
        # The referee stops; B, with a page open, takes the ended table over and sees its end again.
        on_a.close()
        stop_server(a)
        # B's own view of the table (not one relayed from A): its clock not started, as after a restart.
        on_b.until(lambda seen: not seen["started"], timeout=60)
        deadline = time.monotonic() + 60
        while (again := httpx.get(f"{base_b}/api/omiga/{table_id}", timeout=30).json()).get("ratings") is None:
            assert time.monotonic() < deadline, "B did not settle the table it took over"
            time.sleep(0.1)
        assert again["ratings"] == shown[0]
        assert history_rows(url, table_id) == 2
    finally:
        on_a.close()
        on_b.close()
    for log in ("a.log", "b.log"):
        assert "Traceback" not in (tmp_path / log).read_text()
