"""What notifications keep in the database (migration 0010): each account's e-mail address and
what it asked for, and the notices already sent. Functions of the `Store`, each one short
transaction (call them off the event loop)."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from sqlalchemy import Boolean, Column, Float, ForeignKey, String, Table, delete, false, insert, select, update
from sqlalchemy.exc import IntegrityError

from ogames.web.accounts.records import accounts
from ogames.web.core.store import Store, guarded, metadata

email_addresses = Table(
    "email_addresses",
    metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("address", String(254), nullable=False),
    Column("verified", Boolean, nullable=False, server_default=false()),
    Column("verify_nonce", String(48), nullable=True),
    Column("your_move", Boolean, nullable=False, server_default=false()),
    Column("game_over", Boolean, nullable=False, server_default=false()),
    Column("updated_at", Float, nullable=False),
)
notices_sent = Table(
    "notices_sent",
    metadata,
    Column("key", String(128), primary_key=True),
    Column("sent_at", Float, nullable=False),
)


@dataclass(frozen=True)
class Address:
    """An account's e-mail address and the mails it asked for."""

    account_id: str
    address: str
    verified: bool
    your_move: bool
    game_over: bool
    nonce: str | None
    language: str | None = None  # the account's language (its mails are written in it; None: English)


@guarded()
def address_of(store: Store, account_id: str) -> Address | None:
    """The account's address, or None."""
    with store.engine.connect() as conn:
        row = conn.execute(select(email_addresses).where(email_addresses.c.account_id == account_id)).first()
    if row is None:
        return None
    return Address(row.account_id, row.address, row.verified, row.your_move, row.game_over, row.verify_nonce)


@guarded(writes=True)
def set_address(store: Store, account_id: str, address: str) -> str:
    """A new, unverified address for the account (mails off until it is verified); the one-time
    part of its verification link."""
    nonce = secrets.token_urlsafe(24)
    values = {"address": address, "verified": False, "verify_nonce": nonce, "updated_at": time.time()}
    with store.engine.begin() as conn:
        mine = email_addresses.c.account_id == account_id
        changed = conn.execute(update(email_addresses).where(mine).values(**values)).rowcount
        if changed == 0:
            conn.execute(insert(email_addresses).values(account_id=account_id, your_move=False, game_over=False, **values))
    return nonce


@guarded(writes=True)
def verify(store: Store, account_id: str, address: str, nonce: str) -> bool:
    """Mark the address verified if it is still the account's and the link's one-time part is still
    unused (it is used up now); whether it was."""
    with store.engine.begin() as conn:
        changed: int = conn.execute(
            update(email_addresses)
            .where(email_addresses.c.account_id == account_id, email_addresses.c.address == address,
                   email_addresses.c.verify_nonce == nonce)
            .values(verified=True, verify_nonce=None, updated_at=time.time())
        ).rowcount
    return changed == 1


@guarded(writes=True)
def choose(store: Store, account_id: str, *, your_move: bool, game_over: bool) -> None:
    """Which mails the account wants (only a verified address is ever sent any)."""
    with store.engine.begin() as conn:
        conn.execute(update(email_addresses).where(email_addresses.c.account_id == account_id)
                     .values(your_move=your_move, game_over=game_over, updated_at=time.time()))


@guarded(writes=True)
def unsubscribe(store: Store, account_id: str, address: str) -> bool:
    """No more mails to this address of the account; whether it was still the account's."""
    with store.engine.begin() as conn:
        changed: int = conn.execute(
            update(email_addresses).where(email_addresses.c.account_id == account_id, email_addresses.c.address == address)
            .values(your_move=False, game_over=False, updated_at=time.time())
        ).rowcount
    return changed == 1


@guarded(writes=True)
def remove_address(store: Store, account_id: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(email_addresses).where(email_addresses.c.account_id == account_id))


