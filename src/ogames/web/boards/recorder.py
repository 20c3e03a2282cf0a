"""Every change of a live board game goes through `Recorder.commit`: stored first (the action, the
record entry it made and the clock after it), then made the live state, then told to the other
server processes; `reload` reads a game again from the store when this copy fell behind."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ogames.errors import shown
from ogames.rules.protocol import State
from ogames.web.boards import clock as clocks
from ogames.web.boards.clock import NoTakeBack
from ogames.web.boards.correspondence import deadline_of, stored_clock
from ogames.web.boards.live import LiveGame, rebuild
from ogames.web.core.bus import Bus
from ogames.web.core.common import Refusal
from ogames.web.core.hub import new_entries, unavailable
from ogames.web.core.store import ABORTED, StaleMove, Store
from ogames.web.core.store_faults import StorageError
from ogames.wording import say

log = logging.getLogger("ogames.web")


class Recorder:
    """Stores a game's actions and keeps the live copy equal to what is stored."""

    def __init__(self, store: Store, bus: Bus, announce: Callable[[LiveGame], Awaitable[None]],
                 held: MutableMapping[str, LiveGame]):
        self.store = store
        self.bus = bus
        self.announce = announce
        self.held = held  # the hub's games in memory: a game that cannot be read again is dropped
        # Called after every change of a game's position or clock (the hub sets it: the clock's timer is set again).
        self.changed: Callable[[LiveGame], None] = lambda live: None
        # Called when a change ended the game (the hub sets it: a rated game is rated).
        self.ended: Callable[[LiveGame], None] = lambda live: None
        # Told of every change once it is stored and made (the notifications, web/notify/); each must not wait.
        self.committed: list[Callable[[LiveGame], None]] = []

    async def commit(
        self,
        live: LiveGame,
        trial: State,
        action: dict[str, Any] | None = None,
        *,
        undo: bool = False,
        flagged: int | None = None,
    ) -> None:
        """Store the action a trial copy of the live state made (and the clock after it), then make
        the copy the live state and tell the other server processes (the game's lock is held).
        `action` is what they play on their copies ({"move": m} or {"resign": colour}); without it
        (an undo, a loss on time) they re-read the game."""
        first, entries = new_entries(live.state, trial)  # the entry the rules made (or rewrote; none: taken back)
        head = trial.record_head()
        entry = dict(trial.history[-1]) if trial.history else {}
        clock = live.clock
        if clock is not None:
            next_mover = None if trial.is_over else trial.mover
            if flagged is not None:
                clock = clock.flag(flagged)
            elif undo:
                computers = {seat for seat in range(len(live.seat_kinds)) if live.is_computer(seat)}
                try:
                    clock = clock.taken_back(len(trial.history), live.state.mover, next_mover, computers, now=clocks.now())
                except NoTakeBack as exc:
                    raise Refusal(say("no-take-back",
                                      "this cannot be taken back: {reason}", reason=exc.args[0] if exc.args else ""),
                                  "no-undo", 409) from None
            else:
                clock = clock.after_action(live.state.mover, next_mover, over=trial.is_over, now=clocks.now(),
                                           ply=len(trial.history))
        stored = None if clock is None else clock.stored()
        try:
            await asyncio.to_thread(self.store.add_entries, live.id, live.version, head, first, entries, stored,
                                    deadline_of(stored), taken_back=undo)
        except StaleMove:
            # Another server process on the same database stored an action first: catch up here
            # (the pages hold this object, so it is brought up to date in place).
            await self.reload(live)
            await self.announce(live)
            raise Refusal(say("moved-on", "the game has moved on: look at the board again"), "stale", 409) from None
        except StorageError as exc:
            what = (say("move-not-made", "the move could not be stored, so it was not made") if action and "move" in action
                    else say("action-not-made", "the action could not be stored, so it was not made"))
            raise unavailable(exc, f"game {live.id}", what) from None
        except Exception:
            log.exception("game %s: could not store action %d", live.id, live.version + 1)
            raise Refusal(say("move-not-stored",
                              "the move could not be stored, so it was not made: try again"), "storage", 503) from None
        was_over = live.state.is_over
        live.state = trial
        live.version += 1
        live.problem = None
        live.clock = clock
        self.changed(live)
        if trial.is_over and not was_over:
            self.ended(live)
        if undo:
            log.info("game %s: taken back to %d moves", live.id, len(trial.history))
        else:
            log.info("game %s: move %d %s by %s", live.id, len(trial.history), shown(entry.get("move")), entry.get("by"))
        # With the entry as stored (its time too), so that the other copies end exactly the same.
        await self.bus.publish(live.id, live.version, {**action, "entry": entry} if action else {})
        for listener in self.committed:
            listener(live)

    async def reload(self, live: LiveGame) -> None:
        """Rebuild a live game in place from the database (the game's lock is held)."""
        try:
            row = await asyncio.to_thread(self.store.load_game, live.id)
            if row is not None:
                live.hints_used = max(live.hints_used, row.hints_used)  # taken on another server process
            if row is not None and row.version != live.version:
                live.state, live.version, live.problem = rebuild(row), row.version, None
                live.clock = stored_clock(row.clock)
                live.aborted = row.status == ABORTED
                self.changed(live)
                if live.state.is_over:
                    self.ended(live)
        except Exception as exc:
            if isinstance(exc, StorageError):
                log.warning("game %s: could not be read again from the database: %s", live.id, exc)
            else:
                log.exception("game %s: could not be read again from the database", live.id)
            if self.held.get(live.id) is live:
                del self.held[live.id]  # the next visit rebuilds it

__all__ = ["Recorder", "new_entries"]
