"""Omega (RULES.md §3): options, turns, scoring, the end rule, the tie-break, resigning, illegal
input, undo and records. The pie rule and the match are in test_omega_pie_match.py."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import ogames
from ogames.boards.hexes import format_label, parse_label
from ogames.errors import BadOption, BadRecord, IllegalMove
from ogames.kernels.omega import scores_reference
from ogames.rules import game_class
from ogames.rules.omega import COLOURS, best_colour
from test_omega_helpers import SEED_ENDGAME, SEED_SCORES, first_empty_game, play_position, random_game, set_stones, snapshot


def new(**options):
    return ogames.load("omega", **options).new_state()


# ----- options -------------------------------------------------------------------------------


def test_defaults_two_players_side_five_white_moves_first():
    game = ogames.load("omega")
    assert game.options == {"players": 2, "size": 5, "pie": False, "match": False}
    assert game.colours == ("white", "black")
    assert len(game.board) == 61 and game.board.kind == "hexagon"
    state = game.new_state()
    assert state.to_move == "white" and state.mover == 0 and state.player_colour == "white"


@pytest.mark.parametrize(
    ("players", "colours"),
    [(2, ("white", "black")), (3, ("white", "black", "red")), (4, ("white", "black", "red", "blue"))],
)
def test_colours_in_order(players, colours):
    assert ogames.load("omega", players=players).colours == colours


@pytest.mark.parametrize("size", [4, 8, 12])
def test_board_is_hexagon_of_the_size(size):
    assert len(ogames.load("omega", size=size).board) == 3 * size * (size - 1) + 1


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 1}, "at least 2"),
        ({"players": 5}, "at most 4"),
        ({"size": 3}, "at least 4"),
        ({"size": 13}, "at most 12"),
        ({"pie": "maybe"}, "on or off"),
        ({"match": True, "pie": True}, "pie rule can't be applied"),
        ({"match": True, "players": 3}, "for 2 players"),
        ({"komi": 1}, "no option 'komi'"),
    ],
)
def test_bad_options(options, words):
    with pytest.raises(BadOption, match=words):
        ogames.load("omega", **options)


def test_described_for_faces():
    described = game_class("omega").describe()
    assert [o["name"] for o in described["options"]] == ["players", "size", "pie", "match"]


# ----- turns -----------------------------------------------------------------------------------


def test_a_turn_places_every_colour_in_order_by_one_player():
    state = new(players=3)
    assert (state.to_move, state.mover) == ("white", 0)
    state.play("e5", t=0)
    assert (state.to_move, state.mover, state.player_colour) == ("black", 0, "white")
    state.play("c3", t=0)
    assert (state.to_move, state.mover) == ("red", 0)
    state.play("a5", t=0)
    assert (state.to_move, state.mover, state.player_colour) == ("white", 1, "black")
    assert [state.stone_at(x) for x in ("e5", "c3", "a5")] == ["white", "black", "red"]
    assert state.history == [{"move": "e5 c3 a5", "by": "white", "t": 0.0}]
    state.play("b5", t=1)
    assert state.history[-1] == {"move": "b5", "by": "black", "t": 1.0}


def test_several_labels_in_one_call_are_a_turn_all_or_nothing():
    state = new(players=2)
    state.play("E5  C3", t=0)
    assert state.history == [{"move": "e5 c3", "by": "white", "t": 0.0}]
    before = snapshot(state)
    for bad in ("a5 e5", "a5 a5", "a5 b5 c5", "a5 zz9", "a5 resign", "a5 swap"):
        with pytest.raises(IllegalMove):
            state.play(bad)
        assert snapshot(state) == before


def test_turns_go_round_the_seats_in_colour_order():
    state = new(players=4)
    movers = []
    for _ in range(6):
        movers.append((state.mover, state.player_colour))
        for _ in range(4):
            state.play(state.legal_moves()[0], t=0)
    assert movers == [(0, "white"), (1, "black"), (2, "red"), (3, "blue"), (0, "white"), (1, "black")]


# ----- scoring -----------------------------------------------------------------------------------


def test_seed_endgame_four_players_scores_and_winner():
    state = play_position(new(players=4), SEED_ENDGAME)
    assert state.scores == SEED_SCORES
    assert state.group_sizes("white") == [4, 3, 2, 2, 1]
    assert state.group_sizes("black") == [7, 4, 1]
    assert state.group_sizes("red") == [5, 4, 2, 1]
    assert state.group_sizes("blue") == [6, 3, 2, 1]
    assert sorted(state.groups("black")[0]) == sorted(SEED_ENDGAME["black"][2])
    # 48 stones placed in 3 rounds; 13 cells left, 16 needed: the game is over before White's turn.
    assert state.is_over and state.empty_count == 13
    assert state.winner == "white"
    assert state.result.reason == "highest score: white 48, black 28, red 40, blue 36"
    assert state.to_move is None and state.mover is None and state.legal_moves() == []


def test_two_player_position():
    state = new(players=2, size=4)
    set_stones(
        state,
        {"white": [["b4", "c3", "a4"], ["e6", "f5"], ["c7"]], "black": [["g2", "g1", "g3", "f2"], ["d5", "e5", "d6", "d7"]]},
    )
    assert state.scores == {"white": 3 * 2 * 1, "black": 4 * 4}


def three_player_tie():
    """Three players: White 3·3 = 9, Black 9, Red 2·2·2 = 8."""
    state = new(players=3)
    set_stones(
        state,
        {
            "white": [["h5", "i5", "i4"], ["d7", "d6", "e5"]],
            "black": [["g2", "f3", "h1", "f2", "h2", "h3", "g3", "h4", "g5"]],
            "red": [["g6", "f6"], ["b8", "a8"], ["c6", "c5"]],
        },
    )
    return state


def test_three_player_position():
    state = three_player_tie()
    assert state.scores == {"white": 9, "black": 9, "red": 8}


def test_colour_without_stones_scores_one_the_empty_product():
    state = new(players=3)
    assert state.scores == {"white": 1, "black": 1, "red": 1}
    state.play("e5", t=0)
    assert state.scores == {"white": 1, "black": 1, "red": 1}
    assert state.groups("black") == []


def test_scores_are_exact_big_integers():
    # Side 12, two players: White runs of three cells (x mod 4 ≠ 3) on every other row: 3^k-sized products.
    state = new(size=12)
    cells = [parse_label(label) for label in state.board.labels]
    white = [(x, y) for x, y in cells if y % 2 == 0 and x % 4 != 3]
    set_stones(state, {"white": [[format_label(x, y) for x, y in white]]})
    expected = 1
    for y in {y for _, y in white}:
        xs = sorted(x for x, yy in white if yy == y)
        run = 1
        for a, b in itertools.pairwise(xs):
            if b == a + 1:
                run += 1
            else:
                expected *= run
                run = 1
        expected *= run
    assert state.scores["white"] == expected > 2**63
    assert list(state.scores.values()) == scores_reference(list(state.stones), state.board.neighbours, 2)


def test_groups_rejects_unknown_colour():
    with pytest.raises(ValueError, match="'red' is not a colour"):
        new().groups("red")


# ----- tie-break -------------------------------------------------------------------------------


def test_tie_goes_to_the_later_colour():
    # White 3·3 = 9 and Black 9 tie on top; Red has 8: Black, later than White, wins.
    state = three_player_tie()
    assert best_colour(state.scores, state.game.colours) == "black"
    assert best_colour({"white": 5, "black": 2, "red": 5}, ("white", "black", "red")) == "red"
    assert best_colour({"white": 5, "black": 5, "red": 5, "blue": 1}, COLOURS) == "red"


def test_a_played_tie_is_won_by_black_never_drawn():
    # Side 4 (37 cells, ends with 1 empty): White takes the lower half, Black its mirror image
    # through the centre d4, which stays empty. Equal scores: Black, the later colour, wins.
    state = new(size=4)
    white = [label for label in state.board.labels if parse_label(label)[1] < 3 or parse_label(label) in ((0, 3), (1, 3), (2, 3))]
    black = [format_label(6 - x, 6 - y) for x, y in map(parse_label, white)]
    assert len(white) == len(black) == 18 and not set(white) & set(black) and "d4" not in white + black
    play_position(state, {"white": [white], "black": [black]})
    assert state.is_over and state.empty_count == 1 and state.stone_at("d4") is None
    assert state.scores == {"white": 18, "black": 18}
    assert state.winner == "black"
    # The result says why the tie is Black's (a player may not know the rule).
    assert state.result.reason == (
        "tied for the highest score with white, and a tie goes to the colour that places later: white 18, black 18")


# ----- the end rule ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "left"),
    [(2, 5, 1), (2, 4, 1), (3, 5, 7), (4, 5, 13), (4, 4, 5), (3, 6, 1), (2, 8, 1), (4, 7, 15)],
)
def test_game_ends_before_whites_turn_with_fewer_than_p_squared_empty(players, size, left):
    cells = 3 * size * (size - 1) + 1
    assert cells % players**2 == left
    state = ogames.load("omega", players=players, size=size).new_state()
    p2 = players * players
    while True:
        at_round_start = state.stone_index == 0 and state.turn_colour == 0
        if at_round_start:
            assert state.empty_count >= p2  # otherwise the game would have ended
        assert not state.is_over
        state.play(state.legal_moves()[0], t=0)
        if state.is_over:
            break
    assert state.empty_count == left < p2
    assert state.stone_index == 0 and state.turn_colour == 0  # it ended just before White's turn
    counts = [int(np.count_nonzero(state.stones == k + 1)) for k in range(players)]
    assert len(set(counts)) == 1 and sum(counts) == cells - left


def test_two_players_side_five_end_with_exactly_one_empty_cell():
    state = first_empty_game(players=2, size=5)
    assert state.empty_count == 1 and len(state.history) == 30


def test_no_move_after_the_end():
    state = first_empty_game(players=2, size=4)
    before = snapshot(state)
    empty = state.legal_moves()
    assert empty == []
    label = state.board.labels[int(np.flatnonzero(state.stones == 0)[0])]
    for move in (label, "resign", "swap"):
        with pytest.raises(IllegalMove, match="the game is over"):
            state.play(move)
    assert snapshot(state) == before


# ----- illegal input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("e5", "e5 is occupied by white"),
        ("z99", "not a cell"),
        ("a1", "not a cell"),  # outside the hexagon
        ("swap", "pie rule is off"),
        ("swap white", "pie rule is off"),
        ("", "empty move"),
        ("pass", "not a cell"),
    ],
)
def test_illegal_input_names_the_reason_and_changes_nothing(move, words):
    state = new(players=2)
    state.play("e5", t=0)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=words):
        state.play(move)
    assert snapshot(state) == before


def test_non_text_move_is_refused():
    state = new()
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="must be text"):
        state.play(5)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_legal_moves_are_exactly_the_empty_cells():
    state = random_game(3, stop=23, players=3)
    empty = {state.board.labels[c] for c in np.flatnonzero(state.stones == 0)}
    assert set(state.legal_moves()) == empty and len(state.legal_moves()) == len(empty)


# ----- resigning ----------------------------------------------------------------------------


def test_resign_two_players_the_other_wins_even_mid_turn():
    state = new()
    state.play("e5", t=0)  # White's player is placing Black's stone now
    state.play("resign", t=1)
    assert state.winner == "black" and state.result.reason == "white resigned"
    assert state.history[-1] == {"move": "resign", "by": "white", "t": 1.0}


def test_resign_four_players_best_score_among_the_others_wins():
    state = new(players=4)
    set_stones(state, SEED_ENDGAME)  # placed directly: the game goes on
    assert not state.is_over and state.mover == 0
    state.play("resign", t=0)  # White (48) resigns: Red (40) has the best score of the others
    assert state.winner == "red"
    assert state.result.reason == "white resigned; best score among the others: black 28, red 40, blue 36"


def test_resign_three_players_tie_among_the_others_goes_to_the_later_colour():
    state = new(players=3)
    state.play("e5 c3 a5", t=0)  # every colour has one stone: all score 1
    state.resign("black", t=0)  # Black resigns out of turn; White and Red tie: Red wins
    assert state.winner == "red"


def test_resigned_record_round_trips():
    state = new(players=3)
    state.play("e5 c3", t=0)
    state.play("resign", t=1)
    again = ogames.replay(json.loads(json.dumps(state.record())))
    assert again.record() == state.record() and again.winner == state.winner


# ----- undo ------------------------------------------------------------------------------------


def test_undo_takes_back_one_placement_at_a_time():
    state = new(players=2)
    state.play("e5 c3", t=0)
    state.play("a5", t=1)
    state.undo()
    assert state.history == [{"move": "e5 c3", "by": "white", "t": 0.0}] and state.stone_at("a5") is None
    assert (state.to_move, state.mover) == ("white", 1)
    state.undo()
    assert state.history == [{"move": "e5", "by": "white", "t": 0.0}]
    assert (state.to_move, state.mover) == ("black", 0) and state.stone_at("c3") is None
    state.undo()
    assert state.history == [] and state.placements == 0
    with pytest.raises(IllegalMove, match="no move to take back"):
        state.undo()


def test_undo_of_the_last_placement_reopens_the_game():
    state = first_empty_game(players=3, size=4)
    final = snapshot(state)
    record = state.record()
    state.undo()
    assert not state.is_over and state.stone_index == 2
    last = record["moves"][-1]["move"].split()[-1]
    state.play(last, t=0)
    assert snapshot(state) == final


def test_undo_of_resign():
    state = new(players=4)
    state.play("e5", t=0)
    before = snapshot(state)
    state.play("resign", t=0)
    state.undo()
    assert snapshot(state) == before


# ----- records -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "options"),
    [(1, {}), (2, {"players": 3}), (3, {"players": 4, "size": 6}), (4, {"pie": True}), (5, {"players": 4, "pie": True})],
)
def test_record_round_trip(seed, options):
    state = random_game(seed, **options)
    record = json.loads(json.dumps(state.record()))
    again = ogames.replay(record)
    assert again.record() == record
    assert again.scores == state.scores and again.winner == state.winner and again.seats == state.seats


def test_unfinished_record_with_a_partial_turn_round_trips():
    state = random_game(5, stop=11, players=4)
    record = state.record()
    assert len(record["moves"][-1]["move"].split()) == 3 and record["result"] is None
    again = ogames.replay(record)
    assert again.record() == record and again.to_move == "blue"


def test_record_writes_a_turn_as_one_entry():
    state = new(players=2)
    state.play("e5", t=1)
    state.play("c3", t=2)
    state.play("a5", t=3)
    assert state.record()["moves"] == [{"move": "e5 c3", "by": "white", "t": 2.0}, {"move": "a5", "by": "black", "t": 3.0}]


def _tamper(record, index, **changes):
    out = json.loads(json.dumps(record))
    out["moves"][index].update(changes)
    return out


@pytest.fixture(scope="module")
def finished_record():
    return random_game(11, players=3).record()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: _tamper(r, 1, by="red"), "the record says red moved, but it was black's turn"),
        (lambda r: _tamper(r, 1, move=r["moves"][0]["move"]), "occupied"),
        (lambda r: _tamper(r, 0, move=r["moves"][0]["move"] + " a5"), "places 3 stones"),
        (lambda r: _tamper(r, 0, move=" ".join(r["moves"][0]["move"].split()[:2])), "previous turn is unfinished"),
        (lambda r: _tamper(r, 0, score=5), "unknown fields"),
        (lambda r: _tamper(r, 2, move="swap white"), "pie rule is off"),
        (lambda r: {**r, "result": {"winner": "white" if r["result"]["winner"] != "white" else "red", "reason": "x"}}, "result"),
        (lambda r: {**r, "moves": r["moves"][:-1]}, "result"),
        (lambda r: {**r, "seats": {"white": "x", "black": "y", "red": "z"}}, "seats"),
        (lambda r: {**r, "options": {**r["options"], "players": 5}}, "options"),
    ],
)
def test_tampered_records_are_rejected(finished_record, change, words):
    with pytest.raises(BadRecord, match=words):
        ogames.replay(change(finished_record))


def test_doubled_cell_in_a_recorded_turn_is_rejected():
    state = new(players=2)
    state.play("e5 c3", t=0)
    record = _tamper(state.record(), 0, move="e5 e5")
    with pytest.raises(BadRecord, match="named twice"):
        ogames.replay(record)


def test_replay_upto():
    state = random_game(12, players=2)
    part = ogames.replay(state.record(), upto=5)
    assert len(part.history) == 5 and part.placements == 10
