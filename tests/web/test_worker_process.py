"""A worker process (web/core/workers.py `_serve`) whose server stops while it starts: it has
nobody to say "ready" to, and must end quietly (exit code 0, no traceback in the server's log),
as a test server's log showed it did not."""

from __future__ import annotations

import multiprocessing
import os

from ogames.web.core.workers import _serve


def test_a_worker_whose_server_stopped_while_it_started_ends_quietly() -> None:
    context = multiprocessing.get_context("spawn")
    server_end, worker_end = context.Pipe()
    worker = context.Process(target=_serve, args=(worker_end, os.getpid(), 0), name="ogames-test-worker")
    worker.start()
    worker_end.close()  # (the server's copy of the worker's end)
    server_end.close()  # the server stops before the worker has loaded the searches and said "ready"
    worker.join(120)
    assert worker.exitcode == 0
