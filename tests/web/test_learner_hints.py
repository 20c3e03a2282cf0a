"""Hints for learners (web/boards/learner_hints.py): in a casual game of one person against the
computer the person may ask a few times a game for the best move; every other case is refused
with its reason and changes nothing — a rated game, a game with another person (invited, or on the
same screen), a token that holds no seat or not the seat to move, the limit reached, a game over.
The count is stored with the game. The browser test is tests/web/test_browser_hints.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ogames
from ogames.web import create_app
from ogames.web.boards.learner_hints import check_hint, hint_limit
from ogames.web.boards.live import HUMAN, INVITED, LiveGame
from ogames.web.core.common import Refusal
from ogames.web.core.store import digest

from .conftest import create, quick_settings
from .test_hub_bus import heard_through_redis
from .test_ratings_site import browser, person

SMALL = {"game": "omny", "options": {"variant": "y", "size": 5}}
LIMIT = 2


def hint_settings(path: Path, **changes: Any) -> Any:
    return quick_settings(path, warm_rules=False, hints_per_game=LIMIT, hint_seconds=0.05, **changes)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    made = create_app(hint_settings(tmp_path / "h.sqlite3"))
    with TestClient(made) as running:
        made.state.running = running
        yield made


@pytest.fixture
def client(app: Any) -> TestClient:
    return browser(app)


def against_computer(client: TestClient, **extra: Any) -> tuple[str, str]:
    """A casual game of a person (seat 1, to move first) against the computer: its id and the person's token."""
    made = client.post("/api/games", json={**SMALL, "seats": ["here", "computer:1"], **extra})
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["tokens"]["0"]


def hint(client: TestClient, game_id: str, token: str, version: int) -> Any:
    return client.post(f"/api/games/{game_id}/hint", json={"token": token, "version": version})


