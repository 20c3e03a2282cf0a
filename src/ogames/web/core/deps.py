"""What the routes of both faces ask for, declared once as FastAPI dependencies: the settings, the
store, a request's body within the server's limit (and read into a protocol model), and the page
renderer in the visitor's language, and who asks (`Visitor`: a guest or an account, put in every
request's scope by the identity middleware, web/accounts/identity.py). Each face adds its own hub beside them (`boards.routes`,
`omiga.routes`).

A `Refusal` or a `ValidationError` raised by a dependency or a route reaches the app's handlers
(`app.py`), which answer the API in JSON and a page with the error page, as each route did itself.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import parse_qsl

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ValidationError
from starlette.background import BackgroundTask
from starlette.requests import HTTPConnection

from ogames.web.accounts import records as accounts
from ogames.web.accounts.visitor import SCOPE_KEY, Visitor
from ogames.web.core.common import Refusal, render_page
from ogames.web.core.protocol import explain
from ogames.web.core.settings import Settings
from ogames.web.core.store import Store
from ogames.web.core.store_faults import StorageError
from ogames.web.i18n import LANGUAGES
from ogames.wording import Said, say

log = logging.getLogger("ogames.web")
WEB = Path(__file__).parent.parent  # web/: the templates and scripts both faces share
TEMPLATES = Jinja2Templates(directory=str(WEB / "templates"))

Model = TypeVar("Model", bound=BaseModel)


def settings_of(connection: HTTPConnection) -> Settings:
    """The server's settings."""
    settings: Settings = connection.app.state.settings
    return settings


def store_of(connection: HTTPConnection) -> Store:
    """The database of games (opened when the server starts)."""
    store: Store = connection.app.state.store
    return store


def visitor_of(connection: HTTPConnection) -> Visitor:
    """Who asks: a guest (a signed cookie, a generated name) or an account, as its session says
    and the accounts confirm (`Visitor.id` is the player id a game records in a seat)."""
    visitor: Visitor = connection.scope[SCOPE_KEY]
    return visitor


SettingsDep = Annotated[Settings, Depends(settings_of)]
StoreDep = Annotated[Store, Depends(store_of)]
VisitorDep = Annotated[Visitor, Depends(visitor_of)]


def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page of the site in the visitor's language (`common.render_page`), with the visitor's
    name in its header and the CSRF token its forms and scripts send. An account that chooses a
    language (`?lang=`) keeps it: its mails are written in it (web/notify/), as lichess does."""
    visitor = context.setdefault("visitor", request.scope.get(SCOPE_KEY))
    token = request.scope.get("csrftoken")  # (asgi-csrf's: sets its cookie when a page asks for it)
    context["csrf_token"] = token() if callable(token) else ""
    response = render_page(TEMPLATES, request, name, status, **context)
    chosen = request.query_params.get("lang")
    if chosen in LANGUAGES and isinstance(visitor, Visitor) and not visitor.is_guest:
        response.background = BackgroundTask(keep_language, request.app.state.store, visitor.id, chosen)
    return response


def keep_language(store: Store, account_id: str, language: str) -> None:
    """Store an account's chosen language, after its page is sent (in a worker thread); a database
    that fails only costs this choice (the next one is kept)."""
    try:
        accounts.set_language(store, account_id, language)
    except StorageError as exc:
        log.warning("the language of an account was not kept: %s", exc)


def too_large(limit: int) -> str:
    """A request body over the limit."""
    return say("too-large", "the request is too large (at most {limit} bytes)", limit=limit)


async def read_body(request: Request, limit: int) -> bytes:
    """A request's body, read no further than `limit` bytes (Refusal, 413, past it)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refusal(too_large(limit), "too-large", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_form(request: Request, limit: int) -> dict[str, str]:
    """A submitted form's fields (the body read within `limit`; a field given twice, its last
    value); ValueError for a malformed one (too many fields)."""
    body = await read_body(request, limit)
    return dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=60))


def form_problem(exc: Refusal | ValueError) -> tuple[int, str]:
    """The status and the sentence a form is shown again with when what it asks for is refused
    (a Refusal), not valid (pydantic's ValidationError, a kind of ValueError), or malformed (a
    ValueError: too many fields, a seat that is not a number)."""
    if isinstance(exc, Refusal):
        return exc.status, exc.message
    if isinstance(exc, ValidationError):
        return 400, explain(exc)
    return 400, exc.args[0] if exc.args and isinstance(exc.args[0], Said) else str(exc)[:200]


async def request_body(request: Request, settings: SettingsDep) -> bytes:
    """A request's body within the server's `max_body_bytes`."""
    return await read_body(request, settings.max_body_bytes)


Body = Annotated[bytes, Depends(request_body)]


def json_body(model: type[Model]) -> Callable[[bytes], Awaitable[Model]]:
    """A dependency reading the body (within the limit) as a protocol model: strict JSON, unknown
    fields refused (the models say so); pydantic's `ValidationError` if it is not one."""

    async def parsed(body: Body) -> Model:
        return model.model_validate_json(body)

    return parsed


__all__ = ["TEMPLATES", "WEB", "Body", "SettingsDep", "StoreDep", "Visitor", "VisitorDep", "form_problem", "json_body", "page",
           "read_body", "read_form", "request_body", "settings_of", "store_of", "too_large", "visitor_of"]