@guarded()
def recipients(store: Store, account_ids: list[str], kind: str) -> list[Address]:
    """The verified addresses of these accounts that asked for mails of `kind` ("your_move" or "game_over")."""
    if not account_ids:
        return []
    wanted = email_addresses.c.your_move if kind == "your_move" else email_addresses.c.game_over
    query = (select(email_addresses, accounts.c.language).join(accounts, accounts.c.id == email_addresses.c.account_id)
             .where(email_addresses.c.account_id.in_(account_ids), email_addresses.c.verified.is_(True), wanted.is_(True)))
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [Address(row.account_id, row.address, row.verified, row.your_move, row.game_over, row.verify_nonce, row.language)
            for row in rows]


@guarded(writes=True)
def claim(store: Store, key: str) -> bool:
    """Claim a notice (a game's event for one account) for this process: True once, for whichever
    process asks first; False for every other (it was claimed already)."""
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(notices_sent).values(key=key[:128], sent_at=time.time()))
    except IntegrityError:
        return False
    return True


__all__ = ["Address", "address_of", "choose", "claim", "email_addresses", "notices_sent", "recipients", "remove_address",
           "set_address", "unsubscribe", "verify"]


# Subscriptions one player keeps (a person's browsers): each "your move" is one request to each, at
# hosts the subscriber chose, so a visitor posting thousands would have the server make thousands.
MAX_PUSH_SUBSCRIPTIONS = 5

push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("endpoint", String(512), primary_key=True),
    Column("player_id", String(40), nullable=False, index=True),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)


@dataclass(frozen=True)
class Subscription:
    """A browser's Web Push subscription, as pywebpush takes it (`info`)."""

    endpoint: str
    player_id: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, object]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@guarded(writes=True)
def subscribe(store: Store, subscription: Subscription) -> bool:
    """Keep a browser's subscription for its player (a browser subscribing again replaces its own),
    and the player's newest `MAX_PUSH_SUBSCRIPTIONS` only: one beyond replaces the oldest. An
    endpoint another player holds moves over only with the same keys (the same browser, where
    someone else signed in): whoever learnt another's endpoint cannot take their pushes away.
    Whether it was kept."""
    mine = push_subscriptions.c.player_id == subscription.player_id
    same = push_subscriptions.c.endpoint == subscription.endpoint
    with store.engine.begin() as conn:
        held = conn.execute(select(push_subscriptions.c.player_id, push_subscriptions.c.p256dh,
                                   push_subscriptions.c.auth).where(same)).first()
        if held is not None and held.player_id != subscription.player_id and (
                (held.p256dh, held.auth) != (subscription.p256dh, subscription.auth)):
            return False
        conn.execute(delete(push_subscriptions).where(same))
        conn.execute(insert(push_subscriptions).values(
            endpoint=subscription.endpoint, player_id=subscription.player_id, p256dh=subscription.p256dh,
            auth=subscription.auth, created_at=time.time()))
        older = select(push_subscriptions.c.endpoint).where(mine).order_by(push_subscriptions.c.created_at.desc())
        conn.execute(delete(push_subscriptions).where(mine, push_subscriptions.c.endpoint.in_(
            older.offset(MAX_PUSH_SUBSCRIPTIONS).scalar_subquery())))
    return True


@guarded(writes=True)
def unsubscribe_push(store: Store, endpoint: str, player_id: str | None = None) -> bool:
    """Forget a subscription (only the player's own, when `player_id` is given); whether there was one."""
    where = push_subscriptions.c.endpoint == endpoint
    if player_id is not None:
        where = where & (push_subscriptions.c.player_id == player_id)
    with store.engine.begin() as conn:
        removed: int = conn.execute(delete(push_subscriptions).where(where)).rowcount
    return removed == 1


@guarded()
def subscriptions_of(store: Store, player_ids: list[str]) -> list[Subscription]:
    if not player_ids:
        return []
    with store.engine.connect() as conn:
        rows = conn.execute(select(push_subscriptions).where(push_subscriptions.c.player_id.in_(player_ids))).all()
    return [Subscription(row.endpoint, row.player_id, row.p256dh, row.auth) for row in rows]


__all__ += ["MAX_PUSH_SUBSCRIPTIONS", "Subscription", "push_subscriptions", "subscribe", "subscriptions_of", "unsubscribe_push"]
