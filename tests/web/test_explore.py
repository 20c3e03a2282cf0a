"""The opening explorer on the site (web/explore/): /api/explore and /explore count the site's
finished games and the shipped book's, step into a move by its link, show a game finished at once
(the index: tests/web/test_explore_index.py), and refuse what cannot be meant with a 400 and a
sentence — also a server process given hostile queries, whose log then holds no traceback."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.web import create_app

from .conftest import create, quick_settings
from .serving import start_server, stop_server

Y4 = "game=omny&variant=y&size=4"
LINES = [  # finished games of Y 4: Black wins the two after a1, White the one after b2
    ["a1", "d1", "a2", "c2", "a3", "b3", "a4"],
    ["a1", "b2", "a2", "c2", "a3", "b3", "a4"],
    ["b2", "a1", "c1", "b1", "c2", "a2", "b3", "a3", "d1", "a4"],
]


def play(client: TestClient, moves: list[str]) -> str:
    game_id, tokens = create(client, options={"variant": "y", "size": 4})
    for ply, move in enumerate(moves):
        answer = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[str(ply % 2)], "version": ply})
        assert answer.status_code == 200, answer.text
    return game_id


def explore(client: TestClient, query: str) -> dict[str, Any]:
    answer = client.get(f"/api/explore?{query}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def by_move(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["move"]: row for row in view["next"]}


def test_the_site_games_are_counted_with_their_results(client: TestClient) -> None:
    for line in LINES:
        play(client, line)
    play(client, ["c1", "b2"])  # still being played: not counted
    root = explore(client, f"{Y4}&source=site")
    rows = by_move(root)
    assert set(rows) == {"a1", "b2"}
    assert rows["a1"]["games"] == 2 and rows["b2"]["games"] == 1
    assert rows["a1"]["wins"] == {"black": 2} and rows["a1"]["score"] == 1.0
    assert rows["b2"]["wins"] == {"white": 1} and rows["b2"]["score"] == 0.0
    assert root["games"] == 3 and root["to_move"] == "black" and root["moves"] == []
    # Step into a1 by its link: White's replies, each once; the line and the way back.
    after = client.get("/api" + rows["a1"]["link"]).json()
    assert {row["move"]: row["games"] for row in after["next"]} == {"d1": 1, "b2": 1}
    assert [move["move"] for move in after["moves"]] == ["a1"]
    assert after["back"] == "/explore?game=omny&variant=y&size=4&source=site"
    assert all(row["score"] == 0.0 for row in after["next"])  # White lost both
    # Where the game ended: the result, nothing further.
    end = explore(client, f"{Y4}&source=site&moves=" + ",".join(LINES[0]))
    assert end["result"]["winner"] == "black" and end["next"] == [] and end["to_move"] is None


def test_other_boards_are_not_mixed_in(client: TestClient) -> None:
    play(client, LINES[0])
    assert explore(client, "game=omny&variant=y&size=5&source=site")["games"] == 0
    assert explore(client, "game=omny&variant=sunder&size=4&source=site")["games"] == 0
    assert explore(client, f"{Y4}&source=site")["games"] == 1


def test_the_book_and_the_solver_verdicts_show_with_the_site(client: TestClient) -> None:
    book = by_move(explore(client, f"{Y4}&source=book"))
    assert sum(row["games"] for row in book.values()) > 0
    assert {row["verdict"] for row in book.values()} == {"win", "loss"}  # Y 4's first moves are proven
    play(client, LINES[0])
    both = by_move(explore(client, Y4))
    assert both["a1"]["games"] == book.get("a1", {"games": 0})["games"] + 1
    assert both["a1"]["verdict"] == "loss"  # docs/solved.md: a1 loses on Y 4


def test_a_finished_game_counts_at_once(client: TestClient) -> None:
    play(client, LINES[0])
    assert explore(client, f"{Y4}&source=site")["games"] == 1
    play(client, LINES[1])
    assert explore(client, f"{Y4}&source=site")["games"] == 2  # no tree kept a while: the index, read per page
    rows = by_move(explore(client, f"{Y4}&source=site&moves=a1"))
    assert {move: row["games"] for move, row in rows.items()} == {"d1": 1, "b2": 1}


def test_a_game_taken_back_after_its_end_counts_as_it_ends_again(client: TestClient) -> None:
    game_id, tokens = create(client, options={"variant": "y", "size": 4})  # one screen: taken back after the end
    line = LINES[0]
    for ply, move in enumerate(line):
        client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[str(ply % 2)], "version": ply})
    assert by_move(explore(client, f"{Y4}&source=site&moves=a1,d1,a2,c2,a3,b3"))["a4"]["games"] == 1
    answer = client.post(f"/api/games/{game_id}/undo", json={"token": tokens["0"], "version": len(line)})
    assert answer.status_code == 200 and not answer.json()["over"], answer.text
    assert explore(client, f"{Y4}&source=site")["games"] == 0
    for version, move in enumerate(["b2", "b1", "a4"], start=len(line) + 1):  # Black wins another way
        answer = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": tokens[str(version % 2)],
                                                                   "version": version})
        assert answer.status_code == 200, answer.text
    assert answer.json()["over"]
    after = by_move(explore(client, f"{Y4}&source=site&moves=a1,d1,a2,c2,a3,b3"))
    assert set(after) == {"b2"} and after["b2"]["wins"] == {"black": 1}


def test_the_page_shows_the_board_the_table_and_the_line(client: TestClient) -> None:
    play(client, LINES[0])
    page = client.get(f"/explore?{Y4}&moves=a1&lang=en")
    assert page.status_code == 200
    text = page.text
    assert 'id="next-moves"' in text and 'data-cell="d1"' in text and "<svg" in text
    assert 'href="/explore?game=omny&amp;variant=y&amp;size=4&amp;moves=a1%2Cd1"' in text
    assert 'id="back"' in text
    russian = client.get(f"/explore?{Y4}&lang=ru")
    assert "Дебюты" in russian.text or "Справочник дебютов" in russian.text
    index = client.get("/explore?lang=en")
    assert index.status_code == 200 and "size=5" in index.text
    home = client.get("/?lang=en")
    assert 'href="/explore"' in home.text


def test_a_finished_games_replay_links_to_its_opening(client: TestClient) -> None:
    game_id = play(client, LINES[2])
    replay = client.get(f"/g/{game_id}/replay?lang=en").text
    link = re.search(r'id="explore-opening" href="([^"]+)"|href="([^"]+)" id="explore-opening"', replay)
    assert link, "the replay page links to the explorer"
    href = (link.group(1) or link.group(2)).replace("&amp;", "&")
    assert href.endswith("moves=" + "%2C".join(LINES[2][:6]))
    view = client.get("/api" + href).json()
    assert [move["move"] for move in view["moves"]] == LINES[2][:6]
    assert by_move(view)[LINES[2][6]]["games"] >= 1  # this game went on so


BAD = [
    ("", "bad-game"),
    ("game=chess", "bad-game"),
    ("game=omiga", "bad-game"),
    ("game=omny&size=999", "bad-options"),
    ("game=omny&bogus=1", "bad-options"),
    ("game=omny&variant=nope", "bad-options"),
    (f"{Y4}&moves=b2,b2", "bad-moves"),
    (f"{Y4}&moves=z9", "bad-moves"),
    (f"{Y4}&moves=b2,,c1", "bad-moves"),
    (f"{Y4}&moves=" + "x" * 100, "bad-moves"),
    (f"{Y4}&moves=" + ",".join(["a1"] * 300), "bad-moves"),
    (f"{Y4}&source=elsewhere", "invalid"),
    (f"{Y4}&moves=a1%00", "bad-moves"),
    (f"{Y4}&x=" + "y" * 5000, "invalid"),
]


@pytest.mark.parametrize(("query", "code"), BAD)
def test_what_cannot_be_meant_is_refused_with_a_sentence(client: TestClient, query: str, code: str) -> None:
    answer = client.get(f"/api/explore?{query}")
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == code and answer.json()["error"]
    if query:  # (with no game at all, the page is the list of boards)
        page = client.get(f"/explore?{query}&lang=en")
        assert page.status_code == 400 and "Traceback" not in page.text


@pytest.fixture(scope="module")
def shared_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server for every example of a Hypothesis test (a fresh database each would be slow)."""
    with TestClient(create_app(quick_settings(tmp_path_factory.mktemp("explore") / "g.sqlite3"))) as test_client:
        yield test_client


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=60), st.text(max_size=30))
def test_any_moves_or_option_text_is_answered_never_crashed(shared_client: TestClient, moves: str, komi: str) -> None:
    answer = shared_client.get(f"/api/explore?{Y4}&moves={quote(moves)}&komi={quote(komi)}")
    assert answer.status_code in (200, 400), answer.text
    assert set(answer.json()) >= ({"error", "code"} if answer.status_code == 400 else {"next", "svg"})


def test_a_server_given_hostile_queries_answers_each_and_logs_no_traceback(tmp_path: Path) -> None:
    process, base = start_server(tmp_path / "g.sqlite3", tmp_path / "server.log")
    try:
        for query, code in BAD:
            try:
                with urllib.request.urlopen(f"{base}/api/explore?{query}", timeout=30) as response:
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
                assert code in error.read().decode()
            assert status == 400, query
        for raw in ("game=omny&moves=%ff%fe", "game=omny&" + urlencode({"moves": "a1,\u202eb2"}), "game=omny&size=1e308"):
            try:
                urllib.request.urlopen(f"{base}/explore?{raw}", timeout=30)
            except urllib.error.HTTPError as error:
                assert error.code == 400, raw
        with urllib.request.urlopen(f"{base}/api/explore?{Y4}", timeout=30) as response:
            assert response.status == 200  # still answering
    finally:
        stop_server(process)
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log and not re.search(r"\b500\b", log)
