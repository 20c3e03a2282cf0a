"""The test servers' own helper (serving.py): a free port taken by another process before the
server binds it is tried again on another, and a port a test named is not (the failure it had:
a browser test's server refused to start, "port … is in use", on a busy machine)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from . import serving


def test_a_found_port_taken_before_the_server_binds_it_is_tried_again(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        found = iter([taken, serving.free_port()])
        monkeypatch.setattr(serving, "free_port", lambda: next(found))
        process, base = serving.start_server(tmp_path / "g.sqlite3", tmp_path / "server.log")
        try:
            assert not base.endswith(f":{taken}")
            assert f"port {taken} on 127.0.0.1 is in use" in (tmp_path / "server.log").read_text()
        finally:
            serving.stop_server(process)
        with pytest.raises(AssertionError, match="is in use"):  # the port the test named: once
            serving.start_server(tmp_path / "h.sqlite3", tmp_path / "other.log", port=taken)
