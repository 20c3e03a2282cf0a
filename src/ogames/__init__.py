"""ogames: Omny, Odd-Y, Omega, Onyx and Omiga — rules, records, players and faces.

    import ogames
    game = ogames.load("omny", variant="y", size=5)
    state = game.new_state()
    state.play("c3")
"""

from __future__ import annotations

from typing import Any

from ogames import kernel_cache  # noqa: F401  (first: it points numba's cache before any kernel loads)
from ogames.errors import BadOption, BadRecord, CannotPlay, IllegalMove, OgamesError, UnknownLabel
from ogames.records import replay
from ogames.rules import Game, Result, State, load
from ogames.rules import available as _available
from ogames.rules import game_class as _game_class

__version__ = "0.1.0"


def games() -> list[dict[str, Any]]:
    """Every game with its title, variants and options (for the command line and the web page)."""
    return [_game_class(name).describe() for name in _available()]


def player(kind: str, **options: Any) -> Any:
    """A player by name or spec, with `choose(state)`, `reset()` and `info()`:
    `ogames.player("mcts", think=1.0)`, `ogames.player("mcts:level=7")` (see `ogames.players`).
    The players' compiled kernels load on the first call, so `import ogames` stays light."""
    from ogames.players import player as make

    return make(kind, **options)


__all__ = [
    "BadOption",
    "BadRecord",
    "CannotPlay",
    "Game",
    "IllegalMove",
    "OgamesError",
    "Result",
    "State",
    "UnknownLabel",
    "games",
    "load",
    "player",
    "replay",
]
