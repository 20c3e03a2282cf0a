"""Players: random, plain UCT (MCTS) and the factory, tested on small toy games defined here so that
they do not depend on any real game module (TinyY is the Game of Y on a triangle; ThreeRow is a
three-player game where a turn is several placements by one player, as in Omega)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ogames.boards.hexes import triangle
from ogames.errors import CannotPlay, IllegalMove
from ogames.players import HumanPlayer, MctsPlayer, Player, RandomPlayer, make_player
from ogames.rules.options import Option, OptionSet
from ogames.rules.protocol import Game, Result, State
from ogames.rules.stones import StoneGame, StoneState

# ----- toy games ---------------------------------------------------------------------------------


class TinyY(StoneGame):
    """The Game of Y on a triangle: connect all three sides (a toy for player and CLI tests)."""

    name = "tinyy"
    title = "Tiny Y"
    summary = "connect the three sides of a small triangle"
    option_set = OptionSet(
        (
            Option("size", "int", 4, "cells per side", minimum=2, maximum=9),
            Option("pie", "bool", False, "White may swap after Black's first stone"),
        )
    )

    def settle(self, options: dict[str, Any]) -> dict[str, Any]:
        self.board = triangle(options["size"])
        return options

    def new_state(self, players: Sequence[str] | None = None) -> TinyYState:
        return TinyYState(self, players)


class TinyYState(StoneState):
    """Win test: the new stone's group touches every side."""

    def after_placement(self, cell: int) -> tuple[Result | None, dict[str, Any]]:
        value = self.stones[cell]
        group, todo = {cell}, [cell]
        while todo:
            for other in self.board.neighbours[todo.pop()]:
                if other not in group and self.stones[other] == value:
                    group.add(other)
                    todo.append(other)
        sides = [self.board.cells(f"side{k}") for k in range(3)]
        if all(group & side for side in sides):
            colour = self.game.colours[value - 1]
            return Result(colour, f"{colour} connected the three sides"), {}
        return None, {}


class ThreeRow(Game):
    """Three players (red, green, blue) on a 4 × 4 grid, `per_turn` placements per turn; three in a row wins."""

    name = "threerow"
    title = "Three in a row for three"
    summary = "toy multi-player game"
    option_set = OptionSet((Option("per_turn", "int", 2, "stones per turn", minimum=1, maximum=3),))

    @property
    def colours(self) -> tuple[str, ...]:
        return ("red", "green", "blue")

    def new_state(self, players: Sequence[str] | None = None) -> ThreeRowState:
        return ThreeRowState(self, players)


LINES = [
    [(r, c + k) for k in range(3)] for r in range(4) for c in range(2)
] + [[(r + k, c) for k in range(3)] for r in range(2) for c in range(4)] + [
    [(r + k, c + k) for k in range(3)] for r in range(2) for c in range(2)
] + [[(r + k, c + 2 - k) for k in range(3)] for r in range(2) for c in range(2)]


class ThreeRowState(State):
    """Cells a1 … d4; the seat to move places `per_turn` stones of its own colour in a row of turns."""

    def __init__(self, game: ThreeRow, players: Sequence[str] | None = None):
        super().__init__(game, players)
        self.cells: dict[str, str] = {}
        self.turn = 0
        self.placed = 0

    @staticmethod
    def label(r: int, c: int) -> str:
        return f"{'abcd'[c]}{r + 1}"

    def legal_moves(self) -> list[str]:
        if self.result:
            return []
        return [self.label(r, c) for r in range(4) for c in range(4) if self.label(r, c) not in self.cells]

    @property
    def to_move(self) -> str | None:
        return None if self.result else self.game.colours[self.turn]

    def stone_at(self, label: str) -> str | None:
        return self.cells.get(label)

    def apply(self, move: str) -> dict[str, Any]:
        if move not in self.legal_moves():
            raise IllegalMove(move, "not an empty cell")
        colour = self.game.colours[self.turn]
        self.cells[move] = colour
        if any(all(self.cells.get(self.label(r, c)) == colour for r, c in line) for line in LINES):
            self.result = Result(colour, "three in a row")
        elif len(self.cells) == 16:
            self.result = Result("draw", "the board is full")
        self.placed += 1
        if self.placed == self.game.options["per_turn"]:
            self.placed, self.turn = 0, (self.turn + 1) % 3
        return {"move": move}


