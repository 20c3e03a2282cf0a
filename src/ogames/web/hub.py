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
import hmac
import json
import logging
import multiprocessing
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ogames
from ogames.errors import BadRecord, OgamesError, shown
from ogames.rules import available
from ogames.rules.protocol import TURN_BASED, State
from ogames.web import ai
from ogames.web.board import board_part, move_list, winning_cells
from ogames.web.bus import Bus
from ogames.web.protocol import NewGame
from ogames.web.settings import Settings
from ogames.web.store import GameRow, StaleMove, Store, digest

log = logging.getLogger("ogames.web")

# Games the browser can play so far (turn-based board games); Omiga's cards come later.
BROWSER_GAMES = ("omny", "oddy", "omega", "onyx")
HUMAN = "human"
QUEUE_SIZE = 8  # views waiting for one slow watcher before older ones are dropped


class Refusal(Exception):
    """A request that is refused with a reason; nothing was changed."""

    def __init__(self, message: str, code: str = "refused", status: int = 400):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status


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
    watchers: set[asyncio.Queue] = field(default_factory=set)
    thinking: bool = False
    problem: str | None = None
    ai_task: asyncio.Task | None = None

    def seat_of(self, token: str) -> int | None:
        """The seat a token belongs to (compared in constant time), or None."""
        wanted = digest(token)
        found = None
        for seat, stored in self.digests.items():
            if hmac.compare_digest(stored, wanted):
                found = seat
        return found

    def is_computer(self, seat: int | None) -> bool:
        """Whether the computer plays a seat."""
        return seat is not None and self.seat_kinds[seat] != HUMAN

    @property
    def busy(self) -> bool:
        """Whether dropping the game from memory now would lose anything running."""
        return bool(self.watchers) or self.lock.locked() or (self.ai_task is not None and not self.ai_task.done())


