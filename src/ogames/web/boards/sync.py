"""Several server processes on one database (web/core/bus.py): a board game held here is kept in
step with the actions the others store — played on this copy when the message fits it, else read
again from the store — and with the seats they hand out, the take-backs asked and the rematches
offered there."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ogames.errors import OgamesError
from ogames.web.boards.live import LiveGame, RematchState
from ogames.web.boards.recorder import Recorder
from ogames.web.boards.takebacks import heard_undo_request
from ogames.web.core.bus import Bus
from ogames.web.core.store import Store
from ogames.web.core.store_faults import StorageError

log = logging.getLogger("ogames.web")

class Sync:
    """What a hub hears from the other server processes, applied to the games it holds."""

    def __init__(self, store: Store, bus: Bus, recorder: Recorder, held: Mapping[str, LiveGame], loading: asyncio.Lock,
                 announce: Callable[[LiveGame], Awaitable[None]], after: Callable[[LiveGame], None]):
        self.store = store
        self.bus = bus
        self.recorder = recorder
        self.held = held  # the hub's games in memory
        self.loading = loading  # the hub's lock while it loads a game
        self.announce = announce
        self.after = after  # what the hub does once a game has changed (the computer's turn)
        self.ended: Callable[[LiveGame], None] = lambda live: None  # a game ended there (the hub sets it: ratings)

    async def heard(self, game_id: str, version: int, action: dict[str, Any]) -> None:
        """Another server process stored action `version` of a game: bring this process's copy (if
        it holds the game) in step, and show it to the pages watching here."""
        live = self.held.get(game_id)
        if live is None and self.loading.locked():
            async with self.loading:  # it may be loading right now, from before that action
                live = self.held.get(game_id)
        if live is None:
            return
        async with live.lock:
            if action.get("seats"):  # a seat was taken there: its token must hold here too
                await self._reload_seats(live)
            elif "hints" in action:  # a learner took a hint there: the count shown here too
                used = action["hints"]
                if type(used) is not int or used <= live.hints_used:
                    return
                live.hints_used = used
            elif "undo" in action:  # a take-back asked, agreed to or declined there
                if version != live.version or not heard_undo_request(live, action["undo"]):
                    return  # about another position (this copy is behind or ahead), or not ours
            elif "rematch" in action:  # a rematch offered or made there: merged into what is known here
                heard = RematchState.parsed(action["rematch"], len(live.seat_kinds))
                if heard is None:
                    return
                if version > live.version:
                    await self.recorder.reload(live)  # the game's end has not reached this copy yet
                live.rematch = live.rematch.merged(heard)
            elif live.version >= version:
                return
            # A clock's times are not in the message: a timed game is read again from the store.
            elif version != live.version + 1 or live.clock is not None or not _apply(live, action):
                await self.recorder.reload(live)  # a message was missed, or it does not apply: read the store
            live.thinking = not live.state.is_over and live.is_computer(live.state.mover)
        if live.state.is_over:
            self.ended(live)
        await self.announce(live)
        self.after(live)

    async def _reload_seats(self, live: LiveGame) -> None:
        """Read a game's seat kinds and token digests again (the game's lock is held)."""
        try:
            row = await asyncio.to_thread(self.store.load_game, live.id)
            digests = await asyncio.to_thread(self.store.token_digests, live.id)
        except StorageError as exc:
            log.warning("game %s: its seats could not be read again: %s", live.id, exc)
            return
        except Exception:
            log.exception("game %s: its seats could not be read again", live.id)
            return
        if row is not None:
            live.seat_kinds, live.digests = row.seat_kinds, digests

    async def resync(self) -> None:
        """Messages may have been missed (the bus reconnected): re-read every game held here."""
        for live in list(self.held.values()):
            await self.heard(live.id, 1 << 62, {})

    async def catch_up(self, live: LiveGame) -> None:
        """Bring a game held here up to date with the store: another server process may have stored
        an action this copy has not heard of — its message is late or lost, or that process died
        between storing the action and telling the others."""
        if not self.bus.shared:
            return
        try:
            stored = await asyncio.to_thread(self.store.version_of, live.id)
        except StorageError as exc:  # the database is away: the copy held here is the best there is
            log.warning("game %s: its stored version could not be read: %s", live.id, exc)
            return
        if stored is not None and stored > live.version:
            await self.heard(live.id, stored, {})  # as if its message had come: read the store

def _apply(live: LiveGame, action: dict[str, Any]) -> bool:
    """Play an action another process stored on this copy of the game at the version before it,
    at the time it was made (the rules are deterministic, so both copies end the same, which the
    record entry it wrote confirms); False if it does not apply."""
    trial, entry = live.state.clone(), action.get("entry")
    if not isinstance(entry, dict):
        return False
    try:
        if "move" in action:
            trial.play(str(action["move"]), t=entry.get("t"))
        elif "resign" in action:
            trial.resign(str(action["resign"]), t=entry.get("t"))
        else:
            return False
    except (OgamesError, NotImplementedError, ValueError, KeyError, TypeError):
        return False
    if not trial.history or json.loads(json.dumps(trial.history[-1])) != entry:
        return False  # the rules wrote it otherwise here: the store has the truth
    live.state, live.version, live.problem = trial, live.version + 1, None
    return True

__all__ = ["Sync"]
