"""Games that end without being played out: aborted before every person has moved, and won by a
claim over a person who left.

**Aborting.** Until every person's seat has made a move the game has not really begun: any of its
people may abort it, and a correspondence game whose seat lets its first turn's days run out is
aborted by the server. An aborted game has no result (its record ends as it was, with none) and is
stored with the status `aborted`, so that ratings skip it; nobody can move in it again.

**Claiming.** In a live game (not correspondence: days per move are for people who come and go) a
person whose opponent's page has been closed for the grace period (`Settings.claim_grace`, 60
seconds unless the server is set otherwise; the hub gives each game it holds the server's) may
claim the win: the seat that left resigns. The time a seat has been away is measured from when this server process last saw it
leave (or found it away when the game was loaded), on the clocks' time (`clock.now`).

Both are refused with a reason, changing nothing, when they do not apply.
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

from ogames.errors import OgamesError
from ogames.web.boards import clock as clocks
from ogames.web.boards.live import HUMAN, INVITED, LiveGame, seat_colour, seats_that_moved
from ogames.web.boards.recorder import Recorder
from ogames.web.core.bus import Bus
from ogames.web.core.common import Refusal
from ogames.web.core.hub import unavailable
from ogames.web.core.store import StaleMove, Store
from ogames.web.core.store_faults import StorageError
from ogames.wording import say

log = logging.getLogger("ogames.web")

CLAIM_GRACE = 60.0  # seconds a person's page must have been closed before the others may claim the win (the default)


class Endings:
    """Aborts and claims of a hub's games (the game's lock is held by the caller of each action)."""

    def __init__(self, store: Store, bus: Bus, recorder: Recorder):
        self.store = store
        self.bus = bus
        self.recorder = recorder

    # ----- aborting ---------------------------------------------------------------------------

    def check_abort(self, live: LiveGame) -> None:
        """Refusal unless the game may be aborted now (`abort_refusal`)."""
        refusal = abort_refusal(live)
        if refusal is not None:
            raise refusal

    async def abort(self, live: LiveGame) -> None:
        """End the game as aborted: stored first (at the version the live copy holds), then made the
        live game's, then told to the other server processes. Refusal (nothing changed) if another
        process changed the game first or the database cannot store it."""
        stopped = None if live.clock is None else live.clock.stopped()
        try:
            await asyncio.to_thread(self.store.abort_game, live.id, live.version, None if stopped is None else stopped.stored())
        except StaleMove:
            await self.recorder.reload(live)
            raise Refusal(say("moved-on", "the game has moved on: look at the board again"), "stale", 409) from None
        except StorageError as exc:
            raise unavailable(exc, f"game {live.id}", say("abort-not-stored",
                                                          "the abort could not be stored, so the game goes on")) from None
        live.aborted, live.version, live.clock = True, live.version + 1, stopped
        self.recorder.changed(live)
        log.info("game %s: aborted", live.id)
        await self.bus.publish(live.id, live.version, {})  # the others read the game again

    # ----- claiming a win over a person who left ----------------------------------------------------

    def check_claim(self, live: LiveGame, claimer: int, seat: int, at: float | None = None) -> None:
        """Refusal unless `claimer` may claim the win over `seat` now."""
        if live.ended:
            raise Refusal(say("claim-over", "the game is over: there is nothing to claim"), "over", 409)
        if live.clock is not None and live.clock.correspondence:
            raise Refusal(say("claim-correspondence",
                              "a correspondence game has days for every move: a player who is away loses only on time"),
                          "no-claim", 409)
        if not 0 <= seat < len(live.seat_kinds):
            raise Refusal(say("no-such-seat-n", "there is no seat {n}", n=seat + 1), "bad-seat", 422)
        if seat == claimer:
            raise Refusal(say("claim-own-seat", "you cannot claim a win over your own seat"), "no-claim", 409)
        if seat not in taken_seats(live) or live.seat_kinds[claimer] == live.seat_kinds[seat] == HUMAN:
            raise Refusal(say("claim-not-elsewhere", "seat {n} is not a person playing in another browser", n=seat + 1),
                          "no-claim", 409)
        since = live.gone_since.get(seat)
        if seat in live.present or since is None:
            raise Refusal(say("claim-here", "seat {n} is here: its page is open", n=seat + 1), "no-claim", 409)
        wait = live.claim_grace - (clocks.time_or_now(at) - since)
        if wait > 0:
            raise Refusal(say("claim-wait", "seat {n} left only a moment ago: wait {s} seconds more before claiming the win",
                              n=seat + 1, s=math.ceil(wait)), "too-early", 409)

    async def claim(self, live: LiveGame, claimer: int, seat: int) -> None:
        """The seat that left resigns (the claim checked first: `check_claim`)."""
        self.check_claim(live, claimer, seat)
        colour = seat_colour(live.state, seat)
        if colour is None:
            raise Refusal(say("no-colour-to-resign", "this seat has no colour to resign"), "illegal", 422)
        trial = live.state.clone()
        try:
            trial.resign(colour)
        except (OgamesError, NotImplementedError) as exc:
            raise Refusal(str(exc), "illegal", 422) from None
        await self.recorder.commit(live, trial, {"resign": colour})
        log.info("game %s: seat %d claimed the win over seat %d, which left", live.id, claimer + 1, seat + 1)


def abort_refusal(live: LiveGame) -> Refusal | None:
    """Why the game may not be aborted now, or None: it must be on, between people in different
    browsers (on one screen or against the computer, resigning is the way out), with a person's
    seat that has not moved yet, and no computer to move (its move is on its way)."""
    if live.ended:
        return Refusal(say("abort-over", "the game is over: it cannot be aborted"), "over", 409)
    if not live.online:
        return Refusal(say("abort-alone", "only a game between people in different browsers can be aborted"), "no-abort", 409)
    people = {seat for seat in range(len(live.seat_kinds)) if not live.is_computer(seat)}
    if people <= seats_that_moved(live.state, people):
        return Refusal(say("abort-too-late", "every player has moved: the game can no longer be aborted (resign instead)"),
                       "no-abort", 409)
    if live.is_computer(live.state.mover):
        return Refusal(say("computer-to-move", "the computer is to move"), "not-your-turn", 409)
    return None


def seen(live: LiveGame, present: frozenset[int], at: float | None = None) -> None:
    """Who is at a game now: a person's seat away from it is noted from now (once), a seat that
    came back is no longer away."""
    at = clocks.time_or_now(at)
    for seat in taken_seats(live):
        if seat in present:
            live.gone_since.pop(seat, None)
        else:
            live.gone_since.setdefault(seat, at)


def claims(live: LiveGame, at: float | None = None) -> list[dict[str, Any]]:
    """The seats away from a live game between people in different browsers, each with the seconds
    until a win may be claimed over it (0: now), for the pages."""
    if live.ended or (live.clock is not None and live.clock.correspondence) or not live.online:
        return []
    at = clocks.time_or_now(at)
    return [{"seat": seat, "in": round(max(0.0, live.claim_grace - (at - since)), 1)}
            for seat, since in sorted(live.gone_since.items())
            if seat not in live.present and seat in taken_seats(live)]


def taken_seats(live: LiveGame) -> set[int]:
    """The seats a person has taken (in this browser or another): the ones whose leaving counts."""
    return {seat for seat, kind in enumerate(live.seat_kinds) if kind in (HUMAN, INVITED)}


__all__ = ["CLAIM_GRACE", "Endings", "abort_refusal", "claims", "seen", "taken_seats"]
