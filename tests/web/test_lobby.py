"""The lobby in one process (web/lobby/): seeks posted, listed live, accepted into a game for both,
withdrawn when cancelled or when the poster's lobby pages close; and the refusals."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ogames.web.accounts import records as accounts
from ogames.web.core.store import Store
from ogames.web.lobby import records
from ogames.web.lobby.lobby import MAX_SEEKS

SEEK = {"type": "seek", "game": "omny", "options": {"variant": "y", "size": 5}}


def upto(ws: Any, kind: str, limit: int = 20) -> list[dict[str, Any]]:
    """The messages on a lobby socket up to the next one of a kind (the last)."""
    seen = []
    for _ in range(limit):
        seen.append(ws.receive_json())
        if seen[-1]["type"] == kind:
            return seen
    raise AssertionError(f"no {kind!r} message")


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of a kind on a lobby socket (skipping the others)."""
    return upto(ws, kind)[-1]


def guests(client: TestClient, n: int = 2) -> list[dict[str, str]]:
    """The headers of `n` browsers, each a guest of its own (one client: the app's one event loop)."""
    made = []
    for _ in range(n):
        client.cookies.clear()
        client.get("/")
        made.append({"cookie": "; ".join(f"{name}={value}" for name, value in client.cookies.items())})
    client.cookies.clear()
    return made


def lobby(client: TestClient, headers: dict[str, str]) -> Any:
    """A lobby page of the browser these headers are."""
    return client.websocket_connect("/ws/lobby", headers=headers)


def store_of(client: TestClient) -> Store:
    return client.app.state.store  # type: ignore[attr-defined,no-any-return]


def test_a_seek_is_listed_live_and_accepting_it_starts_the_game_for_both(client: TestClient) -> None:
    one, two = guests(client)
    with lobby(client, one) as poster, lobby(client, two) as taker:
        assert until(poster, "seeks")["seeks"] == [] and until(taker, "seeks")["seeks"] == []
        poster.send_json({**SEEK, "clock": {"minutes": 5, "increment": 3}})
        posted = until(poster, "posted")
        token = posted["token"]
        mine = until(poster, "new")["seek"]
        seen = until(taker, "new")["seek"]
        assert mine["mine"] and not seen["mine"] and seen["id"] == posted["seek"]
        assert seen["clock"] == {"minutes": 5.0, "increment": 3.0} and seen["options"]["size"] == 5
        assert "poster_id" not in seen and "digest" not in seen and token not in str(seen)
        taker.send_json({"type": "accept", "seek": seen["id"]})
        *before, go = upto(taker, "go")
        assert {"type": "gone", "seek": seen["id"]} in before  # the seek left every list
        matched = until(poster, "matched")
        assert matched["game"] == go["game"] and {matched["seat"], go["seat"]} == {0, 1}
    game_id = go["game"]
    # Both hold their seat: each token moves for its own seat only.
    their_token = go["url"].split(f"seats={go['seat']}.")[1]
    tokens = {matched["seat"]: token, go["seat"]: their_token}
    view = client.get(f"/api/games/{game_id}").json()
    assert view["clock"] is not None and not view["over"]
    black = tokens[0]
    assert client.post(f"/api/games/{game_id}/moves", json={"move": "c3", "token": tokens[1], "version": 0}).status_code == 409
    assert client.post(f"/api/games/{game_id}/moves", json={"move": "c3", "token": black, "version": 0}).status_code == 200
    # Each visitor is recorded in their seat, and the seek is gone from the database.
    seated = accounts.seat_players_of(store_of(client), game_id)
    assert len(set(seated.values())) == 2
    assert records.open_seeks(store_of(client)) == []


