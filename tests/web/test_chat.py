"""A game's chat in process (web/chat/): the text cleaned and limited, who reads and writes which
room, messages pushed live to the rooms' readers only, the rate limit, reports, and the operator's
mute, ban and hidden chat; `ogames operator grant/revoke`. The attacks against a server process
are in tests/hostile/test_chat_attacks.py, the browser's view in test_browser_chat.py."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from ogames.cli.app import app as cli
from ogames.web import create_app
from ogames.web.accounts import records as accounts
from ogames.web.chat import records
from ogames.web.chat.text import KEPT_FORMATS, MAX_MESSAGE, cleaned, text_problem
from ogames.web.core.store import Store

from .conftest import quick_settings

# ----- the text ------------------------------------------------------------------------------------


@given(st.text(max_size=400))
def test_a_cleaned_text_has_no_control_character_and_one_space_between_words(text: str) -> None:
    clean = cleaned(text)
    assert all(unicodedata.category(ch)[0] != "C" or ch in KEPT_FORMATS for ch in clean)
    assert clean == clean.strip() and "  " not in clean
    assert not any(ch.isspace() and ch != " " for ch in clean)
    assert cleaned(clean) == clean  # cleaning twice changes nothing
    if text_problem(clean, MAX_MESSAGE) is None:
        assert 0 < len(clean) <= MAX_MESSAGE


def test_cleaning_removes_what_hides_or_reorders_text() -> None:
    assert cleaned("  hi\u202ethere\u200b\x07\n\tyou\x00 ") == "hithere you"
    assert cleaned("👩\u200d💻") == "👩\u200d💻"  # the joiner inside an emoji stays
    assert text_problem(cleaned("\x00\u200b  "), MAX_MESSAGE) is not None
    assert text_problem("x" * (MAX_MESSAGE + 1), MAX_MESSAGE) is not None


# ----- the rooms -----------------------------------------------------------------------------------


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(quick_settings(tmp_path / "c.sqlite3", warm_rules=False))) as client:
        yield client


def store_of(client: TestClient) -> Store:
    return client.app.state.store  # type: ignore[attr-defined,no-any-return]


def new_game(client: TestClient) -> tuple[str, str]:
    """A game whose first seat the client plays; (its id, the invited seat's token)."""
    made = client.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 3}, "seats": ["here", "invite"]})
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["invitations"]["1"]["token"]


def say(client: TestClient, game: str, room: str, text: str, tokens: list[str] | None = None) -> Any:
    return client.post(f"/api/games/{game}/chat", json={"room": room, "text": text, "tokens": tokens or []})


def texts(client: TestClient, game: str) -> dict[str, list[str]]:
    shown = client.get(f"/api/games/{game}/chat").json()
    said: dict[str, list[str]] = {room: [] for room in shown["rooms"]}
    for message in shown["messages"]:
        said[message["room"]].append(message["text"])
    return said


def test_players_and_spectators_each_have_their_room(app_client: TestClient) -> None:
    game, invitation = new_game(app_client)
    spectator, friend = TestClient(app_client.app), TestClient(app_client.app)
    assert say(app_client, game, "players", "good luck").status_code == 201
    assert say(friend, game, "players", "you too", [invitation]).status_code == 201  # the invited seat's token
    refused = say(spectator, game, "players", "play c3!")
    assert refused.status_code == 403 and refused.json()["code"] == "not-a-player"
    forged = say(spectator, game, "players", "play c3!", ["A" * 43])
    assert forged.status_code == 403
    assert say(spectator, game, "spectators", "nice opening").status_code == 201
    assert texts(spectator, game) == {"spectators": ["nice opening"]}
    assert texts(app_client, game) == {"players": ["good luck", "you too"], "spectators": ["nice opening"]}
    # the message is stored as cleaned, and whoever wrote it is not named by their id
    shown = say(spectator, game, "spectators", "a\x00b\u202e c").json()
    assert shown["text"] == "ab c" and len(shown["who"]) == 16
    assert len(records.messages_of(store_of(app_client), game, records.ROOMS)) == 4


