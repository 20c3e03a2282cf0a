"""Omiga's card tables in the browser: the server is the referee, with the server's clock.

An `OmigaHub` keeps the live tables of one server: made, found (rebuilt from the database on
demand) and dropped when idle, and shown to their watchers. Each concern is a collaborator of the
hub, as the board games' hub has (web/boards/hub.py): `Referee` judges, stores and shows every
action (referee.py), `Signal` starts play when a table's people are here (signal.py), `Bots`
runs the bots (bots.py), and with several processes `OmigaRelay` carries actions to a table's
referee and its views back (relay.py). The table itself is `table.LiveTable`; what watchers see
is `view.table_view`.

**The decks stay secret.** The seed fixes the order of every deck, which the rules hide: the
server draws it with `secrets` (`secret_seed`) and refuses a seed chosen by the creator of a table
played against someone (only zen, one person alone, may choose it); views, the record download
and the log leave it out until the game is over (`view.shown_options`, `shown_record`).

**Several processes** (`--redis`): one process referees each table and the others relay their
pages' actions to it and its views back (web/omiga/relay.py); who is at a table is shared
(web/core/presence.py). One process alone has no relay.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
import time
from typing import Any

import ogames
from ogames.errors import BadRecord, OgamesError
from ogames.players.levels import omiga_spec
from ogames.rules.omiga.game import secret_seed
from ogames.rules.protocol import Game, State
from ogames.web.accounts.visitor import Visitor
from ogames.web.core.common import Refusal, broadcast
from ogames.web.core.computer import level_shown
from ogames.web.core.delta import stamp
from ogames.web.core.hub import BAD_TOKEN, NO_SUCH_GAME, BaseHub, unavailable, valid_id
from ogames.web.core.presence import Presence
from ogames.web.core.seats import HUMAN, INVITED
from ogames.web.core.store import Store, digest
from ogames.web.core.store_faults import StorageError
from ogames.web.i18n import DEFAULT as ENGLISH
from ogames.web.i18n import LANGUAGES
from ogames.web.omiga import ai
from ogames.web.omiga.bots import TURN_BOT, Bots
from ogames.web.omiga.protocol import NewTable, SeatChoice
from ogames.web.omiga.referee import Referee
from ogames.web.omiga.relay import OmigaRelay
from ogames.web.omiga.signal import COUNTDOWN, Signal
from ogames.web.omiga.table import LiveTable
from ogames.web.omiga.view import actor_of, is_realtime, is_zen, seat_count, shown_options, shown_record, whole_view
from ogames.web.ratings.finish import Rater
from ogames.web.ratings.rules import rated_refusal
from ogames.wording import say

log = logging.getLogger("ogames.web")

RATED_BOT_LEVEL = say("rated-bot-level", "a rated game's bots are chosen by their level (1–10): their ratings are the levels'")
SEED_REFUSED = say("seed-refused", "the seed of a table played against someone (a bot or another person) is chosen by "
                   "the server, in secret: leave it out (only zen, played alone, may choose its seed)")


class OmigaHub(BaseHub[LiveTable]):
    """Every live Omiga table of one server: the requests of its pages, checked here and carried
    out by its collaborators."""

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
        self.tables: dict[str, LiveTable] = {}
        self.referee = Referee(store, self.tables, self.announce)
        self.bots = Bots(executor, self.tables, self.referee, self.announce)
        self.referee.after = self.bots.kick_turn  # an action made: a turn-based bot may be to move
        self.rater = Rater(store, self.announce)
        self.referee.ended = self.rater.ended  # a rated table that ends is rated (web/ratings/finish.py)
        self.signal = Signal(self.presence, self.bots, self.announce, countdown)

    def owns_kind(self, game: str) -> bool:
        return game == "omiga"

    async def close(self) -> None:
        """Stop every bot."""
        for live in self.tables.values():
            self.bots.stop(live)
        await self.rater.close()

    # ----- creating and finding tables --------------------------------------------------------

    async def create(self, request: NewTable, visitor: Visitor | None = None) -> tuple[LiveTable, dict[int, str], dict[int, str]]:
        """A new stored table, and the tokens of the seats played here and by invitation; `visitor`
        makes it, which a rated table needs to know (web/ratings/rules.py)."""
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
        if request.rated:
            self._check_rated(game, choices, kinds, visitor)
        state.players = ["player"] if is_zen(state) else [actor_of(state, seat) for seat in range(count)]
        tokens = {seat: secrets.token_urlsafe(32) for seat, kind in enumerate(kinds) if kind == HUMAN}
        table_id = secrets.token_urlsafe(9)
        mode = "realtime" if is_realtime(state) else "turns"
        try:
            await asyncio.to_thread(self.store.create_game, table_id, "omiga", mode, kinds, state.record(), tokens,
                                    rated=request.rated)
        except StorageError as exc:
            raise unavailable(exc, "new omiga table", say("game-not-stored",
                                                          "the game could not be stored, so it was not made")) from None
        live = LiveTable(table_id, kinds, state, {seat: digest(token) for seat, token in tokens.items()}, rated=request.rated)
        if self.relay is not None:
            await self.relay.adopt(live)  # a new table: always this process's to referee
        await self._settle(live)
        self._remember(live)
        log.info("omiga table %s created: %s, seats %s%s", table_id, shown_options(game.jsonable_options(), False), kinds,
                 ", rated" if request.rated else "")
        here = {seat: tokens[seat] for seat, choice in enumerate(choices) if choice.kind == "here"}
        invites = {seat: tokens[seat] for seat, choice in enumerate(choices) if choice.kind == "invite"}
        self._open(live)
        return live, here, invites

    @staticmethod
    def _check_rated(game: Game, choices: list[SeatChoice], kinds: list[str], visitor: Visitor | None) -> None:
        """Refuse a rated table that cannot be: made by a guest, of a kind only played casual, with
        more than one seat in this browser (as the board games: web/ratings/rules.py), or with a
        bot that is not one of the rated levels."""
        seats = [HUMAN if choice.kind == "here" else INVITED if choice.kind == "invite" else kind
                 for choice, kind in zip(choices, kinds, strict=True)]
        refusal = rated_refusal(game, seats, visitor)
        if refusal is not None:
            raise refusal
        if any(kind != HUMAN and level_shown(kind) is None for kind in kinds):
            raise Refusal(RATED_BOT_LEVEL, "rated-bot-level")

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
            live = LiveTable(row.id, row.seat_kinds, state, digests, row.version, rated=row.rated)
            self.rater.ended(live)  # ended while no process held it, or rated by another: read its changes
            if self.relay is not None and not await self.relay.adopt(live):
                self._remember(live)  # another process referees it: a mirror, no clock, no bots
                return live
            await self._settle(live)
            self._remember(live)
        self._open(live)
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
                self.bots.stop(table)
                del self.tables[key]
                excess -= 1

    async def _settle(self, live: LiveTable) -> None:
        """What a table needs before play: the zen verdict (in a thread: the solver may take a moment)."""
        state = live.state
        if is_zen(state):
            form = state.form.key
            live.zen_verdict = await asyncio.to_thread(ai.form_verdict, form)

    def _open(self, live: LiveTable) -> None:
        """A table refereed here from now on: its bots' kernels loaded, its play begun (`Signal`)."""
        self.bots.warm(live)
        self.signal.begin(live)

    # ----- presence and actions -------------------------------------------------------------

    async def presence_changed(self, table_id: str) -> None:
        """Who is at a table may have changed (here or on another process): the referee shows it
        and gives the signal once every person is here (`Signal`)."""
        live = self.tables.get(table_id)
        if live is None or live.remote:
            return  # not held here, or the referee elsewhere shows it
        await self.signal.presence_changed(live)

    async def act(self, table_id: str, token: str, seq: int, action: str) -> dict[str, Any]:
        """A person's action: the verdict `{accepted, action, reason, code}` (refusals change nothing)."""
        arrived = time.monotonic()
        live = await self.get(table_id)
        if live.remote and self.relay is not None:
            return await self.relay.forward(live, token, seq, action)  # the referee is another process
        seat = live.seat_of(token)
        if seat is None:
            raise Refusal(BAD_TOKEN, "bad-token", 403)
        self.referee.check_seq(live, seat, seq)
        return await self.referee.apply(live, seat, action, arrived)

    async def resign(self, table_id: str, token: str, seq: int) -> dict[str, Any]:
        """The seat of the token gives up (its team's colour in 2v2)."""
        return await self.act(table_id, token, seq, "resign")

    async def judge(self, live: LiveTable, seat: int, seq: int, action: str) -> dict[str, Any]:
        """An action relayed from another process, whose seat was checked there: judged now."""
        arrived = time.monotonic()
        if not 0 <= seat < len(live.seat_kinds) or seat not in live.people:
            raise Refusal(BAD_TOKEN, "bad-token", 403)
        self.referee.check_seq(live, seat, seq)
        return await self.referee.apply(live, seat, action, arrived)

    # ----- watchers --------------------------------------------------------------------------

    deltas = True  # its pages may ask for deltas (web/core/delta.py): every view it makes is stamped

    def view_of(self, live: LiveTable, language: str = ENGLISH) -> dict[str, Any]:
        """What watchers are sent (watch, unwatch and announce come from `Announcer`): the view with
        the table's drawing in parts, stamped (a page that takes deltas is then sent only the cells
        that change)."""
        return stamp(live.wire(language))

    def whole(self, live: LiveTable, view: dict[str, Any], language: str = ENGLISH) -> dict[str, Any]:
        """A view as a page that takes no deltas is sent it: with the table's whole drawing."""
        return whole_view(view)

    async def announce(self, live: LiveTable) -> None:
        """Send the view to the pages here and, as the referee of several processes, to the others'
        (in every language: the other processes' pages may read any)."""
        if self.relay is None or live.remote:
            await super().announce(live)
            return
        views = {language: live.wire(language) for language in LANGUAGES}
        broadcast(live.watchers, lambda language: stamp(dict(views[language])), lambda view, language: whole_view(view))
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
            live.rating_changes = None  # its referee may have ended it: settle it here (rated once whoever does)
        self.rater.ended(live)
        await self._settle(live)
        self._open(live)
        await self.presence_changed(live.id)
        return True

    def step_down(self, live: LiveTable) -> None:
        """Another process referees the table now: stop the clock and the bots here; relay."""
        self.bots.stop(live)
        live.tasks, live.remote, live.relayed = [], True, None


__all__ = ["COUNTDOWN", "HUMAN", "LiveTable", "OmigaHub", "seat_count"]
