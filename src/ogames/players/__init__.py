"""Layer 4: players. Every player has a `name` and `choose(state) -> move`; `make_player` builds
one by kind for the faces ("human", "random", "mcts")."""

from __future__ import annotations

from typing import Any

from ogames.players.base import BasePlayer, HumanPlayer, Player
from ogames.players.mcts import MctsPlayer
from ogames.players.random_player import RandomPlayer

# Kind → class; a stronger AI registers here and every face can use it by name.
KINDS: dict[str, type[BasePlayer]] = {"human": HumanPlayer, "random": RandomPlayer, "mcts": MctsPlayer}


def make_player(kind: str, **kw: Any) -> BasePlayer:
    """A player of a kind ("human", "random", "mcts") with its keyword settings; ValueError if unknown.

    Settings a kind does not take are ignored (so a face may pass `think` and `seed` to every kind).
    """
    key = str(kind).strip().lower()
    if key not in KINDS:
        raise ValueError(f"unknown player kind {kind!r} (kinds: {', '.join(KINDS)})")
    cls = KINDS[key]
    accepted = {
        "human": {"name", "ask"},
        "random": {"name", "seed"},
        "mcts": {"name", "think", "iterations", "seed", "exploration", "playout"},
    }.get(key)
    if accepted is not None:
        kw = {k: v for k, v in kw.items() if k in accepted and v is not None}
    return cls(**kw)


__all__ = ["KINDS", "BasePlayer", "HumanPlayer", "MctsPlayer", "Player", "RandomPlayer", "make_player"]
