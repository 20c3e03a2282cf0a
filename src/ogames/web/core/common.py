"""Pieces every part of the web server shares — the board games' routes (`boards/routes.py`,
`boards/review.py`) and Omiga's tables (`omiga/routes.py`, `omiga/live.py`) — kept here so that none of
them imports another for them: refusals, JSON answers and errors, a WebSocket's outbox,
reading one incoming message, and the games' descriptions for the new-game forms."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Generic, ParamSpec, Protocol, TypeVar

from fastapi import Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from markupsafe import Markup, escape
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect

import ogames
from ogames.web import i18n, option_help
from ogames.web.core.delta import make_delta, written
from ogames.web.limits import ConnectionLimit
from ogames.web.messages import word
from ogames.wording import say

log = logging.getLogger("ogames.web")

Params = ParamSpec("Params")
Result = TypeVar("Result")


def request_language(request: Request) -> str:
    """The language a page is shown in: `?lang=`, else the `lang` cookie, else the browser's."""
    asked = request.query_params.get("lang") or request.cookies.get("lang")
    return i18n.pick(asked, request.headers.get("accept-language"))


def api_language(request: Request | WebSocket) -> str:
    """The language of a JSON answer or a WebSocket's messages: English (the API is for programs)
    unless the page that asks says `?lang=` (its own language)."""
    asked = request.query_params.get("lang")
    return asked if asked in i18n.LANGUAGES else i18n.DEFAULT


