"""Omiga's card tables in the browser: the server is the referee, with the server's clock.

An `OmigaHub` keeps the live tables of one server. Every action — a person's from a page, a bot's
from its task — takes the same path: the seat's token (people) and a growing sequence number,
the time on the server's clock when it arrived, the rules on a copy of the state (real time:
`RealtimeState.act(actor, action, t)`; toddler, kids with `pace=turns` and zen: `play(move, t=…)`
by the seat to move), the database, and only then the new table for everyone watching. A refused
action changes nothing and goes back to its sender with the rules' reason (the page flies the card
back to the hand).

**The clock.** Game time `t` is seconds since the signal ("Omiga!"). A real-time game waits until
every person's seat has a page open (`ready`), counts down `COUNTDOWN` seconds and gives the
signal; bots start then. Every accepted action is stored with its `t`. After a server restart the
table is rebuilt from the record and waits for its people again; the clock then resumes at the
time of the last stored action: time while the server was down (or before everyone was back) does
not count, so nobody loses a race to a server outage.

**The decks stay secret.** The seed fixes the order of every deck, which the rules hide: the
server draws it with `secrets` (`secret_seed`) and refuses a seed chosen by the creator of a table
played against someone (only zen, one person alone, may choose it); views, the record download
and the log leave it out until the game is over (`view.shown_options`, `shown_record`).

**Several processes** (`--redis`): one process referees each table and the others relay their
pages' actions to it and its views back (web/omiga/relay.py); who is at a table is shared
(web/core/presence.py). One process alone has no relay.

**Bots** run as asyncio tasks: a bot looks at the table, decides in the AI worker
(`ai.bot_action`, never on the event loop) and its action arrives its reaction time after it
looked, by when the table may have changed: the referee judges it then, as any other.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
import secrets
import time
from typing import Any

import ogames
from ogames.errors import BadRecord, IllegalMove, OgamesError, shown
from ogames.players.levels import omiga_spec
from ogames.players.omiga.climber import climber_move
from ogames.rules.omiga.game import secret_seed
from ogames.rules.omiga.realtime import RealtimeState
from ogames.rules.protocol import State
from ogames.web.core.common import Refusal, broadcast
from ogames.web.core.hub import BAD_TOKEN, NO_SUCH_GAME, BaseHub, first_change, not_your_turn, unavailable, valid_id
from ogames.web.core.presence import Presence
from ogames.web.core.store import StaleMove, Store, digest
from ogames.web.core.store_faults import StorageError
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.i18n import LANGUAGES
from ogames.web.omiga import ai
from ogames.web.omiga.protocol import NewTable, SeatChoice
from ogames.web.omiga.relay import OmigaRelay
from ogames.web.omiga.table import HUMAN, LiveTable
from ogames.web.omiga.view import actor_of, colour_of, is_realtime, is_zen, seat_count, shown_options, shown_record
from ogames.wording import say

log = logging.getLogger("ogames.web")

COUNTDOWN = 3.0  # seconds from "everyone is here" to the signal
TURN_BOT_PAUSE = 0.5  # seconds a turn-based bot waits before its move, so people can follow it
TURN_BOT = "climber"  # toddler and kids-in-turns bots: the placement that climbs furthest
KEEP_REJECTED = 100  # refused actions kept in the record's meta (the newest)
SEED_REFUSED = say("seed-refused", "the seed of a table played against someone (a bot or another person) is chosen by "
                   "the server, in secret: leave it out (only zen, played alone, may choose its seed)")


class OmigaHub(BaseHub[LiveTable]):
    """Every live Omiga table of one server, their storage, their bots."""

    kind = "omiga table"

    def __init__(
        self,
        store: Store,
        executor: concurrent.futures.Executor,
        countdown: float = COUNTDOWN,
        keep: int = 500,
        relay: OmigaRelay | None = None,
        presence: Presence | None = None,
    ):
        super().__init__(store, presence)
        self.relay = relay  # None: this process is alone and referees every table
        self.keep = keep  # tables kept in memory; idle ones beyond are dropped (and rebuilt on demand)
        self.executor = executor
        self.countdown = countdown
        self.tables: dict[str, LiveTable] = {}

    def owns_kind(self, game: str) -> bool:
        return game == "omiga"

    async def close(self) -> None:
        """Stop every bot."""
        for live in self.tables.values():
            for task in live.tasks:
                task.cancel()

    # ----- creating and finding tables --------------------------------------------------------

    async def create(self, request: NewTable) -> tuple[LiveTable, dict[int, str], dict[int, str]]:
        """A new stored table, and the tokens of the seats played here and by invitation."""
        chosen = request.options.get("seed")
        try:
            game = ogames.load("omiga", **{**request.options, "seed": secret_seed() if chosen is None else chosen})
        except OgamesError as exc:
            raise Refusal(exc.said, "bad-option") from None
        except TypeError as exc:
            raise Refusal(str(exc), "bad-option") from None
        count = game.seat_count
        if chosen is not None and count > 1:
            raise Refusal(SEED_REFUSED, "bad-option")
        choices = list(request.seats)[:count] + [SeatChoice(kind="bot")] * max(0, count - len(request.seats))
        # Off the event loop: the first state of a server loads the rules' compiled kernels.
        state = await asyncio.to_thread(game.new_state)
        kinds = [self._seat_kind(state, choice) for choice in choices]
        if is_zen(state) and kinds[0] != HUMAN:
            raise Refusal(say("zen-person", "zen is played by a person: the seat cannot be a bot"), "bad-seat")
        state.players = ["player"] if is_zen(state) else [actor_of(state, seat) for seat in range(count)]
        tokens = {seat: secrets.token_urlsafe(32) for seat, kind in enumerate(kinds) if kind == HUMAN}
        table_id = secrets.token_urlsafe(9)
        mode = "realtime" if is_realtime(state) else "turns"
        try:
            await asyncio.to_thread(self.store.create_game, table_id, "omiga", mode, kinds, state.record(), tokens)
        except StorageError as exc:
            raise unavailable(exc, "new omiga table", say("game-not-stored",
                                                          "the game could not be stored, so it was not made")) from None
        live = LiveTable(table_id, kinds, state, {seat: digest(token) for seat, token in tokens.items()})
        if self.relay is not None:
            await self.relay.adopt(live)  # a new table: always this process's to referee
        await self._settle(live)
        self._remember(live)
        log.info("omiga table %s created: %s, seats %s", table_id, shown_options(game.jsonable_options(), False), kinds)
        here = {seat: tokens[seat] for seat, choice in enumerate(choices) if choice.kind == "here"}
        invites = {seat: tokens[seat] for seat, choice in enumerate(choices) if choice.kind == "invite"}
        self._warm(live)
        self._begin(live)
        return live, here, invites

    @staticmethod
    def _seat_kind(state: State, choice: SeatChoice) -> str:
        if choice.kind != "bot":
            return HUMAN
        if not is_realtime(state):
            return TURN_BOT
        if choice.level is not None:
            return omiga_spec(choice.level)
        speed = choice.speed if isinstance(choice.speed, str) else f"{choice.speed:g}"
        return f"{choice.strategy}:reaction={speed}"

    async def owns(self, table_id: str) -> bool:
        """Whether an id names a stored Omiga game."""
        if table_id in self.tables:
            return True
        if not valid_id(table_id):
            return False
        row = await asyncio.to_thread(self.store.load_game, table_id)  # StorageError: the app answers 503
        return row is not None and row.game == "omiga"

    async def get(self, table_id: str) -> LiveTable:
        """A live table by id, rebuilt from the database if it is not in memory; Refusal if unknown
        or not an Omiga game (every route and socket of a table finds it here, so none of them acts
        on a board game)."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if not valid_id(table_id):
            raise Refusal(NO_SUCH_GAME, "not-found", 404)
        async with self._loading:
            live = self.tables.get(table_id)
            if live is not None:
                return live
            row, digests = await self.stored(table_id)
            try:
                state = await asyncio.to_thread(ogames.replay, row.record())
            except BadRecord as exc:
                log.error("omiga table %s cannot be rebuilt: %s", row.id, exc)
                raise Refusal(say("broken-record", "this game's stored record cannot be replayed: {reason}", reason=exc.said),
                              "broken", 500) from None
            live = LiveTable(row.id, row.seat_kinds, state, digests, row.version)
            if self.relay is not None and not await self.relay.adopt(live):
                self._remember(live)  # another process referees it: a mirror, no clock, no bots
                return live
            await self._settle(live)
            self._remember(live)
        self._warm(live)
        self._begin(live)
        return live

    def _remember(self, live: LiveTable) -> None:
        """Keep a table in memory, dropping the oldest idle ones (over, or nobody watching and no bot
        running) beyond `keep`: they are rebuilt from the database when next opened."""
        self.tables[live.id] = live
        excess = len(self.tables) - self.keep
        if excess <= 0:
            return
        for key, table in list(self.tables.items()):
            idle = not table.watchers and not table.lock.locked() and all(task.done() for task in table.tasks)
            if excess > 0 and table is not live and (idle or (table.state.is_over and not table.watchers)):
                for task in table.tasks:
                    task.cancel()
                del self.tables[key]
                excess -= 1

    async def _settle(self, live: LiveTable) -> None:
        """What a table needs before play: the zen verdict (in a thread: the solver may take a moment)."""
        state = live.state
        if is_zen(state):
            form = state.form.key
            live.zen_verdict = await asyncio.to_thread(ai.form_verdict, form)

    def _warm(self, live: LiveTable) -> None:
        """Let the worker load the bots' kernels while the people arrive."""
        for spec in {kind for kind in live.seat_kinds if kind not in (HUMAN, TURN_BOT)}:
            self.executor.submit(ai.warm_up, spec)

    def _begin(self, live: LiveTable) -> None:
        """Turn-based tables are on at once; real-time ones when their people are here."""
        if live.state.is_over:
            return
        if not live.realtime:
            now = time.monotonic()
            live.signal_at, live.origin = now, now - live.clock()
            self._kick_turn_bot(live)
        elif not live.people:
            self._signal(live)

    # ----- presence and the signal -----------------------------------------------------------

    async def presence_changed(self, table_id: str) -> None:
        """Who is at a table may have changed (here or on another process): the referee shows it
        and gives the signal once every person is here."""
        live = self.tables.get(table_id)
        if live is None or live.remote:
            return  # not held here, or the referee elsewhere shows it
        here = await self.presence.here(table_id)
        ready = set(here.seats) & live.people
        if (ready, here.pages) == (live.ready, live.pages):
            return
        live.ready, live.pages = ready, here.pages
        if live.realtime and live.signal_at is None and live.people <= live.ready and not live.state.is_over:
            self._signal(live)
        await self.announce(live)

    def _signal(self, live: LiveTable) -> None:
        """Count down, give the signal (the clock resumes where the record stops), start the bots."""
        live.signal_at = time.monotonic() + self.countdown
        live.origin = live.signal_at - live.clock()
        live.tasks.append(asyncio.get_running_loop().create_task(self._at_signal(live), name=f"omiga-signal-{live.id}"))

    async def _at_signal(self, live: LiveTable) -> None:
        assert live.signal_at is not None
        while (left := live.signal_at - time.monotonic()) > 0:
            await asyncio.sleep(left + 0.002)  # the loop's timers may wake a little early
        await self.announce(live)
        loop = asyncio.get_running_loop()
        for seat, kind in enumerate(live.seat_kinds):
            if kind != HUMAN:
                live.tasks.append(loop.create_task(self._run_bot(live, seat), name=f"omiga-bot-{live.id}-{seat}"))

    # ----- actions ---------------------------------------------------------------------------

    async def act(self, table_id: str, token: str, seq: int, action: str) -> dict[str, Any]:
        """A person's action: the verdict `{accepted, action, reason, code}` (refusals change nothing)."""
        arrived = time.monotonic()
        live = await self.get(table_id)
        if live.remote and self.relay is not None:
            return await self.relay.forward(live, token, seq, action)  # the referee is another process
        seat = live.seat_of(token)
        if seat is None:
            raise Refusal(BAD_TOKEN, "bad-token", 403)
        self._check_seq(live, seat, seq)
        return await self._apply(live, seat, action, arrived)

    async def resign(self, table_id: str, token: str, seq: int) -> dict[str, Any]:
        """The seat of the token gives up (its team's colour in 2v2)."""
        return await self.act(table_id, token, seq, "resign")

    async def judge(self, live: LiveTable, seat: int, seq: int, action: str) -> dict[str, Any]:
        """An action relayed from another process, whose seat was checked there: judged now."""
        arrived = time.monotonic()
        if not 0 <= seat < len(live.seat_kinds) or seat not in live.people:
            raise Refusal(BAD_TOKEN, "bad-token", 403)
        self._check_seq(live, seat, seq)
        return await self._apply(live, seat, action, arrived)

    @staticmethod
    def _check_seq(live: LiveTable, seat: int, seq: int) -> None:
        last = live.last_seq.get(seat, -1)
        if seq <= last:
            raise Refusal(say("seq-handled",
                              "message {seq} was already handled (the last was {last}): it is not done again", seq=seq,
                              last=last), "stale", 409)
        live.last_seq[seat] = seq

    async def _apply(self, live: LiveTable, seat: int, action: str, arrived: float) -> dict[str, Any]:
        """Judge an action of a seat as the table stands now, store it, then announce it."""
        async with live.lock:
            state = live.state
            if state.is_over:
                over = say("game-over", "the game is over: {result}", result=state.result.describe())  # type: ignore[union-attr]
                return _verdict(action, over, "over")
            if not live.started:
                return _verdict(action, say("wait-signal", "wait for the signal: the game has not started yet"), "early")
            latest = state.clock if isinstance(state, RealtimeState) else 0.0  # the last accepted action's time
            when = max(live.clock() if live.origin is None else arrived - live.origin, latest)
            trial = state.clone()
            try:
                made = self._rules(trial, seat, action, when)
            except OgamesError as exc:
                reason = exc.reason if isinstance(exc, IllegalMove) else exc.said
                if isinstance(state, RealtimeState):
                    rejected = {"move": action, "by": actor_of(state, seat), "t": round(when, 3), "reason": str(reason)}
                    state.rejected.append(rejected)
                    del state.rejected[:-KEEP_REJECTED]
                return _verdict(action, reason, "illegal")
            if isinstance(trial, RealtimeState):
                del trial.rejected[:-KEEP_REJECTED]
            await self._commit(live, trial)
        await self.announce(live)
        self._kick_turn_bot(live)
        return {"accepted": True, "action": made, "reason": "", "code": "ok", "t": round(when, 3)}

    @staticmethod
    def _rules(trial: State, seat: int, action: str, when: float) -> str:
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

    async def _commit(self, live: LiveTable, trial: State) -> None:
        """Store what a trial copy made, then make it the live state (the lock is held)."""
        before, record = live.state.record()["moves"], trial.record()
        first = first_change(before, record["moves"])
        try:
            await asyncio.to_thread(self.store.add_action, live.id, live.version, record, first)
        except StaleMove:
            self.tables.pop(live.id, None)
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

    # ----- bots ------------------------------------------------------------------------------

    async def _run_bot(self, live: LiveTable, seat: int) -> None:
        """A real-time bot: look, decide in the worker, wait out the reaction time, act; again."""
        from ogames.players import player

        spec = live.seat_kinds[seat]
        bot = player(spec)
        actor = actor_of(live.state, seat)
        rng = random.Random(f"{live.id}:{seat}:{live.version}")
        loop = asyncio.get_running_loop()
        while not live.state.is_over and self.tables.get(live.id) is live:
            looked = time.monotonic()
            record = live.state.record()
            try:
                action = await loop.run_in_executor(
                    self.executor, ai.bot_action, f"{live.id}:{seat}", record, actor, spec, rng.randrange(2**31)
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.exception("omiga table %s: bot %s failed", live.id, actor)
                live.problem = say("bot-stopped",
                                   "the bot {actor} stopped ({error}); reload the page to start it again", actor=actor,
                                   error=type(exc).__name__)
                self.tables.pop(live.id, None)
                await self.announce(live)
                return
            wait = looked + bot.delay(rng) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if action is not None and not live.state.is_over:
                verdict = await self._apply(live, seat, action, time.monotonic())
                if not verdict["accepted"]:
                    log.info("omiga table %s: bot %s's %s refused: %s", live.id, actor, action, verdict["reason"])

    def _kick_turn_bot(self, live: LiveTable) -> None:
        """In the turn-based modes, let a bot move when its seat is to move."""
        if live.realtime or live.state.is_over:
            return
        mover = live.state.mover
        if mover is None or live.seat_kinds[mover] != TURN_BOT:
            return
        if any(task.get_name().startswith("omiga-turn") and not task.done() for task in live.tasks):
            return
        live.tasks = [task for task in live.tasks if not task.done()]
        live.tasks.append(asyncio.get_running_loop().create_task(self._turn_bot(live), name=f"omiga-turn-{live.id}"))

    async def _turn_bot(self, live: LiveTable) -> None:
        rng = random.Random(f"{live.id}:{live.version}")
        while not live.state.is_over and self.tables.get(live.id) is live:
            mover = live.state.mover
            if mover is None or live.seat_kinds[mover] != TURN_BOT:
                return
            await asyncio.sleep(TURN_BOT_PAUSE)
            if live.state.mover != mover:
                continue
            move = climber_move(live.state, rng)
            verdict = await self._apply(live, mover, move, time.monotonic())
            if not verdict["accepted"]:  # never: the bot picks among the legal moves
                log.error("omiga table %s: turn bot's %s refused: %s", live.id, move, verdict["reason"])
                return

    # ----- watchers --------------------------------------------------------------------------

    def view_of(self, live: LiveTable, language: str = ENGLISH) -> dict[str, Any]:
        """What watchers are sent (watch, unwatch and announce come from `Announcer`)."""
        return live.view(language)

    async def announce(self, live: LiveTable) -> None:
        """Send the view to the pages here and, as the referee of several processes, to the others'
        (in every language: the other processes' pages may read any)."""
        if self.relay is None or live.remote:
            await super().announce(live)
            return
        views = {language: live.view(language) for language in LANGUAGES}
        broadcast(live.watchers, views.__getitem__)
        await self.relay.show(live, views)

    # ----- several processes (web/omiga/relay.py) --------------------------------------------

    async def relayed(self, live: LiveTable, views: dict[str, dict[str, Any]]) -> None:
        """The referee's new view of a table this process mirrors (in every language): to the pages here."""
        version = int((views.get(ENGLISH) or {}).get("version", -1))
        if version < live.version and live.relayed is not None:
            return  # an older view overtaken by a newer one
        live.relayed, live.version = views, max(live.version, version)
        await super().announce(live)

    async def record(self, table_id: str) -> dict[str, Any]:
        """A table's record as anyone may have it (the seed only once the game is over): as played
        here, or as stored when another process referees it."""
        live = await self.get(table_id)
        try:
            row = await asyncio.to_thread(self.store.load_game, table_id) if live.remote else None
        except StorageError as exc:
            raise unavailable(exc, f"omiga table {table_id}", say("record-not-read",
                                                                  "the record cannot be read just now")) from None
        return shown_record(row.record() if row is not None else live.state.record())

    async def take_over(self, live: LiveTable) -> bool:
        """Referee a mirrored table whose referee is gone: rebuilt from the database, as after a
        restart (the clock resumes at the last stored action once its people are here)."""
        async with live.lock:
            try:
                row = await asyncio.to_thread(self.store.load_game, live.id)
                assert row is not None
                state = await asyncio.to_thread(ogames.replay, row.record())
                digests = await asyncio.to_thread(self.store.token_digests, live.id)
            except Exception as exc:
                if isinstance(exc, StorageError):
                    log.warning("omiga table %s could not be taken over: %s", live.id, exc)
                else:
                    log.exception("omiga table %s could not be taken over", live.id)
                self.tables.pop(live.id, None)
                return False
            live.state, live.version, live.digests, live.remote, live.relayed = state, row.version, digests, False, None
            live.signal_at = live.origin = None
            live.ready, live.pages, live.last_seq, live.problem = set(), -1, {}, None
        await self._settle(live)
        self._warm(live)
        self._begin(live)
        await self.presence_changed(live.id)
        return True

    def step_down(self, live: LiveTable) -> None:
        """Another process referees the table now: stop the clock and the bots here; relay."""
        for task in live.tasks:
            task.cancel()
        live.tasks, live.remote, live.relayed = [], True, None


def _verdict(action: str, reason: str, code: str) -> dict[str, Any]:
    return {"accepted": False, "action": action, "reason": reason, "code": code}


__all__ = ["COUNTDOWN", "HUMAN", "LiveTable", "OmigaHub", "seat_count"]
