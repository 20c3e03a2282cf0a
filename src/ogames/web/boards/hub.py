"""Live board games: the one place where web moves are checked, stored and announced.

A `Hub` keeps the games being played in memory (rebuilt from the database on demand by replaying
their records through the rules), takes every move through the same steps — the seat's token, the
version of the game the page saw (its count of accepted actions), the seat to move, the rules on a
copy of the state, the database, and only then the new position for everyone watching — and lets
the computer play its seats in a worker.

Each concern is a collaborator of the hub (as lichess's round module has one per concern):
`Recorder` stores every change and keeps the live copy equal to the store (recorder.py),
`Timekeeper` the clocks' flags (timekeeper.py), `Endings` aborts and claims (endings.py),
`TakeBacks` the take-backs (takebacks.py), `Sync` the other server processes' actions (sync.py),
`ComputerTurns` the computer's seats (computer_turns.py). The game itself is `live.LiveGame`; what watchers see is `view.view`.

Refusals raise `Refusal` with a message for people and a short code; nothing is changed by them.
Tokens are never logged or sent back; views carry no secrets, so every watcher gets the same one.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import ogames
from ogames.errors import OgamesError, shown
from ogames.rules import available
from ogames.rules.protocol import TURN_BASED, Game
from ogames.web.accounts.visitor import Visitor
from ogames.web.boards import clock as clocks
from ogames.web.boards.clock import Clock
from ogames.web.boards.computer_turns import ComputerTurns
from ogames.web.boards.correspondence import DaysClock, GameClock, deadline_of, stored_clock
from ogames.web.boards.endings import Endings, seen
from ogames.web.boards.game_review import Reviews
from ogames.web.boards.game_view import draw_position, drawn, view
from ogames.web.boards.hints import Watched
from ogames.web.boards.learner_hints import hint_limit
from ogames.web.boards.live import (
    BROWSER_GAMES,
    HUMAN,
    INVITED,
    OPEN,
    PEOPLE,
    LiveGame,
    describe_result,
    may_analyse,
    may_take_back,
    rebuild,
    seat_colour,
)
from ogames.web.boards.protocol import NewGame
from ogames.web.boards.recorder import Recorder
from ogames.web.boards.sync import Sync
from ogames.web.boards.takebacks import TakeBacks
from ogames.web.boards.timekeeper import Timekeeper
from ogames.web.boards.views import GameView
from ogames.web.core.bus import Bus
from ogames.web.core.common import Refusal
from ogames.web.core.computer import board_spec
from ogames.web.core.delta import stamp
from ogames.web.core.hub import BAD_TOKEN, NO_SUCH_GAME, BaseHub, not_your_turn, unavailable, valid_id
from ogames.web.core.presence import Presence
from ogames.web.core.settings import Settings
from ogames.web.core.store import ABORTED, Store, digest
from ogames.web.core.store_faults import StorageError
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.ratings.finish import Rater
from ogames.web.ratings.rules import rated_refusal
from ogames.wording import say

log = logging.getLogger("ogames.web")

async def checked_game(request: NewGame) -> tuple[str, Game]:
    """The game a request names, loaded with its options (Refusal `bad-game` or `bad-option`, saying
    why, if the browser cannot play it): what a new game and a lobby's seek both check."""
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
    return name, game


