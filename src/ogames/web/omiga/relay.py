"""Omiga's tables across server processes: one process referees a table, the others relay to it.

A real-time table needs one referee with one clock, so it cannot be played on several copies the
way a board game is (web/core/bus.py). With Redis (`--redis`), every table has an **owner**: the
process that holds the lease `ogames:omiga-owner:ID` (`SET NX PX`, renewed every lease/4 while
it holds the table). Only the owner runs the rules, the clock, the signal and the bots. Any other
process with a page on the table holds a **mirror**: the table as the database has it, with the
seats' token digests, and the owner's newest view.

- A page's action on a mirror is checked there (the seat's token against the digests read from
  the database: tokens never cross Redis) and sent to the owner on `ogames:omiga:ID:in` as
  `{"kind": "act", "seat", "seq", "action", "worker", "rid"}`; the owner judges it at its
  arrival on the owner's clock, exactly as its own pages' actions, and answers on
  `ogames:omiga:ID:out` (`{"kind": "answer", "to", "rid", "answer"}`: the verdict or the
  refusal). A mirror that hears nothing in `ANSWER_SECONDS` refuses the action as `unavailable`.
- Every view the owner draws is published on `ogames:omiga:ID:out` (`{"kind": "view", ...}`);
  each mirror sends it to its pages. A new mirror asks for one (`{"kind": "hello"}`).
- Who is at the table is shared through `web/core/presence.py`: the owner starts the clock when every
  person's seat has a page open on any process.
- If the owner dies its lease lapses; a mirror that still has pages claims the table every lease/3
  and, once it wins, rebuilds the table from the database, the restart recovery: the table waits
  for its people and the clock resumes at the last stored action. An action the dead owner had
  acknowledged was stored first, so it is there; one it had not answered may or may not be.
- An owner that finds its lease taken (it stalled past the lease) steps down to a mirror.

One process alone has no relay at all (`OmigaHub.relay` is None): no Redis, no lease, no copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any, Protocol

from ogames.web.core.background import Background, listen
from ogames.web.core.bus import RedisBus
from ogames.web.core.common import Refusal
from ogames.web.omiga.table import LiveTable
from ogames.wording import as_json, from_json, say


class TableHub(Protocol):
    """What the relay needs of the hub it works for (`omiga.live.OmigaHub`): its tables, and the
    referee's steps it asks for. (A protocol, so the relay does not import the hub that imports it.)"""

    tables: dict[str, LiveTable]

    async def judge(self, live: LiveTable, seat: int, seq: int, action: str) -> dict[str, Any]: ...

    async def announce(self, live: LiveTable) -> None: ...

    async def relayed(self, live: LiveTable, views: dict[str, dict[str, Any]]) -> None: ...

    async def take_over(self, live: LiveTable) -> bool: ...

    def step_down(self, live: LiveTable) -> None: ...

log = logging.getLogger("ogames.web")

CHANNEL = "ogames:omiga:"  # + table id + ":in" (to its owner) or ":out" (from it)
OWNER_KEY = "ogames:omiga-owner:"  # + table id: the process that referees the table
ANSWER_SECONDS = 5.0  # how long a mirror waits for the owner's verdict on an action


