"""Getting the computer players ready in the terminal, and what is said about their moves.

The first game after an install compiles the numba kernels, which takes seconds: done during the
first computer move, the search would spend its whole budget compiling, play at random and claim a
win chance from a handful of playouts. So the kernels are warmed before play starts (saying so
when it takes a moment), and a win chance is shown only when it rests on enough playouts.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from rich.console import Console

from ogames.players.mcts import warm_up
from ogames.rules.protocol import State

PREPARING = "preparing the engine, first run only…"
# Warming that is not done after this many seconds is compiling: say so instead of seeming stuck.
QUIET_SECONDS = 0.3


def prepare_engine(console: Console, state: State, quiet_seconds: float = QUIET_SECONDS) -> None:
    """Warm the game's kernels before the first move; a message if it takes longer than a moment."""
    failure: list[BaseException] = []

    def work() -> None:
        try:
            warm_up(state)
        except Exception as exc:  # the game itself will report any real problem when it is played
            failure.append(exc)

    worker = threading.Thread(target=work, name="ogames-warm-up", daemon=True)
    worker.start()
    worker.join(quiet_seconds)
    if worker.is_alive():
        console.print(f"[dim]{PREPARING}[/]")
        worker.join()
        console.print("[dim]engine ready[/]")


def search_note(info: Mapping[str, Any]) -> str:
    """`(1.0 s, 18000 playouts, expects 62%)` for a computer move: the win chance only when reliable."""
    if not info.get("iterations"):
        return ""
    note = f"{info['seconds']:.1f} s, {info['iterations']} playouts"
    if info.get("value") is not None and info.get("reliable"):
        note += f", expects {info['value']:.0%}"
    return f"  [dim]({note})[/]"
