"""What the accounts keep in the games database (migration 0006): the accounts, who sat in each
seat of a game, and the site's secrets. Functions of the `Store` (web/core/store.py), each one
short transaction that either does what it says or raises `StorageError` having changed nothing;
call them off the event loop.

An account's log-in is a row of `account_sessions` whose id its session cookie holds: logging
out, a password change and deleting the account remove rows, so that a copy
of a cookie kept elsewhere stops working at once.

A *player id* names whoever sat in a seat: an account's id (`a…`) or a guest's (`g…`, carried in
the guest's signed cookie). A guest who signs up takes the guest's seats over (`claim_guest_seats`);
a deleted account leaves its seats with no player (NULL): the games stay, anonymised.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ogames.web.core.store import Store, games, guarded, metadata

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(32), nullable=False),
    Column("name_key", String(32), nullable=False, unique=True),
    Column("password_hash", String(256), nullable=False),
    Column("role", String(16), nullable=False, server_default="player"),
    Column("created_at", Float, nullable=False),
    # The site's language it last chose or signed up in (migration 0011): its mails are written in it.
    Column("language", String(8), nullable=True),
)
account_sessions = Table(
    "account_sessions",
    metadata,
    Column("id", String(48), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
)
seat_players = Table(
    "seat_players",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(40), nullable=True),
)
site_secrets = Table(
    "site_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)


@dataclass(frozen=True)
class Account:
    """A stored account."""

    id: str
    name: str
    password_hash: str
    role: str


class NameTaken(Exception):
    """Another account has this name (in any case)."""


def new_account_id() -> str:
    """A fresh account id (`a` and 24 random URL-safe characters)."""
    return "a" + secrets.token_urlsafe(18)


def _account(row: object) -> Account:
    return Account(row.id, row.name, row.password_hash, row.role)  # type: ignore[attr-defined]


@guarded(writes=True)
def create_account(store: Store, name: str, key: str, password_hash: str, language: str | None = None) -> Account:
    """Store a new account (signed up in `language`); NameTaken (nothing written) if its key is taken."""
    account = Account(new_account_id(), name, password_hash, "player")
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(accounts).values(id=account.id, name=name, name_key=key, password_hash=password_hash,
                                                 role="player", created_at=time.time(), language=language))
    except IntegrityError:
        raise NameTaken(name) from None
    return account


@guarded(writes=True)
def set_language(store: Store, account_id: str, language: str, only_if_none: bool = False) -> None:
    """Keep the language an account chose (its mails are written in it); `only_if_none`: only if
    it has none yet (an account from before languages were kept)."""
    chosen = accounts.c.language.is_(None) if only_if_none else accounts.c.language.is_distinct_from(language)
    with store.engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == account_id, chosen).values(language=language))


@guarded()
def language_of(store: Store, account_id: str) -> str | None:
    """The language an account chose, or None (never chose one, or no such account)."""
    with store.engine.connect() as conn:
        return conn.execute(select(accounts.c.language).where(accounts.c.id == account_id)).scalar()


@guarded()
def account_by_key(store: Store, key: str) -> Account | None:
    """The account whose case-folded name is `key`, or None."""
    with store.engine.connect() as conn:
        row = conn.execute(select(accounts).where(accounts.c.name_key == key)).first()
    return None if row is None else _account(row)


@guarded()
def account_by_id(store: Store, account_id: str) -> Account | None:
    """The account with this id, or None (never was, or deleted)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
    return None if row is None else _account(row)


@guarded(writes=True)
def set_password(store: Store, account_id: str, password_hash: str) -> None:
    """A new password hash; every session of the account ends, in one transaction."""
    with store.engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))
        conn.execute(delete(account_sessions).where(account_sessions.c.account_id == account_id))


@guarded(writes=True)
def start_session(store: Store, account_id: str) -> str:
    """A new session of the account (a log-in); its id, for the cookie."""
    session_id = secrets.token_urlsafe(32)
    with store.engine.begin() as conn:
        conn.execute(insert(account_sessions).values(id=session_id, account_id=account_id, created_at=time.time()))
    return session_id


@guarded()
def session_account(store: Store, session_id: str) -> Account | None:
    """The account whose session this is, or None (ended, or never was)."""
    with store.engine.connect() as conn:
        row = conn.execute(
            select(accounts).join(account_sessions, account_sessions.c.account_id == accounts.c.id)
            .where(account_sessions.c.id == session_id)
        ).first()
    return None if row is None else _account(row)


@guarded(writes=True)
def end_session(store: Store, session_id: str) -> None:
    """End a session (logging out): a copy of its cookie names nobody from now on."""
    with store.engine.begin() as conn:
        conn.execute(delete(account_sessions).where(account_sessions.c.id == session_id))


