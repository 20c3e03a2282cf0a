"""The game review's contract (`ogames.teach.review`): its JSON round trip and refusals, and what
`review` finds in small games (budgets kept small: a few hundred iterations a position)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import BadOption, BadRecord, CannotPlay
from ogames.teach.calibration import IDENTITY, calibration
from ogames.teach.review import MARKS, BadReview, MoveReview, Review, review

chance = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
text = st.text(max_size=8)
moves = st.builds(
    MoveReview,
    ply=st.integers(1, 500),
    seat=st.integers(0, 3),
    player=text,
    colour=text,
    move=text,
    before=st.none() | chance,
    after=st.none() | chance,
    loss=st.none() | chance,
    mark=st.none() | st.sampled_from(MARKS),
    best=st.none() | text,
    line=st.lists(text, max_size=4).map(tuple),
    proven=st.sampled_from([None, "win", "loss"]),
    chances=st.lists(chance, max_size=4).map(tuple),
)
reviews = st.builds(
    Review,
    game=st.sampled_from(["omny", "oddy", "omega", "onyx"]),
    options=st.dictionaries(st.text(max_size=5), st.integers() | st.booleans() | text, max_size=3),
    players=st.lists(text, min_size=2, max_size=4).map(tuple),
    winner=st.none() | text,
    start=st.lists(chance, max_size=4).map(tuple),
    moves=st.lists(moves, max_size=5).map(tuple),
    budget=st.integers(1, 10**6),
    prove=st.integers(0, 10**6),
    seats=st.dictionaries(text, text, max_size=3),
)


@given(reviews)
@settings(max_examples=60, deadline=None)
def test_a_review_comes_back_equal_from_its_json(made: Review) -> None:
    written = json.dumps(made.to_json(), allow_nan=False)
    assert Review.from_json(written) == made
    assert Review.from_json(json.loads(written)) == made


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d.update(format="ogames-record"), "not an ogames review"),
        (lambda d: d.update(version=99), "unsupported review version"),
        (lambda d: d.update(moves={}), "moves must be a list"),
        (lambda d: d["moves"][0].update(mark="brilliant"), "mark must be one of"),
        (lambda d: d["moves"][0].update(before=1.5), "chance from 0 to 1"),
        (lambda d: d["moves"][0].pop("ply"), "lacks 'ply'"),
        (lambda d: d.update(budget=True), "budget must be a whole number"),
    ],
)
def test_a_bad_review_json_is_refused_by_name(change: Any, says: str) -> None:
    good = Review("omny", {}, ("a", "b"), None, (0.5, 0.5), (MoveReview(1, 0, "a", "black", "c3", 0.5, 0.4, 0.1, "inaccuracy",
                                                                       "b2", ("b2",), None, (0.4, 0.6)),), 100).to_json()
    change(good)
    with pytest.raises(BadReview, match=says):
        Review.from_json(good)
    with pytest.raises(BadReview, match="not valid JSON"):
        Review.from_json("{")


def finished(game: str, seed: int, **options: Any) -> dict[str, Any]:
    """A finished game between two quick searches."""
    state = ogames.load(game, **options).new_state()
    players = [ogames.player("mcts", iterations=60, seed=seed + i) for i in range(len(state.players))]
    while not state.is_over:
        state.play(players[state.mover or 0].choose(state))
    return state.record()


@pytest.mark.parametrize(("game", "options"), [("oddy", {"size": 3}), ("omny", {"size": 4}), ("onyx", {}),
                                               ("omega", {"size": 4})])
def test_a_review_covers_every_move_with_its_figures(game: str, options: dict[str, Any]) -> None:
    record = finished(game, 1, **options)
    done: list[tuple[int, int]] = []
    result = review(record, budget=200, prove=2000, progress=lambda a, b: done.append((a, b)))
    assert [m.ply for m in result.moves] == list(range(1, len(record["moves"]) + 1))
    assert [m.move for m in result.moves] == [e["move"] for e in record["moves"]]
    assert done[-1] == (len(record["moves"]) + 1, len(record["moves"]) + 1)
    final = ogames.replay(record)
    assert result.winner == final.winner and result.game == game
    last = result.moves[-1]
    winner_seat = final.owner[final.winner]  # the game is over: the chances are its result
    assert last.chances[winner_seat] == 1.0
    for move in result.moves:
        assert move.mark in MARKS
        assert move.before is not None and move.after is not None and move.loss is not None
        if move.move == move.best or move.proven == "loss":
            assert move.mark == "good" and move.loss == 0.0
        else:
            assert move.loss == pytest.approx(max(0.0, move.before - move.after))
        assert move.best is not None and move.line[0] == move.best
    # The better move is written as the record writes a move: in Omega a whole turn (a stone of
    # each colour), though the search's line is stone by stone.
    for move in result.moves[: len(result.moves) // 2]:
        assert move.best is not None and len(move.best.split()) == len(move.move.split())
    assert Review.from_json(json.dumps(result.to_json())) == result


def test_a_game_the_review_does_not_cover_and_bad_budgets_are_refused() -> None:
    record = finished("oddy", 2, size=3)
    with pytest.raises(BadOption, match="budget"):
        review(record, budget=0)
    with pytest.raises(BadOption, match="prove"):
        review(record, prove=-1)
    with pytest.raises(BadRecord):
        review({"format": "x"})
    for game, options in [("omiga", {"variant": "toddler"}), ("omega", {"match": True})]:
        with pytest.raises(CannotPlay, match="a review covers Omny, Odd-Y, Omega and Onyx"):
            review(ogames.load(game, **options).new_state().record(), budget=10)


def test_three_players_get_each_their_own_chance() -> None:
    state = ogames.load("omega", players=3, size=4).new_state(["ann", "bob", "cy"])
    players = [ogames.player("mcts", iterations=60, seed=i) for i in range(3)]
    while not state.is_over:
        state.play(players[state.mover or 0].choose(state))
    result = review(state, budget=150, calibrated=IDENTITY)  # a replayed state is reviewed as its record
    assert result.players == ("ann", "bob", "cy") and len(result.start) == 3
    for move in result.moves:
        assert len(move.chances) == 3 and move.player == result.players[move.seat]
        assert sum(move.chances) == pytest.approx(1.0, abs=0.05)  # one seat wins (the raw chances)
    winner = state.owner[state.winner]
    assert result.moves[-1].chances[winner] == 1.0
    assert result.chances_of(winner)[-1] == 1.0 and len(result.chances_of(0)) == len(result.moves) + 1


@pytest.mark.parametrize("players", [3, 4])
def test_omega_with_more_players_is_mapped_by_its_own_curve(players: int) -> None:
    record = finished("omega", 5, players=players, size=4)
    raw = review(record, budget=150, seed=2, calibrated=IDENTITY)
    mapped = review(record, budget=150, seed=2)  # the same search: only the map differs
    curve = calibration("omega", players)
    assert curve.points not in (IDENTITY.points, calibration("omega").points)
    assert mapped.start == tuple(curve(c) for c in raw.start)
    for seen, shown in zip(raw.moves, mapped.moves, strict=True):
        assert seen.before is not None and seen.after is not None
        assert shown.chances == tuple(curve(c) for c in seen.chances)
        assert (shown.before, shown.after) == (curve(seen.before), curve(seen.after))
        if shown.move != shown.best:
            assert shown.mark == curve.mark(max(0.0, curve(seen.before) - curve(seen.after)))
    assert any(shown.chances != seen.chances for seen, shown in zip(raw.moves, mapped.moves, strict=True))


def test_a_resignation_is_reviewed_but_not_marked() -> None:
    state = ogames.load("omny", variant="y", size=5).new_state()
    state.play("c3")
    state.resign()
    result = review(state.record(), budget=100, prove=0)
    assert [m.move for m in result.moves][-1] == "resign"
    assert result.moves[-1].mark is None and result.moves[-1].after == 0.0


def test_the_same_seed_gives_the_same_review() -> None:
    record = finished("omny", 4, variant="y", size=5)
    assert review(record, budget=120, seed=3) == review(record, budget=120, seed=3)


def test_the_search_gives_every_seats_worth_of_the_position_and_of_its_best_move() -> None:
    from ogames.players.mcts import CompiledMcts

    search = CompiledMcts(iterations=400, seed=1)
    state = ogames.load("omny", variant="y", size=5).new_state()
    assert search.root_worths(0) is None and search.seat_worths(0) is None  # nothing searched yet
    for move in ("c3", "a1", "b3", "a2"):
        state.play(move)
    search.choose(state)
    mover = state.mover
    position, best = search.root_worths(mover), search.seat_worths(mover)
    assert position is not None and best is not None
    assert sum(position) == pytest.approx(1.0) and sum(best) == pytest.approx(1.0)
    assert 0.0 < position[mover] < 1.0 and position != best  # the mean over all visits, not the best move's
    three = ogames.load("omega", players=3, size=4).new_state()
    search.choose(three)
    worths = search.root_worths(0)
    assert worths is not None and len(worths) == 3 and sum(worths) == pytest.approx(1.0)
