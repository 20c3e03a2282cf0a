"""Live games: the one place where web moves are checked, stored and announced.

A `Hub` keeps the games being played in memory (rebuilt from the database on demand by replaying
their records through the rules), takes every move through the same steps — the seat's token, the
version of the game the page saw (its count of accepted actions), the seat to move, the rules on a
copy of the state, the database, and only then the new position for everyone watching — and lets
the computer play its seats in a worker.

Refusals raise `Refusal` with a message for people and a short code; nothing is changed by them.
Tokens are never logged or sent back; views carry no secrets, so every watcher gets the same one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ogames
from ogames.errors import BadRecord, OgamesError, shown
from ogames.rules import available
from ogames.rules.protocol import TURN_BASED, Game, State
from ogames.web.boards import ai
from ogames.web.boards.board import board_part, cells, position_drawn, position_facts
from ogames.web.boards.clock import Clock, NoTakeBack
from ogames.web.boards.hints import Watched
from ogames.web.core.bus import Bus
from ogames.web.core.common import Announcer, Outbox, Refusal, heavy
from ogames.web.core.computer import board_spec, level_shown
from ogames.web.core.delta import stamp
from ogames.web.core.hub import BAD_TOKEN, NO_SUCH_GAME, not_your_turn, other_kind, unavailable
from ogames.web.core.names import move_words, seat_name
from ogames.web.core.presence import Presence
from ogames.web.core.protocol import NewGame
from ogames.web.core.settings import Settings
from ogames.web.core.store import GameRow, StaleMove, Store, digest, seat_of_token
from ogames.web.core.store_faults import StorageError
from ogames.web.core.workers import move_pool
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.messages import word
from ogames.wording import say

log = logging.getLogger("ogames.web")

# Games the browser can play so far (turn-based board games); Omiga's cards come later.
BROWSER_GAMES = ("omny", "oddy", "omega", "onyx")
# Seat kinds (stored in games.seat_kinds): a person at the creating browser, a person invited by
# a link (or who took an open seat), an open seat anyone may take; anything else is a computer's
# player spec (`mcts:level=7,iterations=4000,think=10`; games stored before levels: `mcts:think=1`).
HUMAN = "human"
INVITED = "invited"
OPEN = "open"
PEOPLE = (HUMAN, INVITED, OPEN)
FLAG_GRACE = 0.05  # seconds after a clock reaches zero before the server looks (timers may fire early)


@dataclass(eq=False)
class LiveGame:
    """A game in memory: the state the rules rebuilt, who plays each seat, and who watches."""

    id: str
    mode: str
    seat_kinds: list[str]
    state: State
    digests: dict[int, str]
    created_at: float
    version: int = 0  # actions accepted so far (moves and resignations; Omega: each placement)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[Outbox, str] = field(default_factory=dict)  # each watching page's outbox, and its language
    thinking: bool = False
    problem: str | None = None
    ai_task: asyncio.Task | None = None
    clock: Clock | None = None
    flag_timer: asyncio.TimerHandle | None = None
    # A request to take back a move in a game with invited people: (the asking seat, the version it
    # was made at; it lapses when the game moves on) and the seats that have agreed. Kept in memory
    # (and sent to the other server processes on the bus): a restart forgets it, and the asker asks again.
    undo_asked: tuple[int, int] | None = None
    undo_agreed: set[int] = field(default_factory=set)
    # The seat whose request was declined, and the version then: its page says so until the game moves on.
    undo_declined: tuple[int, int] | None = None
    # Who is here (web/core/presence.py, every server process): the seats an open page holds, and the pages.
    present: frozenset[int] = frozenset()
    pages: int = 0

    def seat_of(self, token: str) -> int | None:
        """The seat a token belongs to (compared in constant time), or None."""
        return seat_of_token(self.digests, token)

    def is_computer(self, seat: int | None) -> bool:
        """Whether the computer plays a seat."""
        return seat is not None and self.seat_kinds[seat] not in PEOPLE

    @property
    def online(self) -> bool:
        """Whether people in other browsers play (invited seats, or an open seat waiting for one)."""
        return any(kind in (INVITED, OPEN) for kind in self.seat_kinds)

    def pending_undo(self) -> int | None:
        """The seat whose request to take back a move is waiting for agreement, if any."""
        if self.undo_asked is None or self.undo_asked[1] != self.version:
            return None
        return self.undo_asked[0]

    def declined_undo(self) -> int | None:
        """The seat whose request to take back a move was declined at this version, if any."""
        if self.undo_declined is None or self.undo_declined[1] != self.version:
            return None
        return self.undo_declined[0]

    def undo_voters(self, asker: int) -> set[int]:
        """The seats whose agreement a take-back asked for by `asker` needs: every other person's
        (seats nobody has taken yet and computers have no say)."""
        return {seat for seat, kind in enumerate(self.seat_kinds) if kind in (HUMAN, INVITED) and seat != asker}

    @property
    def busy(self) -> bool:
        """Whether dropping the game from memory now would lose anything running (a running clock included)."""
        thinking = self.ai_task is not None and not self.ai_task.done()
        return bool(self.watchers) or self.lock.locked() or thinking or self.flag_timer is not None



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

class Hub(Announcer[LiveGame]):
    """Every live game of one server, their storage and the computer's worker."""

    def __init__(self, store: Store, settings: Settings, bus: Bus | None = None, presence: Presence | None = None):
        self.store = store
        self.settings = settings
        self.bus = bus or Bus()  # other server processes on the same database (web/core/bus.py)
        self.presence = presence or Presence()  # who has a page open on each game
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading = asyncio.Lock()
        self._flag_tasks: set[asyncio.Task] = set()  # kept so that they are not collected mid-run
        # The computer's moves (Omiga's bots and analyses have workers of their own: web/core/workers.py).
        self.executor: concurrent.futures.Executor = move_pool(settings)

    async def close(self) -> None:
        """Stop the computer's work and let go of the worker."""
        for live in self.live.values():
            if live.ai_task is not None:
                live.ai_task.cancel()
            if live.flag_timer is not None:
                live.flag_timer.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)

    # ----- creating and finding games --------------------------------------------------------

    async def create(self, request: NewGame) -> tuple[LiveGame, dict[int, str]]:
        """A new stored game and the tokens of its people's seats (given out once, stored as digests)."""
        name = request.game.strip().lower()
        if name not in available():
            raise Refusal(say("no-such-game", "there is no game {game} (games: {games})", game=shown(request.game),
                              games=list(available())), "bad-game")
        if name not in BROWSER_GAMES:
            raise Refusal(say("not-in-browser",
                              "{game} cannot be played in the browser yet: play it in the terminal (ogames {game} …)",
                              game=name), "bad-game")
        try:
            game = await asyncio.to_thread(functools.partial(ogames.load, name, **request.options))  # a large board: 0.1 s
        except OgamesError as exc:
            raise Refusal(exc.said, "bad-option") from None
        except TypeError as exc:
            raise Refusal(str(exc), "bad-option") from None
        if game.dynamics != TURN_BASED:
            raise Refusal(say("real-time-game",
                              "{game} with these options is played in real time, which the browser cannot do yet",
                              game=name), "bad-option")
        mode, kinds, names = seating(request, game, self.settings.ai_time_cap)
        state = await asyncio.to_thread(game.new_state, names)
        tokens = {seat: secrets.token_urlsafe(32) for seat, kind in enumerate(kinds) if kind in (HUMAN, INVITED)}
        game_id = secrets.token_urlsafe(9)
        record = state.record()
        clock = None if request.clock is None else Clock.start(request.clock.minutes, request.clock.increment, len(kinds))
        listed = OPEN in kinds
        try:
            await asyncio.to_thread(
                self.store.create_game,
                game_id,
                name,
                mode,
                kinds,
                record,
                tokens,
                clock=None if clock is None else clock.stored(),
                listed=listed,
            )
        except StorageError as exc:
            raise unavailable(exc, f"new {name} game", say("game-not-stored",
                                                           "the game could not be stored, so it was not made")) from None
        live = LiveGame(game_id, mode, kinds, state, {seat: digest(token) for seat, token in tokens.items()}, time.time())
        live.clock = clock
        self._remember(live)
        timed = "untimed" if clock is None else f"clock {clock.base:g}s+{clock.increment:g}s"
        log.info("game %s created: %s %s (%s), %s, %s", game_id, name, mode, " ".join(kinds), timed, game.jsonable_options())
        self._start_computer(live)
        return live, tokens

    async def get(self, game_id: str) -> LiveGame:
        """A live game by id, rebuilt from the database if it is not in memory; Refusal if unknown
        or not a board game (every route of a board game finds its game here, so none of them acts
        on an Omiga table: those are OmigaHub's)."""
        live = self.live.get(game_id)
        if live is not None:
            self.live.move_to_end(game_id)
            return live
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
            raise Refusal(NO_SUCH_GAME, "not-found", 404)
        async with self._loading:
            live = self.live.get(game_id)
            if live is not None:
                return live
            try:
                row = await asyncio.to_thread(self.store.load_game, game_id)
                digests = await asyncio.to_thread(self.store.token_digests, game_id) if row is not None else {}
            except StorageError as exc:
                raise unavailable(exc, f"game {game_id}", say("game-not-read", "the game cannot be read just now")) from None
            if row is None:
                raise Refusal(NO_SUCH_GAME, "not-found", 404)
            if row.game not in BROWSER_GAMES:
                raise other_kind(row.id, row.game)  # a card table: never played, shown or analysed here
            live = LiveGame(row.id, row.mode, row.seat_kinds, rebuild(row), digests, row.created_at, row.version)
            live.clock = Clock.from_stored(row.clock)
            self._remember(live)
        if live.clock is not None and live.clock.out_of_time(live.state.mover):
            async with live.lock:  # the clock ran out while the server was down: the flag falls now
                await self._flag_if_out_of_time(live)
        self._arm_flag(live)
        self._start_computer(live)
        return live

    async def opened(self, game_id: str) -> LiveGame:
        """A live game for a page that opens on it (`get`), up to date with the store: another
        server process may have stored an action this copy has not heard of — its message is late
        or lost, or that process died between storing the action and telling the others. A page
        that reconnects here after its own process died starts from what the database holds, and
        the pages already here are shown it too."""
        held = game_id in self.live
        live = await self.get(game_id)
        if held and self.bus.shared:
            try:
                stored = await asyncio.to_thread(self.store.version_of, live.id)
            except StorageError as exc:  # the database is away: the copy held here is the best there is
                log.warning("game %s: its stored version could not be read: %s", live.id, exc)
                return live
            if stored is not None and stored > live.version:
                await self.heard(live.id, stored, {})  # as if its message had come: read the store
        return live

    def games_against_someone(self) -> list[Watched]:
        """The live games held here that are played against someone (not analysable yet), for the
        analysis gate: no analysis may show a position one of them has been through (web/boards/hints.py)."""
        return [Watched(live, live.state) for live in self.live.values() if not may_analyse(live)]

    def _remember(self, live: LiveGame) -> None:
        self.live[live.id] = live
        self.live.move_to_end(live.id)
        excess = len(self.live) - self.settings.max_live_games
        for key in [key for key, game in self.live.items() if not game.busy][: max(excess, 0)]:
            del self.live[key]

    # ----- moves ----------------------------------------------------------------------------

    async def move(self, game_id: str, token: str, version: int, move: str) -> LiveGame:
        """Make a move for the seat whose token is given, in the game as it was at `version`;
        Refusal (nothing changed) if it is not allowed."""
        live = await self.get(game_id)
        async with live.lock:
            seat = self._check_turn(live, token, version)
            if live.is_computer(live.state.mover):  # never: a person's token is not a computer seat
                raise Refusal(say("computer-to-move", "the computer is to move"), "not-your-turn", 409)
            if seat != live.state.mover:
                raise Refusal(not_your_turn(live.state.to_move), "not-your-turn", 409)
            flagged = await self._flag_if_out_of_time(live)
            if flagged is None:
                trial = live.state.clone()
                try:
                    trial.play(move)
                except OgamesError as exc:
                    raise Refusal(exc.said, "illegal", 422) from None
                await self._commit(live, trial, {"move": move})
        await self.announce(live)
        if flagged is not None:
            raise Refusal(say("time-ran-out", "too late: your time ran out, so the move was not made ({result})", result=flagged),
                          "over", 409)
        self._start_computer(live)
        return live

    async def resign(self, game_id: str, token: str, version: int) -> LiveGame:
        """The seat whose token is given gives up (its colours, at any turn); Refusal if not allowed."""
        live = await self.get(game_id)
        await self._fall_if_due(live)
        async with live.lock:
            seat = self._check_turn(live, token, version)
            state = live.state
            colour = seat_colour(state, seat)
            if colour is None:
                raise Refusal(say("no-colour-to-resign", "this seat has no colour to resign"), "illegal", 422)
            trial = state.clone()
            try:
                trial.resign(colour)
            except OgamesError as exc:
                raise Refusal(exc.said, "illegal", 422) from None
            except NotImplementedError as exc:
                raise Refusal(str(exc), "illegal", 422) from None
            await self._commit(live, trial, {"resign": colour})
        await self.announce(live)
        return live

    async def undo(self, game_id: str, token: str, version: int, *, decline: bool = False) -> LiveGame:
        """Take back the last action (hotseat), or the person's last move and every computer's
        reply since (against the computer: the turn comes back to a person); one new version, stored
        like a move. With invited people it takes everyone's agreement: the first undo asks, each
        other person's undo agrees (`decline` refuses), and the asker's last move and every move
        since are taken back once all have agreed. The clocks are put back as `Clock.taken_back`
        says. Refusal (nothing changed) after a loss on time, once a game against someone is over
        (only a game played on one screen is taken back after its end: `may_take_back`), or when
        there is nothing of the seat's (or of a person's) to take back."""
        live = await self.get(game_id)
        await self._fall_if_due(live)
        async with live.lock:
            seat = self._check_seat(live, token, version)
            if live.clock is not None and live.clock.flagged is not None:
                raise Refusal(say("lost-on-time-no-undo",
                                  "the game was lost on time, which cannot be taken back"), "no-undo", 409)
            if not may_take_back(live):
                raise Refusal(say("finished-no-undo", "the game is over ({result}): a finished game is not taken back",
                                  result=describe_result(live)), "no-undo", 409)
            asked, agreed = live.undo_asked, set(live.undo_agreed)
            if decline:
                self._decline_undo(live, seat)
                trial = None
            elif live.online:
                trial = self._agree_to_undo(live, seat)
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
                    await self._commit(live, trial, undo=True)
                except Refusal:
                    live.undo_asked, live.undo_agreed = asked, agreed  # the agreement just given did not count
                    raise
                live.undo_asked = None
                live.thinking = False  # a computer thinking now has its move dropped (the version changed)
            else:  # a request asked, agreed to or declined: the other processes' pages show it too
                await self.bus.publish(live.id, live.version, {"undo": undo_request(live)})
        await self.announce(live)
        self._start_computer(live)
        return live

    def _agree_to_undo(self, live: LiveGame, seat: int) -> State | None:
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

    def _decline_undo(self, live: LiveGame, seat: int) -> None:
        """A person refuses the pending request to take back a move (the asker may withdraw it too)."""
        asker = live.pending_undo()
        if asker is None:
            raise Refusal(say("no-undo-asked", "nobody has asked to take back a move"), "no-undo", 409)
        live.undo_asked = None
        live.undo_declined = (asker, live.version) if seat != asker else None  # the asker withdrawing is no refusal
        log.info("game %s: seat %d declined the undo", live.id, seat + 1)

    async def join(self, game_id: str, seat: int) -> tuple[LiveGame, str]:
        """Take an open seat of a game: the new token for it (given once); Refusal if the seat is
        not open (taken already, or never offered)."""
        live = await self.get(game_id)
        async with live.lock:
            if live.state.is_over:
                raise Refusal(say("game-over", "the game is over: {result}", result=describe_result(live)), "over", 409)
            if not 0 <= seat < len(live.seat_kinds) or live.seat_kinds[seat] != OPEN:
                raise Refusal(say("seat-not-open", "seat {n} is not open: it was taken already or never offered", n=seat + 1),
                              "seat-taken", 409)
            token = secrets.token_urlsafe(32)
            try:
                kinds = await asyncio.to_thread(self.store.take_seat, live.id, seat, token)
            except StorageError as exc:
                raise unavailable(exc, f"game {live.id}", say("seat-not-stored-now",
                                                              "the seat could not be stored, so it was not taken")) from None
            except Exception:
                log.exception("game %s: could not store the taking of seat %d", live.id, seat)
                raise Refusal(say("seat-not-stored", "the seat could not be stored, so it was not taken: try again"),
                              "storage", 503) from None
            if kinds is None:
                raise Refusal(say("seat-taken", "seat {n} is not open: it was taken already", n=seat + 1), "seat-taken", 409)
            live.seat_kinds = kinds
            live.digests[seat] = digest(token)
        log.info("game %s: seat %d taken", live.id, seat + 1)
        await self.bus.publish(live.id, live.version, {"seats": True})
        await self.announce(live)
        return live, token

    def _check_seat(self, live: LiveGame, token: str, version: int) -> int:
        """The seat of a token, after checking the game is at the version the page saw."""
        seat = live.seat_of(token)
        if seat is None:
            raise Refusal(BAD_TOKEN, "bad-token", 403)
        if version != live.version:
            message = say("stale-version",
                          "the game has moved on since this was sent (it was for version {sent}, the game is at {now})",
                          sent=version, now=live.version)
            raise Refusal(message, "stale", 409)
        return seat

    def _check_turn(self, live: LiveGame, token: str, version: int) -> int:
        """The seat of a token, after checking the game is on and at the version the page saw."""
        seat = live.seat_of(token)
        if seat is None:
            raise Refusal(BAD_TOKEN, "bad-token", 403)
        state = live.state
        if state.result is not None:
            raise Refusal(say("game-over", "the game is over: {result}", result=describe_result(live)), "over", 409)
        return self._check_seat(live, token, version)

    async def _commit(
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
                    clock = clock.taken_back(len(trial.history), live.state.mover, next_mover, computers, now=time.time())
                except NoTakeBack as exc:
                    raise Refusal(say("no-take-back",
                                      "this cannot be taken back: {reason}", reason=exc.args[0] if exc.args else ""),
                                  "no-undo", 409) from None
            else:
                clock = clock.after_action(live.state.mover, next_mover, over=trial.is_over, now=time.time(),
                                           ply=len(trial.history))
        stored_clock = None if clock is None else clock.stored()
        try:
            await asyncio.to_thread(self.store.add_entries, live.id, live.version, head, first, entries, stored_clock)
        except StaleMove:
            # Another server process on the same database stored an action first: catch up here
            # (the pages hold this object, so it is brought up to date in place).
            await self._reload(live)
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
        live.state = trial
        live.version += 1
        live.problem = None
        live.clock = clock
        self._arm_flag(live)
        if undo:
            log.info("game %s: taken back to %d moves", live.id, len(trial.history))
        else:
            log.info("game %s: move %d %s by %s", live.id, len(trial.history), shown(entry.get("move")), entry.get("by"))
        # With the entry as stored (its time too), so that the other copies end exactly the same.
        await self.bus.publish(live.id, live.version, {**action, "entry": entry} if action else {})

    # ----- clocks ------------------------------------------------------------------------------

    def _arm_flag(self, live: LiveGame) -> None:
        """Set the timer that makes the seat to move lose when its time runs out (or none, if no
        clock runs)."""
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        clock, state = live.clock, live.state
        if clock is None or clock.since is None or state.is_over or state.mover is None:
            return
        delay = max(0.0, clock.left(state.mover, state.mover)) + FLAG_GRACE
        loop = asyncio.get_running_loop()
        live.flag_timer = loop.call_later(delay, self._flag_due, live)

    def _flag_due(self, live: LiveGame) -> None:
        live.flag_timer = None
        task = asyncio.get_running_loop().create_task(self._flag_when_due(live), name=f"ogames-flag-{live.id}")
        self._flag_tasks.add(task)
        task.add_done_callback(self._flag_tasks.discard)

    async def _flag_when_due(self, live: LiveGame) -> None:
        async with live.lock:
            flagged = await self._flag_if_out_of_time(live)
            if flagged is None:
                self._arm_flag(live)  # the timer was early, or the position changed: wait again
        if flagged is not None:
            await self.announce(live)

    async def _fall_if_due(self, live: LiveGame) -> None:
        """Before a resignation or an undo: if the seat to move's time has run out (its timer not
        yet run), its flag falls first and the request is refused, as the game is over."""
        if live.clock is None or not live.clock.out_of_time(live.state.mover):
            return
        async with live.lock:
            flagged = await self._flag_if_out_of_time(live)
        if flagged is not None:
            await self.announce(live)
            raise Refusal(say("too-late-over", "too late: the game is over ({result})", result=flagged), "over", 409)

    async def _flag_if_out_of_time(self, live: LiveGame) -> str | None:
        """If the seat to move has used up its time, it loses on time (stored like a move): the
        result's text, else None. The game's lock is held."""
        clock, state = live.clock, live.state
        if clock is None or state.is_over or not clock.out_of_time(state.mover):
            return None
        seat = state.mover
        colour = None if seat is None else seat_colour(state, seat)
        if seat is None or colour is None:
            return None
        trial = state.clone()
        try:
            trial.resign(colour)
            await self._commit(live, trial, flagged=seat)
        except (OgamesError, NotImplementedError, Refusal) as exc:
            log.error("game %s: the loss on time of seat %d could not be made: %s", live.id, seat + 1, exc)
            return None
        log.info("game %s: seat %d lost on time", live.id, seat + 1)
        return describe_result(live)


    # ----- other server processes (web/core/bus.py) -------------------------------------------------

    async def heard(self, game_id: str, version: int, action: dict[str, Any]) -> None:
        """Another server process stored action `version` of a game: bring this process's copy (if
        it holds the game) in step, and show it to the pages watching here."""
        live = self.live.get(game_id)
        if live is None and self._loading.locked():
            async with self._loading:  # it may be loading right now, from before that action
                live = self.live.get(game_id)
        if live is None:
            return
        async with live.lock:
            if action.get("seats"):  # a seat was taken there: its token must hold here too
                await self._reload_seats(live)
            elif "undo" in action:  # a take-back asked, agreed to or declined there
                if version != live.version or not heard_undo_request(live, action["undo"]):
                    return  # about another position (this copy is behind or ahead), or not ours
            elif live.version >= version:
                return
            # A clock's times are not in the message: a timed game is read again from the store.
            elif version != live.version + 1 or live.clock is not None or not _apply(live, action):
                await self._reload(live)  # a message was missed, or it does not apply: read the store
            live.thinking = not live.state.is_over and live.is_computer(live.state.mover)
        await self.announce(live)
        self._start_computer(live)

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

    async def presence_changed(self, game_id: str) -> None:
        """Who is at a game may have changed (here or on another process): show it."""
        live = self.live.get(game_id)
        if live is None:
            return
        here = await self.presence.here(game_id)
        present = here.seats & frozenset(range(len(live.seat_kinds)))
        if (present, here.pages) != (live.present, live.pages):
            live.present, live.pages = present, here.pages
            await self.announce(live)

    async def here(self, live: LiveGame, page: int, tokens: list[str]) -> None:
        """A page holds the seats of these tokens (unknown tokens are ignored: a watcher)."""
        seats = {seat for token in tokens if (seat := live.seat_of(token)) is not None}
        await self.presence.hold(live.id, page, seats)

    async def resync(self) -> None:
        """Messages may have been missed (the bus reconnected): re-read every game held here."""
        for live in list(self.live.values()):
            await self.heard(live.id, 1 << 62, {})

    async def _reload(self, live: LiveGame) -> None:
        """Rebuild a live game in place from the database (the game's lock is held)."""
        try:
            row = await asyncio.to_thread(self.store.load_game, live.id)
            if row is not None and row.version != live.version:
                live.state, live.version, live.problem = rebuild(row), row.version, None
                live.clock = Clock.from_stored(row.clock)
                self._arm_flag(live)
        except Exception as exc:
            if isinstance(exc, StorageError):
                log.warning("game %s: could not be read again from the database: %s", live.id, exc)
            else:
                log.exception("game %s: could not be read again from the database", live.id)
            if self.live.get(live.id) is live:
                del self.live[live.id]  # the next visit rebuilds it

    # ----- the computer ------------------------------------------------------------------------

    def _start_computer(self, live: LiveGame) -> None:
        """Let the computer play if one of its seats is to move and it is not already thinking."""
        state = live.state
        if state.is_over or not live.is_computer(state.mover) or live.problem:
            return
        if live.ai_task is not None and not live.ai_task.done():
            return
        live.ai_task = asyncio.get_running_loop().create_task(self._computer_turns(live), name=f"ogames-ai-{live.id}")

    async def _computer_turns(self, live: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with live.lock:
                state = live.state
                seat = state.mover
                if seat is None or not live.is_computer(seat):
                    break
                spec, version, record = live.seat_kinds[seat], live.version, state.record()
                live.thinking = True
            await self.announce(live)
            if not await self.bus.claim(live.id, version, _thinking_at(live, version)):
                await self._other_thinks(live, version)  # another server process plays this move
                continue
            try:
                move = await loop.run_in_executor(self.executor, ai.choose_move, record, spec)
            except asyncio.CancelledError:
                live.thinking = False
                raise
            except Exception as exc:
                log.exception("game %s: the computer failed", live.id)
                live.problem = say("computer-failed",
                                   "the computer could not move ({error}); reload the page to let it try again",
                                   error=type(exc).__name__)
                break
            async with live.lock:
                if live.version != version or live.state.is_over:
                    live.thinking = False
                    continue  # the position changed while it thought (a resignation, an undo): look again
                if await self._flag_if_out_of_time(live) is not None:
                    live.thinking = False
                    continue  # its time ran out while it thought: the game is over
                trial = live.state.clone()
                try:
                    trial.play(move)
                    await self._commit(live, trial, {"move": move})
                except Refusal as exc:
                    if exc.code == "stale":
                        continue  # another process stored an action first (a resignation): look again
                    log.error("game %s: the computer's move %s was refused: %s", live.id, shown(move), exc)
                    live.problem = COMPUTER_REFUSED
                    break
                except OgamesError as exc:
                    log.error("game %s: the computer's move %s was refused: %s", live.id, shown(move), exc)
                    live.problem = COMPUTER_REFUSED
                    break
                live.thinking = False
            await self.announce(live)
        if live.thinking:
            live.thinking = False
            await self.announce(live)
        if live.problem:
            if self.live.get(live.id) is live:
                del self.live[live.id]  # the next visit rebuilds the game and lets the computer try again
            await self.announce(live)

    async def _other_thinks(self, live: LiveGame, version: int) -> None:
        """Wait while another server process thinks for the computer: until its move arrives here
        (through the bus) or its claim could have lapsed (it died), when this one tries to claim."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.bus.lease_seconds
        while live.version == version and not live.state.is_over and loop.time() < deadline:
            await asyncio.sleep(0.1)

    # ----- watchers --------------------------------------------------------------------------

    deltas = True  # its pages may ask for deltas (web/core/delta.py): every view it makes is stamped

    def view_of(self, live: LiveGame, language: str = ENGLISH) -> dict[str, Any]:
        """What watchers are sent (watch, unwatch and announce come from `Announcer`): the view
        without the board's drawing, stamped (web/core/delta.py)."""
        return stamp(view(live, language))

    def whole(self, live: LiveGame, shown: dict[str, Any], language: str = ENGLISH) -> dict[str, Any]:
        """A view as a page that takes no deltas is sent it: with the board drawn (`board_part`)."""
        return drawn(live, shown, language)

    async def prepare(self, live: LiveGame) -> None:
        """Draw a game's position in every language watched before its views are made (`draw_position`)."""
        for language in set(live.watchers.values()):
            await draw_position(live.state, language)


SMALL_BOARD = 250  # cells: a position of a board up to this size is drawn on the event loop (milliseconds)


def large(state: State) -> bool:
    """Whether a state's board is large enough that its views are made off the event loop."""
    return cells(state) > SMALL_BOARD


async def draw_position(state: State, language: str = ENGLISH) -> None:
    """Make a position's facts (`board.position_facts`) before a view of it is made: at once for
    a small board or a position drawn already, else in the thread of heavy work (a 25-sided polar
    board takes a second), so that the event loop serves every other game meanwhile."""
    if large(state) and not position_drawn(state, language):
        await heavy(position_facts, state, language)
    else:
        position_facts(state, language)


def seating(request: NewGame, game: Game, time_cap: float) -> tuple[str, list[str], list[str]]:
    """(mode, seat kinds, player names) of a new game: from `request.seats` (one choice per seat),
    else from its mode; a computer's kind is its level's spec searching at most `time_cap` seconds
    a move (web/core/computer.py). Refusal if the choices do not fit the game."""
    seats = game.seat_count
    if request.seats is None:
        if request.mode == "ai":
            if request.seat >= seats:
                raise Refusal(say("no-such-seat", "seat {n} does not exist: this game has {seats} seats", n=request.seat + 1,
                                  seats=seats), "bad-seat")
            choices = ["here" if seat == request.seat else f"computer:{request.level}" for seat in range(seats)]
        else:
            choices = ["here"] * seats
    else:
        choices = list(request.seats)
        if len(choices) != seats:
            raise Refusal(say("seat-count", "this game has {seats} seats: say who sits in each ({given} given)", seats=seats,
                              given=len(choices)), "bad-seat")
    if all(choice.startswith("computer:") for choice in choices):
        raise Refusal(say("one-person", "at least one seat must be a person's"), "bad-seat")
    kinds: list[str] = []
    names: list[str] = []
    for seat, choice in enumerate(choices):
        if choice.startswith("computer:"):
            level = int(choice.split(":", 1)[1])  # the protocol spelled it computer:N, N in 1–10
            kinds.append(board_spec(level, time_cap, game))
            names.append(f"computer (level {level})")
        else:
            kinds.append({"here": HUMAN, "invite": INVITED, "open": OPEN}[choice])
            names.append(f"player {seat + 1}")
    if request.seats is None and request.mode == "ai":
        names[request.seat] = "player"  # as games made by mode were always named
    if any(kind in (INVITED, OPEN) for kind in kinds):
        mode = "online"
    elif any(kind not in PEOPLE for kind in kinds):
        mode = "ai"
    else:
        mode = "hotseat"
    return mode, kinds, names


def take_back_to(state: State, seat: int) -> State | None:
    """A copy of a position with the last moves taken back until `seat` is to move again, having
    taken back at least its own last move; None if it has none."""
    trial = state.clone()
    while trial.history:
        trial.undo()
        if trial.mover == seat:
            return trial
    return None


def seat_colour(state: State, seat: int) -> str | None:
    """The colour a seat gives up when it resigns or loses on time: the one to move if it is the
    seat's, else its first (Omega's seat places every colour's stone, but owns one)."""
    colours = [colour for colour, owner in state.owner.items() if owner == seat]
    return state.to_move if state.to_move in colours else (colours[0] if colours else None)


def flagged_colours(live: LiveGame) -> list[str] | None:
    """The colours of the seat that lost on time, or None."""
    if live.clock is None or live.clock.flagged is None:
        return None
    seat = live.clock.flagged
    return [colour for colour, owner in live.state.owner.items() if owner == seat] or [say("seat-n", "seat {n}", n=seat + 1)]


def on_time_reason(live: LiveGame) -> str | None:
    """Why a game lost on time ended (`black lost on time`), or None."""
    late = flagged_colours(live)
    return None if late is None else say("lost-on-time", "{colour} lost on time", colour=late)


def describe_result(live: LiveGame) -> str:
    """The result in a sentence; a loss on time says so (the record writes it as a resignation)."""
    result = live.state.result
    if result is None:
        return ""
    late = on_time_reason(live)
    return say("won", "{winner} won ({reason})", winner=result.winner, reason=late) if late else result.describe()


COMPUTER_REFUSED = say("computer-refused", "the computer could not move; reload the page to let it try again")


def _thinking_at(live: LiveGame, version: int) -> Callable[[], bool]:
    """Whether the computer is still thinking about a game's move at `version` (a claim's hold)."""
    return lambda: live.version == version and live.thinking


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


def new_entries(before: State, after: State) -> tuple[int, list[dict[str, Any]]]:
    """What an action wrote in a game's record: the index of the first entry it changed and the
    entries from there on (usually the one it appended; an Omega placement within a turn rewrites
    the turn's entry; an undo leaves none, the record ending before `first`). Looked for from the
    end of the record, as both copies share every entry before the last few."""
    old, new = before.history, after.history
    first = min(len(old), len(new))
    while first and old[first - 1] is not new[first - 1] and old[first - 1] != new[first - 1]:
        first -= 1
    return first, [dict(entry) for entry in new[first:]]


def rebuild(row: GameRow) -> State:
    """The state a stored game is in, rebuilt by replaying its record through the rules."""
    try:
        return ogames.replay(row.record())
    except BadRecord as exc:
        log.error("game %s cannot be rebuilt: %s", row.id, exc)
        raise Refusal(say("broken-record", "this game's stored record cannot be replayed: {reason}", reason=exc.said),
                      "broken", 500) from None


def may_take_back(live: LiveGame) -> bool:
    """Whether a game's moves may still be taken back: while it goes on, and at any time when both
    sides play on one screen. A game against someone else (a person or the computer) is final once
    over, as its analysis is then allowed: reopened, the analysis would be a hint to one side."""
    return not live.state.is_over or live.mode == "hotseat"


def may_analyse(live: LiveGame) -> bool:
    """Whether the computer may analyse a game's positions: once the game is over, or at any time
    when both sides play on one screen. Never while a game against someone else (a person or the
    computer) goes on: its best move would be a hint to one side (and such a game, once over, is
    never taken back: `may_take_back`)."""
    return live.state.is_over or live.mode == "hotseat"


def undo_seats(live: LiveGame) -> list[int]:
    """The seats that may ask to take back a move now, as `Hub.undo` decides (the page offers Undo
    to a browser holding one): on one screen or against the computer every person's seat once a
    person has moved (the take-back goes back to that move), with invited people each seat that
    has moved itself; none after a loss on time, nor once a game against someone is over
    (`may_take_back`), nor while a request waits for agreement."""
    if live.clock is not None and live.clock.flagged is not None:
        return []
    if not may_take_back(live):
        return []
    people = [seat for seat in range(len(live.seat_kinds)) if not live.is_computer(seat)]
    state = live.state
    if not state.history or not people:
        return []
    if live.online:
        if live.pending_undo() is not None:
            return []
        moved = _movers(state, wanted=set(people))
        return [seat for seat in people if seat in moved]
    if live.mode == "hotseat":
        return people
    return people if _movers(state, wanted=set(people), enough=1) else []


def _movers(state: State, wanted: set[int], enough: int | None = None) -> set[int]:
    """Which of the `wanted` seats have decided a move of the game — the seat to move at an
    earlier position (Omega's player places every colour's stone of a turn, and a swap changes who
    owns a colour) —, looking back from the last move until all of them (or `enough`) are found:
    a few steps back in a game where seats take turns."""
    found: set[int] = set()
    trial = state.clone()
    while trial.history and len(found) < (len(wanted) if enough is None else enough):
        trial.undo()
        if trial.mover in wanted:
            found.add(trial.mover)
    return found


def view(live: LiveGame, language: str = ENGLISH) -> dict[str, Any]:
    """What everyone watching a game sees (no secrets): position, turn, moves, result, seats; its
    sentences, names and drawing in `language` (the JSON API's views are English)."""
    state = live.state
    position = position_facts(state, language)  # made once per position (Hub.prepare: off the loop for a large board)
    over = state.is_over
    mover = None if over else state.mover
    computer_to_move = live.is_computer(mover)
    moves = position["moves"]
    if moves and live.clock is not None and live.clock.flagged is not None:
        moves = [*moves[:-1], {**moves[-1], "move": "lost on time"}]  # the record writes it as a resignation
        if language != ENGLISH:
            moves[-1]["text"] = move_words("lost on time", language)
    offered = not over and not computer_to_move
    legal, specials = (position["legal"], position["specials"]) if offered else ([], [])
    seats = []
    for seat, name in enumerate(state.players):
        colours = [colour for colour, owner in state.owner.items() if owner == seat]
        kind = live.seat_kinds[seat]
        shown_kind = "computer" if live.is_computer(seat) else {HUMAN: "person", INVITED: "invited", OPEN: "open"}[kind]
        computer = live.is_computer(seat)
        level = level_shown(kind) if computer else None  # None: a person, or a computer stored before levels
        seats.append({"seat": seat, "name": seat_name(name, language), "computer": computer, "level": level, "colours": colours,
                      "kind": shown_kind})
    result = state.result
    late = on_time_reason(live)
    asker = live.pending_undo()
    may_undo = undo_seats(live)
    return {
        "type": "state",
        "id": live.id,
        "game": state.game.name,
        "title": state.game.title,
        "options": state.game.jsonable_options(),
        "mode": live.mode,
        "colours": list(state.game.colours),
        "ply": state.ply,
        "version": live.version,
        "over": over,
        "to_move": None if over else state.to_move,
        "mover": mover,
        "seats": seats,
        "moves": moves,
        "stones": position["stones"],
        "last": position["last"],
        "legal": legal,
        "specials": specials,
        "winning": position["winning"],
        "scores": _plain(state.scores),
        "result": None
        if result is None
        else {
            "winner": result.winner,
            "reason": word(late or result.reason, language),
            "text": word(describe_result(live), language),
            "on_time": bool(late),
        },
        "thinking": live.thinking,
        "problem": None if live.problem is None else word(live.problem, language),
        "board": position["board"],
        "clock": None if live.clock is None else live.clock.view(mover),
        "undo": bool(may_undo),
        "undo_seats": may_undo,  # the page offers Undo to a browser holding one of these seats
        "undo_request": None if asker is None else {"seat": asker, "agreed": sorted(live.undo_agreed)},
        "undo_declined": live.declined_undo(),  # the seat whose request the others declined just now
        "analysis": may_analyse(live),
        "present": sorted(live.present),  # seats with a page open, on every server process
        "pages": live.pages,
    }


def drawn(live: LiveGame, shown: dict[str, Any], language: str = ENGLISH) -> dict[str, Any]:
    """A view of a game with its board's drawing (`board.board_part`, made once per position and
    language): what the JSON API answers and a page that takes no deltas is sent."""
    if not shown.get("board"):
        return shown
    return {**shown, "board": {**shown["board"], "svg": board_part(live.state, language)["svg"]}}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


__all__ = ["BROWSER_GAMES", "HUMAN", "INVITED", "OPEN", "Hub", "LiveGame", "Refusal", "drawn", "may_analyse", "may_take_back",
           "rebuild", "seating", "view"]
