"""Attacks on rated Omiga tables (web/omiga/ with web/ratings/), against a server process over HTTP
and WebSockets: a guest asking for a rated table, an account asking for one on one screen or with
a bot that is no rated level, and someone not seated — an account watching, with its session —
trying to act, resign or take a seat of a rated table with tokens made up: each refused, with the
table, its seats and the ratings as they were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_web import Server, receive, rows, running
from test_accounts_attacks import Browser, sign_up
from websockets.sync.client import connect

SMALL = {"width": 7, "height": 5}
AGAINST_LEVEL = [{"kind": "here"}, {"kind": "bot", "level": 2}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("omiga-rated")) as server:
        yield server



def api(browser: Browser, path: str, body: dict[str, Any]) -> Any:
    """A JSON POST as a page's script sends it: its CSRF token in a header, the site's Origin."""
    return browser.http.post(path, json=body, headers={"origin": browser.server.base, "x-csrftoken": browser.token()})


def test_rated_tables_that_cannot_be_are_refused_and_nothing_is_stored(server: Server) -> None:
    guest, ada = Browser(server), sign_up(server, "Table_Ada")
    before = rows(server, "SELECT count(*) FROM games")
    answer = api(guest, "/api/omiga", {"options": SMALL, "seats": AGAINST_LEVEL, "rated": True})
    assert answer.status_code == 403 and answer.json()["code"] == "rated-account"
    for seats, code in (([{"kind": "here"}, {"kind": "here"}], "rated-one-screen"),
                        ([{"kind": "here"}, {"kind": "bot", "strategy": "greedy", "speed": 0.3}], "rated-bot-level")):
        answer = api(ada, "/api/omiga", {"options": SMALL, "seats": seats, "rated": True})
        assert answer.status_code == 400 and answer.json()["code"] == code, answer.text
    assert api(ada, "/api/omiga", {"options": SMALL, "seats": AGAINST_LEVEL, "rated": "yes"}).status_code == 422
    assert rows(server, "SELECT count(*) FROM games") == before


def test_someone_not_seated_cannot_act_resign_or_sit_at_a_rated_table(server: Server) -> None:
    bea, mallory = sign_up(server, "Table_Bea"), sign_up(server, "Table_Mallory")
    made = api(bea, "/api/omiga", {"options": SMALL, "seats": AGAINST_LEVEL, "rated": True})
    assert made.status_code == 201, made.text
    table, token = made.json()["id"], made.json()["tokens"]["0"]
    seats_before = rows(server, "SELECT seat, player_id FROM seat_players WHERE game_id = ? ORDER BY seat", table)
    assert len(seats_before) == 1  # Bea's own seat
    forged = [token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "x" * 43]
    cookie = "; ".join(f"{name}={value}" for name, value in mallory.http.cookies.items())
    address = server.ws + f"/ws/o/{table}"
    with connect(address, open_timeout=60, additional_headers={"cookie": cookie, "origin": server.base}) as ws:
        receive(ws, lambda message: message["type"] == "state")
        ws.send(json.dumps({"type": "ready", "tokens": forged}))
        for seq, message in enumerate(({"type": "resign", "token": forged[0]}, {"type": "act", "action": "discard",
                                                                                 "token": forged[1]}), start=1):
            ws.send(json.dumps({**message, "seq": seq}))
            verdict = receive(ws, lambda answer: answer["type"] in ("verdict", "error"))
            assert verdict.get("accepted") is not True and verdict.get("code") == "bad-token", verdict
    answer = api(mallory, f"/api/omiga/{table}/resign", {"token": forged[0], "seq": 7})
    assert answer.status_code == 403
    view = mallory.http.get(f"/api/omiga/{table}").json()
    assert not view["over"] and view["count"] == 0 and view["rated"] is True and view["ratings"] is None
    assert rows(server, "SELECT seat, player_id FROM seat_players WHERE game_id = ? ORDER BY seat", table) == seats_before
    assert rows(server, "SELECT count(*) FROM moves WHERE game_id = ?", table) == [(0,)]
    assert rows(server, "SELECT count(*) FROM rating_history") == [(0,)]
