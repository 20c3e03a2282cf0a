"""A rematch at the end of a game between two people: the same game, options, time control and
rated-or-casual, with the colours swapped, once both players ask for it.

    POST /api/games/{id}/rematch  {"token"}   offer (or agree to) a rematch; → the offer's state and the
                                              token this page holds for its seat of the next game
    GET  /api/games/{id}/rematch              who has offered, and the new game once it is made

Each offer gives the offering page, at once, the token of its seat in the next game (its colour
swapped); the database keeps only the digest, as the lobby's seeks do. The second offer makes the
game: its insertion into `rematches` (one row per finished game) is the guard, so two offers at once
on two processes make one game.

The pages are told, not asked: who has offered and the new game are part of the game's view
(`LiveGame.rematch`, `GameView.rematch`), sent on the game's socket to every page of this process
and, through the bus (web/core/bus.py, `{"rematch": …}`), to the other processes', which merge it
into their copy (web/boards/sync.py). A process that loads a finished game reads its rematch from
the store (`attach`), and a page that connects or reconnects is sent the whole view, so the GET is
only for clients without the socket. A page goes to the new game with the token it holds.

An offer makes a game, so a banned visitor (or a guest from a banned address) may not offer one
(web/chat/bans.py); nor may its opponent offer or agree to a rematch with it, though its offer came
before the ban (409 `opponent-banned`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ogames.web.accounts import records as accounts
from ogames.web.boards.clock import Clock
from ogames.web.boards.correspondence import DaysClock
from ogames.web.boards.hub import Hub
from ogames.web.boards.live import LiveGame, RematchState, may_rematch
from ogames.web.boards.protocol import ClockChoice, NewGame
from ogames.web.boards.routes import HubDep
from ogames.web.chat import records as chat_records
from ogames.web.chat.bans import NotBanned
from ogames.web.core.common import Refusal
from ogames.web.core.deps import VisitorDep, read_body
from ogames.web.core.hub import BAD_TOKEN
from ogames.web.core.protocol import Message, Token
from ogames.web.core.store import Store, digest, guarded, metadata, seat_of_token
from ogames.web.core.store_faults import StorageError
from ogames.wording import say

rematch_offers = Table(
    "rematch_offers",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),  # the offering seat in the finished game
    Column("digest", String(64), nullable=False),  # of its page's token for its seat in the next game
    Column("created_at", Float, nullable=False),
)
rematches = Table(
    "rematches",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("new_game_id", String(32), nullable=True),
)

log = logging.getLogger("ogames.web")
router = APIRouter()
NO_REMATCH = say("no-rematch", "a rematch is offered at the end of a game between two people in different browsers")
OPPONENT_BANNED = say("opponent-banned", "an operator banned the other player: there is no rematch with them")


class RematchRequest(Message):
    token: Token


@guarded(writes=True)
def offer(store: Store, game_id: str, seat: int, token_digest: str) -> tuple[list[int], bool]:
    """Record a seat's offer (a later one replaces its token); (the seats that have offered, whether
    this call is the one that makes the game: both offered and it claimed the rematch first)."""
    with store.engine.begin() as conn:
        conn.execute(delete(rematch_offers).where(rematch_offers.c.game_id == game_id, rematch_offers.c.seat == seat))
        conn.execute(insert(rematch_offers).values(game_id=game_id, seat=seat, digest=token_digest, created_at=time.time()))
    offered = offers(store, game_id)
    if len(offered) < 2:
        return sorted(offered), False
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(rematches).values(game_id=game_id, new_game_id=None))
    except IntegrityError:
        return sorted(offered), False  # the other offer is making it
    return sorted(offered), True


@guarded()
def offers(store: Store, game_id: str) -> dict[int, str]:
    """The seats that have offered a rematch, with their next tokens' digests."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(rematch_offers.c.seat, rematch_offers.c.digest).where(rematch_offers.c.game_id == game_id))
        return {row.seat: row.digest for row in rows}


@guarded()
def made(store: Store, game_id: str) -> str | None:
    """The rematch's game, once made."""
    with store.engine.connect() as conn:
        return conn.execute(select(rematches.c.new_game_id).where(rematches.c.game_id == game_id)).scalar()


