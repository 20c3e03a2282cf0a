"""The computer's review of a finished game on the site (web/boards/game_review.py and its route):
refused for a game not over, asked for by a button (or by itself against the computer), pending
while it is computed, then ready with its graph and marks; computed once and stored, never again
(not by another ask, nor by a restarted server); a review that fails says why. The graph and the
page's view of a review are checked on a real review. The browser test is
tests/web/test_browser_game_review.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ogames.teach.review import review
from ogames.web import create_app
from ogames.web.boards import ai
from ogames.web.boards.review_graph import MARK_COLOURS, SYMBOLS, graph_svg, review_view

from .conftest import create, quick_settings

SIZE4 = {"variant": "y", "size": 4}
WIN = ["a1", "d1", "a2", "c2", "a3", "b3", "a4"]  # black joins the three sides along the left edge
DEADLINE = 180.0  # seconds: a fresh machine compiles the search's kernels first


def review_settings(path: Path) -> Any:
    return quick_settings(path, warm_rules=False, review_budget=40, review_prove=2000)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "reviews.sqlite3"


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    with TestClient(create_app(review_settings(database))) as test_client:
        yield test_client


class Gate:
    """The review's worker function, held until `open()` and counted."""

    def __init__(self, inner: Callable[..., Any] = ai.review_game):
        self.inner, self.calls, self.event = inner, 0, threading.Event()

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        assert self.event.wait(DEADLINE), "the test never let the review go on"
        return self.inner(*args)

    def open(self) -> None:
        self.event.set()


def gate(client: TestClient, **given: Any) -> Gate:
    held = Gate(**given)
    client.app.state.hub.reviews.compute = held  # type: ignore[attr-defined]
    return held


def finished_game(client: TestClient, moves: list[str] = WIN) -> str:
    game_id, tokens = create(client, options=SIZE4)
    for ply, move in enumerate(moves):
        answer = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[str(ply % 2)], "version": ply})
        assert answer.status_code == 200, answer.text
    return game_id


def look(client: TestClient, game_id: str, **query: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}/review", params=query)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def until_ready(client: TestClient, game_id: str, **query: str) -> dict[str, Any]:
    deadline = time.monotonic() + DEADLINE
    while (found := look(client, game_id, **query))["status"] == "pending":
        assert time.monotonic() < deadline, "the review never came"
        time.sleep(0.05)
    return found


def test_no_review_of_a_game_not_over(client: TestClient) -> None:
    game_id, tokens = create(client, options=SIZE4)
    client.post(f"/api/games/{game_id}/moves", json={"move": "a1", "token": tokens["0"], "version": 0})
    for answer in (client.get(f"/api/games/{game_id}/review"), client.post(f"/api/games/{game_id}/review", json={})):
        assert answer.status_code == 409 and answer.json()["code"] == "not-over", answer.text
    assert client.app.state.hub.reviews.queued == set()  # type: ignore[attr-defined]
    aborted, mine = create(client, options=SIZE4, seats=["here", "invite"])
    assert client.post(f"/api/games/{aborted}/abort", json={"token": mine["0"], "version": 0}).status_code == 200
    assert client.get(f"/api/games/{aborted}/review").json()["code"] == "not-over"
    assert client.get("/api/games/nothing-here/review").status_code == 404


def test_asked_pending_then_ready_and_stored_once(database: Path, client: TestClient) -> None:
    held = gate(client)
    game_id = finished_game(client)
    assert look(client, game_id) == {"status": "none", "automatic": False}  # on one screen: asked for by a button
    asked = client.post(f"/api/games/{game_id}/review", json={})
    assert asked.status_code == 202 and asked.json() == {"status": "pending"}
    assert look(client, game_id)["status"] == "pending"
    assert client.post(f"/api/games/{game_id}/review", json={}).json() == {"status": "pending"}  # asked again: the same one
    held.open()
    ready = until_ready(client, game_id)
    assert ready["status"] == "ready" and held.calls == 1
    assert [move["move"] for move in ready["moves"]] == WIN and len(ready["steps"]) == len(WIN) + 1
    assert ready["winner"] == "black" and "<svg" in ready["graph"]
    assert all(move["mark"] in ("good", "inaccuracy", "mistake", "blunder") for move in ready["moves"])
    again = client.post(f"/api/games/{game_id}/review", json={})
    assert again.status_code == 200 and again.json() == ready and held.calls == 1  # not computed again
    client.__exit__(None, None, None)
    with TestClient(create_app(review_settings(database))) as restarted:
        later = gate(restarted)
        assert look(restarted, game_id) == ready and later.calls == 0  # read from the store


