"""The puzzles on the site (web/puzzles/): the list filtered by game and theme, a puzzle's page and
its JSON, a move judged right (the stored defence replies), solved, or wrong (refuted), never the
solution before a wrong try or a request to see it; a visitor's first try rated once per puzzle
(theirs and the puzzle's rating), the day's puzzle the same all day; bad ids and moves refused with
a 4xx and a sentence, changing nothing; the POSTs guarded by the CSRF token."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ogames.ratings.puzzles import PuzzleRatings, start_rating
from ogames.teach.puzzles import PuzzleSet, position_of, read
from ogames.web import create_app
from ogames.web.puzzles import play, routes
from ogames.web.puzzles.catalogue import MAX_LISTED

from .conftest import quick_settings

FIXTURE = Path(__file__).with_name("data") / "puzzles.jsonl"
LONG = "omny-7947854bb955c777"  # d4 (a1) f1: White to play, the defence's reply between
SHORT = "omny-93cb2dd6f3e30734"  # d4 wins at once
BROWSER = {"origin": "http://testserver"}
# The pages link the day's puzzle: the tests pin the day. On this one it is LONG, an Omny puzzle (what
# made a test that expected LONG absent from the Odd-Y list fail on the day CI met it).
LONG_DAY = datetime.date(2026, 11, 27)


@pytest.fixture(autouse=True)
def day(monkeypatch: pytest.MonkeyPatch) -> datetime.date:
    monkeypatch.setattr(routes, "today", lambda: LONG_DAY)
    return LONG_DAY


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = quick_settings(tmp_path / "p.sqlite3", warm_rules=False, puzzles_path=str(FIXTURE))
    with TestClient(create_app(settings)) as test_client:
        test_client.get("/puzzles")  # a guest's session cookie, as a browser gets with its first page
        yield test_client


def attempt(client: TestClient, ident: str, moves: Any) -> tuple[int, dict[str, Any]]:
    response = client.post(f"/api/puzzles/{ident}/attempt", json={"moves": moves})
    return response.status_code, response.json()


def shown(client: TestClient, ident: str = LONG) -> dict[str, Any]:
    response = client.get(f"/api/puzzles/{ident}")
    assert response.status_code == 200
    return response.json()


def rows(page: str) -> list[str]:
    """The puzzles a list page lists, in order (not the day's puzzle linked above them)."""
    return re.findall(r'<tr data-puzzle="([^"]+)"', page)


def test_the_list_filters_by_game_and_theme(client: TestClient) -> None:
    listed = client.get("/puzzles?lang=en").text
    assert all(f'data-puzzle="{p.id}"' in listed for p in read(FIXTURE))
    oddy = client.get("/puzzles?game=oddy&lang=en").text
    assert PuzzleSet.load(FIXTURE).daily(LONG_DAY).id == LONG  # type: ignore[union-attr]
    assert f'href="/puzzles/{LONG}"' in oddy  # the day's puzzle is linked above the list, whichever game it is
    assert rows(oddy) == ["oddy-90feb21c58b27152"]  # the rows are filtered
    mates = client.get("/puzzles?game=omny&theme=mate-in-1&lang=en").text
    assert rows(mates) == [SHORT]
    for query, code in (("game=chess", "bad-game"), ("game=omny&theme=capture", "bad-theme")):
        response = client.get(f"/puzzles?{query}&lang=en")
        assert response.status_code == 400 and "Traceback" not in response.text, (query, code)


def test_a_puzzle_page_says_who_plays_and_shows_no_solution(client: TestClient) -> None:
    page = client.get(f"/puzzles/{LONG}?lang=en")
    assert page.status_code == 200
    assert "White to play and win" in page.text
    assert 'id="board"' in page.text and "data-cell" in page.text
    russian = client.get(f"/puzzles/{LONG}?lang=ru").text
    assert "ход и выигрыш" in russian
    data = shown(client)
    assert data["to_play"] == "white" and data["first_try"] is None
    assert "solution" not in data and data["rating"]["rating"] == round(start_rating(2).rating)


def test_right_then_solved_and_rated_once(client: TestClient) -> None:
    status, right = attempt(client, LONG, ["d4"])
    assert status == 200
    assert right["result"] == "right" and right["moves"] == ["d4", "a1"] and right["reply"]["move"] == "a1"
    assert right["rated"] is None and "solution" not in right and "f1" not in right["moves"]
    status, solved = attempt(client, LONG, ["d4", "a1", "f1"])
    assert status == 200 and solved["result"] == "solved"
    assert solved["rated"]["solved"] is True and solved["rated"]["change"] > 0
    after = shown(client)
    assert after["first_try"] is True and after["player"]["rating"] > 1500
    assert after["rating"]["rating"] < round(start_rating(2).rating)
    status, again = attempt(client, LONG, ["d4", "a1", "f1"])  # a second solve is not rated
    assert status == 200 and again["result"] == "solved" and again["rated"] is None
    assert shown(client)["player"] == after["player"]


def test_the_list_shows_ratings_and_the_visitors_first_tries(client: TestClient) -> None:
    attempt(client, LONG, ["a1"])
    attempt(client, SHORT, ["d4"])
    listed = client.get("/puzzles?game=omny&lang=en").text
    assert f'data-puzzle="{LONG}" data-tried="failed"' in listed and f'data-puzzle="{SHORT}" data-tried="solved"' in listed
    assert f">{shown(client, LONG)['rating']['shown']}<" in listed
    client.cookies.clear()  # another guest has tried none
    assert "data-tried" not in client.get("/puzzles?game=omny&lang=en").text


def test_a_wrong_move_is_refuted_and_fails_the_first_try_only(client: TestClient) -> None:
    status, wrong = attempt(client, LONG, ["a1"])
    assert status == 200
    assert wrong["result"] == "wrong" and wrong["moves"] == [] and wrong["refutation"]["move"] == "d4"
    assert wrong["rated"]["solved"] is False and wrong["rated"]["change"] < 0
    failed = shown(client)
    assert failed["first_try"] is False and failed["player"]["rating"] < 1500
    _, right = attempt(client, LONG, ["d4"])
    _, solved = attempt(client, LONG, right["moves"] + ["f1"])
    assert solved["result"] == "solved" and solved["rated"] is None
    assert shown(client)["player"] == failed["player"] and shown(client)["first_try"] is False


def test_a_later_move_that_wins_too_is_not_failed_and_one_that_wins_at_once_solves(client: TestClient) -> None:
    status, also = attempt(client, LONG, ["d4", "a1", "b1"])  # White still wins after b1, off the line
    assert status == 200 and also["result"] == "also" and also["moves"] == ["d4", "a1"] and also["rated"] is None
    assert shown(client)["first_try"] is None
    _, solved = attempt(client, LONG, ["d4", "a1", "g1"])  # g1 wins the game at once, as f1 does
    assert solved["result"] == "solved" and solved["rated"]["solved"] is True
    _, wrong = attempt(client, "oddy-90feb21c58b27152", ["d2-1", "a1-0", "c1-0"])  # a later move that loses
    assert wrong["result"] == "wrong" and wrong["moves"] == ["d2-1", "a1-0"] and wrong["rated"]["solved"] is False


def test_every_other_first_move_is_wrong_and_refuted() -> None:
    for puzzle in read(FIXTURE):
        state = position_of(puzzle)
        for move in state.legal_moves():
            if move == puzzle.move:
                continue
            judged = play.judge(puzzle, [], move)
            assert judged.result == play.WRONG, (puzzle.id, move)
            if puzzle.game != "omega":  # (an Omega turn's second stone is still the solver's)
                assert judged.refutation is not None, (puzzle.id, move)
                assert judged.line == [] and judged.state.ply == len(puzzle.moves) + 2


def test_each_visitor_rates_a_puzzle_once(client: TestClient) -> None:
    attempt(client, SHORT, ["d4"])
    client.cookies.clear()  # another guest
    client.get("/puzzles")
    _, wrong = attempt(client, SHORT, ["a1"])
    assert wrong["rated"]["solved"] is False
    attempt(client, SHORT, ["a1"])
    store = client.app.state.store  # type: ignore[attr-defined]
    puzzle = PuzzleRatings(store.engine).puzzle(SHORT, 1)
    assert puzzle.games == 2


@pytest.mark.parametrize(("moves", "status", "code"), [
    (["c1", "a1", "f1"], 400, "bad-moves"),  # not the puzzle's line
    (["d4", "a1", "f1", "g2"], 400, "bad-moves"),  # past its end
    (["c3"], 400, "illegal"),  # a stone there already
    (["zz9"], 400, "illegal"),
    (["d4", "b1"], 400, "bad-moves"),  # the defence's move is the server's
    ([], 422, "invalid"),
    (["x" * 25], 422, "invalid"),
    ("d4", 422, "invalid"),
])
def test_bad_moves_are_refused_and_change_nothing(client: TestClient, moves: Any, status: int, code: str) -> None:
    got, answer = attempt(client, LONG, moves)
    assert (got, answer["code"]) == (status, code), answer
    assert answer["error"] and "Traceback" not in answer["error"]
    assert shown(client)["first_try"] is None


def test_unknown_puzzles_are_404(client: TestClient) -> None:
    assert client.get("/puzzles/nope").status_code == 404
    assert client.get("/api/puzzles/nope").json()["code"] == "not-found"
    got, answer = attempt(client, "nope", ["d4"])
    assert got == 404 and answer["code"] == "not-found"
    assert client.post(f"/api/puzzles/{LONG}/attempt", content=b"{not json").status_code == 422


def test_the_solution_is_shown_on_request_and_fails_the_first_try(client: TestClient) -> None:
    answer = client.post(f"/api/puzzles/{LONG}/solution", json={}).json()
    assert [step["move"] for step in answer["solution"]] == ["d4", "a1", "f1"]
    assert answer["rated"]["solved"] is False
    _, solved = attempt(client, LONG, ["d4", "a1", "f1"])
    assert solved["result"] == "solved" and solved["rated"] is None


def test_posts_from_a_browser_need_the_csrf_token(client: TestClient) -> None:
    refused = client.post(f"/api/puzzles/{LONG}/attempt", json={"moves": ["a1"]}, headers=BROWSER)
    assert refused.status_code == 403 and refused.json()["code"] == "csrf"
    assert shown(client)["first_try"] is None
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get(f"/puzzles/{LONG}").text)
    assert token
    allowed = client.post(f"/api/puzzles/{LONG}/attempt", json={"moves": ["d4"]},
                          headers={**BROWSER, "x-csrftoken": token.group(1)})
    assert allowed.status_code == 200 and allowed.json()["result"] == "right"


