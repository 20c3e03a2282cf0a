"""Fixtures for the web server's tests: an app on a fresh SQLite file, a client, new games."""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ogames.web import Settings, create_app
from ogames.web.puzzles import routes as puzzle_routes

from .serving import CHROMIUM, CHROMIUM_ARGS, TEST_DAY, start_server, stop_server


@pytest.fixture(scope="module")
def services() -> Iterator[tuple[Any, Any]]:
    """A throwaway PostgreSQL and Redis on loopback for a module's tests of several processes."""
    from .scaling import local_services

    with local_services.postgres() as pg, local_services.redis_server() as redis:
        yield pg, redis


@pytest.fixture(autouse=True)
def day(monkeypatch: pytest.MonkeyPatch) -> datetime.date:
    """The day whose puzzle the pages show (the home page's and /puzzles' link) in every test of the
    site in this process: a fixed one, as in the servers the tests start (serving.TEST_DAY), so that
    no page changes with the day a test runs on. A module pins another by overriding this fixture."""
    monkeypatch.setattr(puzzle_routes, "today", lambda: TEST_DAY)
    return TEST_DAY


QUICK = 0.02  # seconds: the computer's time cap at every level in tests


def quick_settings(path: Path, **changes: Any) -> Settings:
    """Settings for tests: a SQLite file at a path, the computer thinking in a thread, briefly. The
    API's and the pages' rate limits are lifted: these tests poll one app from one client, as fast
    as a quiet machine lets them (a run failed on it), and the tests of the limits set their own."""
    values: dict[str, Any] = {"database_url": f"sqlite:///{path}", "ai_executor": "thread", "ai_time_cap": QUICK,
                              "api_rate": 1e6, "api_burst": 1e6, "page_rate": 1e6, "page_burst": 1e6}
    values.update(changes)
    return Settings(**values)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(database))) as test_client:
        yield test_client


def create(
    client: TestClient, game: str = "omny", options: dict[str, Any] | None = None, **fields: Any
) -> tuple[str, dict[str, str]]:
    """A new game through the JSON API: its id and the tokens by seat number (as text)."""
    if options is None and game == "omny":
        options = {"variant": "y", "size": 3}
    response = client.post("/api/games", json={"game": game, "options": options or {}, **fields})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], body["tokens"]


def receive_state(ws: Any, until: Any = None, limit: int = 50) -> dict[str, Any]:
    """The next state message (skipping errors) — or, with `until`, the first one it accepts."""
    for _ in range(limit):
        message = ws.receive_json()
        if message.get("type") == "state" and (until is None or until(message)):
            return message
    raise AssertionError("no such state arrived")


# ----- the browser tests' fixtures (test_browser.py, test_board_browser.py) -----------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of `ogames serve` running in a subprocess on a fresh SQLite file."""
    folder = tmp_path_factory.mktemp("server")
    process, base = start_server(folder / "g.sqlite3", folder / "server.log")
    try:
        yield base
    finally:
        stop_server(process)
    assert f"open {base}/" in (folder / "server.log").read_text()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api")
    # Assertions wait for the page; Playwright's default of 5 s is too short on a busy machine
    # (the suite runs beside other work), and a condition that holds returns at once anyway.
    sync_api.expect.set_options(timeout=30_000)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $OGAMES_SCREENSHOTS, else a temporary folder."""
    folder = Path(os.environ.get("OGAMES_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
