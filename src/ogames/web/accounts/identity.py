"""The identity middleware, in front of every route: who asks (a session cookie, a guest at once),
CSRF protection of every state-changing request, and the WebSocket origin check.

- **Sessions** are Starlette's signed cookie (`SessionMiddleware`, itsdangerous): HttpOnly,
  SameSite=Lax, Secure when `Settings.secure_cookies` says the site is served over https. A
  visitor without a valid session becomes a guest at once (an id and a readable name). An
  account's session also holds its log-in's id, checked against the database on every request:
  a session ended (logged out, the password changed elsewhere, the account deleted) turns back
  into a new guest here, whoever holds a copy of its cookie. A
  session is signed again once a day it is used, so that it lasts `SESSION_DAYS` after the last
  visit.
- **CSRF**: `asgi-csrf`'s signed double-submit token. Every POST (any method but GET, HEAD,
  OPTIONS, TRACE) from a browser must carry the token — in the `x-csrftoken` header (the page
  scripts send it, web/static/page.js) or the `csrftoken` form field (each form has it, first) —
  or it is refused (403 `csrf`) before any route sees it. A forged request is always a browser's:
  every browser sends `Origin` with a POST (and `Sec-Fetch-Site` with every request). A client
  that sends neither is a program of its own (a script or a bot calling the JSON API, a test's
  client), not a browser tricked by another site, and is not asked for the token; nor is a request
  with no cookie at all, which has no ambient authority to abuse (a seat is acted for by its token
  in the body). The session cookie's SameSite=Lax is a second wall: browsers do not send it with
  another site's POST. The record upload (`POST /replay`, a multipart form) stores nothing and
  shows the record only to whoever sent it, so no token is asked for it; a browser's multipart
  POST anywhere else is refused outright (the site has no other, and asgi-csrf's multipart reader
  does not work with today's python-multipart: simonw/asgi-csrf#38).
- **WebSockets** from a page of another site are refused (their Origin must be this host).

The secret that signs both cookies is `Settings.secret_key`, or else one the first server made
and stored in the database (`records.site_secret`), so that every process on it agrees.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import urlsplit

from asgi_csrf import asgi_csrf
from starlette.datastructures import Headers
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ogames.web.accounts import records
from ogames.web.accounts.visitor import SCOPE_KEY, Visitor, new_guest
from ogames.web.core.common import api_language, error_response
from ogames.web.core.deps import page
from ogames.web.core.settings import Settings
from ogames.web.core.store import Store
from ogames.wording import say

SESSION_COOKIE = "ogames_session"
SESSION_DAYS = 30
RESIGN_SECONDS = 24 * 3600
ALWAYS_PROTECTED = {"/login", "/signup"}
NOT_STATE_CHANGING = {"/replay"}  # POSTs that change nothing: the record upload, shown to its sender
SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
UNGUARDED = ("/static/", "/favicon.ico")  # no session, no cookie: cacheable as they are


def csrf_refusal() -> Any:
    return say("csrf", "this form or request came without its security token (reload the page and try again)")


async def refuse_csrf(scope: Scope, send: Send, _reason: object) -> None:
    """Answer a request whose CSRF token is missing or wrong: 403 `csrf`, nothing done."""
    async def nothing() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    request = Request(scope)
    response: Response
    if scope["path"].startswith("/api/"):
        response = error_response(csrf_refusal(), "csrf", 403, api_language(request))
    else:
        response = page(request, "error.html", 403, message=csrf_refusal())
    await response(scope, nothing, send)


class Identity:
    """The middleware (see the module). Built around the app before the store is open: its inner
    layers are made at the first request, once the lifespan has found the secret."""

    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.settings = settings
        self.inner: ASGIApp | None = None

    def build(self, secret: str) -> ASGIApp:
        checked = asgi_csrf(self.checked, signing_secret=secret, always_protect=ALWAYS_PROTECTED, skip_if_scope=unasked,
                            cookie_secure=self.settings.secure_cookies, send_csrf_failed=refuse_csrf)
        return SessionMiddleware(self.identified(before_csrf(checked)), secret, session_cookie=SESSION_COOKIE,
                                 max_age=SESSION_DAYS * 24 * 3600, same_site="lax", https_only=self.settings.secure_cookies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"].startswith(UNGUARDED):
            await self.app(scope, receive, send)
            return
        if self.inner is None:
            self.inner = self.build(scope["app"].state.secret_key)
        await self.inner(scope, receive, send)

    def identified(self, app: ASGIApp) -> ASGIApp:
        """Put the visitor in the scope (a guest if the session names nobody who still may be)."""

        async def identify(scope: Scope, receive: Receive, send: Send) -> None:
            scope[SCOPE_KEY] = await self.visitor(scope)
            await app(scope, receive, send)

        return identify

    async def visitor(self, scope: Scope) -> Visitor:
        session: dict[str, Any] = scope["session"]
        visitor = Visitor.from_session(session)
        if visitor is not None and not visitor.is_guest:
            visitor = await self.current_account(scope["app"].state.store, visitor, session.get("sid"))
        if visitor is None:
            visitor = new_guest()
            session.clear()
            session.update(visitor.session())
        elif time.time() - float(session.get("seen") or 0) > RESIGN_SECONDS:
            session["seen"] = int(time.time())  # signed again: the session lasts from today
        return visitor

    @staticmethod
    async def current_account(store: Store, visitor: Visitor, session_id: object) -> Visitor | None:
        """The account a session names as it is now, or None if the session has ended."""
        if not isinstance(session_id, str):
            return None
        account = await asyncio.to_thread(records.session_account, store, session_id)
        if account is None or account.id != visitor.id:
            return None
        return Visitor(account.id, account.name, False, account.role)

    async def checked(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app, behind the WebSocket origin check."""
        if scope["type"] == "websocket" and not same_origin(Headers(scope=scope)):
            await send({"type": "websocket.close", "code": 1008})  # before it is accepted: answered 403
            return
        await self.app(scope, receive, send)


