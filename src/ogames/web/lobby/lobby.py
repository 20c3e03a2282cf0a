"""The lobby: open seeks, listed live on every lobby page of every server process.

Each process keeps its own lobby pages (an `Outbox` each, as a game's pages have). What one process
does to the seeks — a seek posted, withdrawn or accepted — it stores first (web/lobby/records.py)
and then spreads: to its own pages, and on the Redis channel `ogames:lobby` to the other processes,
which pass it on to theirs (one process alone: nothing to publish). The database decides who wins a
seek: accepting deletes its row, and only the one deletion that finds it makes the game.

Seat tokens never cross Redis and are never stored: the page that posts a seek is given the token
of the seat it will sit in at once (its browser keeps it), and the seek keeps only its digest; the
game made when someone accepts gives that seat the digest (`Hub.create(…, given=…)`) and the
acceptor's page a new token of its own. The poster's pages are told which game and seat
(`matched`) and go there with the token their browser holds.

Quick pairing is decided by the database too: a player who presses "play now" first accepts the
closest waiting quick seek that fits; if none is waiting, their own quick seek is stored and then
they look once more, for a fitting one posted meanwhile (perhaps by someone who pressed at the same
moment on another process and found nothing either), and take the two seeks together
(`records.take_pair`): of two players each taking the other's, one takes both and the other finds
theirs gone — one game, nobody left waiting beside a seek that fits.

What a visitor may post is bounded twice: `MAX_SEEKS` open at once (seeks and challenges, held by
the database whichever process they were posted through), and `Settings.seek_burst` posted in any
`seek_burst / seek_rate` seconds (`ClientLimits`, counted in Redis when the processes share one),
so that posting and cancelling in a loop cannot flood every lobby page nor a challenged player.

A seek is withdrawn when its poster cancels it, or when the last of the poster's lobby pages
closes — on any process: each process counts a visitor's lobby pages open on it in Redis
(`ogames:lobby-pages:VISITOR`, a count per process), and when the last of them on the process a seek
was posted through closes while the visitor still has one open on another live process, the seek is
handed over to that process (its `worker`), which withdraws it when the visitor's pages there close
— or when that process stops; a process killed without a
word stops renewing its lease (`ogames:lobby-worker:ID`), and the others withdraw its seeks when
they next read the seeks after the lease lapsed.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import ogames
from ogames.errors import shown
from ogames.ratings import RatingStore, pool_of
from ogames.ratings.model import Rating
from ogames.web.accounts import records as accounts
from ogames.web.accounts.names import name_key
from ogames.web.accounts.visitor import Visitor
from ogames.web.boards.hub import HUMAN, INVITED, Hub, checked_game
from ogames.web.chat.bans import refuse_if_banned
from ogames.web.core.background import Background, from_others, listen
from ogames.web.core.bus import Bus, RedisBus
from ogames.web.core.common import Refusal, options_text, refused, worded
from ogames.web.core.store import digest
from ogames.web.core.store_faults import StorageError
from ogames.web.limits import ClientLimits
from ogames.web.lobby import records
from ogames.web.lobby.listing import Reading
from ogames.web.lobby.news import BEHIND, News, NewsOutbox, written
from ogames.web.lobby.protocol import SeekMessage
from ogames.web.lobby.records import Seek
from ogames.web.ratings.rules import rated_refusal
from ogames.wording import say

log = logging.getLogger("ogames.web")

CHANNEL = "ogames:lobby"
PAGES_KEY = "ogames:lobby-pages:"  # + visitor id: a hash, process -> that visitor's lobby pages open there
PAGES_KEPT = 86400 * 1000  # ms a visitor's count lives after its last change (a killed process's is ignored)
ALIVE_KEY = "ogames:lobby-worker:"  # + process: held (with a lease) while the process that posted seeks lives
MAX_SEEKS = 3  # open seeks a visitor may have at once (the first defence against a flood)

SEEK_GONE = say("seek-gone", "this seek is no longer open (someone accepted it, or it was withdrawn)")
OWN_SEEK = say("own-seek", "this is your own seek: wait for someone else to accept it")
TOO_MANY = say("too-many-seeks", "you have {n} open seeks already: cancel one first", n=MAX_SEEKS)
LOBBY_SEATS = [HUMAN, INVITED]  # a lobby game's seats: its poster's (as a creator's) and the acceptor's
TWO_PLAYERS = say("lobby-two-players", "the lobby pairs two players: a table of more is made by invitation links")

TITLES = {game["name"]: game["title"] for game in ogames.games()}


@dataclass
class LobbyPage:
    """One open lobby page: who is at it, in which language, and what it has yet to be sent."""

    visitor: Visitor
    language: str
    # A page of the site other than the lobby (its header): shown only the challenges to its visitor,
    # and not one of the poster's lobby pages that keep their seeks open.
    challenges_only: bool = False
    address: str | None = None  # the client's (a guest is refused seeks from an address an operator banned)
    outbox: NewsOutbox = field(default_factory=NewsOutbox)
    # While the whole list is being read for it (`Lobby._refresh`), the news heard meanwhile waits
    # here, to be sent after the list; `stale` if too much came to keep (the list is read again).
    refreshing: bool = True
    held: list[News] = field(default_factory=list)
    stale: bool = False

    def lists(self, public: dict[str, Any]) -> bool:
        """Whether this page lists a seek (as it crosses processes)."""
        if self.challenges_only:
            return public.get("target_id") == self.visitor.id
        return visible(public, self.visitor.id)


Deliver = Callable[[dict[str, Any]], Awaitable[None]]


class Lobby:
    """This process's part of the lobby (its pages), over the store's seeks and the bus."""

    def __init__(self, hub: Hub, bus: Bus, posts: ClientLimits):
        self.hub = hub
        self.posts = posts  # seeks and challenges a visitor may post in a while, whatever the process
        self.store = hub.store
        self.ratings = RatingStore(hub.store.engine)
        self.redis: Any = bus.redis if isinstance(bus, RedisBus) else None
        self.lease_seconds = bus.lease_seconds
        self.worker = bus.worker if isinstance(bus, RedisBus) else secrets.token_hex(6)
        self.pages: dict[int, LobbyPage] = {}
        self._numbers = itertools.count(1)
        self._side = Background("lobby")
        self._heard_count = 0  # deliveries of news to this process's pages so far
        # The open seeks read for pages' whole lists, kept until the next news (web/lobby/listing.py).
        self._reading: Reading | None = None
        # With other processes, their news may be lost and their deaths are found out by reading.
        self._reading_kept_for = None if self.redis is None else self.lease_seconds / 3

    async def start(self) -> None:
        """Listen to the other processes; one process alone starts with an empty lobby (the pages
        that posted the seeks it finds are gone with the process that served them)."""
        if self.redis is None:
            await asyncio.to_thread(records.withdraw_all, self.store)
        else:
            self._side.spawn(listen(self.redis, CHANNEL, self._heard, "lobby"), name="ogames-lobby")
            self._side.spawn(self._live_on(), name="ogames-lobby-alive")

    async def _live_on(self) -> None:
        """Say this process is alive (a key with a lease, renewed every third of it): the seeks of a
        process killed without a word are withdrawn by the others once its lease lapses."""
        while True:
            try:
                await self.redis.set(ALIVE_KEY + self.worker, "1", px=int(self.lease_seconds * 1000))
            except Exception as exc:  # Redis away: the others keep this process's seeks until it lapses
                log.warning("lobby: could not renew this process's lease (%s)", type(exc).__name__)
            await asyncio.sleep(self.lease_seconds / 3)

    async def _alive(self, seeks: list[Seek]) -> list[Seek]:
        """The seeks whose posting process is alive; those of a process whose lease lapsed are
        withdrawn (every page told). One process alone: all of them."""
        others = sorted({seek.worker for seek in seeks} - {self.worker})
        if self.redis is None or not others:
            return seeks
        try:
            held = await self.redis.mget([ALIVE_KEY + worker for worker in others])
        except Exception:
            return seeks  # cannot tell: list them all
        dead = {worker for worker, alive in zip(others, held, strict=True) if alive is None}
        for worker in dead:
            log.info("lobby: withdrawing the seeks of process %s, whose lease lapsed", worker)
            for seek_id in await asyncio.to_thread(records.withdraw_worker, self.store, worker):
                await self._spread({"kind": "gone", "seek": seek_id})
        return [seek for seek in seeks if seek.worker not in dead]

    async def close(self) -> None:
        """Withdraw the seeks posted through this process (their pages are closing) and stop."""
        await self._side.close()
        self.pages.clear()  # (closing with the process: not told of the seeks withdrawn now)
        try:
            for seek_id in await asyncio.to_thread(records.withdraw_worker, self.store, self.worker):
                await self._spread({"kind": "gone", "seek": seek_id})
            if self.redis is not None:
                await self.redis.delete(ALIVE_KEY + self.worker)
        except Exception as exc:  # stopping: the lease lapses by itself
            log.warning("lobby: could not withdraw this process's seeks on stopping (%s)", type(exc).__name__)

    # ----- pages ------------------------------------------------------------------------------

    async def join(self, visitor: Visitor, language: str, challenges_only: bool = False,
                   address: str | None = None) -> tuple[int, LobbyPage]:
        """A lobby page opened: it is sent every open seek it lists (`_refresh`), then the news."""
        number = next(self._numbers)
        page = LobbyPage(visitor, language, challenges_only, address)
        self.pages[number] = page
        if not challenges_only:
            await self._count_page(visitor.id, +1)
        try:
            await self._refresh(number, page)
        except BaseException:
            await self.leave(number)
            raise
        return number, page

    async def _refresh(self, number: int, page: LobbyPage) -> None:
        """Send a page the whole list as it is now (it has just opened, or fell too far behind to
        be sent the news it missed). The news heard while the list is read waits and follows it:
        the list read may or may not show it, and the page's script applies a seek's coming and going
        to the list either way alike. A page the news flooded meanwhile has the list read again."""
        while self.pages.get(number) is page:
            page.refreshing, page.held, page.stale = True, [], False
            listing = await self._listing(page, self._heard_count)
            if not page.stale:
                page.outbox.drop_news()
                page.outbox.news(listing)
                for item in page.held:
                    page.outbox.news(item)
                page.refreshing, page.held = False, []
                return

    async def _listing(self, page: LobbyPage, since: int) -> News:
        """The whole list a page is shown, as the seeks are once `since` deliveries of news were
        heard, written. The lobby may hold hundreds of seeks: a page's header reads only the
        challenges to its visitor; the lobby's pages share one reading until the next news, and
        those whose visitor has no seek in it one written list per language (web/lobby/listing.py).
        Reading and writing happen off the event loop, where they would hold up every game's moves."""
        if page.challenges_only:
            seeks = await self._alive(await asyncio.to_thread(records.open_seeks, self.store, page.visitor.id))
            return await asyncio.to_thread(self._written_list, page, seeks)
        reading = self._open_seeks(since)
        seeks = await asyncio.shield(reading.seeks)
        if reading.involves(page.visitor.id):
            return await asyncio.to_thread(self._written_list, page, seeks)
        return await reading.shared(page.language, lambda: asyncio.to_thread(self._written_list, page, seeks))

    def _written_list(self, page: LobbyPage, seeks: list[Seek]) -> News:
        """The seeks a page lists, as it is shown them, written (blocking: run it off the event loop)."""
        shown = [for_page(public, page) for seek in seeks if page.lists(public := self._public(seek))]
        return written({"type": "seeks", "seeks": shown})

    def _open_seeks(self, since: int) -> Reading:
        """Every open seek of a live process, read after `since` deliveries of news: the last reading
        if nothing has happened since it began (`Reading.serves`), or a new one."""
        if self._reading is None or not self._reading.serves(since, self._reading_kept_for):
            async def read() -> list[Seek]:
                return await self._alive(await asyncio.to_thread(records.open_seeks, self.store))

            self._reading = Reading(self._heard_count, asyncio.ensure_future(read()))
        return self._reading

    async def _refresh_behind(self, number: int, page: LobbyPage) -> None:
        """`_refresh` a page that fell behind (on the side; tried again a moment later while the
        seeks cannot be read)."""
        while True:
            try:
                await self._refresh(number, page)
                return
            except StorageError as exc:
                log.warning("lobby: could not list the seeks again for a page that fell behind (%s)", exc)
                await asyncio.sleep(1.0)

    async def leave(self, number: int) -> None:
        """A lobby page closed: the last of its visitor's here withdraws the seeks posted here."""
        page = self.pages.pop(number, None)
        if page is None or page.challenges_only:
            return
        visitor_id = page.visitor.id
        await self._count_page(visitor_id, -1)
        if any(other.visitor.id == visitor_id and not other.challenges_only for other in self.pages.values()):
            return
        try:
            heir = await self._heir(visitor_id)
            if heir is not None:
                # Handed over first, then the heir asked again: if its last page closed meanwhile, it
                # either saw the seeks as its own when it withdrew them, or is seen here with none.
                moved = await asyncio.to_thread(records.hand_over, self.store, visitor_id, self.worker, heir)
                if not moved or await self._pages_on(heir, visitor_id) > 0:
                    return
            gone = await asyncio.to_thread(records.withdraw, self.store, visitor_id, heir or self.worker)
        except StorageError as exc:
            log.warning("lobby: could not withdraw the seeks of a visitor who left (%s)", exc)
            return
        for seek_id in gone:
            await self._spread({"kind": "gone", "seek": seek_id})

    async def _count_page(self, visitor_id: str, change: int) -> None:
        """Count a visitor's lobby page opened (+1) or closed (-1) on this process, in Redis."""
        if self.redis is None:
            return
        key = PAGES_KEY + visitor_id
        try:
            if await self.redis.hincrby(key, self.worker, change) <= 0:
                await self.redis.hdel(key, self.worker)
            await self.redis.pexpire(key, PAGES_KEPT)
        except Exception as exc:  # not counted: a seek may be withdrawn while another process shows its poster's page
            log.warning("lobby: could not count a lobby page (%s)", type(exc).__name__)

    async def _pages_on(self, worker: str, visitor_id: str) -> int:
        """A visitor's lobby pages open on a process (0 if Redis cannot say)."""
        try:
            return int(await self.redis.hget(PAGES_KEY + visitor_id, worker) or 0)
        except Exception:
            return 0

    async def _heir(self, visitor_id: str) -> str | None:
        """Another live process where the visitor still has a lobby page open (their seeks posted
        here go to it), or None: one process alone, none, or Redis cannot say."""
        if self.redis is None:
            return None
        try:
            counts = await self.redis.hgetall(PAGES_KEY + visitor_id)
            others = sorted(worker.decode() for worker, count in counts.items()
                            if worker.decode() != self.worker and int(count) > 0)
            if not others:
                return None
            held = await self.redis.mget([ALIVE_KEY + worker for worker in others])
        except Exception as exc:
            log.warning("lobby: could not ask where a visitor's other lobby pages are (%s)", type(exc).__name__)
            return None
        return next((worker for worker, alive in zip(others, held, strict=True) if alive is not None), None)

    # ----- what pages ask --------------------------------------------------------------------------

    async def post(self, page: LobbyPage, message: SeekMessage) -> None:
        """Post a seek: this page alone is told its id and the poster's seat token (before the news
        of the seek reaches every page, its own included)."""
        visitor = page.visitor
        if not await self.posts.allow(visitor.id):
            raise Refusal(say("seeking-too-fast", "you are posting seeks too fast: wait a moment"), "rate-limited", 429,
                          retry_after=await self.posts.wait(visitor.id))
        await refuse_if_banned(self.store, visitor, page.address, self.hub.settings.guest_ban_hours)
        request = message.new_game()
        name, game = await checked_game(request)  # the new game's checks: the game, its options, real time
        if game.seat_count != 2:
            raise Refusal(TWO_PLAYERS, "bad-seat")
        pool = pool_of(name, game.options)
        if message.rated and (refusal := rated_refusal(game, LOBBY_SEATS, visitor)) is not None:
            raise refusal  # (a guest, or a game played casual only: web/ratings/rules.py)
        held = await self._held(visitor, pool.name if pool else None)
        rating = held.rating
        target = await self._challenged(visitor, message.to) if message.to is not None else None
        settled = dict(game.jsonable_options())
        if message.quick and await self._pair(page, message, settled, rating):
            return
        token = secrets.token_urlsafe(32)
        seek = Seek(secrets.token_urlsafe(9), visitor.id, visitor.name, self.worker, name,
                    {**message.stored(), "game": name, "settled": dict(game.jsonable_options()),
                     "to": None if target is None else target.name, "provisional": held.provisional},
                    message.rated, rating, message.min, message.max, digest(token), time.time(),
                    None if target is None else target.id, None if target is None else target.name)
        if not await asyncio.to_thread(records.add, self.store, seek, MAX_SEEKS):
            raise Refusal(TOO_MANY, "too-many-seeks", 429)
        log.info("lobby: seek %s posted (%s)", seek.id, name)
        page.outbox.answer({"type": "posted", "seek": seek.id, "token": token})
        await self._spread({"kind": "new", "seek": self._public(seek)})
        if message.quick:  # someone may have pressed "play now" meanwhile, and found nobody waiting either
            await self._pair(page, message, settled, rating, own=seek.id)

    async def accept(self, page: LobbyPage, seek_id: str, own: str | None = None) -> dict[str, Any]:
        """Accept a seek: the game is made and this page is sent to its seat. `own`: one's own quick
        seek, taken together with it (both or neither: quick pairing)."""
        visitor = page.visitor
        seek = await asyncio.to_thread(records.find, self.store, seek_id)
        if seek is None or not await self._alive([seek]):
            raise Refusal(SEEK_GONE, "seek-gone", 404)
        if not seek.seen_by(visitor.id):
            raise Refusal(SEEK_GONE, "seek-gone", 404)  # a challenge to someone else: not there for this visitor
        if seek.poster_id == visitor.id:
            raise Refusal(OWN_SEEK, "own-seek", 403)
        # Accepting makes a game: refused to a banned name, and to a guest from a banned address.
        await refuse_if_banned(self.store, visitor, page.address, self.hub.settings.guest_ban_hours)
        poster_seat = secrets.randbelow(2)
        mine = 1 - poster_seat
        asked = {key: seek.request.get(key) for key in ("game", "options", "clock", "days")}
        request = SeekMessage.model_validate({"type": "seek", **asked, "rated": seek.rated}).new_game(poster_seat)
        if seek.rated:
            _, game = await checked_game(request)
            if (refusal := rated_refusal(game, LOBBY_SEATS, visitor)) is not None:
                raise refusal  # a rated seek is accepted by an account only
        pool = pool_of(seek.game, seek.request.get("settled", {}))
        rating = await self._rating(visitor, pool.name if pool else None)
        if not seek.admits(rating):
            raise Refusal(say("rating-out-of-range", "your rating {rating} is outside this seek's range", rating=round(rating)),
                          "out-of-range", 403)
        taken = (await asyncio.to_thread(records.take, self.store, seek_id) if own is None
                 else await asyncio.to_thread(records.take_pair, self.store, own, seek_id))
        if not taken:
            raise Refusal(SEEK_GONE, "seek-gone", 404)  # another acceptor's deletion came first
        for gone in (seek_id,) if own is None else (seek_id, own):
            await self._spread({"kind": "gone", "seek": gone})
        poster = Visitor(seek.poster_id, seek.poster_name, is_guest=not seek.poster_id.startswith("a"))
        live, tokens = await self.hub.create(request, visitor=poster, given={poster_seat: seek.digest})

        def record_seats() -> None:
            accounts.seat_player(self.store, live.id, poster_seat, seek.poster_id)
            accounts.seat_player(self.store, live.id, mine, visitor.id)

        await asyncio.to_thread(record_seats)
        log.info("lobby: seek %s accepted: game %s", seek_id, live.id)
        await self._spread({"kind": "matched", "seek": seek_id, "poster": seek.poster_id, "game": live.id, "seat": poster_seat})
        return {"type": "go", "game": live.id, "seat": mine, "url": f"/g/{live.id}#seats={mine}.{tokens[mine]}"}

    async def _pair(self, page: LobbyPage, message: SeekMessage, settled: dict[str, Any], rating: float,
                    own: str | None = None) -> bool:
        """Quick pairing: accept the waiting quick seek that fits (the same game, options, time control
        and rated or not, each player within the other's range, not one's own) whose poster's rating
        is closest to this player's; False if none is waiting (or each was taken first). `own`: this
        player's quick seek, stored already, taken with the other (or left waiting); True, stopping,
        if it is gone meanwhile (someone took it: its poster's pages are told `matched`)."""
        wanted = (settled, message.stored()["clock"], message.days, message.rated)
        mine = Seek("", page.visitor.id, "", "", "", {}, message.rated, rating, message.min, message.max, "", 0.0)
        waiting = [
            seek for seek in await self._alive(await asyncio.to_thread(records.open_seeks, self.store))
            if seek.request.get("quick") and seek.target_id is None and seek.poster_id != page.visitor.id
            and seek.admits(rating) and mine.admits(seek.rating)
            and (seek.request.get("settled"), seek.request.get("clock"), seek.request.get("days"), seek.rated) == wanted
        ]
        for seek in sorted(waiting, key=lambda seek: (abs(seek.rating - rating), seek.created_at)):
            try:
                page.outbox.answer(await self.accept(page, seek.id, own))
                return True
            except Refusal:
                if own is not None and await asyncio.to_thread(records.find, self.store, own) is None:
                    return True  # someone took this player's own seek meanwhile: paired by them
                continue  # taken by someone else meanwhile: the next closest
        return False

    async def cancel(self, page: LobbyPage, seek_id: str) -> dict[str, Any] | None:
        """Withdraw one's own seek (someone else's is not touched: nothing happens)."""
        gone = await asyncio.to_thread(records.withdraw, self.store, page.visitor.id, None, seek_id)
        if not gone:
            return refused(SEEK_GONE, "seek-gone")
        await self._spread({"kind": "gone", "seek": seek_id})
        return None

    async def decline(self, page: LobbyPage, seek_id: str) -> dict[str, Any] | None:
        """Decline a challenge to oneself: it goes from both players' pages."""
        if not await asyncio.to_thread(records.decline, self.store, page.visitor.id, seek_id):
            return refused(SEEK_GONE, "seek-gone")
        await self._spread({"kind": "gone", "seek": seek_id})
        return None

    async def _challenged(self, visitor: Visitor, name: str) -> accounts.Account:
        """The account a challenge names (any case), not the challenger's own."""
        account = await asyncio.to_thread(accounts.account_by_key, self.store, name_key(name))
        if account is None:
            raise Refusal(say("no-such-player", "there is no player named {name}", name=shown(name)), "no-such-player", 404)
        if account.id == visitor.id:
            raise Refusal(say("challenge-yourself", "a challenge is to someone else"), "own-seek", 403)
        return account

    async def _rating(self, visitor: Visitor, pool: str | None) -> float:
        """A visitor's rating in a pool: a guest's (and any player's in a game not rated) is the start."""
        return (await self._held(visitor, pool)).rating

    async def _held(self, visitor: Visitor, pool: str | None) -> Rating:
        """A visitor's rating in a pool as of now (uncertain again if not played for long:
        `Rating.idle`): a guest's, and any player's in a game not rated, a new player's."""
        if pool is None or visitor.is_guest:
            return Rating()
        return await asyncio.to_thread(self.ratings.rating, visitor.id, pool)

    # ----- spreading what happened -------------------------------------------------------------------

    async def _spread(self, event: dict[str, Any]) -> None:
        """Tell this process's pages, then the other processes."""
        self._deliver(event)
        if self.redis is not None:
            try:
                await self.redis.publish(CHANNEL, json.dumps({"worker": self.worker, **event}))
            except Exception as exc:  # stored already: the other processes' pages see it when they open
                log.warning("lobby: could not publish (%s)", type(exc).__name__)

    def _heard(self, message: dict[str, Any]) -> None:
        try:
            found = from_others(message, CHANNEL, self.worker)
        except ValueError:
            log.warning("lobby: a message that is not ours was ignored")
            return
        if found is not None:
            self._deliver(found[1])

    def _deliver(self, event: dict[str, Any]) -> None:
        """Tell this process's pages what happened: news written once for every page shown it alike
        (a seek's words depend only on the page's language and whose it is)."""
        kind = event.get("kind")
        self._heard_count += 1
        news: dict[tuple[str, bool, bool], News] = {}
        for number, page in list(self.pages.items()):
            if kind == "new" and page.lists(seek := event["seek"]):
                whose = page.visitor.id
                alike = (page.language, seek.get("poster_id") == whose, seek.get("target_id") == whose)
                if alike not in news:
                    news[alike] = written({"type": "new", "seek": for_page(seek, page)})
                self._tell(number, page, news[alike])
            elif kind == "gone":
                if not news:
                    news[("", False, False)] = written({"type": "gone", "seek": event["seek"]})
                self._tell(number, page, news[("", False, False)])
            elif kind == "matched" and event.get("poster") == page.visitor.id:
                page.outbox.answer({"type": "matched", "seek": event["seek"], "game": event["game"], "seat": event["seat"]})

    def _tell(self, number: int, page: LobbyPage, item: News) -> None:
        """Queue news for a page; a page too far behind has its news dropped and is sent the whole
        list instead (never closed for it: it may be reading as fast as it can)."""
        if page.refreshing:
            page.held.append(item)
            if len(page.held) > BEHIND:
                page.held, page.stale = [], True  # the list being read is too old already: read it again
            return
        page.outbox.news(item)
        if page.outbox.news_waiting > BEHIND:
            page.outbox.drop_news()
            page.refreshing = True
            self._side.spawn(self._refresh_behind(number, page), name="ogames-lobby-refresh")

    @staticmethod
    def _public(seek: Seek) -> dict[str, Any]:
        """A seek as it crosses to other processes: what pages see, and its poster's id (to mark it
        as theirs; never sent to a page)."""
        return {**seek.shown(), "poster_id": seek.poster_id, "target_id": seek.target_id}