def test_nobody_accepts_their_own_seek(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        until(ws, "seeks")
        ws.send_json(SEEK)
        seek = until(ws, "posted")["seek"]
        ws.send_json({"type": "accept", "seek": seek})
        refusal = until(ws, "error")
        assert refusal["code"] == "own-seek"
        assert [row.id for row in records.open_seeks(store_of(client))] == [seek]


def test_a_seek_goes_when_its_posters_last_lobby_page_closes(client: TestClient) -> None:
    one, two = guests(client)
    with lobby(client, two) as watching:
        until(watching, "seeks")
        with lobby(client, one) as first, lobby(client, one) as second:
            until(first, "seeks")
            until(second, "seeks")
            first.send_json(SEEK)
            seek = until(first, "posted")["seek"]
            assert until(watching, "new")["seek"]["id"] == seek
        assert until(watching, "gone")["seek"] == seek
    assert records.open_seeks(store_of(client)) == []


def test_cancelling_withdraws_only_ones_own_seek(client: TestClient) -> None:
    one, two = guests(client)
    with lobby(client, one) as poster, lobby(client, two) as stranger:
        until(poster, "seeks")
        until(stranger, "seeks")
        poster.send_json(SEEK)
        seek = until(poster, "posted")["seek"]
        stranger.send_json({"type": "cancel", "seek": seek})
        assert until(stranger, "error")["code"] == "seek-gone"
        assert len(records.open_seeks(store_of(client))) == 1
        poster.send_json({"type": "cancel", "seek": seek})
        assert until(stranger, "gone")["seek"] == seek
        assert records.open_seeks(store_of(client)) == []


def test_a_visitor_has_at_most_a_few_open_seeks(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        until(ws, "seeks")
        for _ in range(MAX_SEEKS):
            ws.send_json(SEEK)
            until(ws, "posted")
        ws.send_json(SEEK)
        assert until(ws, "error")["code"] == "too-many-seeks"
        assert len(records.open_seeks(store_of(client))) == MAX_SEEKS


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "seek", "game": "chess"}, "bad-game"),
        ({"type": "seek", "game": "omiga"}, "bad-game"),
        ({"type": "seek", "game": "omny", "options": {"size": 999}}, "bad-option"),
        ({"type": "seek", "game": "omega", "options": {"players": 3}}, "bad-seat"),
        ({"type": "seek", "game": "omny", "days": 4}, "invalid"),
        ({"type": "seek", "game": "omny", "min": 1800, "max": 1200}, "invalid"),
        ({"type": "seek", "game": "omny", "rated": True}, "rated-account"),
        ({"type": "seek", "game": "omny", "dangerous": 1}, "invalid"),
        ({"type": "accept", "seek": "<script>"}, "invalid"),
        ({"type": "accept", "seek": "nosuchseek"}, "seek-gone"),
        ({"type": "launch"}, "invalid"),
        (["not", "an", "object"], "invalid"),
    ],
)
def test_bad_messages_are_refused_and_change_nothing(client: TestClient, message: Any, code: str) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        until(ws, "seeks")
        ws.send_json(message)
        refusal = until(ws, "error")
        assert refusal["code"] == code, refusal
        assert refusal["message"]
    assert records.open_seeks(store_of(client)) == []