class Hub:
    """Every live game of one server, their storage and the computer's worker."""

    def __init__(self, store: Store, settings: Settings, bus: Bus | None = None):
        self.store = store
        self.settings = settings
        self.bus = bus or Bus()  # other server processes on the same database (web/bus.py)
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading = asyncio.Lock()
        if settings.ai_executor == "process":
            context = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self.executor: concurrent.futures.Executor = concurrent.futures.ProcessPoolExecutor(
                settings.ai_workers, mp_context=context
            )
        else:
            self.executor = concurrent.futures.ThreadPoolExecutor(settings.ai_workers, thread_name_prefix="ogames-ai")

    async def close(self) -> None:
        """Stop the computer's work and let go of the worker."""
        for live in self.live.values():
            if live.ai_task is not None:
                live.ai_task.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)

    # ----- creating and finding games --------------------------------------------------------

    async def create(self, request: NewGame) -> tuple[LiveGame, dict[int, str]]:
        """A new stored game and the tokens of its people's seats (given out once, stored as digests)."""
        name = request.game.strip().lower()
        if name not in available():
            raise Refusal(f"there is no game {shown(request.game)} (games: {', '.join(available())})", "bad-game")
        if name not in BROWSER_GAMES:
            raise Refusal(f"{name} cannot be played in the browser yet: play it in the terminal (ogames {name} …)", "bad-game")
        try:
            game = ogames.load(name, **request.options)
        except (OgamesError, TypeError) as exc:
            raise Refusal(str(exc), "bad-option") from None
        if game.dynamics != TURN_BASED:
            raise Refusal(f"{name} with these options is played in real time, which the browser cannot do yet", "bad-option")
        seats = game.seat_count
        if request.mode == "ai":
            if request.seat >= seats:
                raise Refusal(f"seat {request.seat + 1} does not exist: this game has {seats} seats", "bad-seat")
            think = self.settings.levels[request.level]
            spec = f"mcts:think={think:g}"
            kinds = [HUMAN if seat == request.seat else spec for seat in range(seats)]
            names = ["player" if seat == request.seat else f"computer ({request.level})" for seat in range(seats)]
        else:
            kinds = [HUMAN] * seats
            names = [f"player {seat + 1}" for seat in range(seats)]
        state = game.new_state(names)
        tokens = {seat: secrets.token_urlsafe(32) for seat in range(seats) if kinds[seat] == HUMAN}
        game_id = secrets.token_urlsafe(9)
        record = state.record()
        await asyncio.to_thread(self.store.create_game, game_id, name, request.mode, kinds, record, tokens)
        live = LiveGame(game_id, request.mode, kinds, state, {seat: digest(token) for seat, token in tokens.items()}, time.time())
        self._remember(live)
        log.info("game %s created: %s %s, %s", game_id, name, request.mode, game.jsonable_options())
        self._start_computer(live)
        return live, tokens

    async def get(self, game_id: str) -> LiveGame:
        """A live game by id, rebuilt from the database if it is not in memory; Refusal if unknown."""
        live = self.live.get(game_id)
        if live is not None:
            self.live.move_to_end(game_id)
            return live
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
            raise Refusal("there is no such game", "not-found", 404)
        async with self._loading:
            live = self.live.get(game_id)
            if live is not None:
                return live
            row = await asyncio.to_thread(self.store.load_game, game_id)
            if row is None:
                raise Refusal("there is no such game", "not-found", 404)
            digests = await asyncio.to_thread(self.store.token_digests, game_id)
            live = LiveGame(row.id, row.mode, row.seat_kinds, rebuild(row), digests, row.created_at, row.version)
            self._remember(live)
        self._start_computer(live)
        return live

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
                raise Refusal("the computer is to move", "not-your-turn", 409)
            if seat != live.state.mover:
                raise Refusal(f"it is not your turn: {live.state.to_move} is to move", "not-your-turn", 409)
            trial = live.state.clone()
            try:
                trial.play(move)
            except OgamesError as exc:
                raise Refusal(str(exc), "illegal", 422) from None
            await self._commit(live, trial, {"move": move})
        await self.announce(live)
        self._start_computer(live)
        return live

    async def resign(self, game_id: str, token: str, version: int) -> LiveGame:
        """The seat whose token is given gives up (its colours, at any turn); Refusal if not allowed."""
        live = await self.get(game_id)
        async with live.lock:
            seat = self._check_turn(live, token, version)
            state = live.state
            colours = [colour for colour, owner in state.owner.items() if owner == seat]
            colour = state.to_move if state.to_move in colours else (colours[0] if colours else None)
            if colour is None:
                raise Refusal("this seat has no colour to resign", "illegal", 422)
            trial = state.clone()
            try:
                trial.resign(colour)
            except (OgamesError, NotImplementedError) as exc:
                raise Refusal(str(exc), "illegal", 422) from None
            await self._commit(live, trial, {"resign": colour})
        await self.announce(live)
        return live

    def _check_turn(self, live: LiveGame, token: str, version: int) -> int:
        """The seat of a token, after checking the game is on and at the version the page saw."""
        seat = live.seat_of(token)
        if seat is None:
            raise Refusal("that token holds no seat in this game", "bad-token", 403)
        state = live.state
        if state.result is not None:
            raise Refusal(f"the game is over: {state.result.describe()}", "over", 409)
        if version != live.version:
            message = f"the game has moved on since this was sent (it was for version {version}, the game is at {live.version})"
            raise Refusal(message, "stale", 409)
        return seat

    async def _commit(self, live: LiveGame, trial: State, action: dict[str, Any] | None = None) -> None:
        """Store the action a trial copy of the live state made, then make the copy the live state
        and tell the other server processes (the game's lock is held). `action` is what they play
        on their copies ({"move": m} or {"resign": colour}); without it they re-read the game."""
        before, record = live.state.record()["moves"], trial.record()
        after = record["moves"]
        first = first_change(before, after)
        entry = after[-1] if after else {}
        try:
            await asyncio.to_thread(self.store.add_action, live.id, live.version, record, first)
        except StaleMove:
            # Another server process on the same database stored an action first: catch up here
            # (the pages hold this object, so it is brought up to date in place).
            await self._reload(live)
            await self.announce(live)
            raise Refusal("the game has moved on: look at the board again", "stale", 409) from None
        except Exception:
            log.exception("game %s: could not store action %d", live.id, live.version + 1)
            raise Refusal("the move could not be stored, so it was not made: try again", "storage", 503) from None
        live.state = trial
        live.version += 1
        live.problem = None
        log.info("game %s: move %d %s by %s", live.id, len(after), shown(entry.get("move")), entry.get("by"))
        # With the entry as stored (its time too), so that the other copies end exactly the same.
        await self.bus.publish(live.id, live.version, {**action, "entry": entry} if action else {})

    # ----- other server processes (web/bus.py) -------------------------------------------------

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
            if live.version >= version:
                return
            if version != live.version + 1 or not _apply(live, action):
                await self._reload(live)  # a message was missed, or it does not apply: read the store
            live.thinking = not live.state.is_over and live.is_computer(live.state.mover)
        await self.announce(live)
        self._start_computer(live)

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
        except Exception:
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
                live.problem = f"the computer could not move ({type(exc).__name__}); reload the page to let it try again"
                break
            async with live.lock:
                if live.version != version or live.state.is_over:
                    continue  # the position changed while it thought (a resignation): think again
                trial = live.state.clone()
                try:
                    trial.play(move)
                    await self._commit(live, trial, {"move": move})
                except Refusal as exc:
                    if exc.code == "stale":
                        continue  # another process stored an action first (a resignation): look again
                    log.error("game %s: the computer's move %s was refused: %s", live.id, shown(move), exc)
                    live.problem = "the computer could not move; reload the page to let it try again"
                    break
                except OgamesError as exc:
                    log.error("game %s: the computer's move %s was refused: %s", live.id, shown(move), exc)
                    live.problem = "the computer could not move; reload the page to let it try again"
                    break
                live.thinking = False
            await self.announce(live)
        live.thinking = False
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

    def watch(self, live: LiveGame) -> asyncio.Queue:
        """A queue that receives every new view of a game (the latest ones, if it falls behind)."""
        queue: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
        live.watchers.add(queue)
        return queue

    def unwatch(self, live: LiveGame, queue: asyncio.Queue) -> None:
        """Stop sending views to a queue."""
        live.watchers.discard(queue)

    async def announce(self, live: LiveGame) -> None:
        """Send the current view to everyone watching the game."""
        if not live.watchers:
            return  # nobody to draw it for (a game another process moves, held here idle)
        message = view(live)
        for queue in list(live.watchers):
            while queue.full():
                queue.get_nowait()  # views are whole: the newest replaces the oldest
            queue.put_nowait(message)


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
    written = trial.record_moves()
    if not written or json.loads(json.dumps(written[-1])) != entry:
        return False  # the rules wrote it otherwise here: the store has the truth
    live.state, live.version, live.problem = trial, live.version + 1, None
    return True


