"""Terminal drawings of game states: `render_state` finds the game's own module here
(`ogames.cli.render.<game name>`) and calls its `render(state, *, highlight, **kw)`."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ogames.rules.protocol import State, is_board_state


def last_move_labels(state: State) -> frozenset[str]:
    """Labels placed by the last move (all placements of the last turn in games such as Omega)."""
    if not state.history:
        return frozenset()
    last = state.history[-1]
    words = str(last.get("move", "")).split()
    if not is_board_state(state):
        return frozenset(w for w in words)
    board = state.board
    return frozenset(board.labels[board.index(w)] for w in words if board.has(w))


def render_state(state: State, *, highlight: Iterable[str] | None = None, last_move: bool = True, **kw: Any) -> RenderableType:
    """The game's drawing of a state; `highlight` marks cells (default: the last move's, if `last_move`)."""
    marked = frozenset(highlight) if highlight is not None else (last_move_labels(state) if last_move else frozenset())
    try:
        module = importlib.import_module(f"ogames.cli.render.{state.game.name}")
    except ImportError:
        return Text(f"(no drawing for {state.game.name} yet)\n{state!r}")
    return module.render(state, highlight=marked, **kw)


__all__ = ["last_move_labels", "render_state"]
