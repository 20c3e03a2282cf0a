"""A visitor's puzzle rating and first tries per game, on the puzzles page and on an account's
profile (/@/NAME): the rating is the one the puzzle pages use (one over every game's puzzles, as
ogames/ratings/puzzles.py keeps it), and the counts per game follow the rated first tries."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ogames.teach.puzzles import PuzzleSet
from ogames.web import create_app

from .conftest import quick_settings
from .test_accounts import form
from .test_puzzles import FIXTURE, LONG, SHORT, attempt, shown

ODDY = "oddy-90feb21c58b27152"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = quick_settings(tmp_path / "r.sqlite3", warm_rules=False, puzzles_path=str(FIXTURE))
    with TestClient(create_app(settings)) as test_client:
        test_client.get("/puzzles")  # a session cookie, as a browser gets with its first page
        yield test_client


def counts(page: str, game: str) -> tuple[int, int]:
    """(tried, solved) in a page's row of a game's puzzles."""
    row = re.search(rf'<tr data-game="{game}">.*?class="count tried">(\d+)<.*?class="count solved">(\d+)<', page)
    assert row, game
    return int(row.group(1)), int(row.group(2))


def rating_shown(page: str) -> str:
    found = re.search(r'id="puzzle-rating">([^<]+)<', page)
    assert found
    return found.group(1)


def sign_up(client: TestClient, name: str) -> None:
    status, text, _ = form(client, "/signup", name=name, password="correct horse", again="correct horse")
    assert status == 303, text


def test_the_puzzles_page_shows_the_visitors_rating_and_tries_per_game(client: TestClient) -> None:
    before = client.get("/puzzles?lang=en").text
    assert rating_shown(before) == shown(client)["player"]["shown"] == "1500?"
    assert 'id="puzzle-games"' not in before  # (no counts before a first try)
    attempt(client, SHORT, ["d4"])  # solved
    attempt(client, LONG, ["a1"])  # failed
    attempt(client, ODDY, ["a1-0"])  # failed
    after = client.get("/puzzles?lang=en").text
    assert counts(after, "omny") == (2, 1) and counts(after, "oddy") == (1, 0) and counts(after, "omega") == (0, 0)
    assert rating_shown(after) == shown(client)["player"]["shown"] != "1500?"
    assert "rated first tries: 3" in after
    client.cookies.clear()  # another guest: nothing tried
    other = client.get("/puzzles?lang=en").text
    assert rating_shown(other) == "1500?" and 'id="puzzle-games"' not in other


def test_the_profile_shows_the_accounts_puzzle_rating_once_a_puzzle_was_tried(client: TestClient) -> None:
    sign_up(client, "solver")
    assert 'id="profile-puzzles"' not in client.get("/@/solver?lang=en").text
    attempt(client, SHORT, ["d4"])
    profile = client.get("/@/Solver?lang=en").text
    assert 'id="profile-puzzles"' in profile
    assert rating_shown(profile) == shown(client)["player"]["shown"]
    assert counts(profile, "omny") == (1, 1) and counts(profile, "oddy") == (0, 0)
    assert "Рейтинг в задачах" in client.get("/@/solver?lang=ru").text
    client.cookies.clear()  # anyone sees it, signed in or not
    assert rating_shown(client.get("/@/solver?lang=en").text) == rating_shown(profile)


def test_a_guests_tries_do_not_reach_another_accounts_profile(client: TestClient) -> None:
    attempt(client, SHORT, ["d4"])  # by the guest
    client.cookies.clear()
    client.get("/")
    sign_up(client, "fresh")
    assert 'id="profile-puzzles"' not in client.get("/@/fresh?lang=en").text


def test_tries_are_counted_per_game_and_unknown_puzzles_in_none() -> None:
    puzzles = PuzzleSet.load(FIXTURE)
    rows = {row.game: (row.tried, row.solved) for row in puzzles.by_game({SHORT: True, LONG: False, ODDY: True, "gone": True})}
    assert rows == {"omny": (2, 1), "oddy": (1, 1), "omega": (0, 0)}
