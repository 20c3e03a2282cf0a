"""What a game declares about itself (OpenSpiel's GameType, in brief: `Game.played_on`, the seats,
the most colours, the connection goal, the longest game) holds for every case the suite plays,
so the faces, solvers and adapters that read these facts instead of the game's name read the truth."""

from __future__ import annotations

import random

import pytest

import ogames
from ogames.players.solvers.connection import plays, solve
from ogames.rules import BOARD, REGISTRY, TABLE, game_class
from ogames.rules.omiga.contract import is_table_state
from ogames.rules.protocol import REGIONS, SIDES, is_board_game, is_board_state

from .cases import BOARD_CASES, CASE_IDS, CASES, make


@pytest.mark.parametrize("case", CASE_IDS)
def test_what_a_game_is_played_on_is_what_its_states_are(case):
    game = make(case)
    state = game.new_state()
    assert game.played_on in (BOARD, TABLE)
    assert (game.played_on == BOARD) == is_board_game(game) == is_board_state(state)
    assert (game.played_on == TABLE) == is_table_state(state)
    assert (game.max_game_length is None) == (game.played_on == TABLE)  # the board games have an action space


@pytest.mark.parametrize("case", CASE_IDS)
def test_every_case_seats_within_its_games_declared_players_and_colours(case):
    game = make(case)
    kind = type(game)
    assert kind.min_players <= game.seat_count <= kind.max_players
    most = ogames.load(game.name, **kind.most_colours).colours
    assert set(game.colours) <= set(most), f"{case} has colours beyond its game's most_colours"


def test_the_declared_seat_range_is_reached():
    for name in REGISTRY:
        kind = game_class(name)
        fewest = min(case.load().seat_count for case in CASES if case.game == name)
        assert fewest == kind.min_players, f"no case of {name} seats its min_players"
        assert ogames.load(name, **kind.most_colours).seat_count == kind.max_players, name


@pytest.mark.parametrize("case", [case.id for case in BOARD_CASES])
def test_no_random_game_takes_more_actions_than_the_declared_longest(case):
    game = make(case)
    for seed in range(3):
        state, rng, actions = game.new_state(), random.Random(seed), 0
        while not state.is_over:  # each legal move is one action (an Omega turn is a stone at a time)
            game.actions.move_to_action(move := rng.choice(state.legal_moves()))
            state.play(move)
            actions += 1
        assert actions <= game.max_game_length


@pytest.mark.parametrize("case", CASE_IDS)
def test_the_connection_solver_plays_exactly_the_games_that_declare_a_connection_goal(case):
    game = make(case)
    assert game.connection_goal in (None, REGIONS, SIDES)
    assert plays(game) == (game.connection_goal is not None)
    state = game.new_state()
    if not plays(game):
        with pytest.raises(ogames.CannotPlay, match="connection solver"):
            solve(state, budget=10)
