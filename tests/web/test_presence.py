"""Who is at a game or table, in one server process (web/core/presence.py; across processes:
test_scale_out_omiga.py): a page's seats are shown as here while it is open, and no longer once
it closes; a watcher counts as a page but holds no seat; unknown tokens hold nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .conftest import receive_state


def _new(client: TestClient, path: str, body: dict[str, Any]) -> tuple[str, dict[int, str]]:
    made = client.post(path, json=body).json()
    tokens = {int(seat): token for seat, token in made["tokens"].items()}
    for seat, invitation in made["invitations"].items():
        link = invitation["link"] if isinstance(invitation, dict) else invitation
        tokens[int(seat)] = link.split(f"seats={seat}.")[1]
    return made["id"], tokens


def test_a_board_games_view_shows_which_seats_have_a_page_open(client: TestClient) -> None:
    body = {"game": "omny", "options": {"variant": "y", "size": 3}, "seats": ["here", "invite"]}
    game_id, tokens = _new(client, "/api/games", body)
    assert client.get(f"/api/games/{game_id}").json()["present"] == []
    with client.websocket_connect(f"/ws/g/{game_id}") as watcher:
        assert receive_state(watcher)["pages"] == 1
        with client.websocket_connect(f"/ws/g/{game_id}") as guest:
            receive_state(guest)
            assert receive_state(watcher)["pages"] == 2
            guest.send_json({"type": "here", "tokens": [tokens[1], "A" * 43]})  # a stranger's token holds nothing
            seen = receive_state(watcher, lambda view: view["present"])
            assert seen["present"] == [1] and seen["pages"] == 2
            guest.send_json({"type": "here", "tokens": ["x" * 65]})
            refusal = next(m for m in iter(guest.receive_json, None) if m["type"] != "state")  # not a token:
            assert refusal["type"] == "error" and "tokens" in refusal["message"]  # refused, nothing changed
        gone = receive_state(watcher, lambda view: view["pages"] == 1)
        assert gone["present"] == []


def test_an_omiga_seat_is_away_once_its_page_closes(client: TestClient) -> None:
    table_id, tokens = _new(client, "/api/omiga", {"seats": [{"kind": "here"}, {"kind": "invite"}]})
    with client.websocket_connect(f"/ws/o/{table_id}") as watcher:
        receive_state(watcher)
        with client.websocket_connect(f"/ws/o/{table_id}") as white:
            receive_state(white)
            white.send_json({"type": "ready", "tokens": [tokens[0]]})
            here = receive_state(watcher, lambda view: view["seats"][0]["ready"])
            assert not here["seats"][1]["ready"] and here["pages"] == 2 and not here["started"]
        away = receive_state(watcher, lambda view: view["pages"] == 1)
        assert not away["seats"][0]["ready"] and away["signal_in"] is None
