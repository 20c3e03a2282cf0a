"""The opening explorer's index of the site's finished games (web/explore/site.py, migration 0017):
every finished game of a board is counted (past the 500 the explorer once read), exactly as a tree
of the same records counts them (transpositions included), each game once however often its end
is counted, a game taken back from its end no longer; games the explorer refuses add nothing; the
migration counts the games stored before it."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, insert, select, text

import ogames
from ogames.teach.explorer import Stats, Tree, position
from ogames.web.core.store import StaleMove, Store, games, make_engine, migrate, moves
from ogames.web.explore.site import (
    count_all,
    count_game,
    counted_at,
    counting_of,
    digest,
    explorer_games,
    explorer_moves,
    tree_of,
)

Y4 = {"variant": "y", "size": 4}


def random_record(rng: random.Random, options: dict[str, Any] = Y4) -> dict[str, Any]:
    """A finished game of random moves (the rules' record)."""
    state = ogames.load("omny", **options).new_state(["ann", "bob"])
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    return state.record()


def finish(store: Store, game_id: str, record: dict[str, Any]) -> None:
    """Store a game, then the action that ends it (every move at once), as the site stores them."""
    head = {key: value for key, value in record.items() if key != "moves"}
    store.create_game(game_id, record["game"], "online", ["human", "human"], {**head, "result": None, "moves": []}, {})
    store.add_entries(game_id, 0, head, 0, record["moves"])


def index_of(store: Store) -> dict[tuple[str, str], dict[str, Stats]]:
    """The whole index, as {(board digest, position digest): {move: Stats}}."""
    found: dict[tuple[str, str], dict[str, Stats]] = {}
    with store.engine.connect() as conn:
        for row in conn.execute(select(explorer_moves)):
            stats = found.setdefault((row.board, row.position), {}).setdefault(row.move, Stats())
            stats.games += row.games
            if row.winner:
                stats.wins[row.winner] = stats.wins.get(row.winner, 0) + row.games
    return found


def tree_as_index(tree: Tree) -> dict[tuple[str, str], dict[str, Stats]]:
    """A tree's counts as the index keys them (the reference: records counted by the library)."""
    return {(digest(tree.key), digest(key)): dict(played) for key, played in tree.nodes.items()}


def counted_games(store: Store) -> set[str]:
    with store.engine.connect() as conn:
        return set(conn.execute(select(explorer_games.c.game_id)).scalars())


def test_every_finished_game_of_a_board_is_counted_not_only_the_newest_500(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    tree = Tree.of("omny", Y4)
    rng = random.Random(7)
    for number in range(520):
        record = random_record(rng)
        finish(store, f"g{number}", record)
        assert tree.add_record(record)
    store.create_game("playing", "omny", "online", ["human", "human"], ogames.load("omny", **Y4).new_state().record(), {})
    assert index_of(store) == tree_as_index(tree)
    root = counted_at(store, position(tree.game, []), [])
    assert sum(stats.games for stats in root.moves.values()) == 520
    assert len(counted_games(store)) == 520
    store.close()


def test_a_game_is_counted_once_however_often_its_end_is_counted(tmp_path: Path) -> None:
    counted_once(Store(f"sqlite:///{tmp_path / 'g.sqlite3'}"))


def counted_once(store: Store) -> None:
    """(Also run on PostgreSQL: test_explore_scale_out.py.)"""
    record = random_record(random.Random(1))
    finish(store, "g", record)
    before = index_of(store)
    with store.engine.begin() as conn:
        assert count_game(conn, "g") is False  # counted when it ended
        assert count_all(conn) == 0
    head = {key: value for key, value in record.items() if key != "moves"}
    with pytest.raises(StaleMove):  # the ending action retried (at its old version): refused, nothing added
        store.add_entries("g", 0, head, 0, record["moves"])
    assert index_of(store) == before and counted_games(store) == {"g"}
    store.close()


def test_a_game_taken_back_from_its_end_counts_only_its_new_end(tmp_path: Path) -> None:
    taken_back(Store(f"sqlite:///{tmp_path / 'g.sqlite3'}"))


def taken_back(store: Store) -> None:
    """(Also run on PostgreSQL: test_explore_scale_out.py.)"""
    first = ["a1", "d1", "a2", "c2", "a3", "b3", "a4"]  # Black wins
    game = ogames.load("omny", **Y4)
    other = game.new_state(["ann", "bob"])
    for move in ["a1", "b2", "a2", "c2", "a3", "b3", "a4"]:  # another game through a1: a row both count
        other.play(move)
    finish(store, "other", other.record())
    tree = Tree.of("omny", Y4)
    assert tree.add_record(other.record())
    state = game.new_state(["ann", "bob"])
    store.create_game("h", "omny", "hotseat", ["human", "human"], state.record(), {})
    for version, move in enumerate(first):
        state.play(move)
        store.add_action("h", version, state.record(), version)
    assert counted_games(store) == {"h", "other"}
    state.undo()  # one screen: taken back after its end
    store.add_action("h", len(first), state.record(), len(first) - 1, taken_back=True)
    assert counted_games(store) == {"other"} and index_of(store) == tree_as_index(tree)
    rng, version = random.Random(5), len(first) + 1
    state.play(next(move for move in state.legal_moves() if move != "a4"))  # a different end
    store.add_action("h", version, state.record(), len(first) - 1)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        version += 1
        store.add_action("h", version, state.record(), len(state.record()["moves"]) - 1)
    assert tree.add_record(state.record())
    assert index_of(store) == tree_as_index(tree) and counted_games(store) == {"h", "other"}
    store.close()


def test_a_game_resigned_before_any_move_ends_and_adds_no_row(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    state = ogames.load("omny", **Y4).new_state(["ann", "bob"])
    store.create_game("r", "omny", "online", ["human", "human"], state.record(), {})
    state.resign("black")
    store.add_action("r", 0, state.record(), 0)  # stored: the counting has nothing to write
    assert store.load_game("r").status == "over"  # type: ignore[union-attr]
    assert counted_games(store) == {"r"} and index_of(store) == {}
    store.close()


def test_games_the_explorer_refuses_add_nothing() -> None:
    assert tree_of({"game": "omiga", "options": {}}) is None  # real time
    assert tree_of({"game": "omny", "options": {"size": 999}}) is None
    assert tree_of({"game": "omny", "options": "y"}) is None
    assert tree_of({"game": "omny", "options": Y4}) is not None


@pytest.mark.parametrize("seed", range(5))
def test_a_games_rows_are_written_in_key_order(seed: int) -> None:
    """Two games ending at once lock the rows they share in the same order, so PostgreSQL cannot
    find them waiting on each other (a deadlock would fail one of the last moves)."""
    counting = counting_of(random_record(random.Random(seed)))
    assert counting is not None and len(counting.rows) > 3
    keys = [(row["position"], row["move"]) for row in counting.rows]
    assert keys == sorted(keys)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=25))
def test_the_index_counts_as_a_tree_of_the_same_games_transpositions_shared(seeds: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        counts_as_a_tree(Store(f"sqlite:///{folder}/g.sqlite3"), seeds)


def counts_as_a_tree(store: Store, seeds: list[int]) -> None:
    tree = Tree.of("omny", {"variant": "y", "size": 3})
    for number, seed in enumerate(seeds):
        record = random_record(random.Random(seed), {"variant": "y", "size": 3})
        finish(store, f"g{number}", record)
        tree.add_record(record)
    assert index_of(store) == tree_as_index(tree)
    store.close()


def test_transpositions_share_their_games_on_the_page(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    game = ogames.load("omny", **Y4)
    for number, line in enumerate((["a1", "d1", "a2", "c2", "a3", "b3", "a4"], ["a2", "d1", "a1", "c2", "a3", "b3", "a4"])):
        state = game.new_state(["ann", "bob"])
        for move in line:
            state.play(move)
        finish(store, f"t{number}", state.record())
    one, other = (counted_at(store, position(game, path), path) for path in (["a1", "d1", "a2"], ["a2", "d1", "a1"]))
    assert one.moves == other.moves and one.moves["c2"].games == 2 and one.moves["c2"].wins == {"black": 2}
    store.close()


def stored_at_0016(url: str, game_id: str, record: dict[str, Any], status: str = "over") -> None:
    """A game written as a server before migration 0017 wrote it (the head, the moves)."""
    engine = make_engine(url)
    head = {key: value for key, value in record.items() if key != "moves"}
    with engine.begin() as conn:
        conn.execute(insert(games).values(id=game_id, game=record["game"], mode="online", seat_kinds=["human", "human"],
                                          head=head, ply=len(record["moves"]), version=1, status=status,
                                          created_at=1.0, updated_at=1.0))
        for ply, entry in enumerate(record["moves"]):
            conn.execute(insert(moves).values(game_id=game_id, ply=ply, entry=entry, stored_at=1.0))
    engine.dispose()


def test_the_migration_counts_the_games_stored_before_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(url)
    migrate(engine, "0016")
    engine.dispose()
    rng = random.Random(3)
    tree = Tree.of("omny", Y4)
    for number in range(30):
        record = random_record(rng)
        stored_at_0016(url, f"old{number:02d}", record)
        assert tree.add_record(record)
    stored_at_0016(url, "other-board", random_record(rng, {"variant": "y", "size": 5}))
    playing = ogames.load("omny", **Y4).new_state(["ann", "bob"])
    playing.play("b2")
    stored_at_0016(url, "playing", playing.record(), status="playing")
    tampered = random_record(rng)
    tampered["moves"][1]["move"] = tampered["moves"][0]["move"]  # the same cell twice: the rules refuse it
    stored_at_0016(url, "tampered", tampered)
    store = Store(url)  # brought to the newest schema: the backfill
    assert counted_games(store) == {f"old{number:02d}" for number in range(30)} | {"other-board"}
    index = index_of(store)
    board = digest(tree.key)
    assert {key: played for key, played in index.items() if key[0] == board} == tree_as_index(tree)
    with store.engine.begin() as conn:
        assert count_all(conn) == 0  # run again: nothing counted twice
    assert index_of(store) == index
    migrate(store.engine, "0016", down=True)  # and back: the index gone, the games kept
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(games)).scalar() == 33
        tables = set(conn.execute(text("select name from sqlite_master where type = 'table'")).scalars())
    assert "explorer_moves" not in tables and "explorer_games" not in tables
    store.close()
