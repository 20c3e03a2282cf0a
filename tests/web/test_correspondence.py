"""Correspondence games (web/boards/correspondence.py, sweeper.py, endings.py) in one server, days
simulated by replacing the clocks' time (`clock.now`): every turn has its days, a seat that lets
them run out loses on time — or aborts the game if it had not moved yet —, the sweeper ends such
games without anyone looking, bad days are refused with nothing made, and a game stored before
correspondence clocks still loads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.web import create_app
from ogames.web.boards import clock as clocks
from ogames.web.boards.clock import Clock
from ogames.web.boards.correspondence import DAY, DAYS_CHOICES, DaysClock, deadline_of, stored_clock
from ogames.web.core.store import Store

from .conftest import quick_settings

START = 1_800_000_000.0  # the simulated time a test starts at


class Days:
    """The clocks' simulated time: `ahead(seconds)` moves it on."""

    def __init__(self) -> None:
        self.at = START

    def now(self) -> float:
        return self.at

    def ahead(self, seconds: float) -> None:
        self.at += seconds


@pytest.fixture
def days(monkeypatch: pytest.MonkeyPatch) -> Days:
    simulated = Days()
    monkeypatch.setattr(clocks, "now", simulated.now)
    return simulated


@pytest.fixture
def client(database: Path, days: Days) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(database))) as test_client:
        yield test_client


def new_game(client: TestClient, days: int = 3, seats: list[str] | None = None) -> tuple[str, dict[str, str]]:
    """A correspondence Y on a small board between this browser and an invited friend: its id and
    every seat's token (the invitation's too)."""
    body = {"game": "omny", "options": {"variant": "y", "size": 4}, "seats": seats or ["here", "invite"], "days": days}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    made = response.json()
    tokens = dict(made["tokens"])
    tokens.update({seat: invitation["token"] for seat, invitation in made["invitations"].items()})
    return made["id"], tokens


def play(client: TestClient, game_id: str, token: str, version: int, move: str) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": token, "version": version})
    assert response.status_code == 200, response.text
    return response.json()


def sweep(client: TestClient) -> None:
    """One sweep of the server's sweeper, now (it also sweeps on its own every half minute)."""
    from ogames.web.boards.sweeper import Sweeper

    client.portal.call(Sweeper(client.app.state.hub).sweep)  # type: ignore[union-attr]


def stored(client: TestClient, game_id: str) -> Any:
    row = client.app.state.store.load_game(game_id)  # type: ignore[attr-defined]
    assert row is not None
    return row


# ----- the clock ------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(DAYS_CHOICES), st.lists(st.floats(0, 20 * DAY, allow_nan=False), max_size=12))
def test_every_turn_has_its_days_and_the_clock_survives_being_stored(days: int, thinking: list[float]) -> None:
    clock = DaysClock.start(days, 2, START)
    now, mover = START, 0
    assert clock.deadline == START + days * DAY and clock.aborts(0)
    for thought in thinking:
        assert clock.out_of_time(mover, now + thought) == (thought >= days * DAY)
        if thought >= days * DAY:
            break  # its flag falls (the sweeper ends the game): no move is made
        now += thought
        clock = clock.after_action(mover, 1 - mover, over=False, now=now, ply=0)
        mover = 1 - mover
        assert clock.deadline == now + days * DAY and clock.since == now
        assert clock.left(mover, mover, now) == days * DAY and clock.left(1 - mover, mover, now) == days * DAY
        assert not clock.aborts(1 - mover)
        assert stored_clock(clock.stored()) == clock and deadline_of(clock.stored()) == clock.deadline
    over = clock.after_action(mover, None, over=True, now=now, ply=0)
    assert over.deadline is None and not over.out_of_time(None, now + 100 * DAY) and deadline_of(over.stored()) is None


def test_an_omega_placement_within_a_turn_keeps_the_deadline_and_a_take_back_gives_a_new_turn() -> None:
    clock = DaysClock.start(1, 2, START)
    placed = clock.after_action(0, 0, over=False, now=START + 100, ply=1)  # the same seat is still to move
    assert placed.deadline == clock.deadline and placed.moved == {0}
    back = placed.taken_back(0, 0, 0, set(), now=START + 200)
    assert back.deadline == START + 200 + DAY


