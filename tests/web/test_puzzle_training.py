"""Training on puzzles, as lichess serves them: "Solve puzzles" and "Next puzzle" go to
/puzzles/next, which sends the visitor to a puzzle of the chosen game and theme that they have not
tried, rated near them, never the one just left; once every puzzle of the choice is tried it says
so. The choice of puzzle (`next_puzzle`) is checked on its own for any ratings and tries."""

from __future__ import annotations

import dataclasses
import random
import re

from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from ogames.ratings import Rating
from ogames.teach.puzzles import Puzzle, read
from ogames.web.puzzles.catalogue import NEAREST, next_puzzle

from .test_puzzles import FIXTURE, LONG, SHORT, attempt, client, day

__all__ = ["client", "day"]  # the fixtures, from test_puzzles.py

ALL = list(read(FIXTURE))
BY_ID = {puzzle.id: puzzle for puzzle in ALL}


def sent_to(client: TestClient, query: str) -> str:
    """The puzzle /puzzles/next?query sends the visitor to (its path and query)."""
    response = client.get(f"/puzzles/next?{query}", follow_redirects=False)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert location.startswith("/puzzles/")
    return location.removeprefix("/puzzles/")


def settle(client: TestClient, ident: str) -> None:
    """Make the visitor's first try at a puzzle (asking for its solution fails it)."""
    assert client.post(f"/api/puzzles/{ident}/solution", json={}).status_code == 200


def test_next_goes_through_a_games_untried_puzzles_then_says_they_are_done(client: TestClient) -> None:
    seen = []
    for _ in range(2):  # the fixture's two Omny puzzles, each once
        target = sent_to(client, "game=omny")
        ident, _, query = target.partition("?")
        assert BY_ID[ident].game == "omny" and ident not in seen and query == "game=omny"
        seen.append(ident)
        settle(client, ident)
    assert sorted(seen) == sorted([LONG, SHORT])
    done = client.get("/puzzles/next?game=omny&lang=en")
    assert done.status_code == 200 and 'id="puzzles-done"' in done.text
    assert "You have tried every puzzle of this choice." in done.text and 'href="/puzzles?game=omny"' in done.text
    assert sent_to(client, "game=oddy").startswith("oddy-")  # another game's are still there


def test_next_keeps_the_theme_and_skips_the_puzzle_just_left(client: TestClient) -> None:
    mates = [p.id for p in ALL if "mate-in-1" in p.themes]
    for _ in range(10):
        ident, _, query = sent_to(client, "theme=mate-in-1").partition("?")
        assert ident in mates and query == "theme=mate-in-1"
    for _ in range(10):  # left untried, the puzzle just left is not served again
        assert sent_to(client, f"game=omny&after={SHORT}").partition("?")[0] == LONG


def test_a_puzzle_page_links_the_next_puzzle_with_its_filters(client: TestClient) -> None:
    page = client.get(f"/puzzles/{SHORT}?theme=mate-in-1&lang=en").text
    link = re.search(r'<a class="button primary" id="next" href="([^"]+)" hidden>', page)
    assert link is not None and link[1] == f"/puzzles/next?theme=mate-in-1&amp;after={SHORT}"
    assert 'href="/puzzles?theme=mate-in-1">More puzzles' in page
    attempt(client, SHORT, ["d4"])  # solved: the page now shows the link from the start
    assert re.search(r'id="next" href="[^"]+">', client.get(f"/puzzles/{SHORT}?lang=en").text)
    listed = client.get("/puzzles?game=omny&lang=en").text
    assert 'id="train" href="/puzzles/next?game=omny"' in listed
    assert f'href="/puzzles/{LONG}?game=omny"' in listed  # the rows keep the filter for the next link


def test_bad_requests_for_the_next_puzzle_are_refused(client: TestClient) -> None:
    for query, status in (("game=chess", 400), ("game=omny&theme=capture", 400), ("after=omny-nonsense", 404),
                          ("after=" + "x" * 5000, 404)):
        response = client.get(f"/puzzles/next?{query}&lang=en", follow_redirects=False)
        assert response.status_code == status and "Traceback" not in response.text, query
    assert client.get(f"/puzzles/{SHORT}?game=chess").status_code == 400


def _puzzle(index: int) -> Puzzle:
    base = ALL[index % len(ALL)]
    return dataclasses.replace(base, id=f"p{index:03d}")


@given(st.lists(st.floats(800, 2600), min_size=0, max_size=30), st.sets(st.integers(0, 29)),
       st.floats(800, 2600), st.integers(0, 29), st.integers(0, 2**32))
def test_the_next_puzzle_is_untried_and_among_the_nearest(
    ratings: list[float], tried: set[int], player: float, skip: int, seed: int,
) -> None:
    puzzles = [_puzzle(i) for i in range(len(ratings))]
    rated = {p.id: Rating(r, 100.0) for p, r in zip(puzzles, ratings, strict=True)}
    tried_ids = {f"p{i:03d}" for i in tried}
    chosen = next_puzzle(puzzles, rated, tried_ids, Rating(player, 100.0), f"p{skip:03d}", random.Random(seed))
    left = [p for p in puzzles if p.id not in tried_ids and p.id != f"p{skip:03d}"]
    if not left:
        assert chosen is None
        return
    assert chosen in left
    distance = sorted(abs(rated[p.id].rating - player) for p in left)
    assert abs(rated[chosen.id].rating - player) <= distance[min(NEAREST, len(left)) - 1]
