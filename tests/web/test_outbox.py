"""A connection's outbox (web/core/common.py): answers are never dropped, views are replaced by newer
ones (the newest always arrives), and a page that lets answers pile up is marked to be closed."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ogames.web.core.common import Outbox


def drained(outbox: Outbox) -> list[dict]:
    out = []
    while not outbox.empty():
        out.append(outbox.get_nowait())
    return out


@given(st.lists(st.sampled_from(["answer", "view"]), max_size=60))
def test_every_answer_is_sent_in_order_and_only_the_newest_view_after_the_last_one_sent(kinds: list[str]) -> None:
    outbox = Outbox()
    for number, kind in enumerate(kinds):
        if kind == "answer":
            outbox.answer({"type": "pong", "n": number})
        else:
            outbox.show({"type": "state", "version": number})
    sent = drained(outbox)
    answers = [m["n"] for m in sent if m["type"] == "pong"]
    views = [m["version"] for m in sent if m["type"] == "state"]
    assert answers == [n for n, kind in enumerate(kinds) if kind == "answer"]
    shown = [n for n, kind in enumerate(kinds) if kind == "view"]
    assert views == shown[-1:]  # nothing was sent meanwhile: the newest view alone
    assert not outbox.overflowed


def test_a_view_sent_already_is_not_taken_back_and_the_next_one_follows() -> None:
    outbox = Outbox()
    outbox.show({"type": "state", "version": 1})
    assert outbox.get_nowait()["version"] == 1
    outbox.answer({"type": "pong"})
    outbox.show({"type": "state", "version": 2})
    outbox.show({"type": "state", "version": 3})
    assert drained(outbox) == [{"type": "pong"}, {"type": "state", "version": 3}]


def test_a_page_that_lets_its_answers_pile_up_is_marked_for_closing() -> None:
    outbox = Outbox(limit=5)
    for _ in range(5):
        outbox.answer({"type": "pong"})
        outbox.show({"type": "state"})  # views do not count: only the newest is kept
    assert not outbox.overflowed
    outbox.answer({"type": "pong"})
    assert outbox.overflowed
    outbox.answer({"type": "pong"})
    assert len(drained(outbox)) == 7  # nothing more is queued once it is to be closed


def test_get_waits_for_the_next_message() -> None:
    async def scenario() -> dict:
        outbox = Outbox()
        waiting = asyncio.ensure_future(outbox.get())
        await asyncio.sleep(0)
        assert not waiting.done()
        outbox.answer({"type": "pong"})
        return await asyncio.wait_for(waiting, 5)

    assert asyncio.run(scenario()) == {"type": "pong"}
    with pytest.raises(asyncio.QueueEmpty):
        Outbox().get_nowait()
