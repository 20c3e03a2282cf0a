"""What the environments show when rendered: the position as text (render_mode "ansi") or the
board as `ogames play` draws it, printed to stdout (render_mode "human")."""

from __future__ import annotations

import sys

from ogames.rules.protocol import State


def position_text(state: State) -> str:
    """The position in two lines: the state's summary and the moves so far."""
    moves = " ".join(entry["move"] for entry in state.history)
    return f"{state!r}\nmoves: {moves}"


def print_position(state: State) -> None:
    """The board as `ogames play` draws it, then the position's summary, on stdout."""
    from rich.console import Console

    from ogames.cli.render import render_state

    console = Console(file=sys.stdout, highlight=False)
    console.print(render_state(state))
    console.print(position_text(state), markup=False)


def render_position(state: State, render_mode: str | None) -> str | None:
    """An environment's `render`: "ansi", the position as text (returned); "human", the board as
    the terminal draws it, printed to stdout (returns None); any other mode, nothing."""
    if render_mode == "human":
        print_position(state)
        return None
    if render_mode != "ansi":
        return None
    return position_text(state)
