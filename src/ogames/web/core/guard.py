"""What stands in front of every HTTP route (an ASGI middleware, `Guard`):

- **bodies are refused while they are read**: a body whose declared length is over its route's
  limit is answered 413 before a byte of it is read, and one that grows past the limit as it
  arrives (chunked, or longer than declared) is answered 413 the moment it does — the reading
  stops there, so a large body never fills the server's memory. A route answering before it has
  read the whole body (a refusal) closes the connection after its answer, so the rest is never
  read either;
- **the rate limits** per client address: the JSON API's (429 `rate-limited`, JSON) and the
  pages' (every other route but the static files: 429 with a short page), so that no visitor
  flooding either slows the others;
- **the security headers** on every answer;
- a client that goes away while it sends its body is no error: nobody is left to answer.

The limit is `max_body_bytes`, and for the routes that take game records `max_record_bytes` (plus
room for the upload form's own fields). The upload form (`POST /replay`) answers a body too large
by its declared length itself, with the form page again.

Written as plain ASGI rather than as Starlette's `BaseHTTPMiddleware`, which hands the route a body
it has read already and hides the client's disconnection from it.
"""

from __future__ import annotations

import math

from markupsafe import escape
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ogames.web.core.common import Refusal, api_language, error_response, request_language
from ogames.web.core.settings import Settings
from ogames.web.limits import ClientLimits, client_address
from ogames.web.messages import word
from ogames.wording import say

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
RECORD_PATHS = ("/replay", "/api/replay/position", "/api/analysis")  # bodies up to max_record_bytes
FORM_ROOM = 8192  # bytes of an upload form beyond its file
SELF_CHECKED = ("/replay",)  # routes that answer a declared length over the limit themselves


class BodyTooLarge(Refusal):
    """A request body passed its route's limit while it was read (nothing was done with it)."""

    def __init__(self, limit: int):
        super().__init__(say("too-large", "the request is too large (at most {limit} bytes)", limit=limit), "too-large", 413)

    async def respond(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer the request with this refusal (JSON, as the API's errors, in the language asked for)."""
        await error_response(self.message, self.code, self.status, language(scope))(scope, receive, send)


class Guard:
    """The middleware: body limits, the API's and the pages' rate limits, security headers (see the module)."""

    def __init__(self, app: ASGIApp, settings: Settings, api_limits: ClientLimits, page_limits: ClientLimits):
        self.app = app
        self.settings = settings
        self.api_limits = api_limits
        self.page_limits = page_limits

    def limit(self, path: str) -> int:
        """The most bytes a route's request body may have."""
        if path in RECORD_PATHS:
            return self.settings.max_record_bytes + FORM_ROOM
        return self.settings.max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        limit = self.limit(path)
        headers = Headers(scope=scope)
        declared = headers.get("content-length")
        has_body = bool(headers.get("transfer-encoding")) or declared not in (None, "0")
        reading = Reading(limit, has_body)

        async def answer(message: Message) -> None:
            if message["type"] == "http.response.start":
                reading.answered = True
                out = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in out:
                        out[name] = value
                if not reading.finished:  # answered before the body was read: its rest never will be
                    out["connection"] = "close"
            await send(message)

        if declared is not None and path not in SELF_CHECKED and (not declared.isdigit() or int(declared) > limit):
            await BodyTooLarge(limit).respond(scope, receive, answer)
            return
        if path.startswith("/api/"):
            address = client_address(scope)
            if not await self.api_limits.allow(address):
                wait = await self.api_limits.wait(address)
                refusal = error_response(self.api_limits.refusal(), "rate-limited", 429, language(scope), retry_after=wait)
                await refusal(scope, receive, answer)
                return
        elif not path.startswith("/static/"):
            address = client_address(scope)
            if not await self.page_limits.allow(address):
                await too_many_pages(scope, await self.page_limits.wait(address))(scope, receive, answer)
                return

        async def read() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                reading.took(message)
            return message

        try:
            await self.app(scope, read, answer)
        except BodyTooLarge as refusal:
            if not reading.answered:  # the route let it through: answer for it
                await refusal.respond(scope, receive, answer)
        except ClientDisconnect:
            pass  # the client went away before its body was read: nobody is there to answer


class Reading:
    """How much of a request's body has been read, against its limit."""

    def __init__(self, limit: int, has_body: bool):
        self.limit = limit
        self.size = 0
        self.finished = not has_body
        self.answered = False

    def took(self, message: Message) -> None:
        """Count a part of the body; BodyTooLarge once the body is over the limit."""
        self.size += len(message.get("body", b""))
        if not message.get("more_body", False):
            self.finished = True
        if self.size > self.limit:
            raise BodyTooLarge(self.limit)


def too_many_pages(scope: Scope, wait: float) -> HTMLResponse:
    """A page refused by the pages' rate limit: a sentence in the page's language, and when to come back."""
    seconds = max(1, math.ceil(wait))
    text = word(say("too-many-pages", "Too many pages from your address at once: try again in {s} s.", s=seconds),
                request_language(Request(scope)))
    return HTMLResponse(f'<!doctype html><meta charset="utf-8"><title>429</title><p>{escape(text)}</p>',
                        status_code=429, headers={"Retry-After": str(seconds)})


def language(scope: Scope) -> str:
    """The language of an answer to a request (`common.api_language`: English, or the page's `?lang=`)."""
    return api_language(Request(scope))


__all__ = ["RECORD_PATHS", "SECURITY_HEADERS", "BodyTooLarge", "Guard"]
