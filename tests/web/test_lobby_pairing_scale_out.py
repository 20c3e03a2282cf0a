"""Challenges and quick pairing on two server processes sharing one PostgreSQL and one Redis
(docs/web.md, "Lobby"), and what one account may post through both at once.

- A challenge posted on one process is seen live by the named player on the other (their lobby
  page and another page's header), by nobody else, and accepted there into one game both reach;
  declined or cancelled, it goes from both processes.
- Quick pairing: two players waiting on different processes are paired into one game — also when
  both press "play now" at the same moment: one game, nobody paired twice, nobody left waiting.
- Seek and challenge spam through both processes at once: the cap on open seeks holds in the
  database, and the cap on seeks posted in a while is counted once, in Redis.

(Of two people accepting one seek at once on the two processes exactly one gets the game:
test_lobby_scale_out.py.)
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from ogames.web import Settings

from .scaling import needs_services
from .serving import call, start_server, stop_server
from .test_ratings_scale_out import signed_up

pytestmark = pytest.mark.slow

WAIT = 60.0  # seconds: generous, the machine is shared
SEEK = {"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}
QUICK = {**SEEK, "quick": True, "days": 3}
SETTINGS = Settings()


class Page:
    """A lobby page (or, `header`, another page's header) on one server process, as the browser
    these cookies are (none: a guest of its own)."""

    def __init__(self, base: str, cookie: str | None = None, header: bool = False):
        from websockets.sync.client import connect

        self._open = contextlib.ExitStack()
        url = base.replace("http://", "ws://") + "/ws/lobby" + ("?challenges=1" if header else "")
        headers = {"cookie": cookie} if cookie else None
        self.socket = self._open.enter_context(connect(url, additional_headers=headers, open_timeout=30))
        self.seen: list[dict[str, Any]] = []
        self.listed = [seek["id"] for seek in self.until("seeks")["seeks"]]

    def next(self, deadline: float) -> dict[str, Any]:
        message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        self.seen.append(message)
        return message

    def until(self, kind: str | tuple[str, ...], **fields: Any) -> dict[str, Any]:
        """The next message of a kind (or kinds) with these fields, skipping the others."""
        kinds = (kind,) if isinstance(kind, str) else kind
        deadline = time.monotonic() + WAIT
        while True:
            message = self.next(deadline)
            if message["type"] in kinds and all(message.get(key) == value for key, value in fields.items()):
                return message

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def close(self) -> None:
        self._open.close()


@pytest.fixture(scope="module")
def two(services: tuple[Any, Any], tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """Two server processes on one database and one Redis: (A's address, B's, the database URL)."""
    pg, redis = services
    folder = tmp_path_factory.mktemp("pairing")
    url = pg.new_database("pairing")
    a, base_a = start_server(url, folder / "a.log", redis=redis.url)
    try:
        b, base_b = start_server(url, folder / "b.log", redis=redis.url)
    except BaseException:
        stop_server(a)
        raise
    try:
        yield base_a, base_b, url
    finally:
        stop_server(a)
        stop_server(b)


@pytest.fixture
def pages() -> Iterator[list[Page]]:
    """The pages a test opens (closed after it, whatever happens)."""
    opened: list[Page] = []
    yield opened
    for page in opened:
        with contextlib.suppress(Exception):
            page.close()


def listed_on(base: str, cookie: str | None = None) -> list[str]:
    """The seeks a lobby page opening now on this process lists (to this browser)."""
    page = Page(base, cookie)
    page.close()
    return page.listed


def cookie_of(base: str, name: str) -> str:
    """The cookies of a browser signed up (on this process) as a new account."""
    client, _ = signed_up(base, name)
    try:
        return "; ".join(f"{key}={value}" for key, value in client.cookies.items())
    finally:
        client.close()


def database(url: str) -> Any:
    from ogames.web.core.store import Store

    return Store(url)


def open_seeks(url: str) -> list[Any]:
    from ogames.web.lobby import records

    store = database(url)
    try:
        return records.open_seeks(store)
    finally:
        store.close()


def seated(url: str, game: str) -> dict[int, str | None]:
    from ogames.web.accounts import records

    store = database(url)
    try:
        return records.seat_players_of(store, game)
    finally:
        store.close()


def account_id(url: str, name: str) -> str:
    from ogames.web.accounts import records
    from ogames.web.accounts.names import name_key

    store = database(url)
    try:
        account = records.account_by_key(store, name_key(name))
        assert account is not None
        return account.id
    finally:
        store.close()


def play_both(base_a: str, base_b: str, game: str, tokens: dict[int, str]) -> None:
    """Each seat moves once, through a different process: both reach the one game."""
    status, moved = call(base_a, f"/api/games/{game}/moves", {"move": "c3", "token": tokens[0], "version": 0})
    assert status == 200, moved
    status, moved = call(base_b, f"/api/games/{game}/moves", {"move": "b2", "token": tokens[1], "version": 1})
    assert status == 200, moved


@needs_services
def test_a_challenge_from_one_process_is_accepted_on_the_other_into_one_game(two: tuple[str, str, str],
                                                                             pages: list[Page]) -> None:
    base_a, base_b, url = two
    ada, bob = cookie_of(base_a, "Cross_Ada"), cookie_of(base_b, "Cross_Bob")
    challenger, challenged = Page(base_a, ada), Page(base_b, bob)
    header, stranger = Page(base_b, bob, header=True), Page(base_b)
    pages += [challenger, challenged, header, stranger]

    challenger.send({**SEEK, "to": "cross_bob"})  # (any case)
    posted = challenger.until("posted")
    seek = posted["seek"]
    shown = challenged.until("new")["seek"]
    assert shown["id"] == seek and shown["for_me"] and shown["to"] == "Cross_Bob" and shown["poster"] == "Cross_Ada"
    assert header.until("new")["seek"]["id"] == seek  # another of Bob's pages, on B: its header offers it
    challenger.send(SEEK)  # a seek for anyone, after the challenge: the stranger's first news is this one
    public = challenger.until("posted")["seek"]
    assert stranger.until("new")["seek"]["id"] == public
    assert all(message["type"] != "new" or message["seek"]["id"] != seek for message in stranger.seen)
    stranger.send({"type": "accept", "seek": seek})  # not theirs to accept, on either process
    assert stranger.until("error")["code"] == "seek-gone"
    assert seek not in listed_on(base_a) and seek in listed_on(base_a, bob)

    challenged.send({"type": "accept", "seek": seek})
    go = challenged.until("go")
    matched = challenger.until("matched", seek=seek)
    assert matched["game"] == go["game"] and {matched["seat"], go["seat"]} == {0, 1}
    for page in (challenged, header, stranger):  # (the acceptor's page is told before it is sent to the game)
        if {"type": "gone", "seek": seek} not in page.seen:
            page.until("gone", seek=seek)
    challenged.send({"type": "accept", "seek": seek})  # accepted once only
    assert challenged.until("error")["code"] == "seek-gone"

    game = go["game"]
    assert seated(url, game) == {matched["seat"]: account_id(url, "Cross_Ada"), go["seat"]: account_id(url, "Cross_Bob")}
    tokens = {matched["seat"]: posted["token"], go["seat"]: go["url"].split(f"seats={go['seat']}.")[1]}
    play_both(base_a, base_b, game, tokens)
    assert seek not in {row.id for row in open_seeks(url)} and public in {row.id for row in open_seeks(url)}


@needs_services
def test_a_declined_or_cancelled_challenge_goes_from_both_processes(two: tuple[str, str, str], pages: list[Page]) -> None:
    base_a, base_b, url = two
    ada, bob = cookie_of(base_a, "Decline_Ada"), cookie_of(base_b, "Decline_Bob")
    challenger, own_header = Page(base_a, ada), Page(base_b, ada, header=True)
    challenged, header = Page(base_b, bob), Page(base_a, bob, header=True)
    pages += [challenger, own_header, challenged, header]

    challenger.send({**SEEK, "to": "Decline_Bob"})
    declined = challenger.until("posted")["seek"]
    challenged.until("new")
    assert header.until("new")["seek"]["id"] == declined  # Bob's header on A, his lobby page on B
    challenged.send({"type": "decline", "seek": declined})  # declined on B
    for page in (challenger, header, challenged, own_header):
        assert page.until("gone")["seek"] == declined
    assert declined not in {row.id for row in open_seeks(url)}
    assert declined not in listed_on(base_a, bob) and declined not in listed_on(base_b, bob)
    challenged.send({"type": "accept", "seek": declined})
    assert challenged.until("error")["code"] == "seek-gone"

    challenger.send({**SEEK, "to": "Decline_Bob"})
    cancelled = challenger.until("posted")["seek"]
    assert challenged.until("new")["seek"]["id"] == cancelled
    header.until("new")
    challenged.send({"type": "cancel", "seek": cancelled})  # only its poster may withdraw it
    assert challenged.until("error")["code"] == "seek-gone"
    challenger.send({"type": "cancel", "seek": cancelled})  # withdrawn on A
    for page in (challenged, header, own_header):
        assert page.until("gone")["seek"] == cancelled
    assert cancelled not in {row.id for row in open_seeks(url)}
    challenged.send({"type": "accept", "seek": cancelled})
    assert challenged.until("error")["code"] == "seek-gone"


def press(page: Page, start: threading.Barrier) -> None:
    """Press "play now" on a page as soon as the other players are ready to."""
    start.wait()
    page.send(QUICK)


def paired(first: Page, second: Page) -> tuple[str, dict[int, str]]:
    """Two quick-pairing players' one game and each seat's token: one page is sent to it (`go`),
    the other, whose seek was taken, is told `matched`; neither is told both, nor paired twice."""
    ends = [page.until(("go", "matched")) for page in (first, second)]
    assert sorted(end["type"] for end in ends) == ["go", "matched"], ends
    assert ends[0]["game"] == ends[1]["game"] and {end["seat"] for end in ends} == {0, 1}
    tokens = {}
    for page, end in zip((first, second), ends, strict=True):
        if end["type"] == "go":
            tokens[end["seat"]] = end["url"].split(f"seats={end['seat']}.")[1]
        else:
            tokens[end["seat"]] = next(m["token"] for m in page.seen if m["type"] == "posted" and m["seek"] == end["seek"])
    return ends[0]["game"], tokens


@needs_services
def test_quick_pairing_across_processes_makes_one_game_even_when_both_press_at_once(two: tuple[str, str, str],
                                                                                    pages: list[Page]) -> None:
    base_a, base_b, url = two
    # One waits on A; the other presses "play now" on B and is paired with them at once.
    waiting, coming = Page(base_a), Page(base_b)
    pages += [waiting, coming]
    waiting.send(QUICK)
    waiting.until("posted")
    coming.until("new")
    coming.send(QUICK)
    game, tokens = paired(waiting, coming)
    assert coming.seen[-1]["type"] == "go" and not any(m["type"] == "posted" for m in coming.seen)
    play_both(base_a, base_b, game, tokens)
    assert open_seeks(url) == []

    # Two press at the same moment, one on each process, again and again: each time one game.
    games = {game}
    for _ in range(4):
        first, second = Page(base_a), Page(base_b)
        pages += [first, second]
        start = threading.Barrier(2)

        threads = [threading.Thread(target=press, args=(page, start)) for page in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        game, tokens = paired(first, second)
        assert game not in games
        games.add(game)
        assert open_seeks(url) == []  # nobody left waiting
        assert len({player for player in seated(url, game).values() if player}) == 2
        play_both(base_a, base_b, game, tokens)
        first.close()
        second.close()


@needs_services
def test_one_account_posting_through_both_processes_is_held_to_its_caps(two: tuple[str, str, str],
                                                                        pages: list[Page]) -> None:
    from ogames.web.lobby.lobby import MAX_SEEKS

    base_a, base_b, url = two
    spam = cookie_of(base_a, "Spam_Sam")
    target = cookie_of(base_b, "Spam_Target")
    on_a, on_b, watcher = Page(base_a, spam), Page(base_b, spam), Page(base_b, target, header=True)
    pages += [on_a, on_b, watcher]
    sam = account_id(url, "Spam_Sam")
    started = time.monotonic()

    # Twice the cap of challenges at once, half through each process: the cap holds.
    start = threading.Barrier(2)

    def flood(page: Page) -> None:
        start.wait()
        for _ in range(MAX_SEEKS):
            page.send({**SEEK, "to": "Spam_Target"})

    threads = [threading.Thread(target=flood, args=(page,)) for page in (on_a, on_b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers = [page.until(("posted", "error")) for page in (on_a, on_b) for _ in range(MAX_SEEKS)]
    assert sum(answer["type"] == "posted" for answer in answers) == MAX_SEEKS, answers
    assert {answer["code"] for answer in answers if answer["type"] == "error"} == {"too-many-seeks"}
    held = [row.id for row in open_seeks(url) if row.poster_id == sam]
    assert len(held) == MAX_SEEKS
    for _ in held:
        watcher.until("new")  # the challenged player was offered the three, no more

    # Posting and cancelling in a loop, by turns on A and B: the posts in a while are counted once.
    for seek in held:
        (on_a if seek in [m.get("seek") for m in on_a.seen] else on_b).send({"type": "cancel", "seek": seek})
    while not set(held) <= {m["seek"] for m in watcher.seen if m["type"] == "gone"}:
        watcher.until("gone")
    burst = int(SETTINGS.seek_burst)
    posted = 2 * MAX_SEEKS  # (every post counts, refused by the cap or not)
    refusals: list[dict[str, Any]] = []
    turn = 0
    while len(refusals) < 2:
        page = (on_a, on_b)[turn % 2]
        turn += 1
        page.send(SEEK)
        answer = page.until(("posted", "error"))
        if answer["type"] == "posted":
            posted += 1
            page.send({"type": "cancel", "seek": answer["seek"]})
            page.until("gone", seek=answer["seek"])
        else:
            refusals.append(answer)
        assert turn <= burst, "the posts were never refused"
    elapsed = time.monotonic() - started
    if elapsed > SETTINGS.seek_burst / SETTINGS.seek_rate:
        pytest.fail(f"the machine took {elapsed:.0f} s, longer than the limit's window: the count proves nothing")
    assert posted == burst  # the whole allowance, then each process refuses: the count is shared
    assert [answer["code"] for answer in refusals] == ["rate-limited", "rate-limited"]
    assert all(answer["retry_after"] >= 1 for answer in refusals)
    assert [row.id for row in open_seeks(url) if row.poster_id == sam] == []
    assert listed_on(base_a, target) == []  # nothing of the flood is left for the target


def settled(url: str, seek: str, worker: str | None) -> Any:
    """The stored seek once it is gone or no longer held by `worker` (None: gone)."""
    deadline = time.monotonic() + WAIT
    while True:
        row = next((row for row in open_seeks(url) if row.id == seek), None)
        if row is None or row.worker != worker:
            return row
        assert time.monotonic() < deadline, "the seek stayed with the process whose pages closed"
        time.sleep(0.2)


@needs_services
def test_a_seek_stays_while_its_poster_has_a_lobby_page_on_another_process(two: tuple[str, str, str],
                                                                           pages: list[Page]) -> None:
    base_a, base_b, url = two
    tabs = cookie_of(base_a, "Two_Tabs")
    on_a, on_b, watcher = Page(base_a, tabs), Page(base_b, tabs), Page(base_b)
    pages += [on_a, on_b, watcher]
    on_a.send(SEEK)
    seek = on_a.until("posted")["seek"]
    watcher.until("new")
    posted_through = next(row.worker for row in open_seeks(url) if row.id == seek)

    # The tab on A closes; the one on B is still in the lobby: the seek stays, now B's to withdraw.
    on_a.close()
    kept = settled(url, seek, posted_through)
    assert kept is not None and kept.worker != posted_through
    assert seek in listed_on(base_a)
    taker = Page(base_a)
    pages.append(taker)
    taker.send({"type": "accept", "seek": seek})  # accepted on A: the poster's tab on B is sent there
    go = taker.until("go")
    assert on_b.until("matched", seek=seek)["game"] == go["game"]

    # The same again, and then the tab on B closes too: the seek goes.
    again = Page(base_a, tabs)
    pages.append(again)
    again.send(SEEK)
    second = again.until("posted")["seek"]
    watcher.until("new")
    again.close()
    assert settled(url, second, posted_through) is not None
    on_b.close()
    assert watcher.until("gone", seek=second)["seek"] == second
    assert settled(url, second, None) is None

    # Both tabs close at the same moment: the seek goes all the same (no process keeps it for the other).
    first, other = Page(base_a, tabs), Page(base_b, tabs)
    pages += [first, other]
    first.send(SEEK)
    third = first.until("posted")["seek"]
    watcher.until("new")
    start = threading.Barrier(2)

    def close(page: Page) -> None:
        start.wait()
        page.close()

    threads = [threading.Thread(target=close, args=(page,)) for page in (first, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert watcher.until("gone", seek=third)["seek"] == third
    assert third not in {row.id for row in open_seeks(url)}


@needs_services
def test_a_process_stopping_hands_its_seeks_to_the_process_where_their_poster_still_is(
        services: tuple[Any, Any], tmp_path_factory: pytest.TempPathFactory, pages: list[Page]) -> None:
    pg, redis = services
    folder = tmp_path_factory.mktemp("stopping")
    url = pg.new_database("stopping")
    a, base_a = start_server(url, folder / "a.log", redis=redis.url)
    b, base_b = start_server(url, folder / "b.log", redis=redis.url)
    try:
        tabs = cookie_of(base_a, "Restarted")
        on_a, on_b, watcher = Page(base_a, tabs), Page(base_b, tabs), Page(base_b)
        pages += [on_a, on_b, watcher]
        on_a.send(SEEK)
        seek = on_a.until("posted")["seek"]
        lonely = Page(base_a)  # a guest whose only lobby page is on A
        pages.append(lonely)
        lonely.send(SEEK)
        alone = lonely.until("posted")["seek"]
        stop_server(a)  # politely, as a rolling restart does: its pages close first
        assert watcher.until("gone", seek=alone)["seek"] == alone
        assert [row.id for row in open_seeks(url)] == [seek]  # kept: its poster is still in the lobby on B
        on_b.close()
        assert watcher.until("gone", seek=seek)["seek"] == seek
        assert open_seeks(url) == []
    finally:
        stop_server(a)
        stop_server(b)