@guarded(writes=True)
def rehash_password(store: Store, account_id: str, password_hash: str) -> None:
    """The same password under stronger hash parameters (no session ends)."""
    with store.engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))


@guarded(writes=True)
def delete_account(store: Store, account_id: str) -> None:
    """Remove an account; its seats keep their games with no player (anonymised), in one transaction."""
    with store.engine.begin() as conn:
        conn.execute(update(seat_players).where(seat_players.c.player_id == account_id).values(player_id=None))
        conn.execute(delete(account_sessions).where(account_sessions.c.account_id == account_id))
        conn.execute(delete(accounts).where(accounts.c.id == account_id))


@guarded(writes=True)
def seat_player(store: Store, game_id: str, seat: int, player_id: str) -> bool:
    """Record who sits in a seat, unless someone is recorded there already; whether it was recorded."""
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(seat_players).values(game_id=game_id, seat=seat, player_id=player_id))
    except IntegrityError:
        return False
    return True


@guarded()
def seats_taken(store: Store, game_ids: list[str]) -> dict[str, set[int]]:
    """The seats someone sits in (or sat in), by game, for several games at once."""
    found: dict[str, set[int]] = {game_id: set() for game_id in game_ids}
    if game_ids:
        with store.engine.connect() as conn:
            rows = conn.execute(select(seat_players.c.game_id, seat_players.c.seat).where(seat_players.c.game_id.in_(game_ids)))
            for row in rows:
                found[row.game_id].add(row.seat)
    return found


@guarded()
def seat_players_of(store: Store, game_id: str) -> dict[int, str | None]:
    """Who sat in each recorded seat of a game (None: a deleted account's seat)."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(seat_players.c.seat, seat_players.c.player_id).where(seat_players.c.game_id == game_id))
        return {row.seat: row.player_id for row in rows}


@guarded()
def games_of(store: Store, player_id: str, limit: int = 50, finished: bool = False) -> list[dict[str, Any]]:
    """A player's games (`finished`: only those that ended, with a result or aborted), most recently
    changed first: id, game, status, head (its result), seat kinds, whether rated, updated_at and
    the seats the player held."""
    query = (
        select(games.c.id, games.c.game, games.c.status, games.c.head, games.c.seat_kinds, games.c.rated, games.c.updated_at,
               seat_players.c.seat)
        .join(seat_players, seat_players.c.game_id == games.c.id)
        .where(seat_players.c.player_id == player_id, *([games.c.status != "playing"] if finished else []))
        .order_by(games.c.updated_at.desc(), games.c.id, seat_players.c.seat)
    )
    found: dict[str, dict[str, Any]] = {}
    with store.engine.connect() as conn:
        for row in conn.execute(query):
            entry = found.setdefault(row.id, {"id": row.id, "game": row.game, "status": row.status, "head": row.head or {},
                                              "seat_kinds": list(row.seat_kinds), "rated": bool(row.rated),
                                              "updated_at": row.updated_at, "seats": []})
            entry["seats"].append(row.seat)
            if len(found) > limit:
                break
    return list(found.values())[:limit]


@guarded(writes=True)
def claim_guest_seats(store: Store, guest_id: str, account_id: str) -> int:
    """An account takes over the seats its guest sat in (when the guest signs up or logs in); how many."""
    with store.engine.begin() as conn:
        changed: int = conn.execute(
            update(seat_players).where(seat_players.c.player_id == guest_id).values(player_id=account_id)
        ).rowcount
    return changed


@guarded(writes=True)
def site_secret(store: Store, name: str) -> str:
    """A named secret of the site, made by whichever process asks first and then the same for all."""
    with store.engine.begin() as conn:
        found = conn.execute(select(site_secrets.c.value).where(site_secrets.c.name == name)).scalar()
        if found is not None:
            return str(found)
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(site_secrets).values(name=name, value=secrets.token_urlsafe(48)))
    except IntegrityError:
        pass  # another process made it first: theirs is the one
    with store.engine.connect() as conn:
        return str(conn.execute(select(site_secrets.c.value).where(site_secrets.c.name == name)).scalar_one())


__all__ = ["Account", "NameTaken", "account_by_id", "account_by_key", "account_sessions", "accounts", "claim_guest_seats",
           "create_account", "delete_account", "end_session", "games_of", "language_of", "rehash_password", "seat_player",
           "seat_players", "seat_players_of", "seats_taken", "session_account", "set_language", "set_password",
           "site_secret", "site_secrets", "start_session"]
