"""An Omiga table outlives a killed server (SIGKILL mid-game): the new process has every action with
its time, the tokens still hold their seats, the table waits for its people again and its clock
resumes at the last stored action's time."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from .serving import call, start_server, stop_server

pytestmark = pytest.mark.slow
DEAL = 7  # the seed the table is dealt from: a deal whose game outlasts the two actions below
websockets_client = pytest.importorskip("websockets.sync.client")


def until(ws: Any, wanted: Any, limit: int = 100) -> dict[str, Any]:
    for _ in range(limit):
        message = json.loads(ws.recv(timeout=20))
        if wanted(message):
            return message
    raise AssertionError("the message did not come")


def first_spot(view: dict[str, Any], seat: int) -> str:
    for card in view["seats"][seat]["hand"]:
        for cell, turned in card["spots"]:
            return f"{card['act']} {cell}" + (" turned" if turned else "")
    return "discard"


def play_one(base: str, table_id: str, tokens: dict[int, str], seat: int, seq: int) -> dict[str, Any]:
    """Open the table as both people, wait for the signal, make one action of a seat: its verdict."""
    with websockets_client.connect(base.replace("http", "ws") + f"/ws/o/{table_id}") as ws:
        ws.send(json.dumps({"type": "ready", "tokens": list(tokens.values())}))
        view = until(ws, lambda m: m.get("type") == "state" and m["started"])
        ws.send(json.dumps({"type": "act", "action": first_spot(view, seat), "token": tokens[seat], "seq": seq}))
        return until(ws, lambda m: m.get("type") == "verdict")


def test_a_killed_server_resumes_the_omiga_table(tmp_path: Path) -> None:
    database, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    process, base = start_server(database, log, deal=DEAL)
    try:
        status, made = call(base, "/api/omiga", {"options": {"width": 7, "height": 5},
                                                 "seats": [{"kind": "here"}, {"kind": "here"}]})
        assert status == 201
        table_id, tokens = made["id"], {int(seat): token for seat, token in made["tokens"].items()}
        first = play_one(base, table_id, tokens, 0, 1)
        assert first["accepted"], first
        before = call(base, f"/api/omiga/{table_id}")[1]
    finally:
        stop_server(process, kill=True)
    assert process.returncode == -9
    killed = time.monotonic()
    time.sleep(1.0)  # the server is down for a while: that time must not count
    process, base = start_server(database, log)  # the stored seed deals the decks again
    down = time.monotonic() - killed  # a second and the new server's start
    try:
        status, after = call(base, f"/api/omiga/{table_id}")
        assert status == 200 and after["moves"] == before["moves"] and after["table"] == before["table"]
        assert not after["started"] and after["clock"] == pytest.approx(first["t"], abs=0.001)
        second = play_one(base, table_id, tokens, 1, 1)  # a new server: the seat's sequence starts again
        assert second["accepted"], second
        assert first["t"] <= second["t"] < first["t"] + down  # only the time the table ran since
        record = call(base, f"/o/{table_id}/record.json")[1]
        assert [entry["by"] for entry in record["moves"]] == ["white", "black"]
        assert record["options"]["seed"] is None  # the decks stay secret while the game is on
    finally:
        stop_server(process)