@guarded(writes=True)
def settle(store: Store, game_id: str, new_game_id: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(update(rematches).where(rematches.c.game_id == game_id).values(new_game_id=new_game_id))


@guarded()
def stored_state(store: Store, game_id: str) -> RematchState:
    """A game's rematch as the store has it: the seats that have offered, and the new game once made."""
    return RematchState(frozenset(offers(store, game_id)), made(store, game_id))


async def learn(hub: Hub, live: LiveGame, known: RematchState, *, publish: bool = True) -> None:
    """Merge what is known of a game's rematch into its live copy; if that changed it, show the
    pages here and (`publish`) tell the other processes, whose pages show it too."""
    merged = live.rematch.merged(known)
    if merged == live.rematch:
        return
    live.rematch = merged
    await hub.announce(live)
    if publish:
        await hub.bus.publish(live.id, live.version, {"rematch": merged.message()})


def attach(hub: Hub) -> None:
    """Read a finished game's rematch from the store whenever the hub loads the game (or reads its
    games again after the bus reconnected)."""

    async def read(live: LiveGame) -> None:
        if not may_rematch(live):
            return
        try:
            known = await asyncio.to_thread(stored_state, hub.store, live.id)
        except StorageError as exc:  # the page's offer, or the GET, reads it again
            log.warning("game %s: its rematch could not be read: %s", live.id, exc)
            return
        await learn(hub, live, known, publish=False)

    hub.readers.append(read)


def opponent_banned(store: Store, game_id: str, seat: int) -> bool:
    """Whether an operator banned a player recorded in another seat of the game. Their offer may
    predate the ban, and agreeing to it would make them a game."""
    players = accounts.seat_players_of(store, game_id)
    return any(player is not None and chat_records.sanction_of(store, player) == chat_records.BAN
               for other, player in players.items() if other != seat)


def next_game(live: LiveGame, maker_seat: int) -> NewGame:
    """The same game with the colours swapped: the maker's next seat theirs ("here"), the other invited."""
    clock: ClockChoice | None = None
    days: int | None = None
    if isinstance(live.clock, DaysClock):
        days = live.clock.days
    elif isinstance(live.clock, Clock):
        clock = ClockChoice(minutes=live.clock.base / 60, increment=live.clock.increment)
    seats = ["here" if seat == 1 - maker_seat else "invite" for seat in range(2)]
    return NewGame(game=live.state.game.name, options=live.state.game.jsonable_options(), seats=seats, clock=clock,
                   days=days, rated=live.rated)


@router.post("/api/games/{game_id}/rematch", response_model=None)
async def api_rematch(request: Request, game_id: str, hub: HubDep, visitor: VisitorDep, _allowed: NotBanned) -> Response:
    asked = RematchRequest.model_validate_json(await read_body(request, 4096))
    live = await hub.get(game_id)
    if not may_rematch(live):
        raise Refusal(NO_REMATCH, "no-rematch", 409)
    seat = seat_of_token(live.digests, asked.token)
    if seat is None:
        raise Refusal(BAD_TOKEN, "bad-token", 403)
    if await asyncio.to_thread(opponent_banned, hub.store, game_id, seat):
        raise Refusal(OPPONENT_BANNED, "opponent-banned", 409)
    token = secrets.token_urlsafe(32)
    offered, maker = await asyncio.to_thread(offer, hub.store, game_id, seat, digest(token))
    answer: dict[str, Any] = {"offered": offered, "seat": 1 - seat, "token": token, "game": None}
    await learn(hub, live, RematchState(frozenset(offered)))  # the other player's page says so at once
    if maker:
        digests = await asyncio.to_thread(offers, hub.store, game_id)
        new, _ = await hub.create(next_game(live, seat), visitor=visitor,
                                  given={1 - old: held for old, held in digests.items()})
        await asyncio.to_thread(settle, hub.store, game_id, new.id)
        players = await asyncio.to_thread(accounts.seat_players_of, hub.store, game_id)

        def record_seats() -> None:
            for old, player in players.items():
                if player is not None:
                    accounts.seat_player(hub.store, new.id, 1 - old, player)

        await asyncio.to_thread(record_seats)
        answer["game"] = new.id
        await learn(hub, live, RematchState(frozenset(offered), new.id))  # both pages go to it
    return JSONResponse(answer)


@router.get("/api/games/{game_id}/rematch", response_model=None)
async def api_rematch_state(game_id: str, hub: HubDep) -> Response:
    live = await hub.get(game_id)
    known = await asyncio.to_thread(stored_state, hub.store, game_id)
    await learn(hub, live, known, publish=False)  # a message this process missed: its pages are shown it too
    return JSONResponse({**known.message(), "over": live.state.is_over})


__all__ = ["attach", "may_rematch", "next_game", "offer", "offers", "router", "stored_state"]
