"""Cheap copies and take-backs for every game, variant and mode.

`clone()` copies only what moves change in place and shares the rest (the game, its board, the Onyx
lattice): a copy and its original never affect each other. `undo()` restores the fields kept before
the last move instead of replaying the game: the position after it equals the position before the
move in every field, and equals what the plain reference `undo_by_replay()` rebuilds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from conformance import cases as conformance
from conformance.cases import Case, board_of, ids, resign_move
from ogames.boards.graph import Board
from ogames.boards.onyx import OnyxLattice
from ogames.errors import IllegalMove
from ogames.rules.options import Option, OptionSet
from ogames.rules.protocol import Game, Result, State

# Every conformance case, and one more: Omega's longest pie phase (every later seat of four may swap).
CASES: list[Case] = [*conformance.CASES, Case("omega-4-pie", "omega", {"players": 4, "size": 5, "pie": True})]
IDS = ids(CASES)
# Never part of a position: scratch memory, the kept undo points, and whether a supply still shares
# its random source with a copy (it takes its own before it next shuffles).
SCRATCH = {"_out", "_undo_points", "_rng_shared"}


def freeze(value: Any) -> Any:
    """A comparable picture of a value, down to every field (immutable games and boards by name)."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, Game):  # immutable, shared by copies (identity is tested on its own)
        return ("game", value.name, repr(value.options))
    if isinstance(value, Board):
        return ("board", value.kind, value.labels)
    if isinstance(value, OnyxLattice):
        return ("lattice", value.board.labels)
    if isinstance(value, random.Random):
        return ("rng", value.getstate())
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((freeze(k), freeze(v)) for k, v in value.items()), key=repr)))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((freeze(v) for v in value), key=repr)))
    if hasattr(value, "__dict__") and not isinstance(value, type):
        fields = {k: v for k, v in vars(value).items() if k not in SCRATCH}
        return (type(value).__name__, freeze(fields))
    return value


def position(state: State) -> Any:
    """Every field of a state (the kept undo points aside), for exact comparisons."""
    return freeze(state)


def load(game: str, options: dict[str, Any]) -> State:
    return ogames.load(game, **options).new_state(None)


def move_limit(case: Case) -> int:
    """The most moves a test plays of a random game: fewer for the card game, whose moves are slow."""
    return 200 if case.load().hidden_information else 999


def moves_of(state: State, rng: random.Random) -> str:
    """A random legal move."""
    return rng.choice(state.legal_moves())


def random_game(case: Case, seed: int, limit: int = 999, clock: bool = True) -> tuple[State, list[Any], list[str]]:
    """A random game of at most `limit` moves (and the case's own limit): the final state, the
    position before each move, and the moves (made at times 0, 1, 2, … or, with `clock` off, all at
    time 0)."""
    limit = min(limit, move_limit(case))
    rng = random.Random(seed)
    state = load(case.game, case.options)
    before: list[Any] = []
    made: list[str] = []
    while not state.is_over and len(made) < limit:
        move = moves_of(state, rng)
        before.append(position(state))
        state.play(move, t=float(len(made)) if clock else 0.0)
        made.append(move)
    return state, before, made


def no_replay(monkeypatch: pytest.MonkeyPatch, state: State) -> None:
    """Make a replay-based undo fail the test: undo must restore what it kept."""

    def refuse(self: State) -> State:
        raise AssertionError("undo replayed the game instead of restoring the kept fields")

    monkeypatch.setattr(type(state), "undo_by_replay", refuse)


# ----- clone ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_clone_equals_the_original_and_shares_only_immutable_parts(case) -> None:
    state, _, _ = random_game(case, seed=1, limit=12)
    copy = state.clone()
    assert type(copy) is type(state) and position(copy) == position(state)
    assert copy.game is state.game
    assert copy.history == state.history and copy.history is not state.history
    assert copy.owner == state.owner and copy.owner is not state.owner
    assert board_of(copy) is board_of(state)
    if hasattr(state, "stones"):
        assert not np.shares_memory(copy.stones, state.stones)
    if hasattr(state, "lattice"):
        assert copy.lattice is state.lattice
    if hasattr(state, "table"):
        assert copy.table is not state.table and copy.table.board is state.table.board
        assert copy.table.card_set is state.table.card_set
        assert not np.shares_memory(copy.table.owner, state.table.owner)
    for colour, supply in getattr(state, "supplies", {}).items():
        mine = copy.supplies[colour]
        assert mine is not supply and mine.cards is not supply.cards and mine.discards is not supply.discards
        # The shared random source is copied before either side shuffles: the other's stays as it was.
        held = supply.rng.getstate()
        mine.shuffle_back([])
        assert supply.rng.getstate() == held and mine.rng is not supply.rng
        supply.shuffle_back([])
        assert mine.rng is not supply.rng


