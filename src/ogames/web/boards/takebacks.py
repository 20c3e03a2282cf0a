"""Taking back moves in a live board game: at once on one screen or against the computer, by
everyone's agreement with invited people (asked, agreed to or declined; the request is sent to
the other server processes and lives in memory), never after a loss on time nor once a game
against someone is over."""

from __future__ import annotations

import logging
from typing import Any

from ogames.rules.protocol import State
from ogames.web.boards.live import LiveGame, describe_result, may_take_back
from ogames.web.boards.recorder import Recorder
from ogames.web.core.bus import Bus
from ogames.web.core.common import Refusal
from ogames.wording import say

log = logging.getLogger("ogames.web")

class TakeBacks:
    """The take-backs of a hub's games: each made through the recorder like a move."""

    def __init__(self, recorder: Recorder, bus: Bus):
        self.recorder = recorder
        self.bus = bus

    async def take_back(self, live: LiveGame, seat: int, *, decline: bool = False) -> None:
        """Take back the last action (hotseat), or the person's last move and every computer's
        reply since (against the computer: the turn comes back to a person); one new version, stored
        like a move. With invited people it takes everyone's agreement: the first undo asks, each
        other person's undo agrees (`decline` refuses), and the asker's last move and every move
        since are taken back once all have agreed. The clocks are put back as `Clock.taken_back`
        says. Refusal (nothing changed) after a loss on time, once a game against someone is over
        (only a game played on one screen is taken back after its end: `may_take_back`), or when
        there is nothing of the seat's (or of a person's) to take back.
        The game's lock is held, and the seat's token and the version checked."""
        if live.clock is not None and live.clock.flagged is not None:
            raise Refusal(say("lost-on-time-no-undo",
                              "the game was lost on time, which cannot be taken back"), "no-undo", 409)
        if not may_take_back(live):
            raise Refusal(say("finished-no-undo", "the game is over ({result}): a finished game is not taken back",
                              result=describe_result(live)), "no-undo", 409)
        asked, agreed = live.undo_asked, set(live.undo_agreed)
        if decline:
            self._decline(live, seat)
            trial = None
        elif live.online:
            trial = self._agree(live, seat)
        else:
            trial = live.state.clone()
            while trial.history:
                trial.undo()
                if not live.is_computer(trial.mover):
                    break
            if trial.history == live.state.history or live.is_computer(trial.mover):
                raise Refusal(say("no-persons-move", "there is no move of a person's to take back"), "no-undo", 409)
        if trial is not None:
            try:
                await self.recorder.commit(live, trial, undo=True)
            except Refusal:
                live.undo_asked, live.undo_agreed = asked, agreed  # the agreement just given did not count
                raise
            live.undo_asked = None
            live.thinking = False  # a computer thinking now has its move dropped (the version changed)
        else:  # a request asked, agreed to or declined: the other processes' pages show it too
            await self.bus.publish(live.id, live.version, {"undo": undo_request(live)})

    def _agree(self, live: LiveGame, seat: int) -> State | None:
        """An undo in a game with invited people: a new request (None, unless nobody else need
        agree), or one more agreement to the pending one (the position taken back once everyone
        has agreed, else None). Refusal if the seat has nothing to take back or asked already."""
        asked = live.pending_undo()
        if asked is None:
            taken_back = take_back_to(live.state, seat)
            if taken_back is None:
                raise Refusal(say("no-move-of-yours", "there is no move of yours to take back"), "no-undo", 409)
            live.undo_asked = (seat, live.version)
            live.undo_agreed = set()
            live.undo_declined = None
            log.info("game %s: seat %d asks to take back its move", live.id, seat + 1)
            return taken_back if not live.undo_voters(seat) else None
        asker = asked
        if seat == asker:
            raise Refusal(say("undo-asked-already",
                              "you have asked to take back your move already: waiting for the others to agree"),
                          "no-undo", 409)
        live.undo_agreed.add(seat)
        if not live.undo_voters(asker) <= live.undo_agreed:
            return None
        taken_back = take_back_to(live.state, asker)
        if taken_back is None:  # never: the request was checked when it was made, at this version
            raise Refusal(say("nothing-to-undo", "there is no move to take back"), "no-undo", 409)
        return taken_back

    def _decline(self, live: LiveGame, seat: int) -> None:
        """A person refuses the pending request to take back a move (the asker may withdraw it too)."""
        asker = live.pending_undo()
        if asker is None:
            raise Refusal(say("no-undo-asked", "nobody has asked to take back a move"), "no-undo", 409)
        live.undo_asked = None
        live.undo_declined = (asker, live.version) if seat != asker else None  # the asker withdrawing is no refusal
        log.info("game %s: seat %d declined the undo", live.id, seat + 1)

def undo_request(live: LiveGame) -> dict[str, Any]:
    """A game's pending take-back as the bus carries it: the asking seat (None: no request) and
    the seats that have agreed."""
    return {"asked": live.pending_undo(), "agreed": sorted(live.undo_agreed), "declined": live.declined_undo()}

def heard_undo_request(live: LiveGame, request: Any) -> bool:
    """Take another process's take-back state for a game at its current version; False (nothing
    changed) for a message that is not one."""
    seats = range(len(live.seat_kinds))
    if not isinstance(request, dict):
        return False
    asked, agreed = request.get("asked"), request.get("agreed")
    if not (asked is None or (type(asked) is int and asked in seats)):
        return False
    if not isinstance(agreed, list) or not all(type(seat) is int and seat in seats for seat in agreed):
        return False
    declined = request.get("declined")  # (a message from a process before declines were shown has none)
    if not (declined is None or (type(declined) is int and declined in seats)):
        return False
    live.undo_asked = None if asked is None else (asked, live.version)
    live.undo_agreed = set(agreed) if asked is not None else set()
    live.undo_declined = None if declined is None else (declined, live.version)
    return True

def take_back_to(state: State, seat: int) -> State | None:
    """A copy of a position with the last moves taken back until `seat` is to move again, having
    taken back at least its own last move; None if it has none."""
    trial = state.clone()
    while trial.history:
        trial.undo()
        if trial.mover == seat:
            return trial
    return None

__all__ = ["TakeBacks", "heard_undo_request", "take_back_to", "undo_request"]
