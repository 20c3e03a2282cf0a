"""Ratings in the database (ogames.ratings.store): the migration on an old database, a game rated
once whoever finishes it, no rating lost when two games of a player are rated at once,
leaderboards of settled people only, and a player's history."""

from __future__ import annotations

import importlib.util
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import local_services  # tools/, on pytest's pythonpath
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, create_engine, inspect, select, text

import ogames
import ogames.ratings.store as store_module
from ogames.ratings import Rating, RatingStore, computer_id, computer_rating, ranks_of, rate
from ogames.ratings.store import rating_history, ratings
from ogames.web.core.store import Store, make_engine, migrate

WHY_NOT = local_services.missing() or (None if importlib.util.find_spec("psycopg") else "psycopg is not installed (scale extra)")

DAY = 86400.0


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    migrate(engine)
    yield engine
    engine.dispose()


def rows(engine: Engine) -> tuple[list[Any], list[Any]]:
    """Everything stored: the ratings and the history, in a fixed order."""
    with engine.connect() as conn:
        found = conn.execute(select(ratings).order_by(ratings.c.player_id, ratings.c.pool)).all()
        history = conn.execute(select(rating_history).order_by(rating_history.c.game_id, rating_history.c.player_id)).all()
    return list(found), list(history)


def test_a_game_stored_before_ratings_reads_the_same_after_the_upgrade(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(url)
    migrate(engine, "0002")  # the schema before ratings, and a game written into it as it wrote them
    state = ogames.load("omny", variant="y", size=3).new_state(["ann", "bob"])
    state.play("b2")
    record = state.record()
    head = {key: value for key, value in record.items() if key != "moves"}
    with engine.begin() as conn:
        conn.execute(
            text(
                "insert into games (id, game, mode, seat_kinds, head, ply, version, status, created_at, updated_at, listed) "
                "values ('old', 'omny', 'hotseat', :kinds, :head, 1, 1, 'playing', 1.0, 1.0, 0)"
            ),
            {"kinds": '["human", "human"]', "head": json.dumps(head)},
        )
        conn.execute(text("insert into moves values ('old', 0, :entry, 1.0)"), {"entry": json.dumps(record["moves"][0])})
    engine.dispose()
    store = Store(url)  # upgrades to the newest schema
    assert {"ratings", "rating_history"} <= set(inspect(store.engine).get_table_names())
    row = store.load_game("old")
    assert row is not None and row.record() == record and row.version == 1
    rated = RatingStore(store.engine)
    assert rated.apply_result("old", "omny", ["ann", "bob"], [0, 1], at=10.0) is not None
    assert rated.rating("ann", "omny", at=10.0).games == 1
    migrate(store.engine, "0002", down=True)  # and back: the ratings go, the game stays
    assert not {"ratings", "rating_history"} & set(inspect(store.engine).get_table_names())
    with store.engine.connect() as conn:  # (read as the 0002 schema has it: the store reads the newest)
        assert json.loads(conn.execute(text("select head from games where id = 'old'")).scalar_one()) == head
        assert conn.execute(text("select count(*) from moves where game_id = 'old'")).scalar_one() == 1
    store.close()


def test_a_result_is_stored_as_the_model_rates_it(engine: Engine) -> None:
    rated = RatingStore(engine)
    changes = rated.apply_result("g1", "omny", ["ann", computer_id(4)], [1, 0], at=100.0)
    expected = rate([Rating(), computer_rating("omny", 4)], [1, 0], table=False, fixed=[False, True])
    assert changes is not None and [change.after for change in changes] == expected
    assert changes[0].before == Rating() and changes[0].change < 0 and changes[1].change == 0
    assert rated.rating("ann", "omny", at=100.0) == expected[0]
    assert rated.rating(computer_id(4), "omny") == computer_rating("omny", 4)  # a level never moves
    assert [point.game_id for point in rated.history("ann", "omny")] == ["g1"]
    assert rated.history(computer_id(4), "omny") == []
    assert rated.ratings_of("ann", at=100.0) == {"omny": expected[0]}
    assert rated.rating("bob", "omny") == Rating()  # nobody stored: a new player's


def test_a_table_is_rated_by_places(engine: Engine) -> None:
    rated = RatingStore(engine)
    players = ["ann", "bob", computer_id(6), "cid"]
    changes = rated.apply_result("t1", "omega-table", players, [2, 0, 1, 3], at=5.0)
    before = [Rating(), Rating(), computer_rating("omega-table", 6), Rating()]
    assert changes is not None
    assert [change.after for change in changes] == rate(before, [2, 0, 1, 3], table=True, fixed=[False, False, True, False])
    assert changes[1].change > 0 > changes[3].change


games = st.lists(
    st.tuples(st.integers(0, 5), st.sampled_from(["ann", "bob", "cid", computer_id(3), computer_id(7)]),
              st.sampled_from(["ann", "bob", "cid", "dan"]), st.booleans()),
    min_size=1,
    max_size=12,
)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games)
def test_a_game_is_rated_once_however_often_it_is_reported(engine: Engine, played: list[tuple[int, str, str, bool]]) -> None:
    """Games reported again (a process finishing a game another already rated) change nothing:
    the ratings are those of each game rated once, in order."""
    with engine.begin() as conn:
        conn.execute(rating_history.delete())
        conn.execute(ratings.delete())
    rated = RatingStore(engine)
    expected: dict[str, Rating] = {}
    seen: set[int] = set()
    for moment, (number, first, second, first_won) in enumerate(played):
        if first == second:
            continue
        ranks = [0, 1] if first_won else [1, 0]
        changes = rated.apply_result(f"g{number}", "onyx", [first, second], ranks, at=1000.0 + moment)
        if number in seen:
            assert changes is None
            continue
        seen.add(number)
        assert changes is not None
        for change in changes:
            if not change.player_id.startswith("computer:"):
                expected[change.player_id] = change.after
    for player, rating in expected.items():
        assert rated.rating(player, "onyx", at=1000.0 + len(played) - 1) == rating.idle(
            (len(played) - 1) - _last_game(played, player)
        )


