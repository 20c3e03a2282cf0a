"""`ogames omiga …`: bot matches saved as records, watching them, and the turn-based modes mounted."""

from __future__ import annotations

import json
import random

import pytest
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
    result = runner.invoke(app, ["omiga", "match", "--bots", "racer:reaction=club", "genius:reaction=club"])
    assert result.exit_code != 0
    assert "a real-time Omiga bot is one of" in result.output


def test_turn_based_modes_share_the_omiga_command_group():
    result = runner.invoke(app, ["omiga", "--help"])
    for command in ("kids", "toddler", "zen", "forms", "watch", "match"):
        assert command in result.output


def test_play_omiga_real_time_points_to_its_faces():
    result = runner.invoke(app, ["play", "omiga"])
    assert result.exit_code == 2
    assert "ogames omiga match" in result.output


def test_play_omiga_kids_runs_in_real_time_at_the_prompt():
    result = runner.invoke(app, ["play", "omiga", "--variant", "kids", "--seed", "3"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "t=0.0s>" in result.output


def test_the_turn_based_loop_refuses_a_real_time_state():
    from ogames.cli.omiga_turns import loop

    state = ogames.load("omiga", variant="kids", seed=3).new_state()
    with pytest.raises(ogames.CannotPlay, match="play_live"):
        loop(state, set(), 3, ask=lambda _: "quit")


def test_play_omiga_toddler_uses_the_turn_based_loop():
    result = runner.invoke(app, ["play", "omiga", "--variant", "toddler", "--players", "3", "--seed", "3"], input="help\nquit\n")
    assert result.exit_code == 0, result.output
    assert "discard" in result.output and "(white)>" in result.output


# ----- no traceback ever: bad options, bad folders, bad files ---------------------------------------
def clean_exit(result, code: int = 2) -> str:
    """The output of a command that failed cleanly: the exit code and no traceback."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "--variant", "zen"], "real-time modes (base, 2v2, kids), not zen"),
        (["match", "--variant", "toddler"], "not toddler"),
        (["match", "--variant", "3v3"], "option variant='3v3' is not valid"),
        (["match", "--width", "99"], "option width=99 is not valid"),
        (["match", "--height", "2"], "option height=2 is not valid"),
        (["match", "--bots", "racer:reaction=club", "genius:reaction=club"], "a real-time Omiga bot is one of"),
        (["match", "--bots", "racer:reaction=sloth", "random"], "unknown reaction"),
        (["kids", "--width", "99"], "option width=99 is not valid"),
        (["kids", "--pace", "fast"], "option pace='fast' is not valid"),
        (["kids", "--opponent", "genius"], "a real-time Omiga bot is one of"),
        (["kids", "--think", "-1"], "--think -1"),
        (["toddler", "--players", "7"], "option players=7 is not valid"),
        (["toddler", "--players", "6", "--width", "5"], "toddler gives each player a column"),
        (["toddler", "--bots", "5"], "--bots 5"),
        (["toddler", "--bots", "-1"], "--bots -1"),
        (["zen", "unicorn"], "unknown zen form 'unicorn'"),
    ],
)
def test_bad_options_get_a_clear_message(args, message):
    assert message in clean_exit(runner.invoke(app, ["omiga", *args], input="quit\n"))


@pytest.mark.parametrize("command", [["match", "--games", "1"], ["kids"], ["toddler"], ["zen"]])
def test_a_bad_save_folder_is_refused_before_playing(tmp_path, command):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    output = clean_exit(runner.invoke(app, ["omiga", *command, "--save", str(blocker / "inside")], input="quit\n"))
    assert "cannot save records in" in output


def test_toddler_and_zen_save_their_records(tmp_path):
    result = runner.invoke(app, ["omiga", "toddler", "--bots", "2", "--seed", "4", "--save", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "omiga-toddler-4.json").read_text())
    assert ogames.replay(record).is_over
    result = runner.invoke(app, ["omiga", "zen", "--seed", "4", "--save", str(tmp_path)], input="start black\nquit\n")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "omiga-zen-4.json").read_text())["moves"][0]["move"] == "start black"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (bytes(range(256)) * 4, "not UTF-8"),
        (b"[" * 100_000, "cannot watch"),
        (b'{"format": "ogames-record"}', "cannot watch"),
        (b"", "cannot watch"),
    ],
)
def test_watch_refuses_binary_nested_and_broken_files(tmp_path, content, message):
    path = tmp_path / "record.json"
    path.write_bytes(content)
    assert message in clean_exit(runner.invoke(app, ["omiga", "watch", str(path), "--speed", "0"]), code=1)


def test_watch_refuses_other_games_and_a_missing_file(tmp_path):
    path = tmp_path / "omny.json"
    state = ogames.load("omny", variant="y", size=3).new_state()
    state.play("a1", t=1.0)
    path.write_text(json.dumps(state.record()))
    assert "real-time Omiga records" in clean_exit(runner.invoke(app, ["omiga", "watch", str(path)]), code=1)
    assert "cannot watch" in clean_exit(runner.invoke(app, ["omiga", "watch", str(tmp_path / "nothing.json")]), code=1)


def test_watch_takes_records_without_times(tmp_path):
    state = ogames.load("omiga", variant="kids", seed=3).new_state()
    rng = random.Random(3)
    for _ in range(6):
        state.play(rng.choice(state.legal_moves()), t=state.clock + 1)
    record = state.record()
    for entry in record["moves"]:
        del entry["t"]
    path = tmp_path / "no-times.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["omiga", "watch", str(path)])  # the default speed: no pause without t
    assert result.exit_code == 0, result.output
    assert result.output.count("(no time)") == 6


# ----- tables that fit 80 columns ----------------------------------------------------------------------
def test_turn_based_tables_wider_than_the_console_are_drawn_in_bands():
    result = runner.invoke(app, ["omiga", "toddler", "--width", "30", "--bots", "2", "--seed", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines if "> " not in line) <= 80
    assert any(" ad " in line for line in lines)  # two-letter columns are named as the table names them


def test_zen_forms_fit_80_columns():
    result = runner.invoke(app, ["omiga", "forms", "--no-solve"])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    assert "panda-impossible" in result.output and "Шахматная доска" in result.output and "…" not in result.output


# ----- who sits at `ogames play omiga` -----------------------------------------------------------
def games_block(name: str) -> str:
    """A game's lines in `ogames games`, joined into one line."""
    out = runner.invoke(app, ["games"], env={"COLUMNS": "80"}).stdout
    blocks = out.split("\n\n")
    return " ".join(next(b for b in blocks if b.startswith(name)).split())


def test_games_lists_omigas_own_seat_kinds_not_the_board_games_players():
    omiga = games_block("omiga")
    assert "climber (turn-based modes)" in omiga
    assert "racer|rollout|greedy|random[:reaction=SPEED]" in omiga and "bot:level=1–10 (real-time kids)" in omiga
    assert "mcts" not in omiga and "uct" not in omiga
    assert "(human|random|mcts|uct|solver)" in games_block("omny")


@pytest.mark.parametrize(
    ("options", "seats", "bots"),
    [
        ({"variant": "toddler"}, {"black": "climber"}, {1: "climber"}),
        ({"variant": "toddler", "players": 3}, {"white": "bot"}, {0: "climber", 1: "climber", 2: "climber"}),
        ({"variant": "kids", "pace": "turns"}, {}, {1: "climber"}),
        ({"variant": "kids"}, {}, {1: "racer:reaction=toddler"}),
        ({"variant": "kids"}, {"white": "racer:reaction=machine", "black": "human"}, {0: "racer:reaction=machine"}),
        ({"variant": "kids"}, {"black": "bot:level=10"}, {1: "rollout:reaction=0.75"}),
        ({"variant": "kids"}, {"black": "greedy"}, {1: "greedy"}),
        ({"variant": "zen"}, {}, {}),
    ],
)
def test_omiga_seats_are_people_and_omigas_own_bots(options, seats, bots):
    from ogames.cli.app import _omiga_seats

    _, seated = _omiga_seats(ogames.load("omiga", seed=4, **options), seats)
    assert seated == bots


def test_play_omiga_seats_the_climber_where_games_says():
    result = runner.invoke(
        app, ["play", "omiga", "--variant", "toddler", "--seed", "4", "--white", "climber", "--black", "human"], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "bot player 1 plays place" in result.output and "player 2 (black)>" in result.output


def test_play_omiga_with_a_seed_deals_the_same_decks_each_time():
    """`--seed` makes an Omiga game repeatable: it deals the decks (which are secret otherwise)."""
    command = ["play", "omiga", "--variant", "toddler", "--seed", "4", "--white", "climber", "--black", "human"]
    first, again = (runner.invoke(app, command, input="quit\n").output for _ in range(2))
    other = runner.invoke(app, [*command[:4], "5", *command[5:]], input="quit\n").output
    assert first == again and first != other


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "toddler", "--black", "mcts"], "a seat is human or climber"),
        (["--variant", "toddler", "--black", "racer"], "a seat is human or climber"),
        (["--variant", "kids", "--black", "uct"], "a seat is human, bot[:level=N] or racer|rollout|greedy|random"),
        (["--variant", "kids", "--black", "climber"], "a seat is human, bot[:level=N]"),
        (["--variant", "kids", "--black", "bot:level=0"], "level is a whole number from 1 to 10"),
        (["--variant", "kids", "--black", "racer:reaction=slow"], "unknown reaction"),
    ],
)
def test_play_omiga_refuses_seats_it_cannot_seat(args, message):
    output = clean_exit(runner.invoke(app, ["play", "omiga", "--seed", "4", *args]))
    assert message in " ".join(output.split())