# One case per variant and mode: the heaviest test here, and what it adds over the sweep of every
# case by the conformance suite's clone test and by the mixed script below is length (60 moves,
# both ways, with take-backs), not another option set.
@pytest.mark.parametrize("case", conformance.VARIANT_CASES, ids=ids(conformance.VARIANT_CASES))
def test_moves_on_a_clone_never_reach_the_original_nor_back(case) -> None:
    rng = random.Random(2)
    state = load(case.game, case.options)
    stamp = 0.0
    for _ in range(60):
        if state.is_over:
            break
        copy = state.clone()
        frozen = position(state)
        # The copy plays on to the end (or a while): the original does not move.
        while not copy.is_over and copy.ply < state.ply + 8:
            stamp += 1
            copy.play(moves_of(copy, rng), t=stamp)
        assert position(state) == frozen
        # The original moves on: the copy does not move either.
        copy_now = position(copy)
        stamp += 1
        state.play(moves_of(state, rng), t=stamp)
        assert position(copy) == copy_now
        # Taking back on the copy leaves the original alone, and the other way round.
        now = position(state)
        while copy.history and copy.ply > max(0, state.ply - 3):
            copy.undo()
        assert position(state) == now
        if state.history:
            state.clone().undo()
            assert position(state) == now


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_resigning_on_a_clone_leaves_the_original_playing(case) -> None:
    state, _, _ = random_game(case, seed=3, limit=6)
    if state.is_over:
        return
    frozen = position(state)
    copy = state.clone()
    copy.resign(copy.game.colours[0], t=100.0)
    assert copy.is_over and not state.is_over and position(state) == frozen


def test_an_undeclared_state_class_is_copied_deeply() -> None:
    """A game written outside the project that does not list its changing fields still gets independent copies."""

    class Marks(Game):
        name = "marks"
        title = "Marks"
        summary = "toy"
        option_set = OptionSet((Option("pie", "bool", False, "unused"),))

        @property
        def colours(self) -> tuple[str, ...]:
            return ("black", "white")

        def new_state(self, players: Sequence[str] | None = None) -> MarksState:
            return MarksState(self, players)

    class MarksState(State):
        def __init__(self, game: Marks, players: Sequence[str] | None = None):
            super().__init__(game, players)
            self.marks: dict[str, list[str]] = {"black": [], "white": []}

        def legal_moves(self) -> list[str]:
            return [] if self.result else ["x", "y"]

        @property
        def to_move(self) -> str | None:
            return None if self.result else self.game.colours[len(self.history) % 2]

        def stone_at(self, label: str) -> str | None:
            return None

        def apply(self, move: str) -> dict[str, Any]:
            self.marks[self.to_move or ""].append(move)
            if len(self.history) == 5:
                self.result = Result("black", "six marks")
            return {"move": move}

    state = Marks().new_state()
    state.play("x", t=0.0)
    copy = state.clone()
    copy.play("y", t=1.0)
    assert state.marks == {"black": ["x"], "white": []} and copy.marks == {"black": ["x"], "white": ["y"]}
    assert copy.game is state.game
    copy.undo()  # by replay: this class keeps no undo points
    assert position(copy) == position(state)


