"""The computer's seats on the web: a level (1–10, `ogames.players.levels`) becomes the player spec
stored with the game, and a stored spec tells the level shown beside the seat.

A board game's computer at level N is `mcts:level=N,iterations=I,think=CAP`: the level's knobs
and its iteration budget I on the game's ladder, with the server's time cap (`Settings.ai_time_cap`) beside them. The
search stops at whichever comes first, so on small boards every level plays at its budget (its
measured strength) and on big ones a strong level never holds the worker longer than the cap.
The budget is written out because a level given a `think` time alone takes it as its budget at
level 10 (see `players/levels.py`), which would make level 10 think for the whole cap on every
move, however small the board.

Omiga's computer at level N is the real-time bot `omiga_spec(N)` (strategy and reaction time).
Games stored before levels hold other specs (`mcts:think=1`, `racer:reaction=casual`): they play
as they always did, shown without a level.
"""

from __future__ import annotations

from ogames.players import parse_spec
from ogames.players.levels import LEVELS, OMIGA_LEVELS, ladder
from ogames.rules.protocol import Game

__all__ = ["board_spec", "level_shown"]


def board_spec(level: int, cap: float, game: Game) -> str:
    """The spec of a board game's computer at a level of the game's ladder (three-player Omega has
    its own, `levels.ladder`), searching at most `cap` seconds a move.

    >>> import ogames
    >>> board_spec(7, 10, ogames.load("omny"))
    'mcts:level=7,iterations=4000,think=10'
    >>> board_spec(7, 10, ogames.load("omega", players=3))
    'mcts:level=7,iterations=800,think=10'
    """
    # KeyError is impossible: the protocol checked the level.
    iterations = ladder(game.name, game.options)[level].iterations
    return f"mcts:level={level},iterations={iterations},think={cap:g}"


# Omiga's levels were these bots before: tables stored then still show their level. First levels
# 2, 4 and 7 (before every level was made faster than the one below), then the ladder from 5 s to
# 0.05 s a card (before every level was put within a person's speed, docs/levels.md).
_FORMER_OMIGA = {
    "greedy:reaction=toddler": 2, "racer:reaction=child": 4, "rollout:reaction=club": 7,
    "random:reaction=toddler": 1, "greedy:reaction=4": 2, "greedy:reaction=child": 3, "racer:reaction=2.5": 4,
    "racer:reaction=casual": 5, "racer:reaction=club": 6, "rollout:reaction=1": 7, "rollout:reaction=expert": 8,
    "rollout:reaction=champion": 9, "rollout:reaction=machine": 10,
}
_OMIGA_BY_SPEC = {**_FORMER_OMIGA, **{spec: level for level, spec in OMIGA_LEVELS.items()}}


def level_shown(spec: str) -> int | None:
    """The level a stored seat spec plays at, or None (a person, or a spec from before levels).

    >>> level_shown("mcts:level=3,iterations=60,think=10"), level_shown("mcts:think=1")
    (3, None)
    >>> level_shown("racer:reaction=club"), level_shown("racer:reaction=child")
    (6, 4)
    """
    if spec in _OMIGA_BY_SPEC:
        return _OMIGA_BY_SPEC[spec]
    try:
        _, settings = parse_spec(spec)
    except Exception:  # a spec this version cannot read: no level to show
        return None
    level = settings.get("level", "")
    return int(level) if level.isdigit() and int(level) in LEVELS else None
