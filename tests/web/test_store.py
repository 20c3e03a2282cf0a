"""The games database: alembic migrations both ways, moves written only at the ply they were made
at, and token digests instead of tokens."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text

import ogames
from ogames.web.store import StaleMove, Store, digest, make_engine, migrate


def test_the_migrations_build_and_remove_the_schema(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    migrate(engine)
    assert {"games", "moves", "seat_tokens", "alembic_version"} <= set(inspect(engine).get_table_names())
    with engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0001"
    migrate(engine)  # already current: nothing to do
    from alembic import command

    from ogames.web.store import alembic_config

    command.downgrade(alembic_config(engine), "base")
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    engine.dispose()


def test_a_move_is_stored_only_at_its_ply_and_games_come_back_whole(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'sub' / 'dir' / 's.sqlite3'}"  # folders are made
    store = Store(url)
    state = ogames.load("omny", variant="y", size=3, pie=True).new_state(["ann", "bob"])
    store.create_game("g1", "omny", "hotseat", ["human", "human"], state.record(), {0: "tok-a", 1: "tok-b"})
    for move in ("b2", "swap"):
        ply = state.ply
        state.play(move)
        store.add_move("g1", ply, state.history[-1], state.record())
    with pytest.raises(StaleMove):
        store.add_move("g1", 1, state.history[-1], state.record())
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
