"""`ogames serve` as a process for the hostile tests (started and stopped as tests/web/serving.py
does, with every process it started); its process tree; HTTP requests and WebSockets from a chosen
loopback address (each address is another client to the server's per-client limits)."""

from __future__ import annotations

import http.client
import json
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
from websockets.sync.client import ClientConnection, connect

from web.serving import start_server, stop_server


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def descendants(self) -> list[psutil.Process]:
        """Every process the server started (its workers, multiprocessing's resource tracker)."""
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def start(folder: Path, timeout: float = 90.0) -> Server:
    """A server on a new SQLite file in `folder`, once it answers; its output goes to server.log."""
    log = folder / "server.log"
    process, base = start_server(folder / "g.sqlite3", log, timeout=timeout)
    return Server(process, int(base.rsplit(":", 1)[1]), log)


def stop(server: Server) -> None:
    """Stop the server politely, then end whatever of its tree is left (in its process group or not)."""
    family = server.descendants()
    stop_server(server.process)
    for process in family:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(family, timeout=10)


@contextmanager
def serving(folder: Path) -> Iterator[Server]:
    server = start(folder)
    try:
        yield server
    finally:
        stop(server)


def request(
    server: Server,
    method: str,
    path: str,
    body: Any = None,
    source: str = "127.0.0.1",
    timeout: float = 60.0,
) -> tuple[int, dict[str, str], Any]:
    """(status, headers, JSON answer or text) of one request from a loopback address."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"content-type": "application/json"} if data else {})
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        headers = {name.lower(): value for name, value in response.getheaders()}
        try:
            return response.status, headers, json.loads(text)
        except json.JSONDecodeError:
            return response.status, headers, text
    finally:
        connection.close()


def post(server: Server, path: str, body: Any, source: str = "127.0.0.1", timeout: float = 60.0) -> tuple[int, Any]:
    """(status, answer) of a JSON POST, asked again while the API's rate limit says wait."""
    for _ in range(200):
        status, _headers, answer = request(server, "POST", path, body, source, timeout)
        if status != 429 or not isinstance(answer, dict) or answer.get("code") != "rate-limited":
            return status, answer
        time.sleep(0.1)
    return status, answer


def socket_to(server: Server, path: str) -> ClientConnection:
    """A WebSocket to the server (`/ws/g/ID`, `/ws/o/ID`)."""
    return connect(f"ws://127.0.0.1:{server.port}{path}", open_timeout=30, close_timeout=5, max_size=2**24)


def receive(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=timeout))


def receive_until(ws: ClientConnection, accept: Callable[[dict[str, Any]], bool], timeout: float = 60.0) -> dict[str, Any]:
    """The first message `accept`s (the others are skipped), within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no such message arrived in time")
        message = receive(ws, left)
        if accept(message):
            return message


def wait_for(condition: Callable[[], Any], timeout: float, what: str, poll: float = 0.1) -> Any:
    """Poll until `condition()` is true-ish (its value), or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(poll)
