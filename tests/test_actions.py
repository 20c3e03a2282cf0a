"""The rules' integer action space (`Game.actions`, rules/actions.py): one layout per settled board
game, the cells then the specials, that every move of a game played at random has, round trip."""

from __future__ import annotations

import random

import pytest

import ogames
from conformance.cases import BOARD_CASES, CASES
from ogames.errors import BadOption, IllegalMove


@pytest.mark.parametrize("case", BOARD_CASES, ids=[case.id for case in BOARD_CASES])
def test_every_legal_move_has_its_action_and_back(case) -> None:
    game = case.load()
    actions = game.actions
    assert actions is game.actions  # made once per settled game
    assert actions.num_actions == len(game.board.labels) + len(actions.specials)
    for a in range(actions.num_actions):
        assert actions.move_to_action(actions.action_to_move(a)) == a
    rng = random.Random(case.id)
    state = game.new_state()
    while not state.is_over:
        moves = state.legal_moves()
        codes = actions.legal_actions(state)
        assert [actions.action_to_move(a) for a in codes] == sorted(moves, key=actions.move_to_action)
        state.play(rng.choice(moves), t=0.0)


def test_the_specials_follow_the_cells_in_a_fixed_order() -> None:
    omny = ogames.load("omny", variant="y", size=3, komi_choice=True).actions
    assert omny.specials == ("swap", "komi=0", "komi=0.5", "komi=1", "komi=1.5")
    assert omny.move_to_action("KOMI = 1.50") == omny.move_to_action("komi=1.5") == 6 + 1 + 3
    omega = ogames.load("omega", players=3, pie=True).actions
    assert [omega.action_to_move(61 + c) for c in range(3)] == ["swap white", "swap black", "swap red"]
    assert ogames.load("oddy", size=3, pie=False).actions.specials == ()
    with pytest.raises(IllegalMove):
        omny.move_to_action("komi=2")  # more than half the three stars
    with pytest.raises(IllegalMove):
        omny.action_to_move(omny.num_actions)


def test_games_without_a_board_have_no_action_space() -> None:
    for case in CASES:
        if case.load().hidden_information:
            with pytest.raises(BadOption):
                _ = case.load().actions