def test_too_long_empty_and_unknown_games_are_refused_and_nothing_is_stored(app_client: TestClient) -> None:
    game, _ = new_game(app_client)
    assert say(app_client, game, "players", "x" * (MAX_MESSAGE + 1)).status_code == 422
    assert say(app_client, game, "players", "x" * 5000).status_code == 422
    assert say(app_client, game, "players", " \u200b\x07 ").status_code == 422
    assert say(app_client, game, "kitchen", "hello").status_code == 422
    assert say(app_client, "nosuchgame", "spectators", "hello").status_code == 404
    assert app_client.get("/api/games/nosuchgame/chat").status_code == 404
    assert records.messages_of(store_of(app_client), game, records.ROOMS) == []


def test_a_flood_is_refused_past_the_burst(app_client: TestClient) -> None:
    game, _ = new_game(app_client)
    answers = [say(app_client, game, "spectators", f"message {n}").status_code for n in range(8)]
    assert answers[:5] == [201] * 5 and set(answers[5:]) == {429}
    assert len(records.messages_of(store_of(app_client), game, records.ROOMS)) == 5


def test_messages_reach_the_readers_of_their_room_live(app_client: TestClient) -> None:
    game, _ = new_game(app_client)
    spectator = TestClient(app_client.app)
    with (app_client.websocket_connect(f"/ws/chat/{game}") as players_page,
          spectator.websocket_connect(f"/ws/chat/{game}") as watching):
        players_page.send_json({"type": "join", "tokens": []})
        watching.send_json({"type": "join", "tokens": ["forged-token"]})
        first = players_page.receive_json()
        assert first["type"] == "history" and first["player"] and first["rooms"] == ["players", "spectators"]
        assert watching.receive_json()["player"] is False
        say(app_client, game, "players", "between us")
        say(spectator, game, "spectators", "hello all")
        heard = players_page.receive_json(), players_page.receive_json()
        assert [m["message"]["text"] for m in heard] == ["between us", "hello all"]
        assert watching.receive_json()["message"]["text"] == "hello all"  # never the players' message


def test_a_chat_socket_must_say_join_first(app_client: TestClient) -> None:
    game, _ = new_game(app_client)
    with app_client.websocket_connect(f"/ws/chat/{game}") as socket:
        socket.send_json({"type": "say", "text": "hi"})
        assert socket.receive_json()["code"] == "invalid"


def test_a_report_is_stored_for_the_operators(app_client: TestClient) -> None:
    game, _ = new_game(app_client)
    made = app_client.post(f"/api/games/{game}/report", json={"reason": "rude\x00 words"})
    assert made.status_code == 201
    (report,) = records.open_reports(store_of(app_client))
    assert report["game_id"] == game and report["reason"] == "rude words"
    assert app_client.post(f"/api/games/{game}/report", json={"reason": ""}).status_code == 422


# ----- operators -----------------------------------------------------------------------------------


