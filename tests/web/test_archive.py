"""The archive of finished games (web/archive/search.py) and "my games" (web/archive/mine.py), in
one server: a few hundred stored games searched by player, game, variant, outcome and dates, a
page at a time, through indexes; my games in their order (waiting for my move first, least time
left first, then going on, then over); nobody sees another's games; migration 0010 fills the new
columns of games stored before it."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text, update

from ogames.web import create_app
from ogames.web.accounts import records
from ogames.web.archive.mine import GOING_ON, OVER, WAITING, MyGame, order_key
from ogames.web.archive.search import PAGE_SIZE, Search, search
from ogames.web.core.store import Store, games, migrate, outcome_of

from .conftest import create, quick_settings

DAY = 86_400.0
BASE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC).timestamp()
VARIANTS = ("y", "sunder", "gyre")
OUTCOMES = ("win", "draw", "resign", "time")


def record(variant: str, players: list[str], result: dict[str, str] | None) -> dict[str, Any]:
    return {"format": "ogames-record", "version": 1, "game": "omny", "options": {"variant": variant, "size": 4},
            "players": players, "seats": {"black": players[0], "white": players[1]}, "moves": [], "result": result}


def stored_archive(store: Store, count: int = 300) -> dict[str, dict[str, Any]]:
    """`count` finished games: game i of variant VARIANTS[i % 3], outcome OUTCOMES[i % 4], ended on
    day i // 3 of 2026; Ada (an account) sat in every fifth. What each was, by id."""
    ada = records.create_account(store, "Ada", "ada", "x")
    made = {}
    for i in range(count):
        game_id = f"arch{i:04d}"
        variant, outcome = VARIANTS[i % 3], OUTCOMES[i % 4]
        players = ["Ada" if i % 5 == 0 else f"p{i}", f"q{i}"]
        store.create_game(game_id, "omny", "online", ["human", "human"], record(variant, players, None), {})
        result = {"winner": "draw" if outcome == "draw" else "white", "reason": "-"}
        head = {key: value for key, value in record(variant, players, result).items() if key != "moves"}
        last = {"move": "resign", "by": "black"} if outcome in ("resign", "time") else {"move": "a1", "by": "black"}
        clock = {"days": 1, "seats": 2, "deadline": None, "since": None, "flagged": 0 if outcome == "time" else None,
                 "moved": [0, 1]}
        store.add_entries(game_id, 0, head, 0, [last], clock)
        if i % 5 == 0:
            records.seat_player(store, game_id, 0, ada.id)
        ended = BASE + (i // 3) * DAY + 3600
        with store.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id).values(updated_at=ended))
        made[game_id] = {"variant": variant, "outcome": outcome, "ended": ended, "ada": i % 5 == 0}
    return made


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, dict[str, dict[str, Any]]]]:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('archive') / 'games.sqlite3'}")
    made = stored_archive(store)
    yield store, made
    store.close()


def every_page(store: Store, asked: Search) -> list[dict[str, Any]]:
    found, page = [], 1
    while True:
        answer = search(store, Search(**{**asked.__dict__, "page": page}))
        assert len(answer.games) <= PAGE_SIZE
        found += answer.games
        if not answer.more:
            return found
        page += 1


def expected(made: dict[str, dict[str, Any]], **wanted: Any) -> list[str]:
    def fits(game: dict[str, Any]) -> bool:
        return all(game[key] == value for key, value in wanted.items() if key in ("variant", "outcome", "ada")) and (
            wanted.get("since") is None or game["ended"] >= wanted["since"]) and (
            wanted.get("until") is None or game["ended"] < wanted["until"])

    fitting = [game_id for game_id, game in made.items() if fits(game)]
    return sorted(fitting, key=lambda game_id: (-made[game_id]["ended"], game_id))


