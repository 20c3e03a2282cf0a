"""Short pauses from the garbage collector: what survived a full collection is left out of the next.

CPython's collector stops every thread, and so the event loop that carries every game's moves,
while it runs. Its young collections are short; a full one (generation 2) looks at every object
the server holds, and a server holds many: each open WebSocket keeps about 260 objects (the ASGI
stack's coroutines, its queues and events), so with ~800 sockets a full collection took ~130 ms on
the benchmark's machine. Full collections come each time the long-lived objects grew by a quarter,
which is exactly when people arrive, and each one delayed every move waiting behind it (the
community load, benchmarks/results/web-community-load.md).

So after each full collection, what survived it (long-lived by then) is frozen out of the
collector's sight (`gc.freeze`): the next full collection looks only at what came since, a
fraction of the heap. The price is that garbage in reference cycles among frozen objects is not
freed until they are looked at again: every `unfreeze_seconds` they are given back to the collector
(`gc.unfreeze`), whose next full collection looks at everything once, as it always did.

What the server loaded at start-up (the libraries, the rules' kernels) is frozen when it starts
(web/app.py); this adds the freezing of what comes after. `unfreeze_seconds` is a setting
(`Settings.gc_unfreeze_seconds`; 0: no freezing after start-up, CPython's own policy).
"""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

log = logging.getLogger("ogames.web")

UNFREEZE_SECONDS = 15 * 60.0  # how long cyclic garbage among long-lived objects may wait to be freed


class Collector:
    """The server's garbage collection policy while it runs (`start`, `close`)."""

    def __init__(self, unfreeze_seconds: float = UNFREEZE_SECONDS):
        self.unfreeze_seconds = unfreeze_seconds
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        gc.callbacks.append(self._collected)
        self._task = asyncio.get_running_loop().create_task(self._give_back(), name="ogames-collector")

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """After a full collection, freeze its survivors (the collection is over: only its bookkeeping
        is left, and freezing moves whole lists)."""
        if phase == "stop" and info["generation"] == 2:
            gc.freeze()

    async def _give_back(self) -> None:
        """Every `unfreeze_seconds`, give the frozen objects back to the collector (start-up's too:
        there is no unfreezing a part; they are frozen again after the next full collection)."""
        while True:
            await asyncio.sleep(self.unfreeze_seconds)
            log.info("garbage collector: %d long-lived objects given back to it", gc.get_freeze_count())
            gc.unfreeze()

    async def close(self) -> None:
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


__all__ = ["UNFREEZE_SECONDS", "Collector"]