def view(client: TestClient, game_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    return answer


def refused_unchanged(client: TestClient, game_id: str, token: str, version: int, status: int, code: str) -> None:
    """A hint refused with `status` and `code`, the game as it was (its version, its hints)."""
    before = view(client, game_id)
    answer = hint(client, game_id, token, version)
    assert answer.status_code == status and answer.json()["code"] == code, answer.text
    assert answer.json()["error"]  # a reason in words
    after = view(client, game_id)
    assert (after["version"], after["hints"]) == (before["version"], before["hints"])


def test_a_hint_gives_the_best_move_lit_and_counts_it(client: TestClient) -> None:
    game_id, token = against_computer(client)
    assert view(client, game_id)["hints"] == {"used": 0, "left": LIMIT, "limit": LIMIT}
    answer = hint(client, game_id, token, 0)
    assert answer.status_code == 200, answer.text
    found = answer.json()
    state = ogames.load("omny", variant="y", size=5).new_state()
    assert found["move"] in state.legal_moves() and found["cells"] == [found["move"]]
    assert f'data-cell="{found["move"]}"' in found["svg"] and "highlight" in found["svg"]
    assert found["hints"] == {"used": 1, "left": LIMIT - 1, "limit": LIMIT}
    shown = view(client, game_id)
    assert shown["hints"] == found["hints"] and shown["version"] == 0  # a hint is not a move
    played = client.post(f"/api/games/{game_id}/moves", json={"move": found["move"], "token": token, "version": 0})
    assert played.status_code == 200


def test_the_count_is_stored_with_the_game(tmp_path: Path) -> None:
    database = tmp_path / "kept.sqlite3"
    with TestClient(create_app(hint_settings(database))) as first:
        game_id, token = against_computer(first)
        assert hint(first, game_id, token, 0).status_code == 200
    with TestClient(create_app(hint_settings(database))) as second:  # a restarted server reads it back
        assert view(second, game_id)["hints"] == {"used": 1, "left": LIMIT - 1, "limit": LIMIT}
        assert hint(second, game_id, token, 0).status_code == 200
        refused_unchanged(second, game_id, token, 0, 409, "no-hints-left")


def test_no_hint_past_the_limit(client: TestClient) -> None:
    game_id, token = against_computer(client)
    for used in range(1, LIMIT + 1):
        assert hint(client, game_id, token, 0).json()["hints"]["used"] == used
    refused_unchanged(client, game_id, token, 0, 409, "no-hints-left")
    assert view(client, game_id)["hints"] == {"used": LIMIT, "left": 0, "limit": LIMIT}


def test_no_hint_in_a_rated_game(app: Any) -> None:
    ada = person(app, "Ada")
    game_id, token = against_computer(ada, rated=True)
    assert view(ada, game_id)["hints"] is None  # the page offers none
    refused_unchanged(ada, game_id, token, 0, 403, "no-hint")


def test_no_hint_in_a_game_against_a_person(client: TestClient) -> None:
    made = client.post("/api/games", json={**SMALL, "seats": ["here", "invite"]}).json()
    assert made["view"]["hints"] is None
    refused_unchanged(client, made["id"], made["tokens"]["0"], 0, 403, "no-hint")
    hotseat, tokens = create(client)  # two people on one screen
    refused_unchanged(client, hotseat, tokens["0"], 0, 403, "no-hint")


def test_no_hint_for_a_token_of_no_seat_or_of_another_game(client: TestClient) -> None:
    game_id, _ = against_computer(client)
    _, other = against_computer(client)
    refused_unchanged(client, game_id, other, 0, 403, "bad-token")
    refused_unchanged(client, game_id, "not-a-token", 0, 403, "bad-token")


def test_no_hint_for_an_old_version_nor_after_the_end(client: TestClient) -> None:
    game_id, token = against_computer(client)
    assert client.post(f"/api/games/{game_id}/moves", json={"move": "c3", "token": token, "version": 0}).status_code == 200
    deadline = time.monotonic() + 30
    while view(client, game_id)["version"] < 2:  # the computer replies (in a thread, briefly)
        assert time.monotonic() < deadline, "the computer did not move"
        time.sleep(0.02)
    refused_unchanged(client, game_id, token, 0, 409, "stale")
    assert client.post(f"/api/games/{game_id}/resign", json={"token": token, "version": 2}).status_code == 200
    refused_unchanged(client, game_id, token, 3, 409, "over")


# ----- the rules on a game in memory (every case, without a server) --------------------------------


def live_game(kinds: list[str], *, rated: bool = False, mode: str = "ai", moves: tuple[str, ...] = ()) -> LiveGame:
    state = ogames.load("omny", variant="y", size=3).new_state()
    for move in moves:
        state.play(move)
    digests = {seat: digest(f"token-{seat}") for seat, kind in enumerate(kinds) if kind in (HUMAN, INVITED)}
    live = LiveGame("g", mode, kinds, state, digests, 0.0, version=len(moves))
    live.rated = rated
    live.hint_limit = hint_limit(live, 3)
    return live


COMPUTER = "mcts:level=1,iterations=20,think=1"


def refusal(live: LiveGame, token: str, version: int | None = None) -> str:
    with pytest.raises(Refusal) as refused:
        check_hint(live, token, live.version if version is None else version)
    return refused.value.code


def test_which_games_offer_hints() -> None:
    assert live_game([HUMAN, COMPUTER]).hint_limit == 3
    assert live_game([COMPUTER, HUMAN]).hint_limit == 3
    assert live_game([HUMAN, COMPUTER], rated=True).hint_limit == 0
    assert live_game([HUMAN, INVITED], mode="online").hint_limit == 0
    assert live_game([HUMAN, HUMAN], mode="hotseat").hint_limit == 0


def test_every_refusal_of_the_rules() -> None:
    casual = live_game([HUMAN, COMPUTER])
    assert check_hint(casual, "token-0", 0) == 0
    assert refusal(casual, "token-1") == "bad-token"  # the computer's seat has no token
    assert refusal(live_game([HUMAN, COMPUTER], rated=True), "token-0") == "no-hint"
    assert refusal(live_game([HUMAN, INVITED], mode="online"), "token-0") == "no-hint"
    assert refusal(live_game([HUMAN, INVITED], mode="online"), "token-1") == "no-hint"
    assert refusal(casual, "token-0", version=1) == "stale"
    assert refusal(live_game([COMPUTER, HUMAN]), "token-1") == "not-your-turn"  # the computer is to move
    used_up = live_game([HUMAN, COMPUTER])
    used_up.hints_used = 3
    assert refusal(used_up, "token-0") == "no-hints-left"
    over = live_game([HUMAN, COMPUTER], moves=("a1", "b1", "a2", "b2", "a3"))
    assert over.state.is_over and refusal(over, "token-0") == "over"


# ----- two server processes (two hubs on one database, an in-memory bus) ----------------------------


def test_a_hint_counted_on_one_process_is_shown_and_kept_on_the_other(tmp_path: Path) -> None:
    from ogames.web.boards.learner_hints_route import take_hint
    from ogames.web.boards.protocol import NewGame

    from .test_hub_bus import received, two_hubs

    async def scenario() -> None:
        a, b, bus_a, bus_b = two_hubs(tmp_path / "games.sqlite3")
        request = NewGame(game="omny", options={"variant": "y", "size": 5}, seats=["here", "computer:1"])
        live_a, _ = await a.create(request)
        live_b = await b.get(live_a.id)
        assert live_a.hint_limit == live_b.hint_limit == 3
        watching = b.watch(live_b)
        with pytest.raises(Refusal) as moved_on:  # the game moved on while the hint was searched: not counted
            await take_hint(a, live_a, 1)
        assert moved_on.value.code == "stale" and a.store.hints_used(live_a.id) == 0
        assert await take_hint(a, live_a, 0) == 1
        assert bus_a.sent[-1] == (live_a.id, 0, {"hints": 1})
        assert live_b.hints_used == 1 and received(watching)["hints"] == {"used": 1, "left": 2, "limit": 3}
        for wrong in ("2", None, 0, 1):  # malformed, or not more than known: nothing changes
            await b.heard(live_a.id, 0, {"hints": wrong})
            assert live_b.hints_used == 1
        bus_a.on = bus_b.on = False  # the messages are lost: the store still counts for both
        assert await take_hint(a, live_a, 0) == 2
        assert await take_hint(b, live_b, 0) == 3
        with pytest.raises(Refusal) as refused:
            await take_hint(a, live_a, 0)
        assert refused.value.code == "no-hints-left" and live_a.hints_used == 3  # read back from the store
        assert a.store.hints_used(live_a.id) == 3
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_the_redis_bus_passes_on_a_hint_count() -> None:
    assert heard_through_redis([{"worker": "other", "version": 3, "hints": 2}]) == [("g1", 3, {"hints": 2})]


def test_a_malformed_hint_request_is_refused_and_counts_nothing(client: TestClient) -> None:
    game_id, token = against_computer(client)
    for body in ({"token": token}, {"token": token, "version": "0"}, {"token": token, "version": 0, "seconds": 9},
                 {"token": "", "version": 0}, {"token": token, "version": -1}):
        answer = client.post(f"/api/games/{game_id}/hint", json=body)
        assert answer.status_code == 422 and answer.json()["error"], (body, answer.text)
    assert client.post(f"/api/games/{game_id}/hint", content=b"{not json", headers={"content-type": "application/json"}
                       ).status_code in (400, 422)
    assert view(client, game_id)["hints"]["used"] == 0
