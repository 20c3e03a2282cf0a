"""With several move worker processes, each live game's computer moves go to the worker that keeps
its search, so the search is reused from move to move (web/core/move_workers.py); a killed worker
is replaced and its game still gets its next move — rebuilt from the record, never lost or doubled."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from fastapi.testclient import TestClient

from ogames.web import create_app
from ogames.web.boards import ai
from ogames.web.core.move_workers import MoveWorkers

from .conftest import quick_settings

WAIT = 120.0  # seconds: generous deadlines on a loaded machine (the first move spawns a worker)
OPENING = {"game": "omny", "options": {"variant": "y", "size": 5, "pie": False}}


@contextlib.contextmanager
def serving(folder: Path, cap: float) -> Iterator[TestClient]:
    """The app with two move worker processes, the computer searching at most `cap` seconds."""
    settings = quick_settings(folder / "g.sqlite3", ai_executor="process", ai_workers=2, ai_time_cap=cap)
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with serving(tmp_path, 5.0) as client:  # on a 5-board the level's budget ends a search well before
        yield client


def workers(client: TestClient) -> MoveWorkers:
    pool: MoveWorkers = client.app.state.hub.computer.workers  # type: ignore[attr-defined]
    return pool


def new_game(client: TestClient, level: int = 5, **options: Any) -> tuple[str, str]:
    """A game of a person (seat 0) against the computer: its id and the person's token."""
    body = {**OPENING, "options": {**OPENING["options"], **options}, "seats": ["here", f"computer:{level}"]}
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["tokens"]["0"]


def wait_for(client: TestClient, game_id: str, ready: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    while True:
        view: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if ready(view):
            return view
        assert time.monotonic() < deadline, f"{what}: still {view['ply']} moves, thinking {view['thinking']}"
        time.sleep(0.05)


def play(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """The person plays the reply the computer's search expects (so its tree holds visits of the
    position that follows, whatever the search's seed), else a legal move; the view once the
    computer has answered."""
    view = wait_for(client, game_id, lambda view: not view["thinking"], "the computer's turn ends")
    expected = (kept(client, game_id) or {}).get(1, {}).get("expects")
    move = expected if expected in view["legal"] else view["legal"][0]
    made = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": token, "version": view["version"]})
    assert made.status_code == 200, made.text
    answered = wait_for(client, game_id, lambda seen: seen["ply"] == view["ply"] + 2 or seen["over"] or bool(seen["problem"]),
                        "the computer answers")
    assert not answered["problem"], answered["problem"]
    return answered


def kept(client: TestClient, game_id: str) -> dict[int, dict[str, Any]] | None:
    """What the game's home worker keeps of it (None: it has no home)."""

    async def ask() -> dict[int, dict[str, Any]] | None:
        answer = workers(client).at_home(game_id, ai.kept_report, game_id)
        return None if answer is None else await answer

    report: dict[int, dict[str, Any]] | None = client.portal.call(ask)  # type: ignore[union-attr]
    return report


def stored(client: TestClient, game_id: str) -> int:
    count: int = client.app.state.store.move_count(game_id)  # type: ignore[attr-defined]
    return count


def test_each_games_successive_moves_reuse_its_kept_search(app: TestClient) -> None:
    games = [new_game(app), new_game(app)]
    for game_id, token in games:
        play(app, game_id, token)
    homes = {workers(app).home_of(game_id) for game_id, _ in games}
    assert homes == {0, 1}  # one game a worker
    pids = {workers(app).pid(home) for home in homes if home is not None}
    assert None not in pids and len(pids) == 2 and os.getpid() not in pids  # two worker processes
    for turn in range(1, 3):  # their moves interleaved: each goes to its own worker
        for game_id, token in games:
            play(app, game_id, token)
            report = kept(app, game_id)
            assert report is not None and report[1]["resumed"] == turn, report
            assert report[1]["reused"] > 0  # its tree held the position's visits when the search began
    assert {workers(app).home_of(game_id) for game_id, _ in games} == homes


def test_a_killed_workers_game_still_gets_its_next_move(app: TestClient) -> None:
    game_id, token = new_game(app)
    play(app, game_id, token)
    play(app, game_id, token)
    home = workers(app).home_of(game_id)
    report = kept(app, game_id)
    assert home is not None and report is not None and report[1]["resumed"] == 1
    pid = workers(app).pid(home)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    psutil.wait_procs([psutil.Process(pid)], timeout=WAIT)
    view = play(app, game_id, token)
    assert view["ply"] == 6 and stored(app, game_id) == 6  # its move came, once
    report = kept(app, game_id)
    assert report is not None and report[1]["resumed"] == 0  # its search was rebuilt from the record
    assert workers(app).pid(workers(app).home_of(game_id) or 0) != pid
    view = play(app, game_id, token)
    report = kept(app, game_id)
    assert view["ply"] == 8 and report is not None and report[1]["resumed"] == 1  # and it is kept again


def searching(pid: int, answered: Callable[[], bool], seconds: float = 0.3) -> bool:
    """Wait until a worker has spent `seconds` of CPU time more than now (it is in a search: True)
    or the computer has answered already (a search shorter than the wait: False)."""
    worker = psutil.Process(pid)
    start = sum(worker.cpu_times()[:2])
    deadline = time.monotonic() + WAIT
    while sum(worker.cpu_times()[:2]) - start < seconds:
        if answered():
            return False
        assert time.monotonic() < deadline, "the worker never searched"
        time.sleep(0.02)
    return True


def test_a_worker_killed_while_it_searches_still_makes_the_move_once(tmp_path: Path) -> None:
    with serving(tmp_path, 2.0) as app:
        killed_while_searching(app)


def killed_while_searching(app: TestClient) -> None:
    game_id, token = new_game(app, level=10, size=9)  # level 10 on a 9-board searches for seconds
    view = play(app, game_id, token)  # the game's worker is started, its kernels warm
    home = workers(app).home_of(game_id)
    pid = None if home is None else workers(app).pid(home)
    assert home is not None and pid is not None
    # A search may end before the test sees it under way (a reused tree, a busy machine): then the
    # person moves again, until one is caught searching.
    for _ in range(5):
        ply = view["ply"]
        move = {"move": view["legal"][0], "token": token, "version": view["version"]}
        made = app.post(f"/api/games/{game_id}/moves", json=move)
        assert made.status_code == 200, made.text

        def answered(after: int = ply + 2) -> bool:
            return bool(app.get(f"/api/games/{game_id}").json()["ply"] >= after)

        if searching(pid, answered):  # its home is free: the move is searched there
            break
        view = wait_for(app, game_id, lambda seen: not seen["thinking"], "the computer's turn ends")
    else:
        pytest.fail("no search of the computer lasted long enough to be seen")
    os.kill(pid, signal.SIGKILL)
    view = wait_for(app, game_id, lambda seen: seen["ply"] == ply + 2 or bool(seen["problem"]), "the computer answers")
    assert not view["problem"] and stored(app, game_id) == ply + 2
    assert workers(app).workers[home].replaced == 1  # (a kill after the move would not be seen yet)
