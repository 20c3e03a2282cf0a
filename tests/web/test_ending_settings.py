"""The claim's grace period and the sweeper's interval are settings (web/core/settings.py,
docs/deploy.md): a server set to a shorter grace lets a win be claimed sooner and shows the
shorter wait, and the sweeper waits the interval it is set to between its sweeps. No test sleeps:
the clocks read a simulated time and the sweeper is given a wait the test controls."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ogames.web import create_app
from ogames.web.boards.sweeper import Sweeper
from ogames.web.core.settings import Settings

from .conftest import quick_settings, receive_state
from .test_correspondence import DAY, Days, days, new_game, play, stored

__all__ = ["days"]  # the fixture, used below

GRACE = 5.0
SWEEP = 7.0


@pytest.fixture
def client(database: Path, days: Days) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(database, claim_grace=GRACE, sweep_seconds=SWEEP))) as test_client:
        yield test_client


def test_a_shorter_claim_grace_lets_the_win_be_claimed_sooner(client: TestClient, days: Days) -> None:
    made = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 4},
                                           "seats": ["here", "invite"]}).json()
    game_id, black = made["id"], made["tokens"]["0"]
    claim = f"/api/games/{game_id}/claim"
    with client.websocket_connect(f"/ws/g/{game_id}") as page:
        page.send_json({"type": "here", "tokens": [black]})
        here = receive_state(page, until=lambda view: view["present"] == [0])
        assert here["claims"] == [{"seat": 1, "in": GRACE}]  # the server's grace, not the default minute
        days.ahead(GRACE - 1)
        early = client.post(claim, json={"token": black, "version": 0, "seat": 1})
        assert early.json()["code"] == "too-early" and "1 seconds" in early.json()["error"]
        days.ahead(1)
        won = client.post(claim, json={"token": black, "version": 0, "seat": 1})
        assert won.status_code == 200 and won.json()["result"]["winner"] == "black"


def test_the_sweeper_waits_the_interval_it_is_set_to_and_then_ends_what_is_due(client: TestClient, days: Days) -> None:
    game_id, tokens = new_game(client, days=1)
    play(client, game_id, tokens["1"], play(client, game_id, tokens["0"], 0, "a1")["version"], "b1")
    hub = client.app.state.hub  # type: ignore[attr-defined]

    async def scene() -> list[float]:
        asked: list[float] = []
        pausing, go_on = asyncio.Event(), asyncio.Event()

        async def wait(seconds: float) -> None:  # the sweeper's pause, as long as the test says
            asked.append(seconds)
            pausing.set()
            await go_on.wait()
            go_on.clear()

        sweeper = Sweeper(hub, wait=wait)
        sweeper.start()
        await asyncio.wait_for(pausing.wait(), 60)  # the first sweep (nothing due) is done
        pausing.clear()
        days.ahead(1.5 * DAY)  # White's day ran out
        go_on.set()
        await asyncio.wait_for(pausing.wait(), 60)  # the next sweep is done
        await sweeper.close()
        return asked

    assert client.portal.call(scene) == [SWEEP, SWEEP]  # type: ignore[union-attr]
    assert stored(client, game_id).status == "over"


def test_the_settings_come_from_the_environment_and_must_be_positive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OGAMES_CLAIM_GRACE", "90")
    monkeypatch.setenv("OGAMES_SWEEP_SECONDS", "2.5")
    settings = Settings()
    assert (settings.claim_grace, settings.sweep_seconds) == (90.0, 2.5)
    monkeypatch.delenv("OGAMES_CLAIM_GRACE")
    monkeypatch.delenv("OGAMES_SWEEP_SECONDS")
    assert (Settings().claim_grace, Settings().sweep_seconds) == (60.0, 30.0)
    for bad in ("0", "-1", "soon", "inf"):
        monkeypatch.setenv("OGAMES_SWEEP_SECONDS", bad)
        with pytest.raises(ValueError, match="OGAMES_SWEEP_SECONDS"):
            Settings()
    monkeypatch.delenv("OGAMES_SWEEP_SECONDS")
    with pytest.raises(ValueError, match="claim_grace"):
        Settings(claim_grace=0)
