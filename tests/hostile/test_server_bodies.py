"""Request bodies beyond their route's limit are refused while they are read, over a real server
process: a chunked body (no length given) or one declared too long is answered 413 long before
the client has sent it, and eight such bodies at once do not grow the server's memory."""

from __future__ import annotations

import json
import select
import socket
import threading
from typing import Any

import psutil
import pytest
from server_process import Server, post, request, serving

from ogames.web.core.settings import Settings

MB = 1 << 20
HUGE = 50 * MB
CHUNK = 64 * 1024
# Memory the server may gain while eight clients send it 50 MB bodies at once (it gained 300 MB
# when it read them whole): its buffers for what it has read of them, and noise.
MEMORY_BOUND = 80 * MB


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with serving(tmp_path_factory.mktemp("bodies")) as running:
        yield running


def send_chunked(server: Server, path: str, total: int, content_type: str = "application/json") -> tuple[int, str, int]:
    """POST a body of `total` bytes in chunks (no length given), stopping as soon as the server
    answers or stops reading: (status, answer, bytes sent by then)."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=60)
    sent = 0
    try:
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
                "Transfer-Encoding: chunked\r\n\r\n")
        connection.sendall(head.encode())
        piece = f"{CHUNK:x}\r\n".encode() + b"[" * CHUNK + b"\r\n"
        while sent < total:
            if select.select([connection], [], [], 0)[0]:
                break  # an answer came while we were still sending
            try:
                connection.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break  # the server closed the connection: it reads no more
            sent += CHUNK
        return *read_answer(connection), sent
    finally:
        connection.close()


def read_answer(connection: socket.socket) -> tuple[int, str]:
    data = b""
    while b"\r\n\r\n" not in data:
        part = connection.recv(65536)
        if not part:
            break
        data += part
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    lengths = [int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
    length = lengths[0] if lengths else None
    while length is not None and len(body) < length:
        part = connection.recv(65536)
        if not part:
            break
        body += part
    return status, body.decode("utf-8", "replace")


def declared(server: Server, path: str, length: int) -> tuple[int, str]:
    """Send only the head of a POST declaring a body of `length` bytes: the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as connection:
        connection.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           f"Content-Length: {length}\r\n\r\n".encode())
        return read_answer(connection)


@pytest.mark.parametrize("path", ["/api/games", "/api/games/x/moves", "/api/omiga", "/new/omny", "/api/analysis"])
def test_a_chunked_body_past_the_limit_is_refused_while_the_client_still_sends(server: Server, path: str) -> None:
    status, answer, sent = send_chunked(server, path, HUGE)
    assert status == 413
    if path.startswith("/api/"):
        assert json.loads(answer)["code"] == "too-large"
    assert sent < HUGE // 4  # refused long before the client was done
    assert request(server, "GET", "/")[0] == 200  # and the server goes on


@pytest.mark.parametrize("path", ["/api/games", "/api/replay/position", "/replay"])
def test_a_body_declared_too_long_is_refused_before_it_is_sent(server: Server, path: str) -> None:
    status, answer = declared(server, path, HUGE)
    assert status == 413
    assert "too large" in answer


def test_the_record_routes_take_bodies_up_to_their_own_larger_limit(server: Server) -> None:
    settings = Settings()
    padding = "x" * (settings.max_body_bytes + 1000)  # over the other routes' limit, within the records'
    status, answer = post(server, "/api/replay/position", {"record": {"game": "omny", "pad": padding}, "ply": 0})
    assert status == 422 and answer["code"] != "too-large"
    status, answer, _ = send_chunked(server, "/api/replay/position", settings.max_record_bytes + 100 * 1024)
    assert status == 413 and json.loads(answer)["code"] == "too-large"


def test_an_upload_without_its_length_is_refused_unread(server: Server) -> None:
    status, answer, sent = send_chunked(server, "/replay", HUGE, content_type="multipart/form-data; boundary=x")
    assert status in (411, 413) and sent < HUGE // 4
    assert "upload form" in answer or "too large" in answer


def test_eight_huge_bodies_at_once_do_not_grow_the_servers_memory(server: Server) -> None:
    process = psutil.Process(server.process.pid)
    before = process.memory_info().rss
    peak = before
    results: list[tuple[int, str, int]] = []
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.wait(0.05):
            peak = max(peak, process.memory_info().rss)

    watcher = threading.Thread(target=watch)
    watcher.start()
    senders = [threading.Thread(target=lambda: results.append(send_chunked(server, "/api/games", HUGE))) for _ in range(8)]
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join(120)
    done.set()
    watcher.join()
    assert [status for status, _, _ in results] == [413] * 8
    assert peak - before < MEMORY_BOUND, f"the server grew by {(peak - before) / MB:.0f} MB"
