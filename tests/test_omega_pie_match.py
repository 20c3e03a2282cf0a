"""Omega's pie rule (every path of the seed's multi-player pie) and the two-game tournament match."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import ogames
from ogames.errors import BadRecord, IllegalMove
from test_omega_helpers import snapshot


def pie(players: int, **options):
    return ogames.load("omega", players=players, pie=True, **options).new_state(list("ABCD"[:players]))


def turn(state, t: float = 0) -> None:
    """A normal turn of the first empty cells."""
    for _ in range(state.p):
        state.play(state.legal_moves()[0], t=t)


def holders(state) -> dict[str, str]:
    return state.seats


# ----- pie rule ----------------------------------------------------------------------------------


def test_seed_example_four_players():
    # A plays, B swaps with A, C plays, D swaps with B (now white) → C, red, continues.
    state = pie(4)
    assert state.swap_options() == []  # the first player must play
    turn(state)
    assert state.mover == 1 and state.swap_options() == ["swap white"]
    state.play("swap white", t=0)
    assert holders(state) == {"white": "B", "black": "A", "red": "C", "blue": "D"}
    assert state.mover == 2 and state.swap_options() == ["swap white", "swap black"]
    turn(state)
    assert state.mover == 3 and state.swap_options() == ["swap white", "swap black", "swap red"]
    state.play("swap white", t=0)
    assert holders(state) == {"white": "D", "black": "A", "red": "C", "blue": "B"}
    # n = 2 played: colour n + 1 = red continues, C's turn; the first stone is still White's.
    assert state.pie_seat is None and state.mover == 2 and state.player_colour == "red" and state.to_move == "white"
    assert state.swap_options() == []
    turn(state)
    assert (state.mover, state.player_colour) == (1, "blue")
    turn(state)
    assert (state.mover, state.player_colour) == (3, "white")
    stones = [int(np.count_nonzero(state.stones == k)) for k in (1, 2, 3, 4)]
    assert stones == [4, 4, 4, 4]  # swaps never move stones
    assert [e["move"] for e in state.history if e["move"].startswith("swap")] == ["swap white", "swap white"]
    assert [(e["by"], e["move"].startswith("swap")) for e in state.history] == [
        ("white", False),
        ("black", True),
        ("red", False),
        ("blue", True),
        ("red", False),
        ("blue", False),
    ]


def test_two_players_second_plays_then_white_continues():
    state = pie(2)
    turn(state)
    assert state.legal_moves()[-1] == "swap"
    turn(state)
    assert (state.mover, state.player_colour) == (0, "white") and state.seats == {"white": "A", "black": "B"}
    assert "swap" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="the time for swapping is over"):
        state.play("swap")


def test_two_players_second_swaps_then_black_continues_played_by_the_first():
    state = pie(2)
    turn(state)
    state.play("swap", t=0)
    assert state.seats == {"white": "B", "black": "A"}
    assert state.history[-1] == {"move": "swap", "by": "black", "t": 0.0}
    # n = 1 played: Black (now A) continues; then White (B).
    assert (state.mover, state.player_colour, state.to_move) == (0, "black", "white")
    turn(state)
    assert (state.mover, state.player_colour) == (1, "white")


def test_two_players_swap_white_is_the_same_move():
    state = pie(2)
    turn(state)
    state.play("Swap White", t=0)
    assert state.history[-1]["move"] == "swap" and state.seats == {"white": "B", "black": "A"}


@pytest.mark.parametrize(
    ("actions", "next_colour", "seats"),
    [
        # 3 players: each path of play (P) or swap with a named colour.
        (["P", "P", "P"], "white", "ABC"),
        (["P", "swap white", "P"], "red", "BAC"),
        (["P", "P", "swap white"], "red", "CBA"),
        (["P", "P", "swap black"], "red", "ACB"),
        (["P", "swap white", "swap white"], "black", "CAB"),
        (["P", "swap white", "swap black"], "black", "BCA"),
    ],
)
def test_three_player_paths(actions, next_colour, seats):
    state = pie(3)
    for action in actions:
        if action == "P":
            turn(state)
        else:
            state.play(action, t=0)
    assert state.player_colour == next_colour
    assert "".join(state.seats[c] for c in ("white", "black", "red")) == seats
    played = actions.count("P")
    assert state.placements == 3 * played


def test_four_players_all_swap_after_the_first_then_black_continues():
    state = pie(4)
    turn(state)
    for _ in range(3):
        state.play("swap white", t=0)
    # n = 1: Black continues. White went A → B → C → D, each swapper taking it.
    assert state.seats == {"white": "D", "black": "A", "red": "B", "blue": "C"}
    assert state.player_colour == "black" and state.mover == 0


def test_first_round_is_always_p_turns_so_the_end_rule_is_unchanged():
    # Whatever the pie choices, the game still ends with cells mod p² empty.
    rng = random.Random(4)
    for _ in range(3):
        state = pie(3, size=4)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()), t=0)
        assert state.empty_count == 37 % 9


@pytest.mark.parametrize(
    ("setup", "move", "words"),
    [
        ([], "swap", "the first player plays a normal turn"),
        (["T"], "swap red", "red is not played by an earlier player"),
        (["T"], "swap black", "black is not played by an earlier player"),  # one's own colour
        (["T"], "swap purple", "'purple' is not a colour"),
        (["T"], "swap white black", "write swap or swap <colour>"),
        (["T", "T"], "swap", "say whose colour to take: white, black"),
        (["T", "a5"], "swap white", "stones of this turn are placed already"),
        (["T", "T", "T", "T"], "swap white", "the time for swapping is over"),
    ],
)
def test_illegal_swaps_change_nothing(setup, move, words):
    state = pie(4)
    for step in setup:
        if step == "T":
            turn(state)
        else:
            state.play(step, t=0)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=words):
        state.play(move)
    assert snapshot(state) == before


def test_plain_swap_allowed_with_one_previous_player_in_larger_games():
    state = pie(3)
    turn(state)
    state.play("swap", t=0)
    assert state.history[-1]["move"] == "swap white" and state.seats["white"] == "B"


def test_undo_a_swap_restores_the_seats():
    state = pie(4)
    turn(state)
    before = snapshot(state)
    state.play("swap white", t=0)
    state.undo()
    assert snapshot(state) == before


def test_pie_record_round_trip_and_tampered_swap():
    state = pie(4)
    turn(state)
    state.play("swap white", t=0)
    turn(state)
    state.play("swap white", t=0)
    record = json.loads(json.dumps(state.record()))
    assert record["seats"] == {"white": "D", "black": "A", "red": "C", "blue": "B"}
    assert ogames.replay(record).record() == record
    bad = json.loads(json.dumps(record))
    bad["moves"][3]["move"] = "swap blue"
    with pytest.raises(BadRecord, match="blue is not played by an earlier player"):
        ogames.replay(bad)


def test_pie_random_playout_credits_the_current_holder():
    state = pie(2)
    turn(state)
    state.play("swap", t=0)
    rewards = state.random_playout(random.Random(2))
    assert sorted(rewards) == [0.0, 1.0]


# ----- tournament match ------------------------------------------------------------------------


def match(**options):
    return ogames.load("omega", match=True, **options).new_state(["ann", "bob"])


def _game_cells(state):
    """All cells of the side-4 board in label order."""
    return list(state.board.labels)


def test_match_plays_two_games_with_colours_exchanged():
    state = match(size=4)
    labels = _game_cells(state)
    for label in labels[:36]:  # game 1: fill in label order; ends with one empty cell
        state.play(label, t=0)
    assert state.game_number == 2 and not state.is_over
    first = state.game_scores[0]
    assert state.seat_totals == [first["white"], first["black"]]
    assert state.placements == 0 and state.seats == {"white": "bob", "black": "ann"}
    assert (state.mover, state.player_colour, state.to_move) == (1, "white", "white")
    assert state.scores == {"white": 1, "black": 1}
    for label in labels[:36]:  # game 2: the same cells, so each player gets the other's shapes
        state.play(label, t=0)
    assert state.is_over and state.winner == "draw"
    assert state.seat_totals == [first["white"] + first["black"]] * 2
    assert state.result.reason.startswith("equal match totals: ann")
    assert state.rewards() == [0.5, 0.5]


def test_match_winner_is_the_colour_the_better_player_holds_at_the_end():
    state = match(size=4)
    labels = _game_cells(state)
    # Game 1 in label order; game 2 with the stones of each turn exchanged, so that each player
    # builds the same shapes again: totals are twice each one's game-1 score.
    for label in labels[:36]:
        state.play(label, t=0)
    first = state.game_scores[0]
    assert first["white"] != first["black"]
    for a, b in zip(labels[:36:2], labels[1:36:2], strict=True):
        state.play(b, t=0)
        state.play(a, t=0)
    assert state.game_scores[1] == {"white": first["black"], "black": first["white"]}
    assert state.seat_totals == [2 * first["white"], 2 * first["black"]]
    ann_wins = first["white"] > first["black"]
    assert state.winner == ("black" if ann_wins else "white")  # ann holds black at the end
    assert state.rewards() == ([1.0, 0.0] if ann_wins else [0.0, 1.0])
    record = json.loads(json.dumps(state.record()))
    again = ogames.replay(record)
    assert again.record() == record and again.game_scores == state.game_scores


def test_match_resign_gives_up_the_whole_match():
    state = match(size=4)
    for label in _game_cells(state)[:36]:
        state.play(label, t=0)
    state.play("e5", t=0)
    state.play("resign", t=0)  # bob, now white, resigns during game 2
    assert state.winner == "black" and state.seats["black"] == "ann"
    assert ogames.replay(state.record()).winner == "black"


def test_match_random_playout_in_game_one_and_two():
    rng = random.Random(0)
    state = match(size=4)
    seen = set()
    for _ in range(30):
        seen.add(tuple(state.random_playout(rng)))
    assert seen <= {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)} and len(seen) >= 2
    for label in _game_cells(state)[:36]:
        state.play(label, t=0)
    assert tuple(state.random_playout(rng)) in {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)}


def test_match_undo_across_the_game_boundary():
    state = match(size=4)
    labels = _game_cells(state)
    for label in labels[:35]:
        state.play(label, t=0)
    before = snapshot(state)
    state.play(labels[35], t=0)
    assert state.game_number == 2
    state.undo()
    assert snapshot(state) == before and state.game_number == 1