def render_page(templates: Any, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page in the visitor's language; a language chosen by `?lang=` is kept in a cookie. The
    template words a sentence (a refusal, a result) with `word(...)`."""
    language = request_language(request)
    i18n.install(templates.env)  # `_()` in the templates (once per environment)
    response: HTMLResponse = templates.TemplateResponse(
        request,
        name,
        {
            "t": i18n.words(language),
            "word": lambda text: word(text, language),
            "choice_words": lambda option, value: i18n.choice(i18n.words(language), option, value),
            "code_spans": code_spans,
            "option_help": option_help.texts(language),
            "lang": language,
            "plural": functools.partial(plural_in, language),  # plural(n, t.key, **values): the form for n, filled in
            "languages": i18n.LANGUAGES,
            "path": request.url.path,
            **context,
        },
        status_code=status,
    )
    if request.query_params.get("lang") in i18n.LANGUAGES:
        response.set_cookie("lang", language, max_age=365 * 24 * 3600, samesite="lax")
    return response


def plural_in(language: str, n: int, forms: str, **values: Any) -> str:
    """A text with forms by number (`i18n.plural`) for the templates, in the page's language."""
    return i18n.plural(n, forms, language, **values)


def code_spans(text: object) -> Markup:
    """Text for a page with its `backticked` parts as code (what is typed as it stands: `all`), escaped."""
    parts = str(text).split("`")
    return Markup("").join(Markup("<code>{}</code>").format(part) if index % 2 else escape(part)
                           for index, part in enumerate(parts))


async def open_live(websocket: WebSocket, get: Callable[[str], Awaitable[LiveT]], game_id: str) -> LiveT | None:
    """Accept a page's WebSocket and find its game; None (the page told why, the socket closed)
    when there is no such game or it cannot be rebuilt."""
    try:
        await websocket.accept()
    except (WebSocketDisconnect, OSError):
        return None  # the page went away before it was let in
    try:
        return await get(game_id)
    except Refusal as refusal:
        with contextlib.suppress(WebSocketDisconnect, OSError):  # the page may have gone already
            await websocket.send_json(worded(refused(refusal.message, refusal.code), api_language(websocket)))
            await websocket.close(code=4404 if refusal.status == 404 else 4500)
        return None


# ----- refusals and answers ---------------------------------------------------------------------


class Refusal(Exception):
    """A request that is refused with a reason; nothing was changed. The message is English, made
    by `say` (a key and values) so that a page in another language shows it in its own
    (`ogames.web.messages`); the JSON API answers the English. `retry_after`: seconds after which
    the same request may succeed (a refusal for load: busy, over a quota)."""

    def __init__(self, message: str, code: str = "refused", status: int = 400, retry_after: float | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.retry_after = retry_after


def error_response(
    message: str, code: str, status: int, language: str = i18n.DEFAULT, retry_after: float | None = None
) -> JSONResponse:
    """An API error: `{error, code}` with the HTTP status (the error worded in `language`); with
    `retry_after`, also the whole seconds to wait, in the body and as the Retry-After header."""
    body: dict[str, Any] = {"error": word(message, language), "code": code}
    if retry_after is None:
        return JSONResponse(body, status_code=status)
    body["retry_after"] = seconds = max(1, math.ceil(retry_after))
    return JSONResponse(body, status_code=status, headers={"Retry-After": str(seconds)})


def refusal_response(refusal: Refusal, language: str = i18n.DEFAULT) -> JSONResponse:
    """The API's answer to a refusal, in a language."""
    return error_response(refusal.message, refusal.code, refusal.status, language, refusal.retry_after)


def attachment(text: str, filename: str, media_type: str) -> Response:
    """A file to download (a game's record): its text, named `filename`."""
    return Response(text, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def worded(message: dict[str, Any], language: str) -> dict[str, Any]:
    """A page's message with its sentences (an error's `message`, a verdict's `reason`) in the
    page's language; the same message in English."""
    if language == i18n.DEFAULT:
        return message
    return {key: word(value, language) if key in ("message", "reason") else value for key, value in message.items()}


def refused(message: str, code: str) -> dict[str, Any]:
    """A WebSocket's answer to a message it did not carry out, for that page alone."""
    return {"type": "error", "message": message, "code": code}


def script_json(value: Any) -> str:
    """JSON to put inside a `<script type="application/json">` (no `<`, `>` or `&` that could end it)."""
    return json.dumps(value, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# ----- heavy work, off the event loop ------------------------------------------------------------

# One thread builds large boards, draws their views and writes their JSON: off the event loop, and
# one thing at a time, so that however many clients ask for large boards at once the event loop
# still gets the interpreter every few milliseconds (each more thread would take a share from it).
_HEAVY = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ogames-heavy")


async def heavy(function: Callable[..., Result], *args: Any) -> Result:
    """`function(*args)` in the thread of heavy work."""
    return await asyncio.get_running_loop().run_in_executor(_HEAVY, functools.partial(function, *args))


# ----- a connection's outgoing messages -----------------------------------------------------

MAX_UNSENT_ANSWERS = 256  # answers waiting for a page that does not read them before it is closed

# A message for a page: a typed view or delta (the board games': pydantic models, written without
# their unset parts, `delta.written`), a plain JSON object (answers; Omiga's views), or a message
# written already (`str`: JSON text written once for every page that is sent it, as the lobby's news).
Sent = dict[str, Any] | BaseModel | str
DeltaMaker = Callable[[Any, Any], Sent]


def numbered(message: Sent, name: str) -> int:
    """A view's `version` or `seq` (0 when it has none)."""
    if isinstance(message, str):
        return 0
    value = getattr(message, name, 0) if isinstance(message, BaseModel) else message.get(name, 0)
    return value if isinstance(value, int) else 0


class Outbox:
    """What a page's connection has yet to send, in order: answers for that page alone (pongs,
    errors, verdicts, acks), every one sent once and never dropped, and views of the game, of
    which only the newest matters: a new view replaces one not sent yet (so the newest view always
    arrives, however far behind the page is). A page that lets more than `limit` answers pile up
    (it sends but does not read) is `overflowed`: its connection is closed, saying why.

    A page that asked for `deltas` (web/core/delta.py) is sent its first view whole and then, for each
    newer one, only what changed since the view it will hold once what is queued is sent; a view
    not sent yet is replaced by the delta from the view before it. A page more than
    `FULL_AFTER` versions behind gets the newest view whole again (it is smaller by then)."""

    FULL_AFTER = 16

    def __init__(self, limit: int = MAX_UNSENT_ANSWERS, *, deltas: bool = False):
        self.limit = limit
        self.deltas = deltas
        self.overflowed = False
        self._items: deque[Sent] = deque()
        self._view: Sent | None = None  # the unsent view (or delta) among the items
        self._held: Sent | None = None  # the view the page holds once everything sent so far arrives
        self._queued: Sent | None = None  # the view the unsent view message makes
        self._arrived = asyncio.Event()

    def answer(self, message: dict[str, Any]) -> None:
        """Queue an answer for this page."""
        if self.overflowed:
            return
        self._items.append(message)
        if self.answers_waiting() > self.limit:
            self.overflowed = True
        self._arrived.set()

    def show(self, view: Sent, delta: DeltaMaker | None = None) -> None:
        """Queue the newest view, in place of an older one not sent yet; to a page that asked for
        deltas, as the delta (`delta(old, new)`, web/core/delta.py's `make_delta`) from the view it holds."""
        if self._view is not None:
            for index, item in enumerate(self._items):
                if item is self._view:
                    del self._items[index]
                    break
        message = view
        base = self._held
        near = base is not None and numbered(view, "version") - numbered(base, "version") <= self.FULL_AFTER
        if self.deltas and delta is not None and base is not None and near:
            message = delta(base, view)
        self._items.append(message)
        self._view, self._queued = message, view
        self._arrived.set()

    def answers_waiting(self) -> int:
        """Answers not sent yet (what `limit` bounds)."""
        return len(self._items) - (self._view is not None)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        """Messages waiting to be sent."""
        return len(self._items)

    def get_nowait(self) -> Sent:
        """The next message to send; asyncio.QueueEmpty if there is none."""
        if not self._items:
            raise asyncio.QueueEmpty
        message = self._items.popleft()
        if message is self._view:
            self._view, self._held = None, self._queued
        return message

    async def get(self) -> Sent:
        """The next message to send, once there is one."""
        while not self._items:
            self._arrived.clear()
            await self._arrived.wait()
        return self.get_nowait()


def broadcast(
    watchers: dict[Outbox, str],
    view: Callable[[str], Sent],
    whole: Callable[[Any, str], Sent] | None = None,
) -> None:
    """Show every watcher the view in its page's language (`view(language)`, made once per
    language): a page that asked for deltas the delta from the view it holds (made once per view
    held: the pages of a game mostly hold the same one), any other page `whole(view, language)`
    (the view with what only pages without deltas are sent, such as the board's drawing)."""
    made: dict[str, Sent] = {}
    completed: dict[str, Sent] = {}
    deltas: dict[tuple[int, int], Sent] = {}

    def delta(old: Any, new: Any) -> Sent:  # typed views (the board games') or dicts (Omiga's)
        key = (numbered(old, "seq"), numbered(new, "seq"))
        if key not in deltas:
            deltas[key] = make_delta(old, new)
        return deltas[key]

    for outbox, language in list(watchers.items()):
        if language not in made:
            made[language] = view(language)
        if outbox.deltas:
            outbox.show(made[language], delta)
            continue
        if language not in completed:
            completed[language] = made[language] if whole is None else whole(made[language], language)
        outbox.show(completed[language])


class Watched(Protocol):
    """A live game or table: the outboxes of the connections watching it, each with its page's language."""

    watchers: dict[Outbox, str]


LiveT = TypeVar("LiveT", bound=Watched)


class Announcer(Generic[LiveT]):
    """What a hub does for the connections watching its live games or tables: give each an
    outbox, forget it, and show every watcher the newest view. A hub says how it draws a view, and
    may first `prepare` its costly parts (so that the event loop never waits on them). A hub whose
    views are stamped (web/core/delta.py) lets its pages ask for `deltas`."""

    deltas = False

    def view_of(self, live: LiveT, language: str = i18n.DEFAULT) -> Sent:
        raise NotImplementedError

    async def prepare(self, live: LiveT) -> None:
        """Draw the costly parts of a view ahead (off the event loop, if they take a while); the
        view itself is then made on the loop, from the live object as it is when it is sent."""

    def whole(self, live: LiveT, view: Any, language: str = i18n.DEFAULT) -> Sent:
        """A view as a page that did not ask for deltas is sent it (the board games': with the board drawn)."""
        shown: Sent = view
        return shown

    def watch(self, live: LiveT, language: str = i18n.DEFAULT, *, deltas: bool = False) -> Outbox:
        """An outbox that receives every new view in a language (the newest one, if it falls
        behind), or what changed since the view it holds if it asked for `deltas`."""
        outbox = Outbox(deltas=deltas)
        live.watchers[outbox] = language
        return outbox

    def unwatch(self, live: LiveT, outbox: Outbox) -> None:
        """Stop sending views to an outbox."""
        live.watchers.pop(outbox, None)

    async def announce(self, live: LiveT) -> None:
        """Send the current view to everyone watching, drawn once for each language watched."""
        if not live.watchers:
            return  # nobody to draw it for (a game another process moves, held here idle)
        await self.prepare(live)
        broadcast(live.watchers, lambda language: self.view_of(live, language),
                  lambda view, language: self.whole(live, view, language))


async def send_all(websocket: WebSocket, outbox: Outbox) -> None:
    """Send a connection's messages in order until it closes."""
    try:
        while True:
            message = await outbox.get()
            if isinstance(message, BaseModel):
                await websocket.send_text(written(message))
            elif isinstance(message, str):
                await websocket.send_text(message)
            else:
                await websocket.send_json(message)
    except Exception:  # the connection closed: the receiving side ends the session
        return


async def drain(outbox: Outbox, seconds: float = 0.5) -> None:
    """Give the sender a moment to deliver what is queued (the last refusal) before a close."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not outbox.empty() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)


class LiveHub(Protocol):
    """What `serve_socket` needs of a hub (the board games' `Hub`, Omiga's `OmigaHub`)."""

    presence: Any
    deltas: bool  # whether its pages may ask for deltas (web/core/delta.py)

    def watch(self, live: Any, language: str = ..., *, deltas: bool = ...) -> Outbox: ...

    def view_of(self, live: Any, language: str = ...) -> Sent: ...

    def whole(self, live: Any, view: Any, language: str = ...) -> Sent: ...

    def unwatch(self, live: Any, outbox: Outbox) -> None: ...

    async def prepare(self, live: Any) -> None: ...


# One message of a page (its page number, the raw message): the answer for that page alone, or None.
PageHandler = Callable[[int, MutableMapping[str, Any]], Awaitable[dict[str, Any] | None]]


async def serve_socket(
    websocket: WebSocket,
    hub: LiveHub,
    live: Any,
    first: Callable[[str], Sent],
    limit: ConnectionLimit,
    handle: PageHandler,
    code: str,
) -> None:
    """A page's WebSocket on a live game or table, until it closes: its presence joined, the view
    `first(language)` (made once the page has joined) and then every announced one sent (the newest,
    if it falls behind), and its messages served (`serve_messages`: rate-limited, refused with
    `code`, else handled by `handle(page, message)`). Views and answers are in the page's language
    (`?lang=` on the socket's address; English without it)."""
    language = api_language(websocket)
    page = await hub.presence.join(live.id)  # before watching: the others' pages see it come
    outbox = hub.watch(live, language, deltas=hub.deltas and websocket.query_params.get("deltas") == "1")
    await hub.prepare(live)
    # The whole game as it is now (this page counted): a page that reconnects needs nothing else.
    outbox.show(hub.view_of(live, language) if outbox.deltas else first(language))
    try:
        await serve_messages(websocket, outbox, limit, functools.partial(handle, page), code, language, live.id)
    finally:
        hub.unwatch(live, outbox)
        with contextlib.suppress(Exception):
            await hub.presence.leave(live.id, page)


# One message of a page (the raw message): the answer for that page alone, or None.
MessageHandler = Callable[[MutableMapping[str, Any]], Awaitable[dict[str, Any] | None]]


async def serve_messages(
    websocket: WebSocket,
    outbox: Outbox,
    limit: ConnectionLimit,
    handle: MessageHandler,
    code: str,
    language: str,
    name: str,
) -> None:
    """Send a page its outbox and read what it sends, until it goes away: each message
    rate-limited (refused with `code`: every message gets an answer or a refusal; a connection that
    keeps sending past the limit's strikes is closed) and handled, its answer queued for that page
    alone in its language. A page that lets its answers pile up unread is closed too. `name` says
    in the log whose connection it was (a game's id, `lobby`)."""
    sender = asyncio.create_task(send_all(websocket, outbox))
    try:
        while True:
            incoming = await websocket.receive()
            if incoming["type"] == "websocket.disconnect":
                return
            if not await limit.allow():
                if limit.exhausted:
                    log.warning("%s: a connection kept sending too fast and was closed", name)
                    await drain(outbox)
                    await _close(websocket, 1008, "too many messages")
                    return
                outbox.answer(worded(refused(limit.refusal(), code), language))
            elif (answer := await handle(incoming)) is not None:
                outbox.answer(worded(answer, language))
            if outbox.overflowed:
                log.warning("%s: a connection did not read its answers and was closed", name)
                sender.cancel()
                await _close(websocket, 1008, "too many unread messages: this page does not read its answers")
                return
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    """Close a connection saying why (given up on after a few seconds: the peer may not be reading)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(code=code, reason=reason), 5)


def read_message(
    incoming: MutableMapping[str, Any], limit: int, parse: Callable[[Any], Any], explain: Callable[[ValidationError], str]
) -> tuple[Any, dict[str, Any] | None]:
    """One incoming WebSocket message parsed by `parse`: (message, None), or (None, the refusal to
    send back) when it is binary, longer than `limit` bytes, not JSON, nested too deeply or not a
    message `parse` accepts (`explain` words the last)."""
    text = incoming.get("text")
    if text is None:
        return None, refused(say("binary-message", "messages are JSON text, not binary"), "invalid")
    if len(text.encode("utf-8")) > limit:
        return None, refused(say("message-too-long", "the message is too long (at most {limit} bytes)", limit=limit), "too-large")
    try:
        return parse(json.loads(text)), None
    except json.JSONDecodeError:
        return None, refused(say("not-json", "the message is not JSON"), "invalid")
    except ValidationError as exc:
        return None, refused(explain(exc), "invalid")
    except RecursionError:
        return None, refused(say("nested-too-deeply", "the message is nested too deeply"), "invalid")


# ----- games and their forms ------------------------------------------------------------------


def catalogue() -> list[dict[str, Any]]:
    """Every game as `ogames.games()` describes it."""
    return ogames.games()


def find_game(name: str) -> dict[str, Any] | None:
    """One game's description by name."""
    return next((game for game in catalogue() if game["name"] == name), None)


def options_text(options: dict[str, Any], language: str = i18n.DEFAULT) -> str:
    """A game's options in one line, in the form's words for the names and values (`size: 5 · pie:
    yes`; `размер: 5 · правило пирога: да`)."""
    t = i18n.words(language)
    shown = []
    for name, value in options.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = t["yes" if value else "no"]
        elif isinstance(value, list):
            value = ",".join(str(item) for item in value)
        elif isinstance(value, str):
            value = i18n.choice(t, name, value)
        text = f"{i18n.option_label(t, name)}: {value}"
        shown.append(text if len(text) <= 60 else text[:57] + "…")
    return " · ".join(shown)


# Options a form shows for some variants only although the rules accept them for every one: Omiga's
# `players` is fixed by every variant but toddler (the rules take the fixed number, which records store);
# its `seed` is chosen only in zen, alone: the server deals every other table from its secret seed.
FORM_VARIANTS: dict[tuple[str, str], tuple[str, ...]] = {("omiga", "players"): ("toddler",), ("omiga", "seed"): ("zen",)}


def form_fields(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The new-game form's fields, one per option: input kind, default, limits, help, and the
    variants it is shown for (`applies_to`, empty: every one)."""
    fields = []
    for option in game["options"]:
        kind = option["kind"]
        field: dict[str, Any] = {
            "name": option["name"],
            "label": option["name"].replace("_", " "),
            "kind": kind,
            "default": option["default"],
            "help": option["help"],
            "help_key": f"{game['name']}.{option['name']}",  # its help in other languages: option_help.py
            "choices": option.get("choices") or [],
            "min": option.get("minimum"),
            "max": option.get("maximum"),
            "applies_to": option.get("applies_to") or list(FORM_VARIANTS.get((game["name"], option["name"]), ())),
        }
        if kind == "bool":
            field["input"] = "bool"
        elif kind == "choice":
            field["input"] = "select"
        elif kind in ("int", "half"):
            field["input"] = "number"
            field["step"] = "0.5" if kind == "half" else "1"
        elif kind == "labels":
            field["input"] = "textarea"
        else:
            field["input"] = "text"
        fields.append(field)
    return fields


def form_options(game: dict[str, Any], form: dict[str, str]) -> dict[str, str]:
    """The options a submitted new-game form gives: the filled fields of the chosen variant's
    options. A field of another variant is ignored (a page without its script sends them all),
    as is an empty one (the option keeps its default)."""
    fields = form_fields(game)
    variant = form.get("opt_variant") or next((f["default"] for f in fields if f["name"] == "variant"), None)
    options = {}
    for field in fields:
        if field["applies_to"] and variant not in field["applies_to"]:
            continue
        value = form.get(f"opt_{field['name']}", "").strip()
        if value:
            options[field["name"]] = value
    return options