def test_a_pending_review_says_how_far_it_has_come(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from ogames.web.boards import game_review

    monkeypatch.setattr(game_review, "PROGRESS_EVERY", 0.02)
    halfway = threading.Event()

    def noting(record: dict[str, Any], budget: int, prove: int, noted: str | None) -> dict[str, Any]:
        assert noted is not None
        with open(noted, "w", encoding="ascii") as file:  # as the worker notes it (ai.review_game)
            file.write("3 8")
        assert halfway.wait(DEADLINE), "the test never let the review go on"
        return ai.review_game(record, budget, prove, noted)

    held = gate(client, inner=noting)
    game_id = finished_game(client)
    assert client.post(f"/api/games/{game_id}/review", json={}).json() == {"status": "pending"}  # not begun
    held.open()
    deadline = time.monotonic() + DEADLINE
    while (found := look(client, game_id)) == {"status": "pending"}:
        assert time.monotonic() < deadline, "the progress was never shown"
        time.sleep(0.02)
    assert found == {"status": "pending", "done": 3, "total": 8}
    halfway.set()
    assert until_ready(client, game_id)["status"] == "ready"


def test_a_server_stopping_while_a_worker_notes_its_progress_stops(database: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The review's folder is removed while its worker (here a thread, which cannot be killed) goes
    on writing its count in it: the server still stops, and says nothing failed."""
    writing, stop = threading.Event(), threading.Event()

    def busy(record: dict[str, Any], budget: int, prove: int, noted: str | None) -> dict[str, Any]:
        assert noted is not None
        done = 0
        while not stop.is_set():
            done += 1
            ai.note_progress(noted, done, 10**6)
            writing.set()
        return ai.review_game(record, budget, prove)

    client = TestClient(create_app(review_settings(database)))
    client.__enter__()
    try:
        client.app.state.hub.reviews.compute = busy  # type: ignore[attr-defined]
        game_id = finished_game(client)
        assert client.post(f"/api/games/{game_id}/review", json={}).status_code == 202
        assert writing.wait(DEADLINE)
        stopping = threading.Thread(target=client.__exit__, args=(None, None, None))
        stopping.start()
        stopping.join(DEADLINE)
        assert not stopping.is_alive(), "the server did not stop"
    finally:
        stop.set()
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


def test_the_reviews_worker_notes_its_progress_in_the_file_it_is_given(tmp_path: Path) -> None:
    import ogames

    state = ogames.load("omny", **SIZE4).new_state()
    for move in WIN:
        state.play(move)
    noted = tmp_path / "progress"
    found = ai.review_game(state.record(), 20, 0, str(noted))
    assert noted.read_text(encoding="ascii") == f"{len(WIN) + 1} {len(WIN) + 1}" and len(found["moves"]) == len(WIN)
    assert not (tmp_path / "progress.part").exists()


def test_a_game_against_the_computer_is_reviewed_by_itself_when_it_ends(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "omny", "options": SIZE4, "seats": ["here", "computer:1"]}).json()
    game_id, token = made["id"], made["tokens"]["0"]
    assert client.post(f"/api/games/{game_id}/moves", json={"move": "b2", "token": token, "version": 0}).status_code == 200
    deadline = time.monotonic() + DEADLINE
    while client.get(f"/api/games/{game_id}").json()["version"] < 2:
        assert time.monotonic() < deadline, "the computer did not move"
        time.sleep(0.02)
    assert client.post(f"/api/games/{game_id}/resign", json={"token": token, "version": 2}).status_code == 200
    ready = until_ready(client, game_id)  # nobody asked for it
    assert ready["status"] == "ready" and [move["move"] for move in ready["moves"]][:2][0] == "b2"
    assert client.app.state.hub.reviews.done == 1  # type: ignore[attr-defined]


def test_a_review_that_fails_says_why_and_is_not_tried_again(client: TestClient) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("the search broke")

    held = gate(client, inner=broken)
    held.open()
    game_id = finished_game(client)
    client.post(f"/api/games/{game_id}/review", json={})
    failed = until_ready(client, game_id)
    assert failed == {"status": "failed", "problem": "RuntimeError"}
    assert client.post(f"/api/games/{game_id}/review", json={}).json() == failed and held.calls == 1


def test_the_review_page_is_the_replay_page_with_the_review(client: TestClient) -> None:
    game_id = finished_game(client)
    page = client.get(f"/g/{game_id}/review")
    assert page.status_code == 200 and 'id="game-review"' in page.text and "/static/game_review.js" in page.text
    unfinished, _ = create(client, options=SIZE4)
    assert 'id="game-review"' not in client.get(f"/g/{unfinished}/review").text


# ----- the graph and the page's view of a real review ------------------------------------------------


@pytest.fixture(scope="module")
def reviewed() -> dict[str, Any]:
    import ogames

    state = ogames.load("omny", **SIZE4).new_state()
    for move in WIN:
        state.play(move)
    found: dict[str, Any] = review(state, budget=40, prove=2000).to_json()
    return found


def test_the_graph_has_a_column_per_position_and_a_dot_per_marked_move(reviewed: dict[str, Any]) -> None:
    marks = ["good", "inaccuracy", "mistake", "blunder", "good", "blunder", "good"]
    marked = dict(reviewed, moves=[dict(move, mark=mark) for move, mark in zip(reviewed["moves"], marks, strict=True)])
    svg = graph_svg(marked)
    assert svg.count('class="review-hit"') == len(WIN) + 1
    for mark, colour in MARK_COLOURS.items():
        dots = svg.count(f'class="review-mark mark-{mark}"')
        assert dots == sum(move["mark"] == mark for move in marked["moves"]) and (dots == 0 or colour in svg)
    assert svg.count('class="review-line"') == 1  # two players: one line, the other its mirror
    assert "3. a2?" in svg and "4. c2??" in svg  # each column titled with its move and symbol


def test_the_page_is_sent_each_move_worded_with_its_symbol(reviewed: dict[str, Any]) -> None:
    shown = review_view(reviewed, "ru")
    assert [move["move"] for move in shown["moves"]] == WIN
    for move, original in zip(shown["moves"], reviewed["moves"], strict=True):
        assert move["symbol"] == SYMBOLS[original["mark"]] and move["best"] == original["best"]
        assert move["line"] == original["line"] and len(move["line_text"]) == len(move["line"])
    assert shown["steps"] == sorted(shown["steps"]) and len(shown["steps"]) == len(WIN) + 1
    assert "Шансы каждой стороны" in shown["graph"]


def test_two_server_processes_asked_at_once_compute_it_once(tmp_path: Path) -> None:
    import asyncio

    from ogames.web.boards.protocol import NewGame

    from .test_hub_bus import two_hubs

    async def scenario() -> None:
        a, b, _, _ = two_hubs(tmp_path / "games.sqlite3")
        live, tokens = await a.create(NewGame(game="omny", options=SIZE4))
        for ply, move in enumerate(WIN):
            await a.move(live.id, tokens[ply % 2], ply, move)
        calls: list[str] = []

        def counted(record: dict[str, Any], budget: int, prove: int, noted: str | None) -> dict[str, Any]:
            calls.append(record["game"])
            return ai.review_game(record, budget, prove, noted)

        a.reviews.compute = b.reviews.compute = counted
        asked = await asyncio.gather(a.reviews.ask(live.id), b.reviews.ask(live.id), b.reviews.ask(live.id))
        assert {row.status for row in asked if row is not None} <= {"pending", "ready"}
        deadline = time.monotonic() + DEADLINE
        while (row := await b.reviews.status(live.id)) is None or row.status == "pending":
            assert time.monotonic() < deadline, "the review never came"
            await asyncio.sleep(0.02)
        assert row.status == "ready" and row.review is not None and calls == ["omny"]
        assert [move["move"] for move in row.review["moves"]] == WIN and a.reviews.done + b.reviews.done == 1
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_past_the_waiting_reviews_a_new_one_is_refused(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from ogames.web.boards import game_review

    held = gate(client)
    monkeypatch.setattr(game_review, "WAITING", 1)
    first, second, third = finished_game(client), finished_game(client), finished_game(client)
    assert client.post(f"/api/games/{first}/review", json={}).status_code == 202  # computing (held)
    assert client.post(f"/api/games/{second}/review", json={}).status_code == 202  # waiting
    refused = client.post(f"/api/games/{third}/review", json={})
    assert refused.status_code == 503 and refused.json()["code"] == "busy" and "retry-after" in refused.headers
    assert look(client, third)["status"] == "none"  # nothing stored: asked again later, it is made
    assert client.post(f"/api/games/{second}/review", json={}).json()["status"] == "pending"  # one asked before still answers
    held.open()
    assert until_ready(client, second)["status"] == "ready"
    assert client.post(f"/api/games/{third}/review", json={}).status_code == 202
    assert until_ready(client, third)["status"] == "ready" and held.calls == 3


def test_the_review_worker_stops_when_idle_and_starts_again(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from ogames.web.boards import game_review

    monkeypatch.setattr(game_review, "IDLE", 0.2)
    reviews = client.app.state.hub.reviews  # type: ignore[attr-defined]
    first, second = finished_game(client), finished_game(client)
    client.post(f"/api/games/{first}/review", json={})
    assert until_ready(client, first)["status"] == "ready"
    deadline = time.monotonic() + DEADLINE
    while reviews.lane is not None:
        assert time.monotonic() < deadline, "the idle review worker was never stopped"
        time.sleep(0.05)
    client.post(f"/api/games/{second}/review", json={})
    assert until_ready(client, second)["status"] == "ready" and reviews.done == 2