def play_all(state: State, moves: str) -> State:
    for move in moves.split():
        state.play(move, t=0.0)
    return state


def winning_moves(state: State) -> list[str]:
    """Moves that win at once for the colour to move."""
    colour = state.to_move
    found = []
    for move in state.legal_moves():
        trial = state.clone().play(move, t=0.0)
        if trial.winner == colour:
            found.append(move)
    return found


def match(first: Any, second: Any, game: Game) -> str:
    """Play one game between two players (first sits in seat 0); the winning seat's player name."""
    state = game.new_state([first.name, second.name])
    players = [first, second]
    while not state.is_over:
        state.play(players[state.mover].choose(state), t=0.0)
    return state.seats[state.winner]


# ----- the toys themselves are right (the tests below rely on them) ------------------------------


def test_tiny_y_toy_wins_by_connecting_three_sides() -> None:
    state = play_all(TinyY(size=4).new_state(), "a2 b3 b2 d1 b1 a4")
    assert winning_moves(state) == ["c2"]
    assert state.clone().play("c2").winner == "black"


def test_three_row_toy_turns_are_several_placements() -> None:
    state = ThreeRow().new_state()
    assert (state.to_move, state.mover) == ("red", 0)
    play_all(state, "a1")
    assert (state.to_move, state.mover) == ("red", 0)
    play_all(state, "b1")
    assert (state.to_move, state.mover) == ("green", 1)


# ----- random player ---------------------------------------------------------------------------


def test_random_player_is_seeded_and_legal() -> None:
    state = TinyY(size=5).new_state()
    a, b = RandomPlayer(seed=7), RandomPlayer(seed=7)
    picks = [a.choose(state) for _ in range(20)]
    assert picks == [b.choose(state) for _ in range(20)]
    assert set(picks) <= set(state.legal_moves())
    a.reset()
    assert [a.choose(state) for _ in range(20)] == picks


def test_random_player_refuses_a_finished_game() -> None:
    state = TinyY(size=4).new_state().resign()
    with pytest.raises(ValueError, match="no legal move"):
        RandomPlayer(seed=1).choose(state)


# ----- MCTS ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mcts_takes_an_immediate_win(seed: int) -> None:
    state = play_all(TinyY(size=4).new_state(), "a2 b3 b2 d1 b1 a4")
    assert MctsPlayer(iterations=300, seed=seed).choose(state) == "c2"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mcts_blocks_an_immediate_loss(seed: int) -> None:
    # Black threatens c2 (a2 b2 b1 touch the left and bottom sides; c2 reaches the right side).
    state = play_all(TinyY(size=4).new_state(), "a2 b3 b2 d1 b1")
    threat = state.clone()
    threat.turn = 0  # what Black could do if White passed
    assert winning_moves(threat) == ["c2"]
    assert MctsPlayer(iterations=600, seed=seed).choose(state) == "c2"


def test_mcts_does_not_change_the_state_and_is_deterministic_with_a_seed() -> None:
    state = play_all(TinyY(size=5).new_state(), "c2 a3")
    before = (state.stones.copy(), list(state.history), dict(state.owner))
    first = MctsPlayer(iterations=200, seed=11).choose(state)
    assert (state.stones == before[0]).all() and state.history == before[1] and state.owner == before[2]
    assert MctsPlayer(iterations=200, seed=11).choose(state) == first


def test_mcts_beats_random_clearly() -> None:
    game = TinyY(size=5)
    wins = 0
    for n in range(4):
        mcts, rand = MctsPlayer(iterations=150, seed=n), RandomPlayer(seed=100 + n)
        pair = (mcts, rand) if n % 2 == 0 else (rand, mcts)
        wins += match(*pair, game) == "mcts"
    assert wins >= 4


