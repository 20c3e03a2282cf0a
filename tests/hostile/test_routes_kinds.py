"""Each kind of game is served only by its own routes: every board-game route and socket refuses an
Omiga card table (in each of its phases: before the signal, live, finished; turn-based too), and
every card-table route and socket refuses a board game (live against someone, finished, after a
take-back, after a loss on time) — 404, saying where the game is — and nothing stored changes:
not the record, not the version, not the clock. The server runs as a process, driven over HTTP
and WebSockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hostile_web import Server, new_game, play, refused_socket, running, settled, wait_view

import ogames

SMALL = {"width": 7, "height": 5}
TWO_PEOPLE = [{"kind": "here"}, {"kind": "invite"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("kinds")) as server:
        yield server


def table_tokens(made: dict[str, Any]) -> dict[int, str]:
    """Every seat's token of a new table: the creator's and those in the invitation links."""
    held = {int(seat): token for seat, token in made["tokens"].items()}
    held.update({int(seat): link.split(f"seats={seat}.")[1] for seat, link in made["invitations"].items()})
    return held


def new_table(server: Server, options: dict[str, Any], seats: list[dict[str, Any]] = TWO_PEOPLE) -> tuple[str, dict[int, str]]:
    status, made = server.call("/api/omiga", {"options": options, "seats": seats})
    assert status == 201, made
    return made["id"], table_tokens(made)


def signal(server: Server, table_id: str, tokens: dict[int, str]) -> None:
    """Every person is at the table: wait for the signal (the table stays live: nobody acts)."""
    with server.socket(f"/ws/o/{table_id}") as ws:
        ws.send(json.dumps({"type": "ready", "tokens": list(tokens.values())}))
        wait_view(server, f"/api/omiga/{table_id}", lambda view: view["started"])


@pytest.fixture(scope="module")
def tables(server: Server) -> dict[str, tuple[str, dict[int, str]]]:
    """Omiga tables in every phase: real time before the signal, live and finished; turn-based live."""
    made = {name: new_table(server, SMALL) for name in ("before the signal", "live", "finished")}
    made["turns"] = new_table(server, {"variant": "kids", "pace": "turns", "width": 7, "height": 5})
    for name in ("live", "finished"):
        signal(server, *made[name])
    table_id, tokens = made["finished"]
    status, verdict = server.call(f"/api/omiga/{table_id}/resign", {"token": tokens[0], "seq": 1})
    assert status == 200 and verdict["accepted"], verdict
    assert server.call(f"/api/omiga/{table_id}")[1]["over"]
    return made


@pytest.fixture(scope="module")
def boards(server: Server) -> dict[str, tuple[str, dict[str, str]]]:
    """Board games in every phase: live on one screen, against the computer and a person; finished;
    after a take-back; after a loss on time."""
    made: dict[str, tuple[str, dict[str, str]]] = {}
    hotseat = new_game(server)
    play(server, hotseat["id"], hotseat["tokens"]["0"], "c3")
    made["hotseat"] = hotseat["id"], hotseat["tokens"]
    computer = new_game(server, seats=["here", "computer:1"])
    play(server, computer["id"], computer["tokens"]["0"], "c3")
    settled(server, computer["id"])
    made["against the computer"] = computer["id"], computer["tokens"]
    online = new_game(server, seats=["here", "invite"])
    tokens = {"0": online["tokens"]["0"], "1": online["invitations"]["1"]["token"]}
    play(server, online["id"], tokens["0"], "c3")
    made["against a person"] = online["id"], tokens
    finished = new_game(server, seats=["here", "invite"])
    assert server.call(f"/api/games/{finished['id']}/resign", {"token": finished["tokens"]["0"], "version": 0})[0] == 200
    made["finished"] = finished["id"], finished["tokens"]
    taken = new_game(server)
    play(server, taken["id"], taken["tokens"]["0"], "c3")
    play(server, taken["id"], taken["tokens"]["1"], "a1")
    assert server.call(f"/api/games/{taken['id']}/undo", {"token": taken["tokens"]["0"], "version": 2})[0] == 200
    made["after a take-back"] = taken["id"], taken["tokens"]
    flagged = new_game(server, clock={"minutes": 0.05})
    play(server, flagged["id"], flagged["tokens"]["0"], "c3")
    play(server, flagged["id"], flagged["tokens"]["1"], "a1")  # Black's clock runs: 3 s
    wait_view(server, f"/api/games/{flagged['id']}", lambda view: view["over"])
    made["lost on time"] = flagged["id"], flagged["tokens"]
    return made


def omiga_state(server: Server, table_id: str) -> dict[str, Any]:
    """What must not change at a table: the stored game, and the referee's view of it (less its running clock)."""
    view = server.call(f"/api/omiga/{table_id}")[1]
    shown = {key: view[key] for key in ("version", "over", "started", "moves", "count", "scores", "result", "seats")}
    return {"stored": server.stored(table_id), "view": shown, "record": server.call(f"/o/{table_id}/record.json")[1]}


def board_state(server: Server, game_id: str) -> dict[str, Any]:
    view = server.call(f"/api/games/{game_id}")[1]
    shown = {key: view[key] for key in ("version", "ply", "over", "moves", "stones", "result", "undo_request")}
    return {"stored": server.stored(game_id), "view": shown, "record": server.call(f"/g/{game_id}/record.json")[1]}


