"""One way to name a player: `KIND[:setting=value,…]`, for the library, every command and mode."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import ogames
from ogames.cli.app import app, build_players
from ogames.errors import BadOption
from ogames.players import MctsPlayer, RandomPlayer, parse_spec, player
from ogames.players.omiga.bots import REACTION, Bot


def test_specs_name_every_kind_with_typed_settings():
    mcts = player("mcts:think=0.5,seed=3")
    assert isinstance(mcts, MctsPlayer) and (mcts.think, mcts.seed) == (0.5, 3)
    assert player("mcts", iterations=40).iterations == 40
    assert isinstance(player("random:seed=2"), RandomPlayer)
    assert player("racer:reaction=expert") == Bot("racer", REACTION["expert"])
    assert player("random:reaction=0.5") == Bot("random", 0.5)  # with a reaction: the real-time bot
    assert player("mcts:iterations=10", iterations=20).iterations == 20  # keywords win over the spec


def test_the_library_names_players_at_its_top_level_as_the_design_promises():
    state = ogames.load("omny", variant="y", size=4).new_state()
    computer = ogames.player("mcts", iterations=50, seed=1)
    assert isinstance(computer, MctsPlayer) and "player" in ogames.__all__
    move = computer.choose(state)
    assert move in state.legal_moves() and computer.info()["iterations"] == 50
    assert ogames.player("mcts:level=3").level == 3
    with pytest.raises(BadOption, match="unknown player kind 'alphazero'"):
        ogames.player("alphazero")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "a player is named KIND"),
        ("alphazero", "unknown player kind 'alphazero'"),
        ("mcts:think", "settings are written key=value"),
        ("mcts:think=fast", "think='fast' is not valid: a number is needed"),
        ("mcts:iterations=1.5", "is not valid: a whole number is needed"),
        ("mcts:depth=3", "has no setting 'depth'"),
        ("mcts:think=-1", "think='-1' is not valid: it must be more than 0"),
        ("mcts:think=nan", "think='nan' is not valid: a finite number is needed"),  # a NaN deadline would never come
        ("uct:iterations=2000000000", "iterations=2000000000 is not valid: it must be at most 1,000,000,000"),
        ("mcts:nodes=100000000000", "nodes=100000000000 is not valid: it must be at most 20,000,000"),  # refused, not allocated
        ("mcts:workers=100000", "at most 64"),
        ("uct:exploration=-1", "exploration=-1.0 is not valid: it must be at least 0"),
        ("solver:seconds=inf", "seconds must be a positive number"),
        ("racer:reaction=sloth", "unknown reaction"),
        ("mcts:decisive=on", "mcts setting decisive was retired: decisive moves"),  # with the reason
        ("mcts:rave_kk=3", "did you mean rave_k"),
        ("human:ask=x", "ask=.x. is not a function"),
    ],
)
def test_bad_specs_are_refused_clearly(spec, message):
    with pytest.raises(BadOption, match=message):
        player(spec)


def test_parse_spec_reads_kind_and_settings_in_any_case():
    assert parse_spec(" MCTS : Think=2 , seed=5 ") == ("mcts", {"think": "2", "seed": "5"})
    assert parse_spec("racer") == ("racer", {})


def test_terminal_seats_take_specs_and_own_settings_beat_the_defaults():
    players = build_players(("black", "white"), {"white": "mcts:iterations=30,seed=9"}, 2, think=2.0, iterations=None, seed=1)
    assert [p.name for p in players] == ["human", "mcts"]
    mcts = players[1]
    assert (mcts.iterations, mcts.think, mcts.seed) == (30, None, 9)


def test_play_command_plays_a_game_between_two_specced_computers():
    seats = ["--black", "random:seed=1", "--white", "mcts:iterations=20,seed=2"]
    result = CliRunner().invoke(app, ["play", "omny", "--variant", "y", "--size", "3", *seats], input="\n")
    assert result.exit_code == 0, result.output
    assert "won" in result.output


def test_play_command_refuses_a_bad_seat_spec_without_a_traceback():
    result = CliRunner().invoke(app, ["play", "omny", "--white", "mcts:think=fast"])
    assert result.exit_code != 0
    assert "think='fast' is not valid: a number is needed" in result.output and "Traceback" not in result.output


def test_omiga_bots_use_the_same_specs():
    assert Bot.make("rollout:reaction=machine").reaction == REACTION["machine"]
    state = ogames.load("omiga", seed=2).new_state()
    assert Bot.make("racer").decide(state, "white", __import__("random").Random(1)) is not None