class Hub(BaseHub[LiveGame]):
    """Every live board game of one server: the requests of its pages, checked here and carried
    out by its collaborators."""

    def __init__(self, store: Store, settings: Settings, bus: Bus | None = None, presence: Presence | None = None):
        super().__init__(store, presence)
        self.settings = settings
        self.bus = bus or Bus()  # other server processes on the same database (web/core/bus.py)
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self.recorder = Recorder(store, self.bus, self.announce, self.live)
        self.endings = Endings(store, self.bus, self.recorder)
        self.timekeeper = Timekeeper(self.recorder, self.announce, self.endings)
        self.recorder.changed = self.timekeeper.arm  # a new position or clock: its flag's timer anew
        self.takebacks = TakeBacks(self.recorder, self.bus)
        self.computer = ComputerTurns(settings, self.bus, self.recorder, self.timekeeper, self.announce, self.live)
        self.sync = Sync(store, self.bus, self.recorder, self.live, self._loading, self.announce, self.computer.start)
        self.rater = Rater(store, self.announce)
        self.reviews = Reviews(store, settings)  # the computer's reviews of finished games (web/boards/game_review.py)
        # A game that ends is rated if it is rated (web/ratings/finish.py), and reviewed if it is against the computer.
        self.recorder.ended = self.sync.ended = self._ended
        # What other concerns keep of a game in the store, read into it as it is loaded (or read
        # again after the bus reconnected): its rematch (web/lobby/rematch.py `attach`). Each is
        # quick for a game it has nothing to read for.
        self.readers: list[Callable[[LiveGame], Awaitable[None]]] = []

    def _ended(self, live: LiveGame) -> None:
        self.rater.ended(live)
        self.reviews.ended(live)

    def owns_kind(self, game: str) -> bool:
        return game in BROWSER_GAMES

    async def close(self) -> None:
        """Stop the computer's work and let go of the worker."""
        for live in self.live.values():
            if live.ai_task is not None:
                live.ai_task.cancel()
            if live.flag_timer is not None:
                live.flag_timer.cancel()
        await self.computer.close()
        await self.rater.close()
        await self.reviews.close()

    # ----- creating and finding games --------------------------------------------------------

    async def create(self, request: NewGame, visitor: Visitor | None = None, given: dict[int, str] | None = None,
                     ) -> tuple[LiveGame, dict[int, str]]:
        """A new stored game and the tokens of its people's seats (given out once, stored as digests);
        `visitor` makes it, which a rated game needs to know (web/ratings/rules.py). `given` holds the
        digests of seats whose tokens were handed out before the game existed (a lobby seek's poster
        holds its own: web/lobby/); those seats get no new token."""
        name, game = await checked_game(request)
        mode, kinds, names = seating(request, game, self.settings.ai_time_cap)
        if request.rated and (refusal := rated_refusal(game, kinds, visitor)) is not None:
            raise refusal
        state = await asyncio.to_thread(game.new_state, names)
        given = given or {}
        tokens = {
            seat: secrets.token_urlsafe(32) for seat, kind in enumerate(kinds) if kind in (HUMAN, INVITED) and seat not in given
        }
        game_id = secrets.token_urlsafe(9)
        record = state.record()
        clock: GameClock | None = None
        if request.days is not None:
            clock = DaysClock.start(request.days, len(kinds), clocks.now())
        elif request.clock is not None:
            clock = Clock.start(request.clock.minutes, request.clock.increment, len(kinds))
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
                digests=given,
                clock=None if clock is None else clock.stored(),
                listed=listed,
                deadline=None if clock is None else deadline_of(clock.stored()),
                rated=request.rated,
            )
        except StorageError as exc:
            raise unavailable(exc, f"new {name} game", say("game-not-stored",
                                                           "the game could not be stored, so it was not made")) from None
        digests = {**given, **{seat: digest(token) for seat, token in tokens.items()}}
        live = LiveGame(game_id, mode, kinds, state, digests, time.time())
        live.clock, live.rated = clock, request.rated
        live.hint_limit = hint_limit(live, self.settings.hints_per_game)
        self._remember(live)
        if isinstance(clock, DaysClock):
            timed = f"{clock.days} days per move"
        else:
            timed = "untimed" if clock is None else f"clock {clock.base:g}s+{clock.increment:g}s"
        log.info("game %s created: %s %s (%s), %s, %s%s", game_id, name, mode, " ".join(kinds), timed, game.jsonable_options(),
                 ", rated" if request.rated else "")
        self.computer.start(live)
        return live, tokens

    async def get(self, game_id: str) -> LiveGame:
        """A live game by id, rebuilt from the database if it is not in memory; Refusal if unknown
        or not a board game (every route of a board game finds its game here, so none of them acts
        on an Omiga table: those are OmigaHub's)."""
        live = self.live.get(game_id)
        if live is not None:
            self.live.move_to_end(game_id)
            return live
        if not valid_id(game_id):
            raise Refusal(NO_SUCH_GAME, "not-found", 404)
        async with self._loading:
            live = self.live.get(game_id)
            if live is not None:
                return live
            row, digests = await self.stored(game_id)
            live = LiveGame(row.id, row.mode, row.seat_kinds, rebuild(row), digests, row.created_at, row.version)
            live.clock = stored_clock(row.clock)
            live.aborted = row.status == ABORTED
            live.rated = row.rated
            for read in self.readers:
                await read(live)
            live.hint_limit, live.hints_used = hint_limit(live, self.settings.hints_per_game), row.hints_used
            self._remember(live)
            self.rater.ended(live)  # ended while no process held it, or rated by another: read its changes
        if live.clock is not None and live.clock.out_of_time(live.state.mover):
            await self.timekeeper.fall_now(live)  # the clock ran out while the server was down: the flag falls now
        self.timekeeper.arm(live)
        self.computer.start(live)
        return live

    async def opened(self, game_id: str) -> LiveGame:
        """A live game for a page that opens on it (`get`), up to date with the store (`Sync.catch_up`):
        a page that reconnects here after its own process died starts from what the database holds,
        and the pages already here are shown it too."""
        held = game_id in self.live
        live = await self.get(game_id)
        if held:
            await self.sync.catch_up(live)
        return live

    def games_against_someone(self) -> list[Watched]:
        """The live games held here that are played against someone (not analysable yet), for the
        analysis gate: no analysis may show a position one of them has been through (web/boards/hints.py)."""
        return [Watched(live, live.state) for live in self.live.values() if not may_analyse(live)]

    def _remember(self, live: LiveGame) -> None:
        live.claim_grace = self.settings.claim_grace  # (web/boards/endings.py)
        self.live[live.id] = live
        self.live.move_to_end(live.id)
        excess = len(self.live) - self.settings.max_live_games
        for key in [key for key, game in self.live.items() if not game.busy][: max(excess, 0)]:
            del self.live[key]

    # ----- a page's requests ------------------------------------------------------------------

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
            flagged = await self.timekeeper.flag_if_out_of_time(live)
            if flagged is None:
                trial = live.state.clone()
                try:
                    trial.play(move)
                except OgamesError as exc:
                    raise Refusal(exc.said, "illegal", 422) from None
                await self.recorder.commit(live, trial, {"move": move})
        await self.announce(live)
        if flagged is not None:
            raise Refusal(say("time-ran-out", "too late: your time ran out, so the move was not made ({result})", result=flagged),
                          "over", 409)
        self.computer.start(live)
        return live

    async def resign(self, game_id: str, token: str, version: int) -> LiveGame:
        """The seat whose token is given gives up (its colours, at any turn); Refusal if not allowed."""
        live = await self.get(game_id)
        await self.timekeeper.fall_if_due(live)
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
            await self.recorder.commit(live, trial, {"resign": colour})
        await self.announce(live)
        self.computer.start(live)  # over: its kept search is dropped; or a computer is to move now
        return live

    async def undo(self, game_id: str, token: str, version: int, *, decline: bool = False) -> LiveGame:
        """Take back moves, or ask, agree or decline to (`TakeBacks.take_back`), for the seat whose
        token is given, in the game as it was at `version`; Refusal (nothing changed) if not allowed."""
        live = await self.get(game_id)
        await self.timekeeper.fall_if_due(live)
        async with live.lock:
            seat = self._check_seat(live, token, version)
            await self.takebacks.take_back(live, seat, decline=decline)
        await self.announce(live)
        self.computer.start(live)
        return live

    async def abort(self, game_id: str, token: str, version: int) -> LiveGame:
        """End the game as aborted, for the seat whose token is given, while some person has not
        moved yet (`Endings.check_abort`); Refusal (nothing changed) if not allowed."""
        live = await self.get(game_id)
        await self.timekeeper.fall_if_due(live)
        async with live.lock:
            self._check_seat(live, token, version)
            self.endings.check_abort(live)
            await self.endings.abort(live)
        await self.announce(live)
        return live

    async def claim(self, game_id: str, token: str, version: int, seat: int) -> LiveGame:
        """Claim the win over `seat`, a person whose page has been closed for the grace period, for
        the seat whose token is given (`Endings.check_claim`); Refusal (nothing changed) if not allowed."""
        live = await self.get(game_id)
        await self.timekeeper.fall_if_due(live)
        async with live.lock:
            claimer = self._check_turn(live, token, version)
            await self.endings.claim(live, claimer, seat)
        await self.announce(live)
        self.computer.start(live)
        return live

    async def join(self, game_id: str, seat: int) -> tuple[LiveGame, str]:
        """Take an open seat of a game: the new token for it (given once); Refusal if the seat is
        not open (taken already, or never offered)."""
        live = await self.get(game_id)
        async with live.lock:
            if live.ended:
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
        if live.aborted:
            raise Refusal(say("game-over", "the game is over: {result}", result=describe_result(live)), "over", 409)
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

    # ----- other server processes and who is here ------------------------------------------------

    async def heard(self, game_id: str, version: int, action: dict[str, Any]) -> None:
        """Another server process stored action `version` of a game (`Sync.heard`)."""
        await self.sync.heard(game_id, version, action)

    async def resync(self) -> None:
        """Messages may have been missed (the bus reconnected): re-read every game held here."""
        await self.sync.resync()
        for live in list(self.live.values()):
            for read in self.readers:
                await read(live)

    async def presence_changed(self, game_id: str) -> None:
        """Who is at a game may have changed (here or on another process): show it."""
        live = self.live.get(game_id)
        if live is None:
            return
        here = await self.presence.here(game_id)
        present = here.seats & frozenset(range(len(live.seat_kinds)))
        seen(live, present)  # a person who left: the others may claim the win after a while
        if (present, here.pages) != (live.present, live.pages):
            live.present, live.pages = present, here.pages
            await self.announce(live)

    # ----- watchers --------------------------------------------------------------------------

    deltas = True  # its pages may ask for deltas (web/core/delta.py): every view it makes is stamped

    def view_of(self, live: LiveGame, language: str = ENGLISH) -> GameView:
        """What watchers are sent (watch, unwatch and announce come from `Announcer`): the view
        without the board's drawing, stamped (web/core/delta.py)."""
        return stamp(view(live, language))

    def whole(self, live: LiveGame, shown: GameView, language: str = ENGLISH) -> GameView:
        """A view as a page that takes no deltas is sent it: with the board drawn (`board_part`)."""
        return drawn(live, shown, language)

    async def prepare(self, live: LiveGame) -> None:
        """Make a game's position's facts in every language watched before its views are made (`draw_position`)."""
        for language in set(live.watchers.values()):
            await draw_position(live, language)

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

__all__ = ["BROWSER_GAMES", "HUMAN", "INVITED", "OPEN", "Hub", "LiveGame", "Refusal", "checked_game", "draw_position", "drawn",
           "may_analyse", "may_take_back", "rebuild", "seating", "view"]