def test_a_seeks_words_reach_pages_in_their_language(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby?lang=ru") as ws:
        until(ws, "seeks")
        ws.send_json({"type": "accept", "seek": "nosuchseek"})
        refusal = until(ws, "error")
        assert refusal["code"] == "seek-gone" and "seek" not in refusal["message"]


def test_the_lobby_page_and_the_home_pages_link(client: TestClient) -> None:
    page = client.get("/lobby")
    assert page.status_code == 200 and "/static/lobby.js" in page.text
    assert 'href="/lobby"' in client.get("/").text


def test_quick_pairing_pairs_the_closest_rating_waiting(client: TestClient) -> None:
    store = store_of(client)
    strong, weak, newcomer = guests(client, 3)
    with lobby(client, strong) as first, lobby(client, weak) as second, lobby(client, newcomer) as third:
        for page in (first, second, third):
            until(page, "seeks")
        quick = {**SEEK, "quick": True, "days": 3}
        first.send_json({**quick, "min": 1600})  # (leaves out the second, a guest at 1500: both wait)
        strong_seek = until(first, "posted")["seek"]
        second.send_json(quick)
        weak_seek = until(second, "posted")["seek"]
        second.send_json({**SEEK, "quick": True})  # another time control: no match for days
        until(second, "posted")
        # (guests are all at the start rating: make the two waiting ones differ, as ratings would)
        with store.engine.begin() as conn:
            conn.execute(records.seeks.update().where(records.seeks.c.id == strong_seek).values(rating=1900.0, rating_min=None))
            conn.execute(records.seeks.update().where(records.seeks.c.id == weak_seek).values(rating=1450.0))
        third.send_json(quick)
        go = until(third, "go")
        assert until(second, "matched")["seek"] == weak_seek  # 1450 is closer to 1500 than 1900
        assert {seek.id for seek in records.open_seeks(store)} >= {strong_seek}
        assert weak_seek not in {seek.id for seek in records.open_seeks(store)}
        assert go["url"].startswith(f"/g/{go['game']}#seats=")


def account(client: TestClient, name: str) -> dict[str, str]:
    """The headers of a browser signed up as `name` (a new account)."""
    from .test_accounts import form

    client.cookies.clear()
    client.get("/")
    status, text, _ = form(client, "/signup", name=name, password="correct horse", again="correct horse")
    assert status == 303, text
    made = {"cookie": "; ".join(f"{key}={value}" for key, value in client.cookies.items())}
    client.cookies.clear()
    return made


def test_a_rated_seek_makes_a_rated_game_and_only_an_account_accepts_it(client: TestClient) -> None:
    ada, bob = account(client, "ada"), account(client, "bob")
    (guest,) = guests(client, 1)
    with lobby(client, ada) as poster, lobby(client, guest) as stranger, lobby(client, bob) as taker:
        for page in (poster, stranger, taker):
            until(page, "seeks")
        poster.send_json({**SEEK, "rated": True, "days": 3})
        seek = until(poster, "posted")["seek"]
        assert until(taker, "new")["seek"]["rated"]
        stranger.send_json({"type": "accept", "seek": seek})
        assert until(stranger, "error")["code"] == "rated-account"
        assert [row.id for row in records.open_seeks(store_of(client))] == [seek]  # still open
        taker.send_json({"type": "accept", "seek": seek})
        go = until(taker, "go")
    view = client.get(f"/api/games/{go['game']}").json()
    assert view["rated"] is True
    seated = accounts.seat_players_of(store_of(client), go["game"])
    assert all(player is not None and player.startswith("a") for player in seated.values()) and len(seated) == 2


def test_a_challenge_is_seen_by_its_two_players_only_and_may_be_declined(client: TestClient) -> None:
    ada, bob = account(client, "ada"), account(client, "Bob")
    (guest,) = guests(client, 1)
    with lobby(client, ada) as challenger, lobby(client, bob) as challenged, lobby(client, guest) as stranger:
        for page in (challenger, challenged, stranger):
            until(page, "seeks")
        challenger.send_json({**SEEK, "to": "bob"})  # any case
        seek = until(challenger, "posted")["seek"]
        shown = until(challenged, "new")["seek"]
        assert shown["id"] == seek and shown["for_me"] and shown["to"] == "Bob"
        stranger.send_json({"type": "accept", "seek": seek})  # not listed for them, and not theirs to take
        heard = upto(stranger, "error")  # (the challenge's news went out before this answer)
        assert heard[-1]["code"] == "seek-gone" and all(message["type"] != "new" for message in heard)
        with lobby(client, guest) as later:
            assert until(later, "seeks")["seeks"] == []
        with lobby(client, bob) as later:
            assert [listed["id"] for listed in until(later, "seeks")["seeks"]] == [seek]
        challenged.send_json({"type": "decline", "seek": seek})
        assert until(challenger, "gone")["seek"] == seek
        assert records.open_seeks(store_of(client)) == []
        challenger.send_json({**SEEK, "to": "nobody_here"})
        assert until(challenger, "error")["code"] == "no-such-player"
        challenger.send_json({**SEEK, "to": "ADA"})
        assert until(challenger, "error")["code"] == "own-seek"
        challenger.send_json({**SEEK, "to": "bob"})
        again = until(challenger, "posted")["seek"]
        until(challenged, "new")
        challenged.send_json({"type": "accept", "seek": again})
        go = until(challenged, "go")
        assert until(challenger, "matched")["game"] == go["game"]


def test_a_lobby_socket_sending_too_fast_is_refused_then_closed(tmp_path: Any) -> None:
    from starlette.websockets import WebSocketDisconnect

    from ogames.web import create_app

    from .conftest import quick_settings

    settings = quick_settings(tmp_path / "g.sqlite3", ws_rate=0.5, ws_burst=3, ws_strikes=4)
    with TestClient(create_app(settings)) as client, client.websocket_connect("/ws/lobby") as ws:
        until(ws, "seeks")
        for _ in range(3):  # the burst: each answered
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"
        ws.send_json(SEEK)  # past it (a refill takes 2 s): refused, nothing posted
        refusal = ws.receive_json()
        assert refusal["code"] == "rate-limited"
        assert records.open_seeks(client.app.state.store) == []  # type: ignore[attr-defined]
        with pytest.raises(WebSocketDisconnect):
            for _ in range(10):
                ws.send_json({"type": "ping"})
                ws.receive_json()


def test_a_challenge_reaches_the_challenged_players_other_pages(client: TestClient) -> None:
    ada, bob = account(client, "ada"), account(client, "bob")
    with lobby(client, ada) as challenger, client.websocket_connect("/ws/lobby?challenges=1", headers=bob) as header, \
            client.websocket_connect("/ws/lobby?challenges=1", headers=ada) as own_header:
        until(challenger, "seeks")
        assert until(header, "seeks")["seeks"] == [] and until(own_header, "seeks")["seeks"] == []
        challenger.send_json(SEEK)  # a seek for anyone: not shown in headers
        until(challenger, "posted")
        challenger.send_json({**SEEK, "to": "bob"})
        seek = until(challenger, "posted")["seek"]
        shown = until(header, "new")["seek"]  # (the open seek before it was not pushed here)
        assert shown["id"] == seek and shown["for_me"]
        header.send_json(SEEK)  # a header posts nothing
        assert until(header, "error")["code"] == "invalid"
        own_header.send_json({"type": "ping"})
        heard = upto(own_header, "pong")
        assert all(message["type"] != "new" for message in heard)  # one's own challenges are not in one's header
        header.send_json({"type": "accept", "seek": seek})
        go = until(header, "go")
        assert until(challenger, "matched")["game"] == go["game"]


def test_posting_and_cancelling_in_a_loop_is_held_to_a_few_posts_in_a_while(tmp_path: Any) -> None:
    from ogames.web import create_app

    from .conftest import quick_settings

    settings = quick_settings(tmp_path / "g.sqlite3", seek_rate=0.01, seek_burst=3)  # 3 in any 300 s
    with TestClient(create_app(settings)) as client:
        (one, other) = guests(client)
        with lobby(client, one) as ws, lobby(client, other) as watcher:
            until(ws, "seeks")
            until(watcher, "seeks")
            for _ in range(3):
                ws.send_json(SEEK)
                seek = until(ws, "posted")["seek"]
                ws.send_json({"type": "cancel", "seek": seek})
                until(watcher, "gone")
            ws.send_json({**SEEK, "to": "anyone"})  # a challenge counts as a post too
            refusal = until(ws, "error")
            assert refusal["code"] == "rate-limited" and 1 <= refusal["retry_after"] <= 300
            assert records.open_seeks(client.app.state.store) == []  # type: ignore[attr-defined]
            watcher.send_json(SEEK)  # another visitor has an allowance of their own
            assert until(watcher, "posted")["seek"]


def test_a_pair_of_seeks_is_taken_both_or_neither(client: TestClient) -> None:
    store = store_of(client)

    def seek(seek_id: str, poster: str) -> records.Seek:
        return records.Seek(seek_id, poster, poster, "w", "omny", {}, False, 1500.0, None, None, "d" * 64, 1.0)

    assert records.add(store, seek("mine", "g1"), MAX_SEEKS) and records.add(store, seek("theirs", "g2"), MAX_SEEKS)
    assert not records.take_pair(store, "mine", "nothere")  # one is gone: the other stays
    assert {row.id for row in records.open_seeks(store)} == {"mine", "theirs"}
    assert records.take_pair(store, "theirs", "mine")
    assert records.open_seeks(store) == []
    assert not records.take_pair(store, "mine", "theirs")


def test_a_posters_places_are_freed_as_their_seeks_go(client: TestClient) -> None:
    store = store_of(client)

    def seek(seek_id: str) -> records.Seek:
        return records.Seek(seek_id, "g1", "g1", "w", "omny", {}, False, 1500.0, None, None, "d" * 64, 1.0)

    assert all(records.add(store, seek(f"s{n}"), MAX_SEEKS) for n in range(MAX_SEEKS))
    assert not records.add(store, seek("over"), MAX_SEEKS)
    assert records.withdraw(store, "g1", None, "s1") == ["s1"]
    assert records.add(store, seek("again"), MAX_SEEKS)  # the freed place is taken again
    assert not records.add(store, seek("over"), MAX_SEEKS)
    assert {row.id for row in records.open_seeks(store)} == {"s0", "s2", "again"}


def test_a_seek_shows_whether_its_posters_rating_is_provisional_now(client: TestClient) -> None:
    import time

    from ogames.ratings import RatingStore, computer_id
    from ogames.ratings.model import DAY

    store = store_of(client)
    ada, bob = account(client, "ada"), account(client, "bob")
    (guest,) = guests(client, 1)
    ratings = RatingStore(store.engine)
    ids = {name: accounts.account_by_key(store, name).id for name in ("ada", "bob")}  # type: ignore[union-attr]
    for name, last in (("ada", time.time() - DAY), ("bob", time.time() - 400 * DAY)):  # both settle; Bob then stops
        for n in range(40):
            ratings.apply_result(f"{name}{n}", "omny", [ids[name], computer_id(5)], [1, 0] if n % 3 else [0, 1],
                                 at=last - (40 - n) * 60)
    with lobby(client, guest) as watcher:
        until(watcher, "seeks")
        for headers, provisional in ((ada, False), (bob, True), (guest, True)):  # Bob: a year away; a guest: new
            with lobby(client, headers) as poster:
                until(poster, "seeks")
                poster.send_json(SEEK)
                seek = until(poster, "posted")["seek"]
                shown = until(watcher, "new")["seek"]
                assert shown["id"] == seek and shown["provisional"] is provisional, (headers, shown)


def test_a_header_opened_later_is_listed_only_the_challenges_to_its_visitor(client: TestClient) -> None:
    """A page's header reads only the challenges to its visitor (the lobby may hold hundreds of
    seeks): neither the seeks for anyone nor one's own challenge, while the lobby lists them all."""
    ada, bob = account(client, "ada"), account(client, "bob")
    with lobby(client, ada) as challenger:
        until(challenger, "seeks")
        challenger.send_json(SEEK)
        anyone = until(challenger, "posted")["seek"]
        challenger.send_json({**SEEK, "to": "bob"})
        challenge = until(challenger, "posted")["seek"]
        with client.websocket_connect("/ws/lobby?challenges=1", headers=bob) as header:
            listed = until(header, "seeks")["seeks"]
            assert [seek["id"] for seek in listed] == [challenge] and listed[0]["for_me"]
        with client.websocket_connect("/ws/lobby?challenges=1", headers=ada) as own_header:
            assert until(own_header, "seeks")["seeks"] == []
        with lobby(client, bob) as page:
            assert {seek["id"] for seek in until(page, "seeks")["seeks"]} == {anyone, challenge}
        bob_id = accounts.account_by_key(store_of(client), "bob").id  # type: ignore[union-attr]
        assert [seek.id for seek in records.open_seeks(store_of(client), target_id=bob_id)] == [challenge]