def test_a_fischer_clock_and_no_clock_are_read_as_before() -> None:
    old = {"base": 60.0, "increment": 2.0, "remaining": [58.0, 61.0], "since": 100.0, "flagged": None, "started": [0, 1]}
    assert isinstance(stored_clock(old), Clock) and deadline_of(old) is None
    assert stored_clock(None) is None and stored_clock({}) is None


# ----- games -----------------------------------------------------------------------------------------


def test_a_seat_that_lets_its_days_run_out_loses_on_time(client: TestClient, days: Days) -> None:
    game_id, tokens = new_game(client, days=3)
    view = client.get(f"/api/games/{game_id}").json()
    assert view["clock"]["days"] == 3 and view["clock"]["deadline"] == START + 3 * DAY and view["clock"]["running"] == 0
    days.ahead(2 * DAY)
    play(client, game_id, tokens["0"], 0, "b2")
    days.ahead(DAY)
    view = play(client, game_id, tokens["1"], 1, "c2")
    assert view["clock"]["deadline"] == START + 6 * DAY and view["clock"]["remaining"] == [3 * DAY, 3 * DAY]
    days.ahead(3 * DAY - 1)
    sweep(client)
    assert not client.get(f"/api/games/{game_id}").json()["over"]  # a second left: nothing happens
    assert client.get(f"/api/games/{game_id}").json()["clock"]["remaining"][0] == 1.0
    days.ahead(1)
    sweep(client)
    view = client.get(f"/api/games/{game_id}").json()
    assert view["over"] and view["result"]["on_time"] and view["result"]["winner"] == "white"
    assert view["moves"][-1]["move"] == "lost on time" and view["clock"]["flagged"] == 0
    row = stored(client, game_id)
    assert row.status == "over" and row.version == 3 and [entry["move"] for entry in row.moves][:2] == ["b2", "c2"]
    refused = client.post(f"/api/games/{game_id}/moves", json={"move": "d1", "token": tokens["0"], "version": 3})
    assert refused.status_code == 409 and refused.json()["code"] == "over"


def test_a_seat_that_never_made_its_first_move_aborts_the_game(client: TestClient, days: Days) -> None:
    game_id, tokens = new_game(client, days=1)
    play(client, game_id, tokens["0"], 0, "b2")  # White, invited, never comes
    days.ahead(DAY + 1)
    sweep(client)
    view = client.get(f"/api/games/{game_id}").json()
    assert view["aborted"] and view["over"] and view["result"] is None and view["legal"] == []
    row = stored(client, game_id)
    assert row.status == "aborted" and row.head.get("result") is None and row.version == 2 and len(row.moves) == 1
    refused = client.post(f"/api/games/{game_id}/moves", json={"move": "c2", "token": tokens["1"], "version": 2})
    assert refused.status_code == 409 and refused.json()["code"] == "over"
    assert client.app.state.store.due_games(days.now() + 100 * DAY) == []  # type: ignore[attr-defined]


def test_the_sweeper_ends_a_game_nobody_holds_in_memory(client: TestClient, days: Days) -> None:
    game_id, tokens = new_game(client, days=2)
    play(client, game_id, tokens["0"], 0, "b2")
    play(client, game_id, tokens["1"], 1, "c2")
    del client.app.state.hub.live[game_id]  # type: ignore[attr-defined]  # as after a restart
    days.ahead(2 * DAY)
    assert client.app.state.store.due_games(days.now()) == [game_id]  # type: ignore[attr-defined]
    sweep(client)
    assert stored(client, game_id).status == "over"


@pytest.mark.parametrize(
    "asked",
    [
        {"days": 4},
        {"days": 0},
        {"days": -1},
        {"days": 15},
        {"days": 2.5},
        {"days": "three"},
        {"days": [3]},
        {"days": "7"},
        {"days": True},
        {"days": 3.0},
        {"days": 3, "clock": {"minutes": 5}},
    ],
)
def test_a_bad_days_value_is_refused_and_makes_no_game(client: TestClient, asked: dict[str, Any]) -> None:
    before = client.app.state.store.recent_games(100)  # type: ignore[attr-defined]
    response = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 4}, **asked})
    assert response.status_code == 422 and response.json()["code"] == "invalid"
    assert "Traceback" not in response.text
    assert client.app.state.store.recent_games(100) == before  # type: ignore[attr-defined]