def _last_game(played: list[tuple[int, str, str, bool]], player: str) -> int:
    """When a player's last rated game was (its index in `played`)."""
    seen: set[int] = set()
    last = 0
    for moment, (number, first, second, _) in enumerate(played):
        if first != second and number not in seen:
            seen.add(number)
            if player in (first, second):
                last = moment
    return last


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    """A throwaway PostgreSQL on loopback (tools/local_services.py) for this module's tests."""
    if WHY_NOT is not None:
        pytest.skip(WHY_NOT)
    with local_services.postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A database other processes reach too: a SQLite file opened without the server's exclusive
    lock, or PostgreSQL (several server processes' database)."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'shared.sqlite3'}", shared=True)
    else:
        engine = make_engine(request.getfixturevalue("postgres").new_database(f"ratings_{tmp_path.name[-20:]}".lower()))
    migrate(engine)
    yield engine
    engine.dispose()


def second_engine(engine: Engine) -> Engine:
    """Another process's connection to the same database."""
    return create_engine(engine.url)


def test_a_game_finished_by_two_processes_at_once_is_rated_once(shared: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other process rates the game while this one is computing it: this one's write then
    fails on the game's history row and changes nothing."""
    other = second_engine(shared)
    real_rate = store_module.rate
    calls = []

    def rate_while_the_other_finishes(*args: Any, **kwargs: Any) -> Any:
        if not calls:
            calls.append("other")
            assert RatingStore(other).apply_result("g", "omny", ["ann", "bob"], [0, 1], at=50.0) is not None
        return real_rate(*args, **kwargs)

    monkeypatch.setattr(store_module, "rate", rate_while_the_other_finishes)
    assert RatingStore(shared).apply_result("g", "omny", ["ann", "bob"], [0, 1], at=50.0) is None
    once = rate([Rating(), Rating()], [0, 1], table=False)
    assert RatingStore(shared).rating("ann", "omny", at=50.0) == once[0]
    found, history = rows(shared)
    assert len(found) == 2 and len(history) == 2
    other.dispose()


@pytest.mark.parametrize("earlier", [0, 1], ids=["first-games", "stored-rating"])
def test_two_games_of_a_player_rated_at_once_both_count(shared: Engine, monkeypatch: pytest.MonkeyPatch, earlier: int) -> None:
    """Another process rates a second game of the same player between this one's read and
    write: this one rates its game again on the newer rating, and both games count (whether
    the player had a stored rating before, or both games would store the first one)."""
    if earlier:
        RatingStore(shared).apply_result("earlier", "oddy", ["ann", "bob"], [0, 1], at=10.0)
    other = second_engine(shared)
    real_rate = store_module.rate
    calls = []

    def rate_while_another_game_ends(*args: Any, **kwargs: Any) -> Any:
        if not calls:
            calls.append("other")
            assert RatingStore(other).apply_result("b", "oddy", ["ann", "cid"], [1, 0], at=20.0) is not None
        return real_rate(*args, **kwargs)

    monkeypatch.setattr(store_module, "rate", rate_while_another_game_ends)
    changes = RatingStore(shared).apply_result("a", "oddy", ["ann", "dan"], [0, 1], at=20.0)
    assert changes is not None and len(calls) == 1
    ann = RatingStore(shared).rating("ann", "oddy", at=20.0)
    assert ann.games == earlier + 2
    rated_games = sorted(point.game_id for point in RatingStore(shared).history("ann", "oddy"))
    assert rated_games == sorted(["a", "b"] + ["earlier"] * earlier)
    assert changes[0].before.games == earlier + 1 and changes[0].after == ann  # rated on the rating after game b
    other.dispose()


def test_the_leaderboard_lists_settled_people_best_first(engine: Engine) -> None:
    rated = RatingStore(engine)
    moment = 0.0
    for player, wins in (("ann", 3), ("bob", 2), ("cid", 1)):  # of every four games
        for game in range(40):
            moment += 1
            ranks = [0, 1] if game % 4 < wins else [1, 0]
            rated.apply_result(f"{player}{game}", "omny", [player, computer_id(5)], ranks, at=moment)
    rated.apply_result("new", "omny", ["dan", computer_id(1)], [0, 1], at=moment)  # one game: provisional
    board = rated.leaderboard("omny", at=moment)
    assert [standing.player_id for standing in board] == ["ann", "bob", "cid"]
    assert all(not standing.rating.provisional for standing in board)
    assert [standing.player_id for standing in rated.leaderboard("omny", 2, at=moment)] == ["ann", "bob"]
    assert rated.leaderboard("onyx", at=moment) == []
    assert rated.leaderboard("omny", at=moment + 365 * DAY) == []  # a year later nobody has settled ratings
    history = rated.history("ann", "omny")
    assert len(history) == 40 and [point.at for point in history] == sorted(point.at for point in history)
    assert history[-1].rating == rated.rating("ann", "omny", at=moment).rating


@pytest.mark.parametrize(
    ("game_id", "pool", "players", "ranks", "words"),
    [
        ("g", "chess", ["ann", "bob"], [0, 1], "no rating pool"),
        ("g", "omny", ["ann", "bob", "cid"], [0, 1, 2], "with 2 players"),
        ("g", "omega-table", ["ann", "bob"], [0, 1], "with 3 or 4 players"),
        ("g", "omny", ["ann", "bob"], [0], "one rank per seat"),
        ("g", "omny", ["ann", "bob"], [0, 5], "ranks are places"),
        ("g", "omny", ["ann", "bob"], [0, True], "ranks are places"),
        ("g", "omny", ["ann", "ann"], [0, 1], "against themselves"),
        ("g", "omny", ["ann", "computer:12"], [0, 1], "no computer level"),
        ("g", "omny", ["computer:2", "computer:3"], [0, 1], "between computer levels"),
        ("g", "omny", ["ann", ""], [0, 1], "a player id"),
        ("g", "omny", ["ann", "x" * 65], [0, 1], "a player id"),
        ("", "omny", ["ann", "bob"], [0, 1], "a game id"),
        ("g" * 33, "omny", ["ann", "bob"], [0, 1], "a game id"),
    ],
)
def test_a_result_that_cannot_be_rated_is_refused_and_changes_nothing(
    engine: Engine, game_id: str, pool: str, players: list[str], ranks: list[int], words: str
) -> None:
    rated = RatingStore(engine)
    rated.apply_result("before", "omny", ["ann", "bob"], [0, 1], at=1.0)
    before = rows(engine)
    with pytest.raises(ValueError, match=words):
        rated.apply_result(game_id, pool, players, ranks, at=2.0)
    assert rows(engine) == before


def finished(game: str, seed: int, **options: Any) -> ogames.State:
    state = ogames.load(game, **options).new_state()
    rng = random.Random(seed)
    while state.result is None:
        state.play(rng.choice(state.legal_moves()))
    return state


def test_a_finished_game_is_rated_from_its_state(engine: Engine) -> None:
    rated = RatingStore(engine)
    duel = finished("onyx", 3)
    changes = rated.rate_finished("duel", duel, ["ann", computer_id(2)], at=1.0)
    assert changes is not None and [change.after for change in changes] == rate(
        [Rating(), computer_rating("onyx", 2)], ranks_of(duel), table=False, fixed=[False, True]
    )
    assert rated.rate_finished("duel", duel, ["ann", computer_id(2)], at=2.0) is None  # once
    table = finished("omega", 5, players=3, size=5)
    changes = rated.rate_finished("table", table, ["ann", "bob", "cid"], at=3.0)
    assert changes is not None and [change.player_id for change in changes] == ["ann", "bob", "cid"]
    assert rated.rating("bob", "omega-table", at=3.0).games == 1 and rated.rating("bob", "omega", at=3.0).games == 0


def test_a_2v2_match_is_rated_by_teams_with_a_computer_partner_fixed(engine: Engine) -> None:
    rated = RatingStore(engine)
    match = ogames.load("omiga", variant="2v2", seed=3).new_state()
    for actor in ("white1", "black1", "white2", "black2"):
        match.act(actor, "discard", 0.5)
    match.act("white1", "resign", 1.0)  # white's team gives up: black1 and black2 win
    assert ranks_of(match) == [1, 0, 1, 0]
    players = ["ann", "bob", computer_id(4), "dan"]
    changes = rated.rate_finished("teams", match, players, at=1.0)
    assert changes is not None
    assert [change.after for change in changes] == rate([Rating(), Rating(), computer_rating("omiga-2v2", 4), Rating()],
                                                        [1, 0, 1, 0], table=True, fixed=[False, False, True, False],
                                                        teams=[0, 1, 0, 1])
    assert rated.rating("bob", "omiga-2v2", at=1.0).rating > 1500 > rated.rating("ann", "omiga-2v2", at=1.0).rating
    assert rated.rating("bob", "omiga", at=1.0).games == 0  # its own pool
    assert rated.rate_finished("teams", match, players, at=2.0) is None  # once
    with pytest.raises(ValueError, match="share its place"):
        rated.apply_result("split", "omiga-2v2", ["ann", "bob", "cid", "dan"], [0, 1, 1, 0], at=3.0)


def test_an_aborted_or_casual_only_game_changes_no_rating(engine: Engine) -> None:
    rated = RatingStore(engine)
    aborted_game = ogames.load("omny", size=3).new_state()
    aborted_game.play(aborted_game.legal_moves()[0])
    aborted_game.play("resign")  # the second player resigns before moving
    made_up = finished("omny", 1, variant="custom", cells="a1 b1 a2 b2 c2 b3")
    for game_id, state in (("aborted", aborted_game), ("made-up", made_up)):
        assert rated.rate_finished(game_id, state, ["ann", "bob"], at=1.0) is None
    assert rows(engine) == ([], [])
