"""The referee of a table: every action — a person's from a page, a bot's from its task — is judged
here as the table stands when it arrives, on a copy of the state by the rules of its mode (real
time: `RealtimeState.act(actor, action, t)`; toddler, kids with `pace=turns` and zen: `play(move,
t=…)` by the seat to move), stored, and only then made the live state and shown. A refused action
changes nothing but the real-time record's list of refusals, and goes back to its sender with the
rules' reason."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ogames.errors import IllegalMove, OgamesError, shown
from ogames.rules.omiga.realtime import RealtimeState
from ogames.rules.protocol import State
from ogames.web.core.common import Refusal
from ogames.web.core.hub import new_entries, not_your_turn, unavailable
from ogames.web.core.store import StaleMove, Store
from ogames.web.core.store_faults import StorageError
from ogames.web.omiga.table import LiveTable
from ogames.web.omiga.view import actor_of, colour_of
from ogames.wording import say

log = logging.getLogger("ogames.web")

KEEP_REJECTED = 100  # refused actions kept in the record's meta (the newest)


class Referee:
    """Judges, stores and shows the actions of the tables a hub referees."""

    def __init__(self, store: Store, held: MutableMapping[str, LiveTable], announce: Callable[[LiveTable], Awaitable[None]]):
        self.store = store
        self.held = held  # the hub's tables: one the store has moved past is dropped (rebuilt when next opened)
        self.announce = announce
        # Called after every accepted action, once it is shown (the hub sets it: a turn-based bot may be to move).
        self.after: Callable[[LiveTable], None] = lambda live: None
        # Called once an action that ended the game is stored (the hub sets it: a rated table is rated).
        self.ended: Callable[[LiveTable], None] = lambda live: None

    @staticmethod
    def check_seq(live: LiveTable, seat: int, seq: int) -> None:
        """Refuse a seat's message whose number is not above its last: one sent again is not done again."""
        last = live.last_seq.get(seat, -1)
        if seq <= last:
            raise Refusal(say("seq-handled",
                              "message {seq} was already handled (the last was {last}): it is not done again", seq=seq,
                              last=last), "stale", 409)
        live.last_seq[seat] = seq

    async def apply(self, live: LiveTable, seat: int, action: str, arrived: float) -> dict[str, Any]:
        """Judge an action of a seat (arrived at monotonic time `arrived`) as the table stands now,
        store it, then show it: the verdict `{accepted, action, reason, code}` (and `t` when accepted)."""
        async with live.lock:
            state = live.state
            if state.is_over:
                over = say("game-over", "the game is over: {result}", result=state.result.describe())  # type: ignore[union-attr]
                return refused(action, over, "over")
            if not live.started:
                return refused(action, say("wait-signal", "wait for the signal: the game has not started yet"), "early")
            latest = state.clock if isinstance(state, RealtimeState) else 0.0  # the last accepted action's time
            when = max(live.clock() if live.origin is None else arrived - live.origin, latest)
            trial = state.clone()
            try:
                made = rules(trial, seat, action, when)
            except OgamesError as exc:
                reason = exc.reason if isinstance(exc, IllegalMove) else exc.said
                if isinstance(state, RealtimeState):
                    rejected = {"move": action, "by": actor_of(state, seat), "t": round(when, 3), "reason": str(reason)}
                    state.rejected.append(rejected)
                    del state.rejected[:-KEEP_REJECTED]
                return refused(action, reason, "illegal")
            if isinstance(trial, RealtimeState):
                del trial.rejected[:-KEEP_REJECTED]
            await self.commit(live, trial)
        await self.announce(live)
        self.after(live)
        return {"accepted": True, "action": made, "reason": "", "code": "ok", "t": round(when, 3)}

    async def commit(self, live: LiveTable, trial: State) -> None:
        """Store what a trial copy made — the record's head and the entry the rules wrote, whatever
        the length of the game — then make it the live state (the table's lock is held)."""
        first, entries = new_entries(live.state, trial)
        try:
            await asyncio.to_thread(self.store.add_entries, live.id, live.version, trial.record_head(), first, entries)
        except StaleMove:
            self.held.pop(live.id, None)
            raise Refusal(say("moved-on-reload", "the game has moved on: reload the page"), "stale", 409) from None
        except StorageError as exc:
            raise unavailable(exc, f"omiga table {live.id}", say("action-not-made",
                                                                 "the action could not be stored, so it was not made")) from None
        except Exception:
            log.exception("omiga table %s: could not store action %d", live.id, live.version + 1)
            raise Refusal(say("action-not-stored", "the action could not be stored, so it was not made: try again"), "storage",
                          503) from None
        live.state = trial
        live.version += 1
        entry = trial.history[-1] if trial.history else {}
        log.info("omiga table %s: action %d %s by %s at t=%s", live.id, live.version, shown(entry.get("move")), entry.get("by"),
                 entry.get("t"))
        if trial.is_over:
            self.ended(live)


def rules(trial: State, seat: int, action: str, when: float) -> str:
    """Apply an action to a copy of the state by the rules of its mode; the action as recorded."""
    if isinstance(trial, RealtimeState):
        return str(trial.act(actor_of(trial, seat), action, when)["move"])
    if action.strip().lower() == "resign":
        colour = colour_of(trial, seat)
        trial.resign(colour if colour is not None else trial.to_move, t=when)
        return "resign"
    if trial.mover != seat:
        raise IllegalMove(action, not_your_turn(trial.to_move))
    trial.play(action, t=when)
    return str(trial.history[-1]["move"])


def refused(action: str, reason: str, code: str) -> dict[str, Any]:
    """The verdict on an action not made."""
    return {"accepted": False, "action": action, "reason": reason, "code": code}


__all__ = ["KEEP_REJECTED", "Referee", "refused", "rules"]
