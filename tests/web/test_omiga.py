"""Omiga's card tables over the JSON API and WebSockets: the server is the referee with its own
clock; refused actions (wrong token, a card not in hand, an unknown cell, a taken cell, too early,
too late, sent again, too fast) change nothing; every accepted action is stored with its time
before anyone sees it, and a restarted server resumes the table."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from forgery import forge
from ogames.web import create_app
from ogames.web.omiga import bots as omiga_bots
from ogames.web.omiga import live as omiga_live
from ogames.web.omiga import routes as omiga_routes

from .conftest import quick_settings

SMALL = {"width": 7, "height": 5}
DEAL = 3  # the seed these tests' tables are dealt from (a creator may not choose it)
TWO_PEOPLE = [{"kind": "here"}, {"kind": "invite"}]


@pytest.fixture
def client(database: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    # The server deals every table from its secret seed; these tests know the deal, as a player cannot.
    monkeypatch.setattr(omiga_live, "secret_seed", lambda: DEAL)
    with TestClient(create_app(quick_settings(database, omiga_countdown=0.05))) as test_client:
        yield test_client


def new_table(client: TestClient, options: dict[str, Any] | None = None, seats: list[dict[str, Any]] | None = None) -> Any:
    response = client.post("/api/omiga", json={"options": SMALL if options is None else options, "seats": seats or TWO_PEOPLE})
    assert response.status_code == 201, response.text
    return response.json()


def tokens_of(body: dict[str, Any]) -> dict[int, str]:
    """Every seat's token: the creator's own and those inside the invitation links."""
    held = {int(seat): token for seat, token in body["tokens"].items()}
    for seat, link in body["invitations"].items():
        held[int(seat)] = link.split(f"seats={seat}.")[1]
    return held


def next_of(ws: Any, kind: str, until: Any = None, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        message = ws.receive_json()
        if message.get("type") == kind and (until is None or until(message)):
            return message
    raise AssertionError(f"no {kind} message arrived")


def started(ws: Any, tokens: list[str]) -> dict[str, Any]:
    """Say every seat of `tokens` is here and wait for the signal; the first view of play."""
    ws.send_json({"type": "ready", "tokens": tokens})
    return next_of(ws, "state", lambda view: view["started"])


def spot(view: dict[str, Any], seat: int) -> str:
    """A legal action of a seat, as the page would send it."""
    for card in view["seats"][seat]["hand"]:
        for cell, turned in card["spots"]:
            return f"{card['act']} {cell}" + (" turned" if turned else "")
    raise AssertionError("no card of this seat fits anywhere")


def stored(client: TestClient, table_id: str) -> int:
    return client.app.state.store.move_count(table_id)


def test_a_real_time_table_waits_for_its_people_then_takes_actions_with_the_servers_time(client: TestClient) -> None:
    body = new_table(client)
    tokens = tokens_of(body)
    assert set(tokens) == {0, 1} and body["invitations"]["1"].startswith(f"/o/{body['id']}#seats=1.")
    assert body["view"]["realtime"] and not body["view"]["started"]
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        first = next_of(ws, "state")
        assert [seat["actor"] for seat in first["seats"]] == ["white", "black"]
        assert all(len(seat["hand"]) == 3 and seat["hand"][0]["svg"].startswith("<svg") for seat in first["seats"])
        assert "<svg" in first["table"] and 'data-cell="d3"' in first["table"]
        assert first["seats"][0]["hand"][0]["spots"] == []  # no hints before the signal
        ws.send_json({"type": "act", "action": "discard", "token": tokens[0], "seq": 1})
        early = next_of(ws, "verdict")
        assert not early["accepted"] and early["code"] == "early"
        ws.send_json({"type": "ready", "tokens": [tokens[0]]})
        waiting = next_of(ws, "state")
        assert waiting["seats"][0]["ready"] and not waiting["seats"][1]["ready"] and waiting["signal_in"] is None
        view = started(ws, [tokens[1]])
        action = spot(view, 1)
        ws.send_json({"type": "act", "action": action, "token": tokens[1], "seq": 2})
        after = next_of(ws, "state", lambda v: v["count"] == 1)
        verdict = next_of(ws, "verdict")
        assert verdict["accepted"] and verdict["action"] == action and verdict["t"] >= 0
        assert after["moves"][0]["by"] == "black" and after["last"] == action.split()[2]
    assert stored(client, body["id"]) == 1
    record = client.get(f"/o/{body['id']}/record.json").json()
    assert record["moves"][0]["move"] == action and isinstance(record["moves"][0]["t"], float)


def test_hostile_actions_are_refused_with_the_reason_and_change_nothing(client: TestClient) -> None:
    body = new_table(client)
    other = tokens_of(new_table(client))
    tokens = tokens_of(body)
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        next_of(ws, "state")
        view = started(ws, [tokens[0], tokens[1]])
        white = view["seats"][0]["hand"]
        black_design = view["seats"][1]["hand"][0]["design"]
        absent = next(d for d in range(36) if d not in [c["design"] for c in white])
        start_cell = next(label for label in ("d3", "d2") if f'data-cell="{label}" data-stone' in view["table"])
        cases = [
            (other[0], "place 1 c3", "bad-token", "no seat"),  # another table's token
            ("A" * 43, "discard", "bad-token", "no seat"),
            (tokens[0], f"place {black_design} c3", "illegal", "not in white's hand"),
            (tokens[0], f"place {absent} c3", "illegal", "not in white's hand"),
            (tokens[0], f"place {white[0]['design']} z99", "illegal", "off the 7 × 5 table"),
            (tokens[0], f"place {white[0]['design']} {start_cell}", "illegal", f"{start_cell} is taken"),
            (tokens[0], "fly away", "illegal", "an action is"),
            (tokens[0], "black: discard", "illegal", "cannot act for black"),
        ]
        for seq, (token, action, code, words) in enumerate(cases, start=1):
            ws.send_json({"type": "act", "action": action, "token": token, "seq": seq})
            verdict = next_of(ws, "verdict")
            assert not verdict["accepted"] and verdict["code"] == code and words in verdict["reason"], (action, verdict)
        # A message sent again (the same seq, or an older one) is not done twice.
        good = spot(view, 0)
        ws.send_json({"type": "act", "action": good, "token": tokens[0], "seq": 100})
        assert next_of(ws, "verdict")["accepted"]
        ws.send_json({"type": "act", "action": "discard", "token": tokens[0], "seq": 100})
        again = next_of(ws, "verdict")
        assert again["code"] == "stale" and not again["accepted"]
        # The cell just taken: a second card there comes too late.
        cell = good.split()[2]
        late = client.get(f"/api/omiga/{body['id']}").json()["seats"][1]["hand"][0]
        ws.send_json({"type": "act", "action": f"{late['act']} {cell}", "token": tokens[1], "seq": 101})
        refused = next_of(ws, "verdict")
        assert not refused["accepted"] and f"{cell} is taken" in refused["reason"]
    assert stored(client, body["id"]) == 1
    record = client.get(f"/o/{body['id']}/record.json").json()
    assert len(record["moves"]) == 1 and any(r["reason"].endswith("is taken") for r in record["meta"]["rejected"])
    # Stored with the accepted action: its entry as the rules wrote it and the refusals until then
    # (the last one, after it, waits for the next accepted action).
    kept, held = client.app.state.store.load_game(body["id"]).record(), client.app.state.omiga.tables[body["id"]].state.record()
    assert kept["moves"] == held["moves"] and kept["meta"]["rejected"] == held["meta"]["rejected"][:-1]
    assert kept["meta"]["rejected"] and {**kept, "meta": None} == {**held, "meta": None}


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "act", "action": "discard", "token": "T", "seq": 1, "extra": 1}, "unknown field 'extra'"),
        ({"type": "act", "action": "discard", "token": "T", "seq": "1"}, "seq"),
        ({"type": "act", "action": "discard", "token": "T", "seq": -1}, "seq"),
        ({"type": "act", "action": "discard", "token": "T", "seq": True}, "seq"),
        ({"type": "act", "action": "x" * 61, "token": "T", "seq": 1}, "action"),
        ({"type": "act", "action": 7, "token": "T", "seq": 1}, "action"),
        ({"type": "act", "action": "discard", "token": "bad token!", "seq": 1}, "token"),
        ({"type": "ready", "tokens": ["T"] * 7}, "tokens"),
        ({"type": "move", "move": "a1"}, "act, ready, resign, ping"),
        ([1, 2], "valid"),
    ],
)
def test_malformed_messages_are_refused(client: TestClient, message: Any, words: str) -> None:
    body = new_table(client)
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        next_of(ws, "state")
        ws.send_text(json.dumps(message))
        error = next_of(ws, "error")
        assert error["code"] == "invalid" and words in error["message"]
        ws.send_text("{not json")
        assert next_of(ws, "error")["message"] == "the message is not JSON"
        ws.send_bytes(b"\x00\x01")
        assert "binary" in next_of(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
        assert next_of(ws, "error")["code"] == "too-large"
    assert stored(client, body["id"]) == 0


def test_a_flood_of_messages_is_slowed_then_cut_off(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # Almost no refill, so that the count does not depend on the machine's speed: on a loaded
    # machine a token refilled between two refusals forgave the row, and the socket stayed open.
    monkeypatch.setattr(omiga_routes, "RATE", 0.01)
    body = new_table(client)
    token = tokens_of(body)[0]
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        next_of(ws, "state")
        for seq in range(1, 400):
            ws.send_json({"type": "act", "action": "discard", "token": token, "seq": seq})
        codes = []
        try:
            while True:
                message = ws.receive_json()
                codes.append(message.get("code"))
        except Exception:  # the server closed the connection
            pass
    # The burst was judged, the rest refused unread; the next refusal after CUT_OFF in a row closed the socket.
    assert codes.count("early") == omiga_routes.BURST and codes.count("too-fast") == omiga_routes.CUT_OFF
    assert stored(client, body["id"]) == 0


def test_the_game_over_refuses_late_cards_and_resigning_ends_it(client: TestClient) -> None:
    body = new_table(client)
    tokens = tokens_of(body)
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        next_of(ws, "state")
        view = started(ws, [tokens[0], tokens[1]])
        action = spot(view, 0)
        ws.send_json({"type": "resign", "token": tokens[1], "seq": 1})
        over = next_of(ws, "state", lambda v: v["over"])
        assert over["result"]["winner"] == "white" and "black resigned" in over["result"]["reason"]
        ws.send_json({"type": "act", "action": action, "token": tokens[0], "seq": 2})
        late = next_of(ws, "verdict", lambda v: v["seq"] == 2)
        assert late["code"] == "over" and "the game is over" in late["reason"]
    assert stored(client, body["id"]) == 1


def test_the_json_api_takes_the_same_actions(client: TestClient) -> None:
    body = new_table(client, seats=[{"kind": "here"}, {"kind": "here"}])
    tokens = tokens_of(body)
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        next_of(ws, "state")
        view = started(ws, [tokens[0], tokens[1]])
    answer = client.post(f"/api/omiga/{body['id']}/act", json={"action": spot(view, 0), "token": tokens[0], "seq": 5})
    assert answer.status_code == 200 and answer.json()["accepted"]
    wrong = client.post(f"/api/omiga/{body['id']}/act", json={"action": "discard", "token": tokens[0], "seq": 5})
    assert wrong.status_code == 409 and wrong.json()["code"] == "stale"
    assert client.post(f"/api/omiga/{body['id']}/act", json={"action": "discard", "token": "x"}).status_code == 422
    assert client.get("/api/omiga/nosuchgame").status_code == 404
    assert client.get(f"/api/omiga/{body['id']}").json()["count"] == 1


def test_options_and_seats_are_checked_when_a_table_is_made(client: TestClient) -> None:
    cases = [
        ({"options": {"variant": "chess"}}, "bad-option"),
        ({"options": {"variant": "base", "form": "fly"}}, "bad-option"),
        ({"options": {"variant": "zen"}, "seats": [{"kind": "bot"}]}, "bad-seat"),
        ({"seats": [{"kind": "alien"}]}, "invalid"),
        ({"seats": [{"kind": "bot", "speed": 0.0001}]}, "invalid"),
        ({"seats": [{"kind": "here"}, {"kind": "bot", "level": 0}]}, "invalid"),
        ({"seats": [{"kind": "here"}, {"kind": "bot", "level": 11}]}, "invalid"),
        ({"seats": [{"kind": "here"}, {"kind": "bot", "level": "x"}]}, "invalid"),
        ({"options": {"cards": "AB/^ " * 200}}, "invalid"),
    ]
    for request, code in cases:
        answer = client.post("/api/omiga", json=request)
        assert answer.status_code in (400, 422) and answer.json()["code"] == code, (request, answer.text)


def test_a_2v2_table_of_bots_starts_and_plays(client: TestClient) -> None:
    bot = {"kind": "bot", "strategy": "random", "speed": 0.05}
    body = new_table(client, {"variant": "2v2", "width": 7, "height": 5, "target": 1}, [bot] * 4)
    assert body["tokens"] == {} and [s["actor"] for s in body["view"]["seats"]] == ["white1", "black1", "white2", "black2"]
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        view = next_of(ws, "state", lambda v: v["count"] >= 3, limit=2000)
    assert view["started"] and view["scores"] is not None and view["round"] >= 1
    assert stored(client, body["id"]) >= 3
    people = new_table(client, {"variant": "2v2"}, [{"kind": "here"}, bot, {"kind": "invite"}, bot])
    assert set(people["tokens"]) == {"0"} and set(people["invitations"]) == {"2"}


def test_toddler_for_four_takes_turns_with_bots(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(omiga_bots, "TURN_BOT_PAUSE", 0.01)
    seats = [{"kind": "here"}, {"kind": "bot"}, {"kind": "here"}, {"kind": "bot"}]
    body = new_table(client, {"variant": "toddler", "players": 4}, seats)
    tokens = tokens_of(body)
    view = body["view"]
    assert [s["colour"] for s in view["seats"]] == ["white", "black", "red", "blue"] and not view["realtime"]
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        view = next_of(ws, "state")
        assert view["to_move"] == "white" and view["started"]
        ws.send_json({"type": "act", "action": "discard", "token": tokens[2], "seq": 1})
        assert "not your turn" in next_of(ws, "verdict")["reason"]
        ws.send_json({"type": "act", "action": spot(view, 0), "token": tokens[0], "seq": 2})
        view = next_of(ws, "state", lambda v: v["to_move"] == "red")  # the bot (black) moved by itself
        ws.send_json({"type": "act", "action": spot(view, 2) if view["seats"][2]["hand"][0]["spots"] else "discard",
                      "token": tokens[2], "seq": 3})
        view = next_of(ws, "state", lambda v: v["to_move"] == "white")
    assert [m["by"] for m in view["moves"]] == ["white", "black", "red", "blue"]
    assert all(isinstance(m["t"], float) for m in view["moves"])


def test_kids_in_real_time_and_in_turns(client: TestClient) -> None:
    live = new_table(client, {"variant": "kids", "width": 7, "height": 5})["view"]
    assert live["realtime"] and all(len(seat["hand"]) == 1 for seat in live["seats"])
    turns = new_table(client, {"variant": "kids", "pace": "turns", "width": 7, "height": 5})["view"]
    assert not turns["realtime"] and turns["to_move"] == "white" and turns["seats"][0]["hand"][0]["act"] == "place"


def test_zen_shows_the_form_the_verdict_and_a_hint_and_is_completed(client: TestClient) -> None:
    body = new_table(client, {"variant": "zen", "form": "fly", "seed": 0}, [{"kind": "here"}])
    token = tokens_of(body)[0]
    view = body["view"]
    assert view["zen"]["verdict"]["status"] == "possible" and "<svg" in view["zen"]["form_svg"]
    assert view["seats"][0]["actions"] == ["start black", "start black turned"] or "start black" in view["seats"][0]["actions"]
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        view = next_of(ws, "state")
        for seq in range(1, 30):
            if view["over"]:
                break
            hint = view["zen"]["hint"]
            if hint["kind"] == "place":  # the page lights the hand card and the cell: the move says the same
                card = view["seats"][0]["hand"][hint["card"]]
                assert [hint["cell"], hint["turned"]] in card["spots"]
                assert hint["action"] == f"place {hint['card'] + 1} {hint['cell']}" + (" turned" if hint["turned"] else "")
            else:  # a button of the seat's actions
                assert hint["action"] in view["seats"][0]["actions"]
            ws.send_json({"type": "act", "action": hint["action"], "token": token, "seq": seq})
            assert next_of(ws, "verdict")["accepted"]
            view = client.get(f"/api/omiga/{body['id']}").json()
    assert view["over"] and view["zen"]["completed"] and view["zen"]["placed"] == view["zen"]["cells"] == 5
    impossible = new_table(client, {"variant": "zen", "form": "square"}, [{"kind": "here"}])["view"]
    assert impossible["zen"]["verdict"]["status"] == "impossible" and impossible["zen"]["level"] == "impossible"


def test_a_restarted_server_resumes_the_table_and_its_clock(database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(omiga_live, "secret_seed", lambda: DEAL)
    settings = quick_settings(database, omiga_countdown=0.05)
    with TestClient(create_app(settings)) as client:
        body = new_table(client)
        tokens = tokens_of(body)
        with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
            next_of(ws, "state")
            view = started(ws, [tokens[0], tokens[1]])
            time.sleep(0.3)
            ws.send_json({"type": "act", "action": spot(view, 0), "token": tokens[0], "seq": 1})
            first = next_of(ws, "verdict")
            assert first["accepted"] and first["t"] >= 0.25
    with TestClient(create_app(settings)) as client:
        view = client.get(f"/api/omiga/{body['id']}").json()
        assert view["count"] == 1 and not view["started"] and view["clock"] == pytest.approx(first["t"], abs=0.001)
        with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
            next_of(ws, "state")
            ws.send_json({"type": "act", "action": "discard", "token": tokens[1], "seq": 1})
            assert next_of(ws, "verdict")["code"] == "early"  # the table waits for its people again
            view = started(ws, [tokens[0], tokens[1]])
            ws.send_json({"type": "act", "action": spot(view, 1), "token": tokens[1], "seq": 2})
            second = next_of(ws, "verdict")
        assert second["accepted"] and first["t"] <= second["t"] < first["t"] + 1.0  # downtime does not count
        assert client.app.state.store.move_count(body["id"]) == 2


def test_the_form_page_and_the_table_page(client: TestClient) -> None:
    form = client.get("/new/omiga")
    assert form.status_code == 200 and 'name="seat0_kind"' in form.text and "zen-forms" in form.text
    made = client.post("/new/omiga", data={"opt_variant": "base", "opt_width": "7", "opt_height": "5", "seat0_kind": "here",
                                           "seat1_kind": "invite"}, follow_redirects=False)
    assert made.status_code == 303
    location = made.headers["location"]
    assert location.startswith("/o/") and "#seats=0." in location and "&invite=1." in location
    table_id = location.split("#")[0].rsplit("/", 1)[1]
    page = client.get(f"/o/{table_id}")
    assert page.status_code == 200 and "omiga.js" in page.text and 'data-cell="d3"' in page.text
    assert client.get(f"/g/{table_id}", follow_redirects=False).headers["location"] == f"/o/{table_id}"
    bad = client.post("/new/omiga", data={"opt_variant": "toddler", "opt_players": "9", "seat0_kind": "here"})
    assert bad.status_code == 400 and "players" in bad.text
    russian = client.get(f"/o/{table_id}?lang=ru")
    assert "Скачать запись партии" in russian.text


def test_idle_tables_beyond_the_limit_leave_memory_and_come_back_from_the_database(client: TestClient) -> None:
    hub = client.app.state.omiga
    hub.keep = 2
    made = [new_table(client)["id"] for _ in range(4)]
    assert len(hub.tables) == 2 and made[-1] in hub.tables
    view = client.get(f"/api/omiga/{made[0]}").json()
    assert view["id"] == made[0] and view["count"] == 0 and made[0] in hub.tables


def test_no_token_reaches_a_watcher_or_the_log(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="ogames.web")
    body = new_table(client)
    tokens = tokens_of(body)
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        seen = [json.dumps(next_of(ws, "state"))]
        seen.append(json.dumps(started(ws, list(tokens.values()))))
        ws.send_json({"type": "act", "action": spot(json.loads(seen[-1]), 0), "token": tokens[0], "seq": 1})
        seen.append(json.dumps(next_of(ws, "verdict")))
        ws.send_json({"type": "act", "action": "discard", "token": forge(tokens[0]), "seq": 2})
        seen.append(json.dumps(next_of(ws, "verdict")))
    seen.append(client.get(f"/o/{body['id']}").text + client.get(f"/o/{body['id']}/record.json").text)
    for token in tokens.values():
        assert all(token not in text for text in seen) and token not in caplog.text
    assert "omiga table" in caplog.text


def test_no_seed_reaches_the_log(client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed fixes the decks' order, which the rules hide: not even the log shows it while the game is on."""
    secret = 4_503_599_627_370_497
    monkeypatch.setattr(omiga_live, "secret_seed", lambda: secret)
    caplog.set_level(logging.INFO, logger="ogames.web")
    body = new_table(client)
    tokens = tokens_of(body)
    with client.websocket_connect(f"/ws/o/{body['id']}") as ws:
        view = started(ws, list(tokens.values()))
        ws.send_json({"type": "act", "action": spot(view, 0), "token": tokens[0], "seq": 1})
        assert next_of(ws, "verdict")["accepted"]
    assert client.app.state.store.load_game(body["id"]).record()["options"]["seed"] == secret
    assert "omiga table" in caplog.text and "action 1" in caplog.text and str(secret) not in caplog.text


def test_a_card_table_asked_for_as_a_board_game_and_a_board_game_as_a_table_say_where_they_are(client: TestClient) -> None:
    table = new_table(client)["id"]
    made = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}})
    assert made.status_code == 201
    board = made.json()["id"]
    as_board = client.get(f"/api/games/{table}")
    assert as_board.status_code == 404 and f"/o/{table}" in as_board.text
    as_table = client.get(f"/api/omiga/{board}")
    assert as_table.status_code == 404 and f"/g/{board}" in as_table.text
