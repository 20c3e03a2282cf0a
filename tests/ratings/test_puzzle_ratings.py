"""Puzzle ratings (ogames/ratings/puzzles.py) on a migrated database: a first try moves the
player's and the puzzle's ratings in opposite directions, a second try changes nothing, and over
any run of tries every (player, puzzle) pair counts once; the migration's tables are the ones the
queries use (0015 up and down)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, func, inspect, select

from ogames.ratings.puzzles import PuzzleRatings, puzzle_attempts, start_rating
from ogames.web.core.store import make_engine, migrate


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    migrate(engine)
    yield engine
    engine.dispose()


def test_a_solved_first_try_raises_the_player_and_lowers_the_puzzle(engine: Engine) -> None:
    ratings = PuzzleRatings(engine)
    change = ratings.record("p1", 4, "g1", True, at=1.0)
    assert change is not None and change.puzzle_before == start_rating(4)
    assert change.player_after.rating > 1500 and change.puzzle_after.rating < start_rating(4).rating
    assert ratings.player("g1") == change.player_after and ratings.puzzle("p1", 4) == change.puzzle_after
    assert ratings.record("p1", 4, "g1", False, at=2.0) is None  # the second try changes nothing
    assert ratings.player("g1") == change.player_after and ratings.first_try("p1", "g1") is True
    failed = ratings.record("p2", 1, "g1", False, at=3.0)
    assert failed is not None and failed.player_after.rating < failed.player_before.rating
    assert failed.puzzle_after.rating > start_rating(1).rating and ratings.player("g1").games == 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("xyz"), st.booleans()), max_size=20))
def test_each_pair_counts_once(engine: Engine, tries: list[tuple[str, str, bool]]) -> None:
    ratings = PuzzleRatings(engine)
    run = str(abs(hash(tuple(tries))))[:12]  # (a fresh set of ids per example, on the one database)
    for player, puzzle, solved in tries:
        ratings.record(run + puzzle, 3, run + player, solved)
    pairs = {(player, puzzle) for player, puzzle, _ in tries}
    for player in "abc":
        assert ratings.player(run + player).games == len({p for who, p in pairs if who == player})
    for puzzle in "xyz":
        assert ratings.puzzle(run + puzzle, 3).games == len({who for who, p in pairs if p == puzzle})
    with engine.connect() as conn:
        ours = puzzle_attempts.c.puzzle_id.like(run + "%")
        assert conn.execute(select(func.count()).select_from(puzzle_attempts).where(ours)).scalar() == len(pairs)


def test_bad_ids_are_refused(engine: Engine) -> None:
    with pytest.raises(ValueError):
        PuzzleRatings(engine).record("", 1, "g1", True)
    with pytest.raises(ValueError):
        PuzzleRatings(engine).record("p", 1, "g" * 65, True)


def test_the_migration_makes_and_drops_the_tables(engine: Engine) -> None:
    assert {"puzzle_ratings", "puzzle_players", "puzzle_attempts"} <= set(inspect(engine).get_table_names())
    migrate(engine, "0013", down=True)
    assert not {"puzzle_ratings", "puzzle_players", "puzzle_attempts"} & set(inspect(engine).get_table_names())
