"""Web Push: "your move" shown by the browsers that asked for it, through their push services
(pywebpush: the payload encrypted for the browser, the request signed with the site's VAPID key).

The VAPID key pair is made once, by the first server process to start, and kept in the database
beside the site's secret (`site_secrets`, name "vapid"), so every process signs with the same key
and browsers' subscriptions outlive restarts. A subscription's endpoint is where this server will
send a request, so it must look like a push service's: https, a name, not a local or private
address (`valid_endpoint`). A push service that says the subscription is gone (404, 410) has it
forgotten; any other failure is one line in the log. pywebpush is blocking: it runs on the pusher's
own few threads (`PUSH_THREADS`), never the event loop's default pool that every request's database
work runs on, since the host a push goes to is the subscriber's choice and may hold each request
until its timeout; at most `MAX_WAITING` pushes wait, those beyond are dropped (one line each).
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import ipaddress
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from ogames.web.accounts.records import site_secrets
from ogames.web.core.store import Store, guarded
from ogames.web.notify import records

log = logging.getLogger("ogames.web.notify")

PUSH_TIMEOUT = 10.0  # seconds a push service may take
PUSH_TTL = 86_400  # seconds a push service keeps a notice for a browser that is off
MAX_ENDPOINT = 512
PUSH_THREADS = 2  # pushes sent at once by a server process
MAX_WAITING = 100  # pushes sent or waiting at most in a process (a notice's to each subscription)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_private_key() -> str:
    """A new VAPID private key: its raw value, base64url (43 characters)."""
    vapid = Vapid()
    vapid.generate_keys()
    return b64url(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))


@guarded(writes=True)
def vapid_private_key(store: Store) -> str:
    """The site's VAPID private key, made by whichever process asks first and the same for all."""
    with store.engine.connect() as conn:
        found = conn.execute(select(site_secrets.c.value).where(site_secrets.c.name == "vapid")).scalar()
    if found is not None:
        return str(found)
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(site_secrets).values(name="vapid", value=new_private_key()))
    except IntegrityError:
        pass  # another process made it first: theirs is the one
    with store.engine.connect() as conn:
        return str(conn.execute(select(site_secrets.c.value).where(site_secrets.c.name == "vapid")).scalar_one())


def valid_endpoint(url: str, allow_local: bool = False) -> bool:
    """Whether a subscription's endpoint may be sent to: https on a public host (or, for tests'
    fake push service only, `allow_local`: http and loopback too)."""
    if len(url) > MAX_ENDPOINT or any(ord(char) < 33 for char in url):
        return False
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port  # (raises for a port that is none)
    except ValueError:
        return False
    del port
    if allow_local:
        return parts.scheme in ("https", "http") and bool(host)
    if parts.scheme != "https" or not host or "." not in host or host.endswith((".local", ".localhost", ".internal")):
        return False
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return True  # a name: the push services' are public
    return address.is_global


class Pusher:
    """Sends this site's pushes with its VAPID key."""

    def __init__(self, store: Store, private_key: str, contact: str):
        self.store = store
        self.vapid = Vapid.from_raw(private_key.encode())
        self.public_key = b64url(self.vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
        self.contact = contact  # the `sub` claim: how a push service reaches the site's operator
        self.sent = 0
        self.threads = concurrent.futures.ThreadPoolExecutor(PUSH_THREADS, thread_name_prefix="ogames-push")
        self.waiting = 0  # pushes being sent or waiting for a thread (counted on the event loop)
        self.dropped = 0

    async def send(self, subscription: records.Subscription, payload: dict[str, Any]) -> bool:
        """Send one push on the pusher's threads; whether the push service took it (False, dropped
        at once, when `MAX_WAITING` are waiting already)."""
        if self.waiting >= MAX_WAITING:
            self.dropped += 1
            log.warning("push dropped: %d pushes are waiting already", MAX_WAITING)
            return False
        self.waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.threads, self.push, subscription, payload)
        finally:
            self.waiting -= 1

    def close(self) -> None:
        """Send nothing more (a push under way ends by its timeout)."""
        self.threads.shutdown(wait=False, cancel_futures=True)

    def push(self, subscription: records.Subscription, payload: dict[str, Any]) -> bool:
        """Send one push now (blocking: call it in a thread); whether the push service took it."""
        audience = "{0.scheme}://{0.netloc}".format(urlsplit(subscription.endpoint))
        try:
            webpush(subscription.info(), json.dumps(payload), vapid_private_key=self.vapid,
                    vapid_claims={"sub": self.contact, "aud": audience}, timeout=PUSH_TIMEOUT, ttl=PUSH_TTL)
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                records.unsubscribe_push(self.store, subscription.endpoint)
                log.info("push subscription gone (%s): forgotten", status)
            else:
                log.warning("push not sent: %s", " ".join(str(exc).split())[:200])
            return False
        except Exception as exc:  # the push service unreachable, and the like: one line, the game goes on
            log.warning("push not sent: %s", type(exc).__name__)
            return False
        self.sent += 1
        return True


__all__ = ["Pusher", "valid_endpoint", "vapid_private_key"]