def test_the_daily_puzzle_is_the_same_all_day_and_on_the_home_page(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    puzzles = PuzzleSet.load(FIXTURE)
    day = datetime.date(2026, 11, 26)
    assert puzzles.daily(day) == PuzzleSet.load(FIXTURE).daily(day)  # any process, any time that day
    assert len({puzzles.daily(day + datetime.timedelta(days=n)).id for n in range(60)}) > 1  # type: ignore[union-attr]
    for today in (LONG_DAY, day):  # the pages follow the day (pinned: the test cannot meet midnight)
        monkeypatch.setattr(routes, "today", lambda today=today: today)
        daily = puzzles.daily(today)
        assert daily is not None
        home = client.get("/?lang=en").text
        assert "Puzzle of the day" in home and re.findall(r'href="/puzzles/([^"]+)"', home) == [daily.id, daily.id]
        assert re.search(r'id="daily-link"><a [^>]*href="/puzzles/([^"]+)"', client.get("/puzzles?lang=en").text)[1] == daily.id  # type: ignore[index]
    assert puzzles.daily(LONG_DAY) != puzzles.daily(day)
    assert PuzzleSet.load(FIXTURE.with_name("missing.jsonl")).daily(day) is None


def test_a_puzzle_file_set_up_wrong_leaves_the_site_without_puzzles(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text(FIXTURE.read_text() + '{"id": "x", "game": "chess"}\n')
    settings = quick_settings(tmp_path / "b.sqlite3", warm_rules=False, puzzles_path=str(broken))
    with TestClient(create_app(settings)) as broken_client:
        listed = broken_client.get("/puzzles?lang=en")
        assert listed.status_code == 200 and 'id="no-puzzles"' in listed.text
        assert broken_client.get(f"/api/puzzles/{LONG}").status_code == 404
        assert broken_client.get("/?lang=en").status_code == 200
    assert "line 5" in caplog.text and "Traceback" not in caplog.text


def test_the_shipped_set_plays_on_the_site_for_every_game(tmp_path: Path) -> None:
    shipped = PuzzleSet.load()
    with TestClient(create_app(quick_settings(tmp_path / "s.sqlite3", warm_rules=False, puzzles_path=""))) as site:
        site.get("/puzzles")
        for game in ("omny", "oddy", "omega", "onyx"):
            first = shipped.chosen(game)[0]
            page = site.get(f"/puzzles/{first.id}?lang=en")
            assert page.status_code == 200 and "to play and win" in page.text, first.id
            line: list[str] = []
            while True:  # the stored line, as a page plays it: each answer's moves, then the next winning move
                status, answer = attempt(site, first.id, [*line, first.solution[len(line)]])
                assert status == 200 and answer["result"] in ("right", "solved"), (first.id, answer)
                if answer["result"] == "solved":
                    break
                line = answer["moves"]
            assert answer["rated"]["solved"] is True, first.id


def test_the_list_is_paged(tmp_path: Path) -> None:
    shipped = PuzzleSet.load().chosen("oddy")
    with TestClient(create_app(quick_settings(tmp_path / "l.sqlite3", warm_rules=False, puzzles_path=""))) as site:
        first = site.get("/puzzles?game=oddy&lang=en").text
        ids = re.findall(r'<tr data-puzzle="([^"]+)"', first)
        assert ids == [p.id for p in shipped[:MAX_LISTED]] and 'id="previous-page"' not in first
        link = re.search(r'id="next-page" href="([^"]+)"', first)
        assert link and "page=2" in link.group(1)
        second = site.get(link.group(1).replace("&amp;", "&") + "&lang=en").text
        assert re.findall(r'<tr data-puzzle="([^"]+)"', second) == [p.id for p in shipped[MAX_LISTED: 2 * MAX_LISTED]]
        last = -(-len(shipped) // MAX_LISTED)
        for bad in ("0", str(last + 1), "x", "-1"):
            assert site.get(f"/puzzles?game=oddy&page={bad}").status_code == 400, bad
