"""What the chat keeps in the games database (migration 0009): messages, reports, the operators'
sanctions and the games whose chat is hidden. Functions of the `Store`, each one short transaction
that does what it says or raises `StorageError` having changed nothing; call them off the event loop.

A *sanction* is given to a player id (an account's, or a guest's that chatted under the name):
`mute` hides everything they said from everyone and stops them chatting; `ban` does that and
stops them creating games and seeks too.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, String, Table, delete, false, insert, select, update
from sqlalchemy.exc import IntegrityError

from ogames.web.accounts.names import name_key
from ogames.web.accounts.records import accounts
from ogames.web.core.store import Store, games, guarded, metadata

PLAYERS, SPECTATORS = "players", "spectators"
ROOMS = (PLAYERS, SPECTATORS)
MUTE, BAN = "mute", "ban"
SANCTIONS = (MUTE, BAN)
OPERATOR, PLAYER = "operator", "player"
HISTORY = 100  # the newest messages of a room a page is given

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("room", String(16), nullable=False),
    Column("author_id", String(40), nullable=False),
    Column("author_name", String(64), nullable=False),
    Column("text", String(2000), nullable=False),
    Column("said_at", Float, nullable=False),
)
chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("reporter_id", String(40), nullable=False),
    Column("reporter_name", String(64), nullable=False),
    Column("reason", String(2000), nullable=False),
    Column("made_at", Float, nullable=False),
    Column("closed", Boolean, nullable=False, server_default=false()),
)
sanctions = Table(
    "sanctions",
    metadata,
    Column("player_id", String(40), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("given_by", String(64), nullable=False),
    Column("given_at", Float, nullable=False),
)
hidden_chats = Table(
    "hidden_chats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("hidden_by", String(64), nullable=False),
    Column("hidden_at", Float, nullable=False),
)


@dataclass(frozen=True)
class Message:
    """A message said in a game's chat."""

    id: int
    game_id: str
    room: str
    author_id: str
    author_name: str
    text: str
    said_at: float


def _message(row: Any) -> Message:
    return Message(row.id, row.game_id, row.room, row.author_id, row.author_name, row.text, row.said_at)


@guarded()
def game_exists(store: Store, game_id: str) -> bool:
    """Whether a game (of either face) is stored under this id."""
    with store.engine.connect() as conn:
        return conn.execute(select(games.c.id).where(games.c.id == game_id)).first() is not None


@guarded(writes=True)
def add_message(store: Store, game_id: str, room: str, author_id: str, author_name: str, text: str) -> Message:
    """Store a message; the stored message (with its id and time)."""
    said_at = time.time()
    with store.engine.begin() as conn:
        key = conn.execute(insert(chat_messages).values(game_id=game_id, room=room, author_id=author_id,
                                                        author_name=author_name, text=text, said_at=said_at)).inserted_primary_key
    assert key is not None
    return Message(int(key[0]), game_id, room, author_id, author_name, text, said_at)


@guarded()
def messages_of(store: Store, game_id: str, rooms: tuple[str, ...], *, sanctioned: bool = False,
                limit: int = HISTORY) -> list[Message]:
    """The newest messages of a game's rooms, oldest first; those of a muted or banned author left
    out unless `sanctioned` (an operator's look)."""
    query = select(chat_messages).where(chat_messages.c.game_id == game_id, chat_messages.c.room.in_(rooms))
    if not sanctioned:
        query = query.where(chat_messages.c.author_id.not_in(select(sanctions.c.player_id)))
    with store.engine.connect() as conn:
        rows = conn.execute(query.order_by(chat_messages.c.id.desc()).limit(limit * len(rooms))).all()
    return [_message(row) for row in reversed(rows)]


@guarded(writes=True)
def add_report(store: Store, game_id: str, reporter_id: str, reporter_name: str, reason: str) -> int:
    """Store a report of a game; its id."""
    with store.engine.begin() as conn:
        key = conn.execute(insert(chat_reports).values(game_id=game_id, reporter_id=reporter_id, reporter_name=reporter_name,
                                                       reason=reason, made_at=time.time())).inserted_primary_key
    assert key is not None
    return int(key[0])


@guarded()
def open_reports(store: Store, limit: int = 200) -> list[dict[str, Any]]:
    """The reports not closed yet, newest first."""
    query = select(chat_reports).where(chat_reports.c.closed == false()).order_by(chat_reports.c.id.desc()).limit(limit)
    with store.engine.connect() as conn:
        return [dict(row._mapping) for row in conn.execute(query)]


