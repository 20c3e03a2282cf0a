"""The figures of a player's last search, as its `info()` gives them (`SearchInfo`).

`SearchInfo` is typed; it is also a read-only mapping of its fields, because `info()` is the
`Player` protocol's and the callers that read any player's figures by key keep working: the
terminal's note (`cli.engine.search_note`), the web analysis (`web/ai.py`), `ogames bench mcts`,
and the solver player, which merges its fallback's figures into its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

# The chosen move's mean reward is an estimate of the win chance only once this many playouts went
# through that move; below it `info()` marks the value as not reliable and faces should not show it.
MIN_PLAYOUTS_FOR_VALUE = 200


@dataclass(frozen=True)
class Probe:
    """`opponent=auto`'s first share of a search: its iterations and the worth it found (None:
    too few visits to tell)."""

    iterations: int
    value: float | None


@dataclass(frozen=True, eq=False)
class SearchInfo(Mapping[str, Any]):
    """Figures of a player's last search. `value` is the chosen move's worth to the player (a win
    chance), `reliable` whether it rests on at least MIN_PLAYOUTS_FOR_VALUE visits or a proof;
    `proven` "win"/"loss" when the solver settled it; `pv` the line expected; `nodes` the trees'
    nodes in use and `reused` the visits they held before this search; `by` "solver" when the
    connection solver chose the move, `avoided` the searched moves it proved lost; `workers` and
    `worker_iterations` with root parallelism; `probe` with `opponent=auto`."""

    move: str | None = None
    iterations: int = 0
    seconds: float = 0.0
    visits: int = 0
    value: float | None = None
    reliable: bool = False
    proven: str | None = None
    pv: tuple[str, ...] = ()
    nodes: int = 0
    reused: int = 0
    iterations_per_second: float = 0.0
    level: int | None = None
    workers: int = 1
    worker_iterations: tuple[int, ...] = ()
    probe: Probe | None = None
    by: str | None = None
    avoided: tuple[str, ...] = ()

    def __getitem__(self, key: str) -> Any:
        if key not in _FIELDS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(_FIELDS)

    def __len__(self) -> int:
        return len(_FIELDS)


_FIELDS = tuple(f.name for f in fields(SearchInfo))