# ----- undo ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_undo_restores_every_field_without_replaying(case, monkeypatch) -> None:
    state, before, made = random_game(case, seed=4)
    assert made, "a game with no move"
    no_replay(monkeypatch, state)
    for frozen in reversed(before):
        state.undo()
        assert position(state) == frozen
    assert state.ply == 0
    with pytest.raises(IllegalMove, match="no move to take back"):
        state.undo()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_undo_equals_the_replay_reference_at_every_ply(case) -> None:
    # All moves at one time: the reference cannot know the time of an unfinished Omega turn before
    # its last placement (the entry holds the latest), while undo gives back the entry as it was.
    state, _, made = random_game(case, seed=5, clock=False)
    step = max(1, len(made) // 25)  # replaying is quadratic: look at about 25 plies of long games
    while state.history:
        if state.ply % step == 0 or state.ply < 4:
            reference = state.clone().undo_by_replay()
            assert position(state.undo()) == position(reference)
        else:
            state.undo()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_game_played_again_after_undoing_matches_a_fresh_one(case) -> None:
    state, _, made = random_game(case, seed=6, limit=30)
    for _ in range(len(made) // 2):
        state.undo()
    for ply, move in enumerate(made[len(made) - len(made) // 2 :], start=len(made) - len(made) // 2):
        state.play(move, t=float(ply))
    fresh, _, _ = random_game(case, seed=6, limit=30)
    assert position(state) == position(fresh)
    assert state.record() == fresh.record()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_undo_on_a_clone_uses_the_points_kept_before_cloning(case, monkeypatch) -> None:
    state, before, _ = random_game(case, seed=7, limit=20)
    no_replay(monkeypatch, state)
    copy = state.clone()
    frozen = position(state)
    for expected in reversed(before):
        copy.undo()
        assert position(copy) == expected
    assert position(state) == frozen
    state.undo()
    assert position(state) == before[-1]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_resign_is_taken_back_either_way(case, monkeypatch) -> None:
    state, _, _ = random_game(case, seed=8, limit=5)
    if state.is_over:
        return
    no_replay(monkeypatch, state)
    frozen = position(state)
    state.play(resign_move(state), t=50.0)
    assert state.is_over
    state.undo()
    assert position(state) == frozen and not state.is_over
    state.resign(state.game.colours[-1], t=51.0)
    assert state.is_over
    state.undo()
    assert position(state) == frozen


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_undo_falls_back_to_replaying_when_nothing_was_kept(case) -> None:
    state, before, _ = random_game(case, seed=9, limit=10, clock=False)  # (see above on time)
    del state.__dict__["_undo_points"]  # as for a state built by hand
    state.undo()
    assert position(state) == before[-1]
    if len(before) > 1:
        state.undo()  # the replay kept the points again
        assert position(state) == before[-2]


@settings(max_examples=60, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**16),
    script=st.lists(st.sampled_from(["play", "play", "play", "undo", "clone"]), min_size=1, max_size=60),
)
def test_any_mix_of_moves_undos_and_clones_keeps_exact_positions(case, seed, script) -> None:
    rng = random.Random(seed)
    state = load(case.game, case.options)
    stack: list[Any] = []  # the position before each move still on the board
    stamp = 0.0
    for step in script:
        if step == "play" and not state.is_over:
            stack.append(position(state))
            stamp += 1
            state.play(moves_of(state, rng), t=stamp)
        elif step == "undo" and stack:
            state.undo()
            assert position(state) == stack.pop()
        elif step == "clone":
            copy = state.clone()
            assert position(copy) == position(state)
            state = copy  # go on with the copy: it must undo as far back as the original could
    while stack:
        state.undo()
        assert position(state) == stack.pop()


# ----- the moves that change more than a stone -----------------------------------------------------


def play_all(state: State, moves: str) -> State:
    for ply, move in enumerate(moves.split()):
        state.play(move, t=float(ply))
    return state


def test_undo_of_onyx_captures_gives_the_stones_and_counts_back(monkeypatch) -> None:
    state = play_all(load("onyx", {"pie": True}), "b1 swap c1 d10 b2")
    no_replay(monkeypatch, state)
    frozen = position(state)
    state.play("c2", t=9.0)
    assert state.captured == {"black": 0, "white": 2} and state.last_captures == ["c1", "b2"]
    state.undo()
    assert position(state) == frozen
    assert state.captured == {"black": 0, "white": 0} and state.stone_at("c1") == "white" and state.stone_at("b2") == "white"
    assert state.last_captures == [] and state.history[-1]["move"] == "b2"


def test_undo_of_swap_gives_the_seats_back(monkeypatch) -> None:
    for game, options, moves in (
        ("onyx", {"pie": True}, "h8"),
        ("oddy", {"sides": 3, "size": 4}, "b1"),
        ("omny", {"variant": "y", "size": 4, "pie": True}, "b2"),
    ):
        state = play_all(load(game, options), moves)
        no_replay(monkeypatch, state)
        frozen = position(state)
        state.play("swap", t=5.0)
        assert state.owner == {"black": 1, "white": 0} and state.swapped
        state.undo()
        assert position(state) == frozen and state.owner == {"black": 0, "white": 1} and not state.swapped
        assert "swap" in state.legal_moves()


def test_undo_of_omega_swaps_in_a_pie_phase(monkeypatch) -> None:
    state = load("omega", {"players": 3, "size": 4, "pie": True})
    no_replay(monkeypatch, state)
    play_all(state, "d1 e1 f1")
    frozen = position(state)
    state.play("swap white", t=3.0)
    assert state.owner["white"] == 1 and state.pie_seat == 2
    state.undo()
    assert position(state) == frozen and state.pie_seat == 1


def test_undo_of_the_komi_choice(monkeypatch) -> None:
    state = load("omny", {"variant": "y", "size": 4, "komi_choice": True})
    no_replay(monkeypatch, state)
    frozen = position(state)
    state.play("komi=1.5", t=0.0)
    assert state.komi == 1.5 and state.to_move == "white"
    state.play("swap", t=1.0)
    state.undo()
    state.undo()
    assert position(state) == frozen and state.komi is None and state.to_move == "black"
    assert state.legal_moves()[0] == "komi=0"


def test_undo_of_a_winning_move(monkeypatch) -> None:
    state = play_all(load("oddy", {"sides": 3, "size": 2, "pie": False}), "a1 b1")
    no_replay(monkeypatch, state)
    frozen = position(state)
    state.play("a2", t=3.0)
    assert state.winner == "black" and state.winning_group == ["a1", "a2"]
    state.undo()
    assert position(state) == frozen and state.result is None and state.winning_group is None


def test_undo_of_omega_placements_within_a_turn_and_of_several_at_once(monkeypatch) -> None:
    state = load("omega", {"players": 3, "size": 4})
    no_replay(monkeypatch, state)
    start = position(state)
    state.play("d1", t=0.0)
    one = position(state)
    state.play("e1 f1", t=1.0)
    assert state.history[-1]["move"] == "d1 e1 f1" and state.mover == 1
    copy = state.clone()
    state.undo()
    assert position(state) == position(play_all(load("omega", {"players": 3, "size": 4}), "d1 e1"))
    assert state.history[-1]["move"] == "d1 e1" and state.mover == 0
    state.undo()
    assert position(state) == one and state.history[-1] == {"move": "d1", "by": "white", "t": 0.0}
    state.undo()
    assert position(state) == start
    assert copy.history[-1]["move"] == "d1 e1 f1"  # the copy's entries were never changed


def test_undo_across_the_end_of_omega_match_game_one(monkeypatch) -> None:
    state = load("omega", {"players": 2, "size": 4, "match": True})
    no_replay(monkeypatch, state)
    rng = random.Random(11)
    before = None
    while state.game_number == 1:
        before = position(state)
        state.play(rng.choice(state.legal_moves()), t=float(state.ply))
    assert state.finished and not state.stones.any()
    state.undo()
    assert position(state) == before and state.game_number == 1 and not state.finished


def test_undo_restores_the_omiga_decks_and_hands(monkeypatch) -> None:
    state = load("omiga", {"variant": "kids", "seed": 5, "width": 7, "height": 5})
    no_replay(monkeypatch, state)
    rng = random.Random(1)
    for _ in range(6):
        frozen = position(state)
        hands = {c: list(h) for c, h in state.hands.items()}
        decks = {c: s.snapshot() for c, s in state.supplies.items()}
        state.play(rng.choice(state.legal_moves()), t=1.0)
        state.undo()
        assert position(state) == frozen
        assert state.hands == hands and {c: s.snapshot() for c, s in state.supplies.items()} == decks
        state.play(rng.choice(state.legal_moves()), t=1.0)
        if state.is_over:
            break


def test_undo_of_a_real_time_action_restores_the_clock_and_the_rejections(monkeypatch) -> None:
    state = load("omiga", {"variant": "base", "seed": 2, "width": 7, "height": 5})
    no_replay(monkeypatch, state)
    state.play(state.legal_moves()[0], t=1.0)
    state.submit("white", "place 99 a1", t=1.5)  # refused, and logged
    frozen = position(state)
    assert len(state.rejected) == 1 and state.clock == 1.0
    state.play(state.legal_moves()[-1], t=2.0)
    state.submit("black", "place 99 a1", t=2.5)
    state.undo()
    assert position(state) == frozen and state.clock == 1.0 and len(state.rejected) == 1
