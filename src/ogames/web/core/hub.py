"""The ground both live hubs stand on (the board games' `boards.hub.Hub` and Omiga's
`omiga.live.OmigaHub`): the refusals they share and the record arithmetic they both do."""

from __future__ import annotations

import logging
from typing import Any

from ogames.web.core.common import Refusal
from ogames.web.core.store_faults import StorageError
from ogames.wording import say

log = logging.getLogger("ogames.web")


def other_kind(game_id: str, name: str) -> Refusal:
    """The answer of a hub asked for a game of the other kind (a card table on a board game's route,
    or a board game on a card table's): there is no such game here, and where it is."""
    if name == "omiga":
        return Refusal(say("a-card-table",
                           "there is no such board game: this is an Omiga card table, at {link}", link=f"/o/{game_id}"),
                       "not-found", 404)
    return Refusal(say("a-board-game", "there is no such card table: this is a board game, at {link}", link=f"/g/{game_id}"),
                   "not-found", 404)


def unavailable(exc: StorageError, about: str, what: str) -> Refusal:
    """The answer (503) to a request the database could not serve, nothing changed: `what` was
    not done, and why; one line in the log, no traceback (the fault is the database's, not a bug)."""
    log.warning("%s: %s: %s", about, what, exc)
    return Refusal(say("unavailable", "{what}: {reason}", what=what, reason=exc.args[0] if exc.args else ""), "storage", 503)


def not_your_turn(colour: str | None) -> str:
    """A move sent for a seat that is not to move."""
    return say("not-your-turn", "it is not your turn: {colour} is to move", colour=colour or "")


NO_SUCH_GAME = say("no-such-game-id", "there is no such game")
BAD_TOKEN = say("bad-token", "that token holds no seat in this game")


def first_change(before: list[Any], after: list[Any]) -> int:
    """The index of the first record entry an action changed (usually the one it appended)."""
    for index, (old, new) in enumerate(zip(before, after, strict=False)):
        if old != new:
            return index
    return min(len(before), len(after))


__all__ = ["BAD_TOKEN", "NO_SUCH_GAME", "first_change", "not_your_turn", "other_kind", "unavailable"]
