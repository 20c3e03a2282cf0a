"""The shared protocol: clone independence, undo, resign and the errors every game shares."""

from __future__ import annotations

import pytest

import ogames
from conformance.cases import GAME_CASES, board_of, ids, resign_move, variants_of

# The protocol is one per game: a representative case of each (every case runs the conformance suite).
each_game = pytest.mark.parametrize("case", GAME_CASES, ids=ids(GAME_CASES))


@each_game
def test_clone_is_independent_but_shares_the_immutable_game_and_board(case):
    state = case.load().new_state()
    state.play(state.legal_moves()[0])
    copy = state.clone()
    assert copy.game is state.game and board_of(copy) is board_of(state)
    before = state.record()
    copy.play(copy.legal_moves()[0])
    assert state.record() == before and copy.record()["moves"] != before["moves"]


@each_game
def test_shared_errors_change_nothing(case):
    state = case.load().new_state()
    before = state.record()
    for bad in (None, 42, "", "nowhere", "swap"):
        with pytest.raises(ogames.IllegalMove):
            state.play(bad)
    with pytest.raises(ogames.IllegalMove, match="no move to take back"):
        state.undo()
    with pytest.raises(ogames.IllegalMove, match="not a colour"):
        state.resign("purple")
    assert state.record() == before


@each_game
def test_resigning_ends_the_game_and_nothing_follows(case):
    state = case.load().new_state()
    move = resign_move(state)
    mover = state.to_move or move.split(":")[0]
    state.play(move)
    assert state.is_over and state.winner not in (None, mover)
    assert state.legal_moves() == []
    with pytest.raises(ogames.IllegalMove, match="game is over"):
        state.play(state.game.new_state().legal_moves()[0])
    assert ogames.replay(state.record()).winner == state.winner


def test_unknown_game_and_options_are_named():
    with pytest.raises(ogames.BadOption, match="did you mean omny"):
        ogames.load("omnny")
    with pytest.raises(ogames.BadOption, match="no option 'colour'"):
        ogames.load("onyx", colour="red")
    assert {g["name"] for g in ogames.games()} == {"omny", "oddy", "omega", "onyx", "omiga"}


def test_games_declare_their_dynamics_seats_and_hidden_information():
    from ogames.rules import REAL_TIME, TURN_BASED

    board = ogames.load("omny", variant="y", size=4)
    assert (board.dynamics, board.seat_count, board.hidden_information) == (TURN_BASED, 2, False)
    assert ogames.load("omega", players=3).seat_count == 3
    expected = {
        "base": (REAL_TIME, 2),
        "2v2": (REAL_TIME, 4),
        "kids": (REAL_TIME, 2),
        "toddler": (TURN_BASED, 2),
        "zen": (TURN_BASED, 1),
    }
    assert set(expected) == set(variants_of("omiga")), "say what a new Omiga variant declares"
    for variant, (dynamics, seats) in expected.items():
        game = ogames.load("omiga", variant=variant, seed=1)
        assert (game.dynamics, game.seat_count, game.hidden_information) == (dynamics, seats, True)
        assert len(game.new_state().players) == seats


def test_mcts_refuses_a_real_time_game_clearly():
    from ogames.players import make_player

    state = ogames.load("omiga", seed=3).new_state()
    with pytest.raises(ValueError, match="turn-based games"):
        make_player("mcts", iterations=10).choose(state)
