"""Faults end cleanly, over a real server process: a server killed with SIGKILL leaves none of
its workers (nor multiprocessing's resource tracker) behind, and a restart does not add to a pile;
a hostile sequence of requests and sockets leaves no traceback in the server's log."""

from __future__ import annotations

import base64
import json
import os
import random
import signal
import socket
import struct
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psutil
import pytest
from server_process import Server, post, receive, receive_until, request, serving, socket_to, start, stop, wait_for
from websockets.exceptions import ConnectionClosed

import ogames


def computer_game(server: Server) -> None:
    """A game in which the computer has moved (its worker started and searched)."""
    status, made = post(server, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 5},
                                               "seats": ["computer:1", "here"]})
    assert status == 201, made
    with socket_to(server, f"/ws/g/{made['id']}") as ws:
        receive_until(ws, lambda m: m["type"] == "state" and m["version"] == 1, timeout=120)


def analysed(server: Server) -> None:
    """An analysis done (an analysis worker started)."""
    rng = random.Random(1)
    state = ogames.load("omny", variant="y", size=4).new_state()
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    status, _, answer = request(server, "POST", "/api/analysis", {"record": state.record(), "ply": 1, "seconds": 0.2})
    assert status == 200, answer


def gone(processes: list[psutil.Process]) -> bool:
    return not any(process.is_running() and process.status() != psutil.STATUS_ZOMBIE for process in processes)


def test_a_killed_server_leaves_no_worker_and_a_restart_piles_up_none(tmp_path: Path) -> None:
    server = start(tmp_path)
    try:
        computer_game(server)
        analysed(server)
        family = server.descendants()
        commands = [" ".join(process.cmdline()) for process in family]
        assert sum("spawn_main" in command for command in commands) >= 2  # a move worker, an analysis worker
        assert any("resource_tracker" in command for command in commands)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(10)
        wait_for(lambda: gone(family), 30, "the killed server's workers are gone", poll=0.25)

        again = start(tmp_path)  # the same database and folder
        try:
            computer_game(again)
            analysed(again)
            assert len(again.descendants()) <= len(family)  # its own workers, no more than before
            assert gone(family)
        finally:
            stop(again)
    finally:
        stop(server)


# ----- a hostile sequence ------------------------------------------------------------------------


def raw(server: Server, data: bytes, read: bool = True) -> bytes:
    """Send bytes on a new connection; what comes back (nothing if `read` is false)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(data)
        if not read:
            return b""
        answer = b""
        try:
            while part := connection.recv(65536):
                answer += part
                if b"\r\n\r\n" in answer:
                    break
        except OSError:
            pass
        return answer


def websocket_head(path: str) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()


def half_a_frame(server: Server, path: str) -> None:
    """Open a WebSocket, send the start of a frame announcing more than follows, and hang up."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(websocket_head(path))
        connection.recv(4096)
        mask = os.urandom(4)
        connection.sendall(struct.pack("!BB", 0x81, 0x80 | 100) + mask + b"abc")


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with serving(tmp_path_factory.mktemp("hostile")) as running:
        yield running


def test_a_hostile_sequence_leaves_no_traceback_in_the_log(hostile_server: Server) -> None:
    server = hostile_server
    status, made = post(server, "/api/games", {"game": "omny", "options": {"variant": "y", "size": 3}})
    assert status == 201
    game_id, token = made["id"], made["tokens"]["0"]
    status, table = post(server, "/api/omiga", {"options": {}, "seats": [{"kind": "here"}, {"kind": "bot", "level": 1}]})
    assert status == 201
    bad_ids = [quote(bad, safe="%") for bad in ["x" * 40, "..%2F..%2Fetc", "%00", "ü" * 10, "' OR 1=1 --", game_id + "x"]]
    junk_bodies: list[Any] = [None, "", "[", "{}", [], 1, {"move": 1}, {"token": "x" * 10_000}, {"game": {"a": [[[[[]]]]]}}]
    for path in [f"/api/games/{game_id}/moves", f"/api/games/{game_id}/resign", f"/api/games/{game_id}/undo",
                 f"/api/games/{game_id}/join", "/api/games", f"/api/games/{game_id}/analysis", "/api/analysis",
                 "/api/replay/position", "/api/omiga", f"/api/omiga/{table['id']}/act", f"/api/omiga/{table['id']}/resign",
                 "/new/omny", "/new/omiga", "/replay"]:
        for body in junk_bodies:
            status, _, _ = request(server, "POST", path, body, source="127.0.0.41")
            assert status < 500, (path, body, status)
    for bad in bad_ids:
        for path in [f"/g/{bad}", f"/o/{bad}", f"/api/games/{bad}", f"/api/omiga/{bad}", f"/g/{bad}/record.json",
                     f"/g/{bad}/replay", f"/api/games/{bad}/position/1", f"/api/games/{game_id}/position/{bad}",
                     f"/rules/{bad}", f"/rules/images/{bad}", f"/replay/open?game={bad}"]:
            assert request(server, "GET", path, source="127.0.0.42")[0] < 500, path
    # Malformed HTTP, bodies too large, requests and sockets cut off midway.
    raw(server, b"GARBAGE / NONSENSE\r\n\r\n")
    raw(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"ga", read=False)
    raw(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n")
    raw(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
    raw(server, b"POST /replay HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                b"Content-Length: 30\r\n\r\n--b\r\nContent-Disposition: x\r\n", read=False)
    raw(server, websocket_head(f"/ws/g/{game_id}"), read=False)
    raw(server, websocket_head("/ws/g/" + "y" * 40))
    raw(server, websocket_head(f"/ws/o/{table['id']}"), read=False)
    half_a_frame(server, f"/ws/g/{game_id}")
    half_a_frame(server, f"/ws/o/{table['id']}")
    for path in (f"/ws/g/{game_id}", f"/ws/o/{table['id']}", "/ws/g/nothing-here", "/ws/o/nothing-here"):
        with socket_to(server, path) as ws:
            receive(ws)
            for message in (b"\x00\xff binary", "not json", "[" * 5000, '{"type": "move"}', '{"type": "act", "seq": -1}',
                            '{"type": "here", "tokens": ["' + "t" * 100 + '"]}', '{"type": "move", "move": "a1", "token": "'
                            + token + '", "version": 99}', "x" * 70_000):
                try:
                    ws.send(message)
                except Exception:
                    break
        # and one that is closed while the server still has answers to send (a socket to no game
        # may be closed by the server first, whenever its refusal arrives)
        with socket_to(server, path) as ws:
            for _ in range(40):
                try:
                    ws.send('{"type": "ping"}')
                except ConnectionClosed:
                    break
    # A page that closes while its analysis runs; a page that closes while it floods.
    record_state = ogames.load("omny", variant="y", size=3).new_state()
    while not record_state.is_over:
        record_state.play(record_state.legal_moves()[0])
    body = json.dumps({"record": record_state.record(), "ply": 0, "seconds": 3}).encode()
    raw(server, b"POST /api/analysis HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode() + body, read=False)
    assert request(server, "GET", "/")[0] == 200  # still serving
    wait_for(lambda: request(server, "GET", f"/api/games/{game_id}")[0] == 200, 30, "the server answers")
    log = server.log_text()
    assert "Traceback" not in log, log[max(0, log.index("Traceback") - 2000) : log.index("Traceback") + 3000]
    assert "Exception in ASGI application" not in log and "Task exception was never retrieved" not in log