@guarded(writes=True)
def close_report(store: Store, report_id: int) -> bool:
    """Close a report; whether there was an open one by that id."""
    with store.engine.begin() as conn:
        changed: int = conn.execute(update(chat_reports).where(chat_reports.c.id == report_id, chat_reports.c.closed == false())
                                    .values(closed=True)).rowcount
    return changed > 0


@guarded()
def players_named(store: Store, name: str) -> list[str]:
    """The player ids that go by a name: the account's (any case), and any guest's that chatted under it."""
    with store.engine.connect() as conn:
        found = [str(row.id) for row in conn.execute(select(accounts.c.id).where(accounts.c.name_key == name_key(name)))]
        guests = select(chat_messages.c.author_id).where(chat_messages.c.author_name == name,
                                                         chat_messages.c.author_id.like("g%")).distinct()
        found += [str(row.author_id) for row in conn.execute(guests)]
    return found


@guarded(writes=True)
def sanction(store: Store, player_ids: list[str], name: str, kind: str, given_by: str) -> None:
    """Mute or ban these player ids (a sanction given before is replaced)."""
    with store.engine.begin() as conn:
        conn.execute(delete(sanctions).where(sanctions.c.player_id.in_(player_ids)))
        for player_id in player_ids:
            conn.execute(insert(sanctions).values(player_id=player_id, name=name, kind=kind, given_by=given_by,
                                                  given_at=time.time()))


@guarded(writes=True)
def lift(store: Store, name: str, player_ids: list[str]) -> int:
    """Lift the sanctions given under a name or to these player ids (`players_named`); how many."""
    with store.engine.begin() as conn:
        given = (sanctions.c.name == name) | sanctions.c.player_id.in_(player_ids)
        lifted: int = conn.execute(delete(sanctions).where(given)).rowcount
    return lifted


@guarded()
def sanction_of(store: Store, player_id: str) -> str | None:
    """The sanction a player id is under (`mute` or `ban`), or None."""
    with store.engine.connect() as conn:
        kind = conn.execute(select(sanctions.c.kind).where(sanctions.c.player_id == player_id)).scalar()
    return None if kind is None else str(kind)


@guarded()
def all_sanctions(store: Store) -> list[dict[str, Any]]:
    """Every sanction, by name: name, kind, who gave it and when (one row per name and kind)."""
    query = (select(sanctions.c.name, sanctions.c.kind, sanctions.c.given_by, sanctions.c.given_at)
             .group_by(sanctions.c.name, sanctions.c.kind, sanctions.c.given_by, sanctions.c.given_at).order_by(sanctions.c.name))
    with store.engine.connect() as conn:
        return [dict(row._mapping) for row in conn.execute(query)]


@guarded(writes=True)
def hide_chat(store: Store, game_id: str, hidden_by: str, hidden: bool) -> None:
    """Hide a game's chat (or show it again)."""
    with store.engine.begin() as conn:
        conn.execute(delete(hidden_chats).where(hidden_chats.c.game_id == game_id))
        if hidden:
            try:
                conn.execute(insert(hidden_chats).values(game_id=game_id, hidden_by=hidden_by, hidden_at=time.time()))
            except IntegrityError:
                pass


@guarded()
def chat_hidden(store: Store, game_id: str) -> bool:
    """Whether an operator hid a game's chat."""
    with store.engine.connect() as conn:
        return conn.execute(select(hidden_chats.c.game_id).where(hidden_chats.c.game_id == game_id)).first() is not None


@guarded(writes=True)
def set_role(store: Store, name: str, role: str) -> str | None:
    """Give the account of this name (any case) a role; the account's name as written, or None if
    there is no such account. The role holds from the account's next request (it is read each time)."""
    with store.engine.begin() as conn:
        row = conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == name_key(name))).first()
        if row is None:
            return None
        conn.execute(update(accounts).where(accounts.c.id == row.id).values(role=role))
    return str(row.name)


__all__ = ["BAN", "HISTORY", "MUTE", "OPERATOR", "PLAYER", "PLAYERS", "ROOMS", "SANCTIONS", "SPECTATORS", "Message",
           "add_message", "add_report", "all_sanctions", "chat_hidden", "chat_messages", "chat_reports", "close_report",
           "game_exists", "hidden_chats", "hide_chat", "lift", "messages_of", "open_reports", "players_named", "sanction",
           "sanction_of", "sanctions", "set_role"]
