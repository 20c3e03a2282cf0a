"""`ogames omiga …`: bot matches saved as records, watching them, and the turn-based modes mounted."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import ogames
from ogames.cli.app import app

runner = CliRunner()


def test_match_saves_records_that_replay_and_watch_shows_them(tmp_path):
    result = runner.invoke(app, ["omiga", "match", "--games", "2", "--seed", "5", "--save", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("omiga-*.json"))
    assert [f.name for f in files] == ["omiga-5.json", "omiga-6.json"]
    record = json.loads(files[0].read_text())
    final = ogames.replay(record)
    assert final.is_over and f"game 1: {final.winner}" in result.output

    watched = runner.invoke(app, ["omiga", "watch", str(files[0]), "--speed", "0"])
    assert watched.exit_code == 0, watched.output
    assert final.result.describe() in watched.output
    # Every recorded action is shown in order.
    shown = [line for line in watched.output.splitlines() if line.startswith(("white:", "black:")) and "(t=" in line]
    assert len(shown) == len(record["moves"])


def test_watch_refuses_a_tampered_record_with_a_clear_message(tmp_path):
    runner.invoke(app, ["omiga", "match", "--games", "1", "--seed", "2", "--save", str(tmp_path)])
    path = next(tmp_path.glob("*.json"))
    record = json.loads(path.read_text())
    record["result"] = {"winner": "white" if record["result"]["winner"] == "black" else "black", "reason": "forged"}
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["omiga", "watch", str(path), "--speed", "0"])
    assert result.exit_code == 1
    assert "cannot watch" in result.output and "result" in result.output


def test_watch_refuses_a_turn_based_record(tmp_path):
    state = ogames.load("omiga", variant="toddler", seed=3).new_state()
    path = tmp_path / "toddler.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(app, ["omiga", "watch", str(path), "--speed", "0"])
    assert result.exit_code == 1 and "real-time" in result.output


def test_match_rejects_an_unknown_bot():
    result = runner.invoke(app, ["omiga", "match", "--bots", "racer@club", "genius@club"])
    assert result.exit_code != 0
    assert "unknown strategy" in result.output


def test_turn_based_modes_share_the_omiga_command_group():
    result = runner.invoke(app, ["omiga", "--help"])
    for command in ("kids", "toddler", "zen", "forms", "watch", "match"):
        assert command in result.output


def test_play_omiga_real_time_points_to_its_faces():
    result = runner.invoke(app, ["play", "omiga"])
    assert result.exit_code == 2
    assert "ogames omiga match" in result.output


def test_play_omiga_toddler_uses_the_turn_based_loop():
    result = runner.invoke(app, ["play", "omiga", "--variant", "toddler", "--players", "3", "--seed", "3"], input="help\nquit\n")
    assert result.exit_code == 0, result.output
    assert "discard" in result.output and "(white)>" in result.output
