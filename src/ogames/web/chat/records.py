"""What the chat keeps in the games database (migration 0009): messages, reports, the operators'
sanctions and the games whose chat is hidden. Functions of the `Store`, each one short transaction
that does what it says or raises `StorageError` having changed nothing; call them off the event loop.

A *sanction* is given to a player id (an account's, or a guest's that chatted under the name):
`mute` hides everything they said from everyone and stops them chatting; `ban` does that and
stops them creating games and seeks too.

A guest who clears its cookies is a new guest id, so a ban of a guest also bans, for a while, the
client addresses it chatted from (migration 0018): `guest_addresses` keeps, per guest and
address, when the guest last chatted from there, and any guest from an address a banned guest
used within the `period` before its ban is refused until `period` after the ban
(`address_banned`; accounts are never refused by address). A row is useless `period` after the
guest last chatted unless the guest is banned meanwhile: those are deleted whenever a guest
chats from a new address and whenever an operator sanctions or lifts (`_forget_old_addresses`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, String, Table, delete, false, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
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
guest_addresses = Table(
    "guest_addresses",
    metadata,
    Column("player_id", String(40), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("seen_at", Float, nullable=False),
    Index("ix_guest_addresses_address", "address"),
    Index("ix_guest_addresses_seen", "seen_at"),
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
def add_message(store: Store, game_id: str, room: str, author_id: str, author_name: str, text: str,
                address: str | None = None, period: float | None = None) -> Message:
    """Store a message; the stored message (with its id and time). A guest's client `address` is
    kept with it (`guest_addresses`; those no ban of `period` seconds needs are forgotten)."""
    said_at = store.clock()
    with store.engine.begin() as conn:
        key = conn.execute(insert(chat_messages).values(game_id=game_id, room=room, author_id=author_id,
                                                        author_name=author_name, text=text, said_at=said_at)).inserted_primary_key
        if address is not None:
            _seen_from(conn, author_id, address, said_at, period)
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
                                                       reason=reason, made_at=store.clock())).inserted_primary_key
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
def sanction(store: Store, player_ids: list[str], name: str, kind: str, given_by: str, period: float | None = None) -> None:
    """Mute or ban these player ids (a sanction given before is replaced). A ban bans the addresses
    its guests chatted from (`address_banned`); given the ban `period`, the addresses kept no
    longer for any ban are forgotten."""
    given_at = store.clock()
    with store.engine.begin() as conn:
        conn.execute(delete(sanctions).where(sanctions.c.player_id.in_(player_ids)))
        for player_id in player_ids:
            conn.execute(insert(sanctions).values(player_id=player_id, name=name, kind=kind, given_by=given_by,
                                                  given_at=given_at))
        if period is not None:
            _forget_old_addresses(conn, given_at, period)


@guarded(writes=True)
def lift(store: Store, name: str, player_ids: list[str], period: float | None = None) -> int:
    """Lift the sanctions given under a name or to these player ids (`players_named`), and so the
    ban of its guests' addresses; how many. Given the ban `period`, as `sanction`."""
    with store.engine.begin() as conn:
        given = (sanctions.c.name == name) | sanctions.c.player_id.in_(player_ids)
        lifted: int = conn.execute(delete(sanctions).where(given)).rowcount
        if period is not None:
            _forget_old_addresses(conn, store.clock(), period)
    return lifted


@guarded()
def address_banned(store: Store, address: str, period: float) -> bool:
    """Whether guests from this address are refused: a guest banned within the last `period`
    seconds chatted from it in the `period` before its ban."""
    moment = store.clock()
    query = (select(guest_addresses.c.player_id)
             .join(sanctions, sanctions.c.player_id == guest_addresses.c.player_id)
             .where(guest_addresses.c.address == address, sanctions.c.kind == BAN, sanctions.c.given_at > moment - period,
                    guest_addresses.c.seen_at >= sanctions.c.given_at - period)
             .limit(1))
    with store.engine.connect() as conn:
        return conn.execute(query).first() is not None


def _seen_from(conn: Connection, guest_id: str, address: str, seen_at: float, period: float | None) -> None:
    """Keep that a guest chatted from an address now (in the caller's transaction)."""
    address = address[:64]
    known = guest_addresses.c.player_id == guest_id, guest_addresses.c.address == address
    if conn.execute(update(guest_addresses).where(*known).values(seen_at=seen_at)).rowcount == 0:
        if period is not None:
            _forget_old_addresses(conn, seen_at, period)  # a new row: a cheap moment to drop the useless ones
        add = postgresql.insert(guest_addresses) if conn.dialect.name == "postgresql" else sqlite.insert(guest_addresses)
        conn.execute(add.values(player_id=guest_id, address=address, seen_at=seen_at).on_conflict_do_nothing())


def _forget_old_addresses(conn: Connection, moment: float, period: float) -> None:
    """Delete the addresses last used more than `period` ago by guests not banned within it."""
    banned_lately = select(sanctions.c.player_id).where(sanctions.c.kind == BAN, sanctions.c.given_at > moment - period)
    conn.execute(delete(guest_addresses).where(guest_addresses.c.seen_at < moment - period,
                                               guest_addresses.c.player_id.not_in(banned_lately)))


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
                conn.execute(insert(hidden_chats).values(game_id=game_id, hidden_by=hidden_by, hidden_at=store.clock()))
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
           "add_message", "add_report", "address_banned", "all_sanctions", "chat_hidden", "chat_messages", "chat_reports",
           "close_report", "game_exists", "guest_addresses", "hidden_chats", "hide_chat", "lift", "messages_of",
           "open_reports", "players_named", "sanction", "sanction_of", "sanctions", "set_role"]