def sign_up(client: TestClient, name: str) -> None:
    token = client.get("/signup").text.split('name="csrf-token" content="')[1].split('"')[0]
    fields = {"csrftoken": token, "name": name, "password": "correct horse", "again": "correct horse"}
    answer = client.post("/signup", data=fields, headers={"origin": "http://testserver"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text


def operator_post(client: TestClient, path: str, **fields: str) -> Any:
    token = client.get("/operator").text.split('name="csrf-token" content="')[1].split('"')[0]
    return client.post(path, data={"csrftoken": token, **fields}, headers={"origin": "http://testserver"}, follow_redirects=False)


def test_only_an_operator_sees_reports_and_mutes_bans_and_hides(app_client: TestClient, tmp_path: Path) -> None:
    store = store_of(app_client)
    game, _ = new_game(app_client)
    rude = TestClient(app_client.app)
    sign_up(rude, "Rude")
    assert say(rude, game, "spectators", "you all play badly").status_code == 201
    boss = TestClient(app_client.app)
    sign_up(boss, "Boss")
    assert boss.get("/operator").status_code == 403  # not an operator yet
    assert boss.post("/operator/sanction", data={"name": "Rude", "kind": "mute"}).status_code == 403
    assert records.sanction_of(store, accounts.account_by_key(store, "rude").id) is None  # type: ignore[union-attr]

    assert records.set_role(store, "boss", "operator") == "Boss"
    app_client.post(f"/api/games/{game}/report", json={"reason": "spectator insults"})
    assert "spectator insults" in boss.get("/operator").text
    assert "you all play badly" in boss.get(f"/operator/games/{game}").text

    assert operator_post(boss, "/operator/sanction", name="Rude", kind="mute").status_code == 303
    assert texts(app_client, game) == {"players": [], "spectators": []}  # hidden from everyone
    assert say(rude, game, "spectators", "still here").json()["code"] == "muted"
    assert "you all play badly" in boss.get(f"/operator/games/{game}").text  # the operator still reads it
    assert rude.post("/api/games", json={"game": "omny", "options": {}}).status_code == 201  # muted, not banned

    assert operator_post(boss, "/operator/sanction", name="rude", kind="ban").status_code == 303
    assert rude.post("/api/games", json={"game": "omny", "options": {}}).json()["code"] == "banned"
    assert rude.post("/api/omiga", json={"options": {}}).json()["code"] == "banned"
    assert say(rude, game, "spectators", "still here").json()["code"] == "banned"
    assert operator_post(boss, "/operator/lift", name="rude").status_code == 303
    assert texts(app_client, game)["spectators"] == ["you all play badly"]
    assert operator_post(boss, "/operator/sanction", name="nobody-here", kind="ban").status_code == 404

    assert operator_post(boss, "/operator/hide", game=game, hidden="1").status_code == 303
    assert app_client.get(f"/api/games/{game}/chat").json()["hidden"] is True
    assert texts(app_client, game)["spectators"] == []
    assert say(app_client, game, "players", "hello?").json()["code"] == "hidden"
    assert operator_post(boss, "/operator/hide", game=game, hidden="0").status_code == 303
    assert say(app_client, game, "players", "hello?").status_code == 201

    assert records.set_role(store, "Boss", "player") == "Boss"
    assert boss.get("/operator").status_code == 403  # from the next request on


def test_a_guest_who_chatted_can_be_muted_by_the_name_shown(app_client: TestClient) -> None:
    game, _ = new_game(app_client)
    guest = TestClient(app_client.app)
    said = say(guest, game, "spectators", "spam spam").json()
    store = store_of(app_client)
    ids = records.players_named(store, said["author"])
    assert len(ids) == 1 and ids[0].startswith("g")
    records.sanction(store, ids, said["author"], records.MUTE, "test")
    assert say(guest, game, "spectators", "more spam").json()["code"] == "muted"


def test_the_operator_command_grants_and_revokes_on_the_given_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'op.sqlite3'}"
    store = Store(url)
    try:
        accounts.create_account(store, "Ada", "ada", "x")
    finally:
        store.close()
    runner = CliRunner()
    granted = runner.invoke(cli, ["operator", "grant", "ADA", "--database", url])
    assert granted.exit_code == 0 and "Ada is an operator" in granted.output
    store = Store(url)
    try:
        assert accounts.account_by_key(store, "ada").role == "operator"  # type: ignore[union-attr]
    finally:
        store.close()
    assert runner.invoke(cli, ["operator", "revoke", "ada", "--database", url]).exit_code == 0
    missing = runner.invoke(cli, ["operator", "grant", "nobody", "--database", url])
    assert missing.exit_code == 1 and "no account named nobody" in missing.output
    store = Store(url)
    try:
        assert accounts.account_by_key(store, "ada").role == "player"  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_card_table_has_the_same_two_rooms(app_client: TestClient) -> None:
    asked = {"options": {"width": 7, "height": 5}, "seats": [{"kind": "here"}, {"kind": "invite"}]}
    made = app_client.post("/api/omiga", json=asked)
    assert made.status_code == 201, made.text
    table = made.json()
    link = table["invitations"]["1"]  # /o/ID#seats=1.TOKEN
    token = link.rsplit(".", 1)[1]
    spectator, friend = TestClient(app_client.app), TestClient(app_client.app)
    assert say(app_client, table["id"], "players", "ready?").status_code == 201
    assert say(friend, table["id"], "players", "ready", [token]).status_code == 201
    assert say(spectator, table["id"], "players", "go left").status_code == 403
    assert texts(spectator, table["id"]) == {"spectators": []}
    assert texts(app_client, table["id"])["players"] == ["ready?", "ready"]
    page = app_client.get(f"/o/{table['id']}").text
    assert 'id="chat"' in page and 'data-seats-key="ogames:omiga:"' in page