@pytest.mark.parametrize("asked, wanted", [
    (Search(), {}),
    (Search(variant="sunder"), {"variant": "sunder"}),
    (Search(outcome="time"), {"outcome": "time"}),
    (Search(player="ADA"), {"ada": True}),
    (Search(player="ada", outcome="draw", game="omny"), {"ada": True, "outcome": "draw"}),
    (Search(since=dt.date(2026, 2, 1), until=dt.date(2026, 2, 10)),
     {"since": dt.datetime(2026, 2, 1, tzinfo=dt.UTC).timestamp(), "until": dt.datetime(2026, 2, 11, tzinfo=dt.UTC).timestamp()}),
    (Search(game="oddy"), {"variant": "none"}),
    (Search(player="nobody"), {"variant": "none"}),
])
def test_a_search_finds_exactly_the_games_that_fit_newest_first_page_by_page(
    archive: tuple[Store, dict[str, dict[str, Any]]], asked: Search, wanted: dict[str, Any]
) -> None:
    store, made = archive
    found = every_page(store, asked)
    assert [game["id"] for game in found] == expected(made, **wanted)
    assert all(game["outcome"] == made[game["id"]]["outcome"] for game in found)


def test_the_archive_queries_walk_an_index(archive: tuple[Store, dict[str, dict[str, Any]]]) -> None:
    store, _ = archive
    with store.engine.connect() as conn:
        for where in ("status = 'over'", "game = 'omny' and variant = 'y' and status = 'over'"):
            plan = " ".join(str(row) for row in conn.execute(text(
                f"explain query plan select id from games where {where} order by updated_at desc limit 26")))
            assert "USING INDEX" in plan and "SCAN games" not in plan.replace("USING INDEX", ""), plan


@given(st.dictionaries(st.sampled_from(["player", "game", "variant", "outcome", "since", "until", "page"]),
                       st.text(max_size=40)))
def test_any_query_string_reads_as_a_search_that_can_be_linked_again(query: dict[str, str]) -> None:
    asked = Search.read(query, {"omny", "oddy"})
    assert 1 <= asked.page
    assert asked.game in ("", "omny", "oddy") and asked.outcome in ("", *OUTCOMES)
    assert Search.read(dict(parse_qsl(asked.link().lstrip("?"))), {"omny", "oddy"}) == asked


def test_the_archive_page_lists_links_and_turns_pages(database: Path) -> None:
    with TestClient(create_app(quick_settings(database))) as client:
        made = stored_archive(client.app.state.store, 60)  # type: ignore[attr-defined]
        first = client.get("/archive", params={"variant": "y"})
        assert first.status_code == 200
        listed = re.findall(r'<li data-game="([^"]+)"', first.text)
        assert listed == expected(made, variant="y")[:PAGE_SIZE]
        for game_id in listed[:3]:
            for link in (f"/g/{game_id}/replay", f"/g/{game_id}/record.json", f"/g/{game_id}/record.sgf"):
                assert f'href="{link}"' in first.text
        paged = client.get("/archive", params={"page": "2"})
        second = re.findall(r'<li data-game="([^"]+)"', paged.text)
        assert second == expected(made)[PAGE_SIZE:2 * PAGE_SIZE]
        assert 'rel="prev" href="/archive"' in paged.text and 'rel="next" href="/archive?page=3"' in paged.text
        real, tokens = create(client, seats=["here", "invite"])  # a real game's links answer
        assert client.post(f"/api/games/{real}/resign", json={"token": tokens["0"], "version": 0}).status_code == 200
        ended = client.app.state.store.load_game(real).updated_at  # type: ignore[attr-defined]
        day = dt.datetime.fromtimestamp(ended, dt.UTC).date()  # the day it ended (UTC), not the test's later "today"
        found = client.get("/archive", params={"outcome": "resign", "since": day.isoformat()})
        assert re.findall(r'<li data-game="([^"]+)"', found.text) == [real]
        for link in re.findall(rf'href="(/g/{real}/[^"#]+)', found.text):
            assert client.get(link).status_code == 200, link
        hostile = client.get("/archive", params={"player": "<script>alert(1)</script>", "page": "-5", "since": "tomorrow"})
        assert hostile.status_code == 200 and "<script>alert(1)" not in hostile.text and "&lt;script&gt;" in hostile.text
        assert "No finished game matches." in hostile.text


