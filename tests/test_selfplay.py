"""Self-play data in local worker processes: records, the .npz shards and what each row says, Omega's
turns as one row per stone, resuming, records only for games without tensors, and the command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import ogames
from conformance.cases import BOARD_CASES
from ogames.arena import selfplay
from ogames.arena.play import play_task
from ogames.arena.tournament import GAMES, MANIFEST, TournamentError, plan, run
from ogames.cli.app import app
from ogames.envs.encoding import encoding
from ogames.errors import BadOption


@pytest.fixture(scope="module")
def y3(tmp_path_factory):
    """Four self-play games of a small MCTS on Y 3, in two worker processes, and their shards."""
    folder = tmp_path_factory.mktemp("selfplay") / "y3"
    t = selfplay.plan_selfplay("omny", {"variant": "y", "size": 3}, "mcts:iterations=8", games=4, seed=3)
    summary = run(t, folder, workers=2, method="fisher")
    return t, folder, summary, selfplay.write_examples(t, folder, shard_size=3)


def test_self_play_seats_the_player_everywhere_and_saves_every_game(y3):
    t, folder, summary, _ = y3
    assert t.entrants == ("mcts:iterations=8", "mcts:iterations=8") and len(t.pairings) == 4
    assert summary.complete and summary.played == 4
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["purpose"] == "selfplay" and manifest["games"] == 4
    assert all(ogames.replay(json.loads(p.read_text())).is_over for p in (folder / GAMES).glob("*.json"))


def test_each_row_is_a_position_its_move_and_the_final_result_for_the_mover(y3):
    t, folder, _, shards = y3
    assert [p.name for p in shards] == ["shard-00000.npz", "shard-00001.npz"]
    data = selfplay.read_examples(shards)
    game = ogames.load("omny", variant="y", size=3)
    enc = encoding(game)
    assert data["observation"].shape[1:] == enc.shape and data["observation"].dtype == np.float32
    assert data["legal"].shape[1] == enc.num_actions and list(data["plane_names"]) == list(enc.plane_names)
    assert json.loads(str(data["meta"]))["player"] == "mcts:iterations=8"
    # Replay game 0 by hand and compare row by row.
    record = json.loads((folder / GAMES / t.pairings[0].file_name).read_text())
    rows = np.flatnonzero(data["game"] == 0)
    state = game.new_state(record["players"])
    final = ogames.replay(record)
    assert len(rows) == len(record["moves"]) and list(data["ply"][rows]) == list(range(len(rows)))
    for row, entry in zip(rows, record["moves"], strict=True):
        assert np.array_equal(data["observation"][row], enc.observation(state))
        assert data["seat"][row] == state.mover and str(data["action_names"][data["action"][row]]) == entry["move"]
        won = final.owner[final.winner] == state.mover
        assert data["value"][row] == (1.0 if won else -1.0)
        state.play(entry["move"])


def test_omega_turns_give_one_row_per_stone():
    t = selfplay.plan_selfplay("omega", {"players": 3, "size": 4}, "random", games=1, seed=1)
    record = play_task(t.task(t.pairings[0]))
    rows = selfplay.game_examples(record, 0)
    stones = sum(len(m["move"].split()) for m in record["moves"] if not m["move"].startswith("swap"))
    assert len(rows["action"]) == stones and rows["observation"].shape[0] == stones
    assert set(np.unique(rows["seat"]).tolist()) == {0, 1, 2}
    assert rows["value"].max() == 1.0 and np.isclose(rows["value"].min(), -0.5)


def test_a_resumed_self_play_rewrites_the_shards_with_every_game(tmp_path):
    t = selfplay.plan_selfplay("oddy", {"size": 3}, "random", games=3, seed=2)
    run(t, tmp_path / "s", workers=1, method="fisher")
    (tmp_path / "s" / GAMES / t.pairings[1].file_name).unlink()
    partial = selfplay.read_examples(selfplay.write_examples(t, tmp_path / "s"))
    assert sorted(set(partial["game"].tolist())) == [0, 2]
    assert run(t, tmp_path / "s", workers=1, resume=True, method="fisher").played == 1
    whole = selfplay.read_examples(selfplay.write_examples(t, tmp_path / "s"))
    assert sorted(set(whole["game"].tolist())) == [0, 1, 2]


def test_a_self_play_folder_is_not_taken_for_a_tournament(tmp_path):
    t = selfplay.plan_selfplay("oddy", {"size": 3}, "random", games=2)
    run(t, tmp_path / "s", workers=1, method="fisher")
    same_games = plan("oddy", {"size": 3}, ["random", "random"], games_per_pair=2)
    with pytest.raises(TournamentError, match="purpose"):
        run(same_games, tmp_path / "s", workers=1, resume=True)


def test_games_without_tensors_give_records_only(tmp_path):
    t = selfplay.plan_selfplay("omiga", {"variant": "toddler", "players": 2, "width": 4}, "random", games=1)
    run(t, tmp_path / "o", workers=1, method="fisher")
    assert selfplay.write_examples(t, tmp_path / "o") == [] and not (tmp_path / "o" / selfplay.EXAMPLES).exists()


@pytest.mark.parametrize(
    ("game", "options", "games", "message"),
    [
        ("oddy", {"size": 3}, 0, "--games must be a whole number from 1"),
        ("omiga", {"variant": "zen"}, 2, "self-play needs two or more seats"),
    ],
)
def test_bad_self_play_is_refused(game, options, games, message):
    with pytest.raises(BadOption, match=message):
        selfplay.plan_selfplay(game, options, "random", games=games)


def test_the_command_writes_records_and_shards(tmp_path):
    out = tmp_path / "cli"
    args = ["selfplay", "oddy", "--size", "3", "--player", "random", "--games", "2", "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert "self-play of random: 2 games, 1 worker" in result.stdout and "2 of 2 games saved" in result.stdout
    assert (out / selfplay.EXAMPLES / "shard-00000.npz").exists()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 1 and "--resume" in again.stderr and "Traceback" not in again.stderr


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--player", "random", "random"], "name one player after --player"),
        (["--player", "random", "--games", "-1"], "--games must be"),
        (["--player", "random", "--shard-size", "0"], "--shard-size must be at least 1"),
        (["--player", "random", "--colour", "red"], "unknown option --colour"),
    ],
)
def test_command_mistakes_get_one_clear_line(extra, message, tmp_path):
    result = CliRunner().invoke(app, ["selfplay", "oddy", "--size", "3", *extra, "--out", str(tmp_path / "never")])
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.stderr + result.stdout
    assert not (tmp_path / "never").exists()


@pytest.mark.parametrize(("name", "options"), [c[1:] for c in BOARD_CASES], ids=[c[0] for c in BOARD_CASES])
def test_every_board_game_case_gives_legal_rows(name, options):
    """Pie swaps, komi choices, Omega's swaps and matches, Onyx: every row's move is legal where it was played."""
    t = selfplay.plan_selfplay(name, options, "random", games=1, seed=5)
    record = play_task(t.task(t.pairings[0]))
    rows = selfplay.game_examples(record, 0)  # raises if a move played has no legal action
    split = name == "omega"
    decisions = sum(len(m["move"].split()) if split and not m["move"].startswith("swap") else 1 for m in record["moves"])
    assert len(rows["action"]) == decisions and rows["legal"][np.arange(decisions), rows["action"]].all()
    seats = len(record["players"])
    assert set(np.unique(rows["value"]).tolist()) <= {1.0, float(np.float32(-1.0 / (seats - 1))), 0.0}


def test_an_out_folder_that_cannot_be_made_is_named_in_words(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    args = ["selfplay", "oddy", "--size", "3", "--player", "random", "--games", "1", "--out", str(blocker / "run")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and "Traceback" not in result.stderr + result.stdout
    assert "cannot save the games in" in result.stderr and "not a directory" in result.stderr
    assert "Errno" not in result.stderr
    assert blocker.read_text() == "not a folder"