def test_the_form_makes_a_correspondence_game_and_refuses_bad_days(client: TestClient) -> None:
    page = client.get("/new/omny")
    assert 'name="days"' in page.text and 'value="14"' in page.text
    form = {"mode": "seats", "who_1": "here", "who_2": "invite", "opt_variant": "y", "opt_size": "4", "timing": "days",
            "days": "5"}
    made = client.post("/new/omny", data=form, follow_redirects=False)
    assert made.status_code == 303
    game_id = made.headers["location"].split("/g/")[1].split("#")[0]
    assert client.get(f"/api/games/{game_id}").json()["clock"]["days"] == 5
    before = client.app.state.store.recent_games(100)  # type: ignore[attr-defined]
    for bad in ("4", "", "x", "99999"):
        refused = client.post("/new/omny", data={**form, "days": bad}, follow_redirects=False)
        assert refused.status_code == 400 and 'role="alert"' in refused.text
    assert client.app.state.store.recent_games(100) == before  # type: ignore[attr-defined]


def test_an_open_correspondence_game_is_listed_with_its_days(client: TestClient) -> None:
    game_id, _ = new_game(client, days=7, seats=["here", "open"])
    listed = {game["id"]: game for game in client.get("/api/open-games").json()["games"]}
    assert listed[game_id]["clock"] == {"days": 7}


def test_a_database_from_before_correspondence_keeps_its_games(tmp_path: Path) -> None:
    import ogames
    from ogames.web.core.store import games, make_engine, migrate, moves, split_record

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    state = ogames.load("omny", variant="y", size=4).new_state()
    state.play("b2")
    head, made = split_record(state.record())
    clock = Clock.start(5, 0, 2).after_action(0, 1, over=False, now=START, ply=1).stored()
    engine = make_engine(url)
    migrate(engine, "0002")  # the schema an older server left, and one of its games
    with engine.begin() as conn:
        conn.execute(games.insert().values(id="old", game="omny", mode="hotseat", seat_kinds=["human", "human"], head=head,
                                           ply=1, version=1, status="playing", created_at=START, updated_at=START,
                                           clock=clock, listed=False))
        conn.execute(moves.insert().values(game_id="old", ply=0, entry=made[0], stored_at=START))
    engine.dispose()
    store = Store(url)  # brought up to date as a new server opens it
    try:
        row = store.load_game("old")
        assert row is not None and row.status == "playing" and [entry["move"] for entry in row.moves] == ["b2"]
        assert stored_clock(row.clock) == Clock.from_stored(clock) and store.due_games(START * 2) == []
    finally:
        store.close()


# ----- claiming the win over a person who left a live game ----------------------------------------------


def test_a_claim_waits_for_the_grace_period_and_a_return_starts_it_again(client: TestClient, days: Days) -> None:
    from .conftest import receive_state

    response = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 4},
                                               "seats": ["here", "invite"]})
    made = response.json()
    game_id, black, white = made["id"], made["tokens"]["0"], made["invitations"]["1"]["token"]
    claim = f"/api/games/{game_id}/claim"

    with client.websocket_connect(f"/ws/g/{game_id}") as page:
        page.send_json({"type": "here", "tokens": [black]})
        here = receive_state(page, until=lambda view: view["present"] == [0])
        assert here["claims"] == [{"seat": 1, "in": 60.0}]  # White has never been here: noted from now
        days.ahead(30)
        refused = client.post(claim, json={"token": black, "version": 0, "seat": 1})
        assert refused.status_code == 409 and refused.json()["code"] == "too-early" and "30 seconds" in refused.json()["error"]
        with client.websocket_connect(f"/ws/g/{game_id}") as guest:
            guest.send_json({"type": "here", "tokens": [white]})
            receive_state(page, until=lambda view: view["present"] == [0, 1] and view["claims"] == [])
        # White left again: the grace period starts again from now.
        assert receive_state(page, until=lambda view: view["claims"] != [])["claims"] == [{"seat": 1, "in": 60.0}]
        days.ahead(59)
        assert client.post(claim, json={"token": black, "version": 0, "seat": 1}).json()["code"] == "too-early"
        days.ahead(1)
        won = client.post(claim, json={"token": black, "version": 0, "seat": 1})
        assert won.status_code == 200 and won.json()["result"]["winner"] == "black" and won.json()["claims"] == []