def test_a_game_ended_just_before_utc_midnight_is_found_on_its_day_only(database: Path) -> None:
    """The dates searched are UTC days: a game resigned at 23:59:59.9 is that day's, not the next's
    (what a run crossing midnight between the game's end and the search would meet)."""
    late = dt.datetime(2026, 11, 26, 23, 59, 59, 900_000, tzinfo=dt.UTC).timestamp()
    with TestClient(create_app(quick_settings(database))) as client:
        client.app.state.store.clock = lambda: late  # type: ignore[attr-defined]
        real, tokens = create(client, seats=["here", "invite"])
        assert client.post(f"/api/games/{real}/resign", json={"token": tokens["0"], "version": 0}).status_code == 200
        for dates, listed in (({"since": "2026-11-26", "until": "2026-11-26"}, [real]), ({"since": "2026-11-27"}, []),
                              ({"until": "2026-11-25"}, [])):
            page = client.get("/archive", params={"outcome": "resign", **dates})
            assert re.findall(r'<li data-game="([^"]+)"', page.text) == listed, dates


def test_the_migration_fills_the_archive_columns_of_games_stored_before_it(database: Path) -> None:
    store = Store(f"sqlite:///{database}")
    stored_archive(store, 8)
    migrate(store.engine, "0006", down=True)
    migrate(store.engine)
    with store.engine.connect() as conn:
        rows = {row.id: (row.variant, row.outcome) for row in conn.execute(text("select id, variant, outcome from games"))}
    store.close()
    assert rows == {f"arch{i:04d}": (VARIANTS[i % 3], OUTCOMES[i % 4]) for i in range(8)}


def test_a_game_being_played_has_no_outcome() -> None:
    head = json.loads(json.dumps(record("y", ["a", "b"], None)))
    assert outcome_of(head, {"move": "resign"}, {"flagged": 1}) is None


# ----- my games ------------------------------------------------------------------------------------


def mine(client: TestClient) -> list[tuple[str, str]]:
    page = client.get("/games/mine")
    assert page.status_code == 200
    return re.findall(r'<li data-game="([^"]+)" data-state="([^"]+)"', page.text)


def test_my_games_lists_the_games_waiting_for_my_move_first(client: TestClient) -> None:
    days = {"days": 3}
    over, over_tokens = create(client, seats=["here", "invite"], **days)
    moved, moved_tokens = create(client, seats=["here", "invite"], **days)
    waiting_long, _ = create(client, seats=["here", "invite"], days=7)
    waiting_short, _ = create(client, seats=["here", "invite"], days=1)
    untimed, _ = create(client, seats=["here", "invite"])
    assert client.post(f"/api/games/{over}/resign", json={"token": over_tokens["0"], "version": 0}).status_code == 200
    played = client.post(f"/api/games/{moved}/moves", json={"token": moved_tokens["0"], "version": 0, "move": "a1"})
    assert played.status_code == 200
    listed = mine(client)
    states = dict(listed)
    order = [game_id for game_id, _ in listed]
    assert states[over] == OVER and states[moved] == GOING_ON and states[waiting_short] == WAITING
    assert order.index(waiting_short) < order.index(waiting_long) < order.index(untimed) < order.index(moved) < order.index(over)
    page = client.get("/games/mine").text
    assert re.search(rf'data-game="{re.escape(waiting_short)}".*?(\d+) h (\d+) min left', page, re.S)
    assert re.search(rf'data-game="{re.escape(waiting_long)}".*?6 d 23 h left', page, re.S)


def listed_line(client: TestClient, game_id: str) -> str:
    """The words "my games" shows for one game, tags dropped and spaces collapsed."""
    item = re.search(rf'<li data-game="{re.escape(game_id)}".*?</li>', client.get("/games/mine").text, re.S)
    assert item is not None, game_id
    return " ".join(re.sub(r"<[^>]+>", " ", item.group(0)).split())