class OmigaRelay:
    """The Redis side of Omiga's tables for one server process (see the module's text)."""

    def __init__(self, bus: RedisBus):
        self.bus, self.redis, self.worker = bus, bus.redis, bus.worker
        self.lease_seconds = bus.lease_seconds
        self.hub: TableHub | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._side = Background("omiga relay")

    async def start(self, hub: TableHub) -> None:
        """Begin listening for the tables' messages on behalf of a hub."""
        self.hub = hub
        self._side.spawn(self._listen(), name="ogames-omiga-relay")

    # ----- ownership ---------------------------------------------------------------------------

    async def adopt(self, live: LiveTable) -> bool:
        """A table the hub just built: referee it here if no process does (True), else make it a
        mirror of its owner (False)."""
        if await self._claim(live.id):
            self._side.spawn(self._hold(live))
            return True
        live.remote = True
        self._side.spawn(self._watch(live))
        await self._send(live.id, "in", {"kind": "hello"})
        return False

    async def _claim(self, table_id: str) -> bool:
        try:
            won = await self.redis.set(OWNER_KEY + table_id, self.worker, nx=True, px=self._lease_ms)
            # Already this process's (a table dropped from memory and opened again within its lease).
            won = won or await self.bus.renew(OWNER_KEY + table_id, self._lease_ms)
        except Exception as exc:  # no Redis: referee it here; the database's version check stays the last word
            log.warning("omiga relay: could not claim table %s (%s); refereeing it here", table_id, type(exc).__name__)
            return True
        return bool(won)

    @property
    def _lease_ms(self) -> int:
        return int(self.lease_seconds * 1000)

    async def _hold(self, live: LiveTable) -> None:
        """Renew an owned table's lease while it is held here; step down if another took it."""
        hub = self.hub
        assert hub is not None
        while True:  # (the hub remembers the table just after adopting it)
            await asyncio.sleep(self.lease_seconds / 4)
            if hub.tables.get(live.id) is not live or live.remote:
                break
            try:
                renewed = await self.bus.renew(OWNER_KEY + live.id, self._lease_ms)
            except Exception as exc:  # the lease may lapse; the database refuses a second referee's stale action
                log.warning("omiga relay: could not renew table %s (%s)", live.id, type(exc).__name__)
                continue
            if not renewed:
                log.warning("omiga table %s: another process referees it now; this one relays", live.id)
                hub.step_down(live)
                self._side.spawn(self._watch(live))
                await self._send(live.id, "in", {"kind": "hello"})
                return
        if live.id not in hub.tables:  # dropped from memory: let another process have it
            with contextlib.suppress(Exception):
                await self.bus.release(OWNER_KEY + live.id)

    async def _watch(self, live: LiveTable) -> None:
        """A mirror: take the table over when its owner's lease lapses (while pages are open here)."""
        hub = self.hub
        assert hub is not None
        while True:  # (the hub remembers the table just after adopting it)
            await asyncio.sleep(self.lease_seconds / 3)
            if hub.tables.get(live.id) is not live or not live.remote:
                return
            if not live.watchers:  # nobody here: forget the mirror (the next page rebuilds it)
                hub.tables.pop(live.id, None)
                return
            if await self._claim(live.id):
                log.info("omiga table %s: its referee is gone; this process takes it over", live.id)
                if await hub.take_over(live):
                    self._side.spawn(self._hold(live))
                return

    # ----- a mirror's side ---------------------------------------------------------------------

    async def forward(self, live: LiveTable, token: str, seq: int, action: str) -> dict[str, Any]:
        """A page's action on a mirror: its seat checked here, judged by the owner; the verdict."""
        seat = live.seat_of(token)
        if seat is None:
            raise Refusal(say("bad-token", "that token holds no seat in this game"), "bad-token", 403)
        rid = secrets.token_hex(8)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = answer
        try:
            await self._send(live.id, "in", {"kind": "act", "seat": seat, "seq": seq, "action": action, "rid": rid})
            reply = await asyncio.wait_for(answer, ANSWER_SECONDS)
        except (TimeoutError, OSError):
            raise Refusal(say("referee-silent",
                              "the table's referee did not answer (its server may have stopped): try again in a moment"),
                          "unavailable", 503) from None
        finally:
            self._waiting.pop(rid, None)
        refusal = reply.get("refusal")
        if refusal is not None:
            raise Refusal(from_json(refusal["message"]), str(refusal["code"]), int(refusal["status"]))
        verdict = dict(reply["verdict"])
        verdict["reason"] = from_json(verdict.get("reason", ""))
        return verdict

    # ----- an owner's side ---------------------------------------------------------------------

    async def show(self, live: LiveTable, views: dict[str, dict[str, Any]]) -> None:
        """Publish the owner's new view of a table, in every language, for the mirrors' pages."""
        await self._send(live.id, "out", {"kind": "view", "views": views})

    async def _judge(self, live: LiveTable, data: dict[str, Any]) -> None:
        hub = self.hub
        assert hub is not None
        try:
            verdict = await hub.judge(live, int(data["seat"]), int(data["seq"]), str(data["action"]))
            answer: dict[str, Any] = {"verdict": {**verdict, "reason": as_json(verdict.get("reason", ""))}}
        except Refusal as refusal:
            answer = {"refusal": {"message": as_json(refusal.message), "code": refusal.code, "status": refusal.status}}
        await self._send(live.id, "out", {"kind": "answer", "to": data["worker"], "rid": data["rid"], "answer": answer})

    # ----- messages ----------------------------------------------------------------------------

    async def _send(self, table_id: str, way: str, message: dict[str, Any]) -> None:
        try:
            await self.redis.publish(f"{CHANNEL}{table_id}:{way}", json.dumps({"worker": self.worker, **message}))
        except Exception as exc:  # a lost view is redrawn at the next action; a lost act times out
            log.warning("omiga relay: could not publish to table %s (%s)", table_id, type(exc).__name__)
            if message.get("kind") == "act":
                raise OSError("Redis did not take the message") from exc

    async def _listen(self) -> None:
        async def again() -> None:  # views may have been missed: ask every owner again
            for live in list(self.hub.tables.values() if self.hub else ()):
                if live.remote:
                    await self._send(live.id, "in", {"kind": "hello"})

        await listen(self.redis, CHANNEL + "*", self._dispatch, "omiga relay", again)

    def _dispatch(self, message: dict[str, Any]) -> None:
        if message.get("type") != "pmessage" or self.hub is None:
            return
        try:
            channel = message["channel"].decode() if isinstance(message["channel"], bytes) else str(message["channel"])
            table_id, way = channel.removeprefix(CHANNEL).rsplit(":", 1)
            data = json.loads(message["data"])
            sender, kind = data["worker"], data["kind"]
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("omiga relay: a message that is not ours was ignored")
            return
        live = self.hub.tables.get(table_id)
        if way == "out" and kind == "answer":
            waiting = self._waiting.get(str(data.get("rid"))) if data.get("to") == self.worker else None
            if waiting is not None and not waiting.done():
                waiting.set_result(data.get("answer") or {})
        elif sender == self.worker or live is None:
            return
        elif way == "out" and kind == "view" and live.remote:
            self._side.spawn(self.hub.relayed(live, data.get("views") or {}))
        elif way == "in" and not live.remote and kind == "hello":
            self._side.spawn(self.hub.announce(live))
        elif way == "in" and not live.remote and kind == "act":
            self._side.spawn(self._judge(live, data))

    async def close(self) -> None:
        """Stop listening; give up the tables owned here (so others take them over at once)."""
        await self._side.close()
        for table_id, live in list(self.hub.tables.items() if self.hub else ()):
            if not live.remote:
                with contextlib.suppress(Exception):
                    await self.bus.release(OWNER_KEY + table_id)


__all__ = ["ANSWER_SECONDS", "OmigaRelay"]
