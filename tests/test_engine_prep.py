"""The computer player in the terminal: kernels warmed before the first move (announced when it
takes a while, i.e. when numba compiles), and a win chance shown only when enough playouts back it."""

from __future__ import annotations

import time

from rich.console import Console
from typer.testing import CliRunner

import ogames
from ogames.cli import engine
from ogames.cli.app import app
from ogames.cli.engine import PREPARING, prepare_engine, search_note
from ogames.players.mcts import MIN_PLAYOUTS_FOR_VALUE, MctsPlayer, warm_up


def recorded() -> Console:
    return Console(record=True, width=80, color_system=None)


def test_win_chance_is_shown_only_when_it_is_reliable() -> None:
    few = {"iterations": 3, "seconds": 1.0, "visits": 2, "value": 1.0, "reliable": False}
    assert search_note(few) == "  [dim](1.0 s, 3 playouts)[/]"
    many = {"iterations": 900, "seconds": 1.0, "visits": 400, "value": 0.625, "reliable": True}
    assert search_note(many) == "  [dim](1.0 s, 900 playouts, expects 62%)[/]"
    assert search_note({"iterations": 0, "seconds": 0.0, "value": None}) == ""


def test_mcts_marks_its_value_reliable_only_past_the_threshold() -> None:
    state = ogames.load("omny", size=5).new_state()
    player = MctsPlayer(iterations=20, seed=1)
    player.choose(state)
    assert player.info()["visits"] < MIN_PLAYOUTS_FOR_VALUE and player.info()["reliable"] is False
    small = ogames.load("omny", size=2).new_state()  # three cells: the best move gets most playouts
    player = MctsPlayer(iterations=3 * MIN_PLAYOUTS_FOR_VALUE, seed=1)
    player.choose(small)
    assert player.info()["visits"] >= MIN_PLAYOUTS_FOR_VALUE and player.info()["reliable"] is True


def test_warm_up_leaves_the_state_as_it_was() -> None:
    for name in ("omny", "oddy", "omega", "onyx"):
        state = ogames.load(name).new_state()
        before = state.record()
        warm_up(state)
        assert state.record() == before and state.ply == 0


def test_slow_warming_is_announced_and_quick_warming_is_not(monkeypatch) -> None:
    state = ogames.load("omny", size=3).new_state()
    console = recorded()
    prepare_engine(console, state, quiet_seconds=5.0)
    assert console.export_text() == ""
    monkeypatch.setattr(engine, "warm_up", lambda s: time.sleep(0.3))
    console = recorded()
    prepare_engine(console, state, quiet_seconds=0.01)
    text = console.export_text()
    assert PREPARING in text and "engine ready" in text and "first run only" in text


def test_a_failing_warm_up_does_not_stop_the_game(monkeypatch) -> None:
    def broken(state) -> None:
        raise RuntimeError("no kernels here")

    monkeypatch.setattr(engine, "warm_up", broken)
    console = recorded()
    prepare_engine(console, ogames.load("omny", size=3).new_state())
    assert console.export_text() == ""


def test_play_warms_before_a_computer_seat_and_shows_no_win_chance_from_few_playouts(monkeypatch) -> None:
    calls = []
    monkeypatch.setattr(engine, "warm_up", lambda state: calls.append(state.ply))
    args = ["play", "omny", "--size", "4", "--white", "mcts", "--iterations", "30", "--seed", "1"]
    result = CliRunner().invoke(app, args, input="a1\nquit\n")
    assert result.exit_code == 0, result.output
    assert calls == [0]
    assert "mcts (white) plays" in result.output and "30 playouts" in result.output
    assert "expects" not in result.output
    calls.clear()
    CliRunner().invoke(app, ["play", "omny", "--size", "4", "--white", "human"], input="quit\n")
    assert calls == []  # two people: nothing to prepare
