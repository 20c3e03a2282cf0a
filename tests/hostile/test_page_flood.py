"""A visitor who floods the pages (not the API, which has its own limit) is refused past the pages'
rate limit per address: 429 with a short page in their language and a Retry-After, while the
static files, the API and every other address are served as before (web/core/guard.py). The limit
is small here (5 pages, refilled slowly) so that the test makes few requests; the site's own is
`Settings.page_rate` and `page_burst` (benchmarks/results/page-flood.md measured why)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ogames.web import create_app
from web.conftest import quick_settings

BURST = 5


@pytest.fixture
def app(tmp_path: Path) -> Iterator[object]:
    built = create_app(quick_settings(tmp_path / "flood.sqlite3", page_rate=0.01, page_burst=BURST))
    yield built


def test_past_the_burst_pages_are_refused_saying_when_to_come_back(app: object) -> None:
    with TestClient(app) as flooder:  # type: ignore[arg-type]
        for path in ("/", "/puzzles", "/lobby", "/archive", "/rules/omny"):
            assert flooder.get(path).status_code == 200, path
        refused = flooder.get("/explore")
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.headers["content-type"].startswith("text/html")
        assert re.search(r"Too many pages from your address at once: try again in \d+ s\.", refused.text)
        russian = flooder.get("/?lang=ru")
        assert russian.status_code == 429 and "Слишком много страниц" in russian.text
        assert "Traceback" not in refused.text and "<script" not in refused.text
        # What the limit does not count: the static files and the API (limited apart).
        assert flooder.get("/static/style.css").status_code == 200
        assert flooder.get("/api/health").status_code == 200
        assert flooder.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}}).status_code == 201
    # (one app serves one client at a time here: its SQLite file has one writer; the counts stay)
    with TestClient(app, client=("10.0.0.2", 50000)) as other:  # type: ignore[arg-type]
        assert other.get("/").status_code == 200  # another address is not touched
    with TestClient(app) as flooder:  # type: ignore[arg-type]
        assert flooder.get("/").status_code == 429  # while the flooder's is still refused


def test_a_form_posted_past_the_limit_is_refused_too(app: object) -> None:
    with TestClient(app) as flooder:  # type: ignore[arg-type]
        for _ in range(BURST):
            assert flooder.get("/signup").status_code == 200
        assert flooder.post("/signup", data={"name": "flood", "password": "correct horse battery"}).status_code == 429


def test_the_page_limits_must_be_positive(tmp_path: Path) -> None:
    for changes in ({"page_rate": 0}, {"page_burst": -1}):
        with pytest.raises(ValueError, match="rate limits must be positive"):
            quick_settings(tmp_path / "x.sqlite3", **changes)