def before_csrf(app: ASGIApp) -> ASGIApp:
    """The CSRF layer behind two fences: a browser's multipart POST outside `NOT_STATE_CHANGING` is
    refused here (see the module), and a client that goes away while its form is read for the
    token ends the request quietly (ClientDisconnect, which the Guard expects) rather than failing
    asgi-csrf's assertion."""

    async def fenced(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        multipart = headers.get("content-type", "").startswith("multipart/form-data")
        if multipart and not unasked(scope) and "cookie" in headers:
            await refuse_csrf(scope, send, None)
            return
        read_all = False

        async def reading() -> Message:
            nonlocal read_all
            message = await receive()
            if message["type"] == "http.disconnect" and not read_all:
                raise ClientDisconnect()
            if message["type"] == "http.request" and not message.get("more_body", False):
                read_all = True
            return message

        await app(scope, reading, send)

    return fenced


def unasked(scope: Scope) -> bool:
    """Whether a request is not asked for a CSRF token: a program's own (not a browser's), or a
    POST that changes nothing."""
    return not_a_browser(scope) or scope["path"] in NOT_STATE_CHANGING


def not_a_browser(scope: Scope) -> bool:
    """Whether a request comes from a program of its own rather than a browser: no `Origin`, no
    `Sec-Fetch-Site` (which every browser sends with a POST)."""
    headers = Headers(scope=scope)
    return "origin" not in headers and "sec-fetch-site" not in headers


def same_origin(headers: Headers) -> bool:
    """Whether a WebSocket's Origin (sent by every browser) is this site; a client that sends
    none (not a browser: no cookies of anyone's to abuse) passes."""
    origin = headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == headers.get("host", "").lower()


__all__ = ["ALWAYS_PROTECTED", "SESSION_COOKIE", "Identity", "not_a_browser", "same_origin"]