def first_change(before: list[Any], after: list[Any]) -> int:
    """The index of the first record entry an action changed (usually the one it appended)."""
    for index, (old, new) in enumerate(zip(before, after, strict=False)):
        if old != new:
            return index
    return min(len(before), len(after))


def rebuild(row: GameRow) -> State:
    """The state a stored game is in, rebuilt by replaying its record through the rules."""
    try:
        return ogames.replay(row.record())
    except BadRecord as exc:
        log.error("game %s cannot be rebuilt: %s", row.id, exc)
        raise Refusal(f"this game's stored record cannot be replayed: {exc}", "broken", 500) from None


def view(live: LiveGame) -> dict[str, Any]:
    """What everyone watching a game sees (no secrets): position, turn, moves, result, seats."""
    state = live.state
    board = getattr(state, "board", None)
    labels = board.labels if board is not None else ()
    stones = {label: colour for label in labels if (colour := state.stone_at(label)) is not None}
    over = state.is_over
    mover = None if over else state.mover
    computer_to_move = live.is_computer(mover)
    legal: list[str] = []
    specials: list[str] = []
    if not over and not computer_to_move:
        cells = set(labels)
        for move in state.legal_moves():
            (legal if move in cells else specials).append(move)
    last = next((entry for entry in reversed(state.history) if entry.get("move") in stones), None)
    seats = []
    for seat, name in enumerate(state.players):
        colours = [colour for colour, owner in state.owner.items() if owner == seat]
        seats.append({"seat": seat, "name": name, "computer": live.is_computer(seat), "colours": colours})
    result = state.result
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
        "moves": move_list(state),
        "stones": stones,
        "last": last.get("move") if last else None,
        "legal": legal,
        "specials": specials,
        "winning": winning_cells(state),
        "scores": _plain(state.scores),
        "result": None if result is None else {"winner": result.winner, "reason": result.reason, "text": result.describe()},
        "thinking": live.thinking,
        "problem": live.problem,
        "board": board_part(state),
    }


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


__all__ = ["BROWSER_GAMES", "Hub", "LiveGame", "Refusal", "rebuild", "view"]
