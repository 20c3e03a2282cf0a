"""The games database: alembic migrations both ways, actions written only at the version they were
made at (and entries rewritten from the first one changed), and token digests instead of tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

import ogames
from ogames.web.core.settings import default_database_path, default_database_url
from ogames.web.core.store import StaleMove, Store, digest, make_engine, migrate
from ogames.web.core.store_faults import StorageError


def head_revision() -> str:
    """The newest migration's revision (what a new database is brought to)."""
    from alembic.script import ScriptDirectory

    from ogames.web.core.store import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def test_the_migrations_build_and_remove_the_schema(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    migrate(engine)
    assert {"games", "moves", "seat_tokens", "alembic_version"} <= set(inspect(engine).get_table_names())
    with engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == head_revision()
    migrate(engine)  # already current: nothing to do
    migrate(engine, "base", down=True)
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    engine.dispose()


def test_a_move_is_stored_only_at_its_ply_and_games_come_back_whole(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.sqlite3'}"
    store = Store(url)
    state = ogames.load("omny", variant="y", size=3, pie=True).new_state(["ann", "bob"])
    store.create_game("g1", "omny", "hotseat", ["human", "human"], state.record(), {0: "tok-a", 1: "tok-b"})
    for version, move in enumerate(("b2", "swap")):
        state.play(move)
        store.add_action("g1", version, state.record(), version)
    with pytest.raises(StaleMove):
        store.add_action("g1", 1, state.record(), 1)
    store.close()
    again = Store(url)
    row = again.load_game("g1")
    assert row is not None and row.record() == state.record()
    assert ogames.replay(row.record()).seats == {"black": "bob", "white": "ann"}
    assert again.move_count("g1") == 2
    assert again.token_digests("g1") == {0: digest("tok-a"), 1: digest("tok-b")}
    assert again.load_game("nope") is None
    with again.engine.connect() as conn:
        stored = " ".join(str(row) for row in conn.execute(text("select * from seat_tokens")))
    assert "tok-a" not in stored and "tok-b" not in stored
    again.close()


def test_an_action_may_rewrite_the_last_entry(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'o.sqlite3'}")
    state = ogames.load("omega", players=2, size=4).new_state()
    store.create_game("o", "omega", "hotseat", ["human", "human"], state.record(), {})
    for version, move in enumerate(("d1", "e1", "f1")):
        before = len(state.record()["moves"])
        state.play(move)
        first = before - 1 if len(state.record()["moves"]) == before else before
        store.add_action("o", version, state.record(), first)
    row = store.load_game("o")
    assert [entry["move"] for entry in row.moves] == ["d1 e1", "f1"] and row.version == 3
    assert ogames.replay(row.record()).record() == state.record()
    store.close()


def test_a_game_stored_before_clocks_reads_the_same_after_the_upgrade(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(url)
    migrate(engine, "0001")  # the schema of the first release, and a game written into it as it wrote them
    state = ogames.load("omny", variant="y", size=3).new_state(["ann", "bob"])
    state.play("b2")
    record = state.record()
    head = {key: value for key, value in record.items() if key != "moves"}
    with engine.begin() as conn:
        conn.execute(
            text(
                "insert into games (id, game, mode, seat_kinds, head, ply, version, status, created_at, updated_at) "
                "values ('old', 'omny', 'hotseat', :kinds, :head, 1, 1, 'playing', 1.0, 1.0)"
            ),
            {"kinds": '["human", "human"]', "head": json.dumps(head)},
        )
        conn.execute(text("insert into moves values ('old', 0, :entry, 1.0)"), {"entry": json.dumps(record["moves"][0])})
    engine.dispose()
    store = Store(url)  # upgrades to the newest schema
    row = store.load_game("old")
    assert row is not None and row.record() == record and row.version == 1
    assert row.clock is None and row.listed is False  # old games are untimed and not listed
    assert store.open_games() == []
    migrate(store.engine, "0001", down=True)  # and back: the game is still there
    with store.engine.connect() as conn:
        assert conn.execute(text("select ply from games where id = 'old'")).scalar() == 1
        assert conn.execute(text("select count(*) from moves where game_id = 'old'")).scalar() == 1
    store.close()


def test_an_open_seat_is_taken_once(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'j.sqlite3'}")
    state = ogames.load("omny", variant="y", size=3).new_state()
    store.create_game("j", "omny", "online", ["human", "open"], state.record(), {0: "tok-a"}, listed=True)
    assert [game["id"] for game in store.open_games()] == ["j"]
    assert store.take_seat("j", 1, "tok-b") == ["human", "invited"]
    assert store.take_seat("j", 1, "tok-c") is None  # taken already
    assert store.take_seat("j", 0, "tok-c") is None  # never open
    assert store.take_seat("j", 5, "tok-c") is None and store.take_seat("nope", 1, "tok-c") is None
    assert store.token_digests("j") == {0: digest("tok-a"), 1: digest("tok-b")}
    assert store.open_games() == [] and store.load_game("j").listed is False
    store.close()


def test_only_the_default_data_folder_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OGAMES_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    Store(default_database_url()).close()
    assert default_database_path().is_file() and default_database_path().parent == tmp_path / "data" / "ogames"
    with pytest.raises(StorageError, match=r"the folder .*typo does not exist"):
        Store(f"sqlite:///{tmp_path / 'typo' / 'games.sqlite3'}")
    (tmp_path / "file").write_text("a file")
    with pytest.raises(StorageError, match="file is not a folder"):
        Store(f"sqlite:///{tmp_path / 'file' / 'games.sqlite3'}")
    assert not (tmp_path / "typo").exists()


def test_the_file_is_held_alone_unless_shared(tmp_path: Path) -> None:
    """By default no other program may read the file while a store has it (no shared-memory
    index that a fault could turn into SIGBUS); `shared` lets a reader in (an online backup)."""
    import sqlite3

    def read(path: Path) -> int:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.1) as db:
            return db.execute("SELECT count(*) FROM games").fetchone()[0]

    record = ogames.load("omny", variant="y", size=3).new_state().record()
    for shared in (False, True):
        path = tmp_path / f"{shared}.sqlite3"
        store = Store(f"sqlite:///{path}", shared=shared)
        try:
            store.create_game("g1", "omny", "hotseat", ["human", "human"], record, {})
            if shared:
                assert read(path) == 1
            else:
                with pytest.raises(sqlite3.OperationalError, match="locked"):
                    read(path)
        finally:
            store.close()
        assert read(path) == 1  # once the store lets go, anyone may read it
