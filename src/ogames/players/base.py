"""The player interface: anything that can choose a move for a state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from ogames.errors import CannotPlay
from ogames.rules.protocol import State


@runtime_checkable
class Player(Protocol):
    """A player: a name and `choose(state) -> move` for the seat `state.mover`.

    `reset()` (optional) forgets anything kept between moves, e.g. a search tree, when a game
    starts again or moves are taken back. Stronger AIs (RAVE, solvers, learned policies) implement
    the same two members, so faces and tournaments need no change to use them.
    """

    name: str

    def choose(self, state: State) -> str:
        """A legal move for the player who decides now (`state.mover`); the state is not changed."""
        ...


class BasePlayer:
    """Shared plumbing: a name, a no-op reset, and whether a person answers for it."""

    human: bool = False
    name: str = "player"

    def choose(self, state: State) -> str:
        """A legal move for the player who decides now (`state.mover`); each kind of player has its own."""
        raise NotImplementedError(f"{type(self).__name__} does not choose moves")

    def reset(self) -> None:
        """Forget anything remembered between moves (nothing by default)."""

    def info(self) -> Mapping[str, Any]:
        """What the player last found out (for display), by name; empty by default (the searches
        give a typed `ogames.players.mcts.SearchInfo`, which reads the same way)."""
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class HumanPlayer(BasePlayer):
    """A person: `choose` asks through a function (the terminal face reads moves itself instead)."""

    human = True

    def __init__(self, name: str = "human", ask: Callable[[State], str] | None = None):
        self.name = name
        self.ask = ask

    def choose(self, state: State) -> str:
        """The move the person gives (through `ask`)."""
        if self.ask is None:
            raise CannotPlay("a human player needs an `ask` function to be asked for moves")
        return self.ask(state)