def sign_up(client: TestClient, name: str) -> None:
    token = client.get("/signup").text.split('name="csrf-token" content="')[1].split('"')[0]
    fields = {"csrftoken": token, "name": name, "password": "correct horse", "again": "correct horse"}
    answer = client.post("/signup", data=fields, headers={"origin": "http://testserver"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text


def test_my_games_say_whom_each_game_is_against_and_how_it_ended(client: TestClient) -> None:
    sign_up(client, "Ada_Lovelace")
    computer, computer_tokens = create(client, mode="ai", level=3)
    open_game, _ = create(client, seats=["here", "open"])
    hotseat, hotseat_tokens = create(client)
    for game_id, tokens in ((computer, computer_tokens), (hotseat, hotseat_tokens)):
        assert client.post(f"/api/games/{game_id}/resign", json={"token": tokens["0"], "version": 0}).status_code == 200
    assert re.search(r"— lost against the computer, level 3 · \d{4}-\d\d-\d\d · replay$", listed_line(client, computer))
    # neither won nor lost: both seats were mine
    assert re.search(r"— over · \d{4}-\d\d-\d\d · replay$", listed_line(client, hotseat))
    assert listed_line(client, open_game).endswith("— against a seat nobody has taken yet")
    profile = " ".join(re.sub(r"<[^>]+>", " ", client.get("/@/Ada_Lovelace").text).split())
    assert "lost against the computer, level 3" in profile and " over " in profile and " won " not in profile

    ada = dict(client.cookies)
    client.cookies.clear()  # another browser: Bob takes the open seat
    sign_up(client, "Bob_Babbage")
    assert client.post(f"/api/games/{open_game}/join", json={"seat": 1}).status_code == 201
    assert listed_line(client, open_game).endswith("— against Ada_Lovelace")
    client.cookies.clear()
    client.cookies.update(ada)
    assert listed_line(client, open_game).endswith("— against Bob_Babbage")
    assert '<a href="/@/Bob_Babbage" translate="no">Bob_Babbage</a>' in client.get("/games/mine").text


def test_my_games_link_a_card_table_to_its_own_page_without_a_replay(client: TestClient) -> None:
    made = client.post("/api/omiga", json={"options": {"width": 7, "height": 5},
                                           "seats": [{"kind": "here"}, {"kind": "bot", "level": 3}]})
    assert made.status_code == 201, made.text
    table = made.json()
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:  # the table ended (here: aborted, as one left before the start)
        conn.execute(update(games).where(games.c.id == table["id"]).values(status="aborted"))
    item = re.search(rf'<li data-game="{table["id"]}".*?</li>', client.get("/games/mine").text, re.S)
    assert item is not None and f'href="/o/{table["id"]}"' in item.group(0) and "/replay" not in item.group(0)
    assert listed_line(client, table["id"]).startswith(f"Omiga · {table['id']} — aborted against the computer, level 3 · ")
    assert client.get(f"/g/{table['id']}/replay").status_code == 404  # (a board game's replay: no card table's)


def test_nobody_sees_another_visitors_games(client: TestClient) -> None:
    mine_id, _ = create(client, seats=["here", "invite"], days=3)
    assert [game_id for game_id, _ in mine(client)] == [mine_id]
    client.cookies.clear()  # another browser: a new guest
    assert mine(client) == []
    assert mine_id not in client.get("/games/mine", params={"player": "x"}).text


def test_order_key_puts_waiting_first_least_time_first() -> None:
    def game(state: str, left: float | None, updated: float) -> MyGame:
        return MyGame(f"{state}{left}{updated}", "omny", state, left, True, "playing", updated)

    shuffled = [game(OVER, None, 9), game(GOING_ON, None, 1), game(WAITING, None, 5), game(WAITING, 10, 1),
                game(GOING_ON, None, 7), game(WAITING, 3, 0)]
    ordered = sorted(shuffled, key=order_key)
    assert [(g.state, g.left, g.updated_at) for g in ordered] == [
        (WAITING, 3, 0), (WAITING, 10, 1), (WAITING, None, 5), (GOING_ON, None, 7), (GOING_ON, None, 1), (OVER, None, 9)]
