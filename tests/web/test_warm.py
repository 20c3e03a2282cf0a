"""The server's start-up warm-up and its storage under concurrent writers."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import ogames
from ogames.web.core import store as store_module
from ogames.web.core.warm import CONFIGURATIONS, play_out


def test_every_warm_up_configuration_is_a_valid_game_played_to_its_end() -> None:
    played = set()
    for name, options in CONFIGURATIONS:
        state = play_out(ogames.load(name, **options).new_state(), random.Random(1))
        assert state.is_over and state.result is not None
        played.add(name)
    assert played == {"omny", "oddy", "omega", "onyx"}


def test_concurrent_writers_to_one_sqlite_file_all_succeed_in_order(tmp_path: Path) -> None:
    store = store_module.Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    games = []
    for index in range(8):
        state = ogames.load("omny", variant="y", size=4).new_state()
        store.create_game(f"g{index}", "omny", "hotseat", ["human", "human"], state.record(), {0: "a" * 43, 1: "b" * 43})
        games.append((f"g{index}", state))
    failures: list[BaseException] = []

    def play_game(game_id: str, state: ogames.State) -> None:
        rng = random.Random(game_id)
        try:
            for version in range(6):
                before = len(state.record()["moves"])
                state.play(rng.choice(state.legal_moves()))
                store.add_action(game_id, version, state.record(), before)
        except BaseException as exc:  # reported by the assertion below
            failures.append(exc)

    threads = [threading.Thread(target=play_game, args=game) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    for game_id, state in games:
        row = store.load_game(game_id)
        assert row is not None and row.version == 6
        assert ogames.replay(row.record()).record() == state.record()
    store.close()