def visible(public: dict[str, Any], player_id: str) -> bool:
    """Whether a seek as it crosses processes is listed on a player's pages (a challenge: only the
    two players')."""
    return public.get("target_id") is None or player_id in (public.get("target_id"), public.get("poster_id"))


def for_page(public: dict[str, Any], page: LobbyPage) -> dict[str, Any]:
    """A seek as one page is shown it: whether it is its visitor's, the game's title and its
    options in the page's language (the poster's id stays on the server)."""
    shown = {key: value for key, value in public.items() if key not in ("poster_id", "target_id")}
    shown["mine"] = public.get("poster_id") == page.visitor.id
    shown["for_me"] = public.get("target_id") == page.visitor.id
    shown["title"] = TITLES.get(str(public.get("game")), str(public.get("game")))
    shown["text"] = options_worded(json.dumps(public.get("options") or {}), page.language)
    return shown


@functools.lru_cache(maxsize=4096)
def options_worded(options: str, language: str) -> str:
    """A seek's options in a language, worded once: a lobby of hundreds of seeks is listed again
    for every page that opens it, and wording them each time held up the moves (the community
    load, benchmarks/results/web-community-load.md). The options come as their JSON (in their order, which the wording keeps)."""
    return options_text(json.loads(options), language)


def answer_of(refusal: Refusal, language: str) -> dict[str, Any]:
    """A refusal as a lobby page's answer, in its language."""
    return worded(refused(refusal.message, refusal.code), language)


__all__ = ["CHANNEL", "MAX_SEEKS", "Lobby", "LobbyPage", "answer_of", "for_page", "visible"]