def test_mcts_time_budget_stops_and_reports() -> None:
    state = TinyY(size=6).new_state()
    player = MctsPlayer(think=0.05, seed=3)
    move = player.choose(state)
    info = player.info()
    assert move in state.legal_moves()
    assert info["iterations"] > 0 and info["move"] == move and 0.0 <= info["value"] <= 1.0
    assert info["seconds"] < 0.05 + 2.0  # stops near its budget (room for a loaded machine)


def test_mcts_with_one_legal_move_answers_at_once() -> None:
    state = play_all(TinyY(size=2).new_state(), "a1 b1")
    assert state.legal_moves() == ["a2"]
    assert MctsPlayer(iterations=50, seed=0).choose(state) == "a2"


def test_mcts_three_players_first_placement_of_a_turn_wins_at_once() -> None:
    # Red a1 c1, green b2 b3, blue d1 d2, red a3 c4: green (seat 1) wins with b1 or b4.
    state = play_all(ThreeRow(per_turn=2).new_state(), "a1 c1 b2 b3 d1 d2 a3 c4")
    assert (state.to_move, state.mover) == ("green", 1)
    assert sorted(winning_moves(state)) == ["b1", "b4"]
    assert MctsPlayer(iterations=400, seed=5).choose(state) in ("b1", "b4")


def test_mcts_multi_player_second_placement_completes_the_line() -> None:
    state = play_all(ThreeRow(per_turn=2).new_state(), "a1 a4 b2 c4 d1 d2 a3 c1 b3")
    # Green (seat 1) placed b3 already this turn, one placement left: b1 or b4 wins.
    assert (state.to_move, state.mover) == ("green", 1)
    assert MctsPlayer(iterations=300, seed=9).choose(state) in ("b1", "b4")


def test_mcts_three_players_rewards_go_to_each_seat() -> None:
    state = ThreeRow(per_turn=1).new_state()
    player = MctsPlayer(iterations=120, seed=2)
    root = player.search(state)
    assert root.visits == 120 and len(root.totals) == 3
    # Every playout gives rewards summing to 1 (a win or a shared draw).
    assert sum(root.totals) == pytest.approx(120)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 12))
def test_mcts_always_returns_a_legal_move(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    game = TinyY(size=5) if seed % 2 else ThreeRow(per_turn=1 + seed % 3)
    state = game.new_state()
    for _ in range(plies):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()), t=0.0)
    if state.is_over:
        return
    assert MctsPlayer(iterations=30, seed=seed).choose(state) in state.legal_moves()


def test_mcts_refuses_bad_budgets_and_finished_games() -> None:
    with pytest.raises(ValueError, match="think"):
        MctsPlayer(think=0)
    with pytest.raises(ValueError, match="iterations"):
        MctsPlayer(iterations=0)
    with pytest.raises(ValueError, match="no move"):
        MctsPlayer(iterations=5).choose(TinyY().new_state().resign())


# ----- factory and protocol --------------------------------------------------------------------


def test_make_player_builds_each_kind_and_ignores_settings_it_does_not_take() -> None:
    mcts = make_player("MCTS", think=0.5, seed=3, name="deep")
    assert isinstance(mcts, MctsPlayer) and mcts.think == 0.5 and mcts.name == "deep"
    rand = make_player("random", seed=4, think=2.0)
    assert isinstance(rand, RandomPlayer) and rand.seed == 4
    human = make_player("human", seed=1, ask=lambda s: "a1")
    assert isinstance(human, HumanPlayer) and human.human and human.choose(TinyY().new_state()) == "a1"
    for player in (mcts, rand, human):
        assert isinstance(player, Player)


def test_make_player_rejects_unknown_kinds() -> None:
    with pytest.raises(ValueError, match="unknown player kind 'alphazero'"):
        make_player("alphazero")


def test_human_player_without_a_way_to_ask_says_so() -> None:
    with pytest.raises(CannotPlay, match="ask"):
        HumanPlayer().choose(TinyY().new_state())
