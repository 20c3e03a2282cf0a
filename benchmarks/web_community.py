"""The community part of the web load (`bench_web_load.py --community`): everyone logged in, a full lobby.

Every player is an account, signed up through the site's own form as a browser does it: `GET
/signup` (the form's CSRF token, its cookie with it), `POST /signup` with the token and `Origin`,
keeping the session cookie the answer sets. Its JSON requests carry the token in `x-csrftoken` (as
web/static/page.js sends it) with `Origin` and `Sec-Fetch-Site`, as a browser's would, so that the
server asks for the token; its WebSockets carry the cookie and `Origin`.

A logged-in player's game goes as it goes between two people on the site: the first creates a
rated game with the other seat invited (`seats: ["here", "invite"]`), the second comes through
the invitation; each game page says which seat it holds (`here`, which records the account in
it) and keeps the header's challenges socket open (`/ws/lobby?challenges=1`, web/static/challenges.js).

Before the players start, other accounts post the lobby's open seeks (web/lobby/: each account at
most `MAX_SEEKS`, each keeping its lobby page open, since a seek goes when its poster's last lobby
page closes), and a few more accounts watch the lobby: each opens it, receives the whole list,
stays a while and opens it again, until the players are done.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import websockets

MAX_SEEKS = 3  # open seeks one account may have (web/lobby/lobby.py's MAX_SEEKS)
# Posters posting at once. A lobby page that sends a message while more than 256 messages wait to
# be sent to it (web/core/common.py's Outbox) is closed, its seeks withdrawn: all 167 posting at
# once on a loaded server got a poster's page closed, the news of hundreds of seeks piled up.
POSTING_AT_ONCE = 8
PASSWORD = "a long enough password"
TOKEN_FIELD = re.compile(r'name="csrftoken" value="([^"]+)"')

# The seeks posted, in turn: games, boards, time controls, rated or not, rating ranges (no quick
# pairing: two quick seeks that fit are paired at once, and the lobby would not fill).
SEEK_KINDS: list[dict[str, Any]] = [
    {"game": "omny", "options": {"variant": "y", "size": 9}, "clock": {"minutes": 5, "increment": 3}, "rated": True},
    {"game": "omny", "options": {"variant": "sunder", "size": 5}, "days": 3, "rated": True},
    {"game": "oddy", "options": {}, "clock": {"minutes": 10, "increment": 0}},
    {"game": "onyx", "options": {"pie": True}, "rated": True, "min": 1200, "max": 1800},
    {"game": "omega", "options": {"size": 5}, "clock": {"minutes": 3, "increment": 2}, "rated": True},
    {"game": "omny", "options": {"variant": "y", "size": 13}, "min": 1000},
]


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer of its own (the 303 after a form), not followed: the cookies it sets are kept."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Browser:
    """One person's browser at the site: a cookie jar, the CSRF token, the headers a browser sends."""

    base: str
    name: str = ""
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self) -> None:
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirects)

    def request(self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """(status, body) of a GET, or of a POST when there is data. All the benchmark's requests come
        from one address, which the server's per-client API limit counts as one busy client: on
        429 it waits and asks again."""
        for _ in range(200):
            request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
            try:
                with self._opener.open(request, timeout=60) as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as error:
                if error.code != 429:
                    return error.code, error.read()
                time.sleep(0.25)
        raise SystemExit(f"{path}: still rate-limited after 200 tries")

    def cookie(self, name: str) -> str:
        return next((cookie.value or "" for cookie in self.jar if cookie.name == name), "")

    @property
    def csrf(self) -> str:
        """The CSRF token (its cookie's value, which the page's meta tag and forms carry too)."""
        return self.cookie("csrftoken")

    @property
    def headers(self) -> dict[str, str]:
        """What a page of this site sends with a WebSocket: its cookies and its origin."""
        return {"Cookie": "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar), "Origin": self.base}

    def sign_up(self, name: str) -> None:
        """Sign up through the form, as a person does: the form (its token), then the POST."""
        status, page = self.request("/signup")
        found = TOKEN_FIELD.search(page.decode())
        if status != 200 or found is None:
            raise SystemExit(f"/signup: {status}, no form token")
        form = urllib.parse.urlencode({"csrftoken": found.group(1), "name": name, "password": PASSWORD, "again": PASSWORD})
        status, body = self.request("/signup", form.encode(), {
            "content-type": "application/x-www-form-urlencoded", "origin": self.base, "sec-fetch-site": "same-origin"})
        if status != 303 or not self.cookie("ogames_session"):
            raise SystemExit(f"/signup as {name}: {status} {body[:300]!r}")
        self.name = name

    def post_json(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """A JSON POST as the page's scripts send it (page.js: the token in `x-csrftoken`)."""
        status, answer = self.request(path, json.dumps(body).encode(), {
            "content-type": "application/json", "x-csrftoken": self.csrf, "origin": self.base, "sec-fetch-site": "same-origin"})
        if status >= 300:
            raise SystemExit(f"{path} as {self.name}: {status} {answer[:300]!r}")
        decoded: dict[str, Any] = json.loads(answer)
        return decoded


def sign_up_many(bases: list[str], prefix: str, count: int, parallel: int) -> list[Browser]:
    """`count` new accounts (names `prefix` + a number), signed up `parallel` at a time, round-robin
    over the servers (a session is good on every process: they share the secret)."""
    browsers = [Browser(bases[index % len(bases)]) for index in range(count)]
    with ThreadPoolExecutor(max(1, parallel)) as pool:
        list(pool.map(lambda pair: pair[1].sign_up(f"{prefix}{pair[0]:04d}"), enumerate(browsers)))
    return browsers


@dataclass
class Seat:
    """A seat a logged-in player plays: the game, the seat, its token and the player's browser."""

    game_id: str
    seat: int
    token: str
    browser: Browser


def create_games(browsers: list[Browser], bases: list[str], game: str, options: dict[str, Any]) -> list[Seat]:
    """A rated game for each pair of players: the first creates it with the second seat invited, the
    second holds the invitation's token. The seats of a game sit on different servers."""
    seats: list[Seat] = []
    for index in range(0, len(browsers) - 1, 2):
        creator, invited = browsers[index], browsers[index + 1]
        creator.base = bases[(index // 2) % len(bases)]
        invited.base = bases[(index // 2 + 1) % len(bases)]
        made = creator.post_json("/api/games", {"game": game, "options": options, "seats": ["here", "invite"], "rated": True})
        seats.append(Seat(made["id"], 0, made["tokens"]["0"], creator))
        seats.append(Seat(made["id"], 1, made["invitations"]["1"]["token"], invited))
    return seats


def listed_on_account(seat: Seat) -> bool:
    """Whether the player's account page (`/account`, as the player's browser asks) lists the game."""
    status, page = seat.browser.request("/account")
    return status == 200 and f'href="/g/{seat.game_id}"' in page.decode()


@dataclass
class LobbyTally:
    """What the lobby's pages measured."""

    lists: list[float] = field(default_factory=list)  # a lobby page's opening: connected → the list received
    list_bytes: list[int] = field(default_factory=list)
    listed: list[int] = field(default_factory=list)  # seeks in each list received
    other_bytes: int = 0  # every other lobby message (news of seeks, the headers' challenges sockets)
    failures: list[str] = field(default_factory=list)


def lobby_address(base: str, challenges: bool = False) -> str:
    return base.replace("http://", "ws://") + "/ws/lobby" + ("?challenges=1" if challenges else "")


async def read_all(socket: Any, tally: LobbyTally) -> None:
    """Read what a page is sent until its socket closes (counted, not kept): an open page reads."""
    with contextlib.suppress(websockets.ConnectionClosed):
        async for raw in socket:
            tally.other_bytes += len(raw)


@contextlib.asynccontextmanager
async def open_page(address: str, browser: Browser) -> Any:
    async with websockets.connect(address, additional_headers=browser.headers, max_size=2**24, open_timeout=120) as socket:
        yield socket


@dataclass
class Lobby:
    """The lobby's posters and watchers for the length of a run (`async with`)."""

    posters: list[Browser]
    watchers: list[Browser]
    seeks: int
    revisit: float  # a watcher opens the lobby again after about this many seconds (0: never)
    rng: Callable[[], float]
    tally: LobbyTally = field(default_factory=LobbyTally)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    posted_in: float = 0.0
    posting: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(POSTING_AT_ONCE))

    async def __aenter__(self) -> Lobby:
        """Every seek posted, and every watcher holding the list, before the players start."""
        started = time.perf_counter()
        ready: list[asyncio.Future[None]] = []
        for index, browser in enumerate(self.posters):
            count = min(MAX_SEEKS, self.seeks - index * MAX_SEEKS)
            if count > 0:
                ready.append(asyncio.get_running_loop().create_future())
                self.tasks.append(asyncio.create_task(self._poster(browser, index, count, ready[-1])))
        await asyncio.gather(*ready)
        self.posted_in = time.perf_counter() - started
        ready = []
        for browser in self.watchers:
            ready.append(asyncio.get_running_loop().create_future())
            self.tasks.append(asyncio.create_task(self._watcher(browser, ready[-1])))
        await asyncio.gather(*ready)
        return self

    async def __aexit__(self, *_: object) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _poster(self, browser: Browser, index: int, count: int, ready: asyncio.Future[None]) -> None:
        """An account's lobby page posting its seeks, then kept open (its seeks with it) until the end."""
        try:
            await self.posting.acquire()
            async with open_page(lobby_address(browser.base), browser) as socket:
                for number in range(count):
                    kind = SEEK_KINDS[(index * MAX_SEEKS + number) % len(SEEK_KINDS)]
                    await socket.send(json.dumps({"type": "seek", **kind}))
                    while (answer := json.loads(await asyncio.wait_for(socket.recv(), 120)))["type"] != "posted":
                        if answer["type"] in ("error", "go"):
                            raise SystemExit(f"a seek was not posted: {answer}")
                ready.set_result(None)
                self.posting.release()
                reader = asyncio.create_task(read_all(socket, self.tally))
                await self.stop.wait()
                reader.cancel()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            else:
                self.tally.failures.append(repr(exc)[:120])

    async def _watcher(self, browser: Browser, ready: asyncio.Future[None]) -> None:
        """A visitor at the lobby: opens it (the whole list comes), stays a while, opens it again."""
        try:
            while not self.stop.is_set():
                opened = time.perf_counter()
                async with open_page(lobby_address(browser.base), browser) as socket:
                    raw = await socket.recv()
                    if self.stop.is_set():
                        break  # a list sent once the run was ending: the posters may be leaving with their seeks
                    self.tally.lists.append(time.perf_counter() - opened)
                    self.tally.list_bytes.append(len(raw))
                    self.tally.listed.append(len(json.loads(raw)["seeks"]))
                    if not ready.done():
                        ready.set_result(None)
                    reader = asyncio.create_task(read_all(socket, self.tally))
                    stay = self.revisit * (0.5 + self.rng()) if self.revisit > 0 else None
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.stop.wait(), stay)
                    reader.cancel()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            else:
                self.tally.failures.append(repr(exc)[:120])


@contextlib.asynccontextmanager
async def challenges_page(seat: Seat, tally: LobbyTally) -> Any:
    """The header's challenges socket a logged-in player's game page keeps open (challenges.js)."""
    async with open_page(lobby_address(seat.browser.base, challenges=True), seat.browser) as socket:
        reader = asyncio.create_task(read_all(socket, tally))
        try:
            yield socket
        finally:
            reader.cancel()


def quantiles(values: list[float]) -> Iterator[float]:
    """p50 and p99 in ms of some seconds (nan for none)."""
    ordered = sorted(values)
    for q in (0.5, 0.99):
        yield round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else float("nan")


def figures(lobby: Lobby, accounts: int, signed_up_in: float) -> dict[str, Any]:
    """The community run's own figures (beside the moves' ones)."""
    p50, p99 = quantiles(lobby.tally.lists)
    return {
        "accounts": accounts,
        "signup_seconds": round(signed_up_in, 1),
        "seeks_posted": lobby.seeks,
        "seeks_seconds": round(lobby.posted_in, 1),
        "lobby_watchers": len(lobby.watchers),
        "lobby_opened": len(lobby.tally.lists),
        "lobby_list_p50_ms": p50,
        "lobby_list_p99_ms": p99,
        "lobby_list_bytes": max(lobby.tally.list_bytes, default=0),
        "seeks_listed_min": min(lobby.tally.listed, default=0),
        "lobby_other_bytes": lobby.tally.other_bytes,
        "lobby_failures": lobby.tally.failures[:5],
    }