def a_legal_action(server: Server, table_id: str, tokens: dict[int, str]) -> tuple[str, str]:
    """(an action the table's rules accept now, the token of the seat that may make it)."""
    state = ogames.replay(server.record(table_id))  # whole, seed included: the download leaves it out while the game is on
    legal = state.legal_moves()
    if not legal:
        return "resign", tokens[0]
    if state.to_move is None:  # real time: `actor: action`, any actor
        actor, action = legal[0].split(": ", 1)
        return action, tokens[state.actors.index(actor)]  # type: ignore[attr-defined]
    return legal[0], tokens[state.mover]


BOARD_ROUTES = ["view", "position", "record", "move", "resign", "undo", "decline", "join", "analysis", "replay page"]


def on_board_route(server: Server, route: str, game_id: str, token: str, move: str, version: int) -> tuple[int, str]:
    """(status, what it says) of one board-game route asked about a game."""
    base = f"/api/games/{game_id}"
    asks: dict[str, tuple[str, dict[str, Any] | None]] = {
        "view": (base, None),
        "position": (f"{base}/position/0", None),
        "record": (f"/g/{game_id}/record.json", None),
        "move": (f"{base}/moves", {"move": move, "token": token, "version": version}),
        "resign": (f"{base}/resign", {"token": token, "version": version}),
        "undo": (f"{base}/undo", {"token": token, "version": version}),
        "decline": (f"{base}/undo", {"token": token, "version": version, "decline": True}),
        "join": (f"{base}/join", {"seat": 1}),
        "analysis": (f"{base}/analysis", {"ply": 0, "seconds": 0.2}),
    }
    if route == "replay page":
        status, text, _ = server.page(f"/g/{game_id}/replay")
        return status, text
    path, body = asks[route]
    status, answer = server.call(path, body)
    assert answer.get("code") == "not-found", answer
    return status, answer["error"]


@pytest.mark.parametrize("phase", ["before the signal", "live", "finished", "turns"])
def test_no_board_game_route_acts_on_a_card_table(server: Server, tables: dict, phase: str) -> None:
    table_id, tokens = tables[phase]
    before = omiga_state(server, table_id)
    action, token = a_legal_action(server, table_id, tokens)
    version = before["view"]["version"]
    for route in BOARD_ROUTES:
        status, said = on_board_route(server, route, table_id, token, action, version)
        assert status == 404, (route, said)
        assert f"/o/{table_id}" in said and "Omiga card table" in said, (route, said)
    first, code = refused_socket(server, f"/ws/g/{table_id}")
    assert first["code"] == "not-found" and f"/o/{table_id}" in first["message"] and code == 4404
    assert omiga_state(server, table_id) == before
    status, _, headers = server.page(f"/g/{table_id}")  # the game page sends a person to the table
    assert status == 307 and headers["location"] == f"/o/{table_id}"


@pytest.mark.parametrize("phase", ["hotseat", "against the computer", "against a person", "finished", "after a take-back",
                                   "lost on time"])
def test_no_card_table_route_acts_on_a_board_game(server: Server, boards: dict, phase: str) -> None:
    game_id, tokens = boards[phase]
    before = board_state(server, game_id)
    view = server.call(f"/api/games/{game_id}")[1]
    token = tokens[str(view["mover"] if view["mover"] is not None else 0)]
    move = (view["legal"] or ["a2"])[0]
    asks = [
        (f"/api/omiga/{game_id}", None),
        (f"/o/{game_id}/record.json", None),
        (f"/api/omiga/{game_id}/act", {"action": move, "token": token, "seq": 1}),
        (f"/api/omiga/{game_id}/resign", {"token": token, "seq": 2}),
    ]
    for path, body in asks:
        status, answer = server.call(path, body)
        assert status == 404 and answer["code"] == "not-found", (path, answer)
        assert f"/g/{game_id}" in answer["error"] and "board game" in answer["error"], (path, answer)
    status, text, _ = server.page(f"/o/{game_id}")
    assert status == 404 and f"/g/{game_id}" in text
    first, code = refused_socket(server, f"/ws/o/{game_id}")
    assert first["code"] == "not-found" and f"/g/{game_id}" in first["message"] and code == 4404
    assert board_state(server, game_id) == before


def test_each_route_still_serves_its_own_kind(server: Server, tables: dict, boards: dict) -> None:
    """The refusals above are about the kind, not the routes: each serves its own games."""
    table_id, _ = tables["live"]
    game_id, _ = boards["hotseat"]
    assert server.call(f"/api/omiga/{table_id}")[0] == 200 and server.page(f"/o/{table_id}")[0] == 200
    assert server.call(f"/api/games/{game_id}")[0] == 200 and server.page(f"/g/{game_id}")[0] == 200
    assert server.page(f"/g/{game_id}/replay")[0] == 200 and server.call(f"/api/games/{game_id}/position/1")[0] == 200
    with server.socket(f"/ws/o/{table_id}") as ws:
        assert json.loads(ws.recv(timeout=30))["type"] == "state"


def test_the_home_page_links_each_game_to_its_own_routes(server: Server, tables: dict, boards: dict) -> None:
    status, text, _ = server.page("/")
    table_id, _ = tables["finished"]
    game_id, _ = boards["finished"]
    assert status == 200 and f'href="/o/{table_id}"' in text and f"/g/{table_id}" not in text
    assert f'href="/g/{game_id}/replay"' in text
