"""Puzzles across two server processes behind one PostgreSQL and one Redis (docs/web.md,
"Puzzles"): a visitor's first try, failed on one process, is the one rated — solving the puzzle
afterwards on the other changes nothing — and both show the same ratings and the same puzzle of
the day; hostile bodies sent to either are refused with a 4xx and leave no traceback in the logs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from sqlalchemy import create_engine, func, select

from ogames.ratings.puzzles import puzzle_attempts
from ogames.teach.puzzles import PuzzleSet
from ogames.web.core.settings import PUZZLES_ENV

from .scaling import needs_services, two_servers
from .serving import TEST_DAY
from .test_puzzles import FIXTURE, LONG

pytestmark = pytest.mark.slow

HOSTILE: list[Any] = [
    {"moves": ["d4"] * 1001}, {"moves": [["d4"]]}, {"moves": ["d4", None]}, {"moves": ["\u0000"]}, {"moves": ["ф" * 24]},
    {"moves": ["d4"], "extra": 1}, [], "d4", {"moves": [{"$gt": ""}]}, {"moves": ["d4", "a1", "f1", "d4", "a1", "f1"]},
]


@needs_services
def test_a_first_try_counts_once_across_processes(services: tuple[Any, Any], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PUZZLES_ENV, str(FIXTURE))
    with two_servers(services, tmp_path, "puzzles_across") as (url, base_a, base_b):
        guest = httpx.Client(timeout=60)
        page = guest.get(f"{base_a}/puzzles/{LONG}").text  # the guest's session, signed by the site's one secret
        token = re.search(r'name="csrf-token" content="([^"]+)"', page)
        assert token
        headers_a = {"origin": base_a, "x-csrftoken": token.group(1)}
        wrong = guest.post(f"{base_a}/api/puzzles/{LONG}/attempt", json={"moves": ["a1"]}, headers=headers_a).json()
        assert wrong["result"] == "wrong" and wrong["rated"]["solved"] is False
        on_b = guest.get(f"{base_b}/api/puzzles/{LONG}").json()
        assert on_b["first_try"] is False and on_b["player"] == wrong["rated"]["player"]
        token_b = re.search(r'name="csrf-token" content="([^"]+)"', guest.get(f"{base_b}/puzzles/{LONG}").text)
        assert token_b
        headers_b = {"origin": base_b, "x-csrftoken": token_b.group(1)}
        solved = guest.post(f"{base_b}/api/puzzles/{LONG}/attempt", json={"moves": ["d4", "a1", "f1"]}, headers=headers_b).json()
        assert solved["result"] == "solved" and solved["rated"] is None
        assert guest.get(f"{base_a}/api/puzzles/{LONG}").json()["player"] == wrong["rated"]["player"]
        daily = PuzzleSet.load(FIXTURE).daily(TEST_DAY)  # the day both servers are pinned to (not today: no midnight between)
        assert daily is not None
        for base in (base_a, base_b):
            assert re.findall(r'href="/puzzles/([^"]+)"', guest.get(base + "/?lang=en").text) == [daily.id, daily.id], base
        for body in HOSTILE:
            for base in (base_a, base_b):
                answer = httpx.post(f"{base}/api/puzzles/{LONG}/attempt", json=body, timeout=60)
                assert 400 <= answer.status_code < 500 and answer.json()["code"], (body, answer.text)
        engine = create_engine(url)
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(puzzle_attempts)).scalar() == 1
        engine.dispose()
