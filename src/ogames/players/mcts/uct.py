"""Plain UCT Monte-Carlo tree search for any game of the protocol.

Each iteration copies the root state, walks down the tree choosing by UCB1 for the seat that
decides at each node (`state.mover`: in Omega one player makes several placements in a row, and
there may be more than two seats), adds one child, finishes the game with the game's own
`random_playout` (a compiled kernel where the game has one), and adds the per-seat rewards to every
node on the path. The move played is the most visited child of the root.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from ogames.errors import CannotPlay
from ogames.players.base import BasePlayer
from ogames.players.mcts.info import MIN_PLAYOUTS_FOR_VALUE, SearchInfo
from ogames.players.mcts.settings import SETTINGS, Read
from ogames.rules.protocol import TURN_BASED, State

Playout = Callable[[State, random.Random], list[float]]


def default_playout(state: State, rng: random.Random) -> list[float]:
    """Uniformly random moves to the end, through the game's (possibly compiled) playout."""
    return state.random_playout(rng)


class Node:
    """One position in the tree: who decides there, untried moves, visits and reward sums per seat."""

    __slots__ = ("children", "move", "seat", "totals", "untried", "visits")

    def __init__(self, move: str | None, state: State, rng: random.Random):
        self.move = move
        self.seat = state.mover  # None at the end of the game
        moves = [] if state.is_over else state.legal_moves()
        rng.shuffle(moves)  # expansion order is random so that ties do not favour one corner
        self.untried: list[str] = moves
        self.children: list[Node] = []
        self.visits = 0
        self.totals = [0.0] * len(state.players)

    def mean(self, seat: int) -> float:
        """Average reward of a seat through this node."""
        return self.totals[seat] / self.visits if self.visits else 0.0

    def best(self) -> Node:
        """The most visited child (ties: the better mean for the seat deciding here)."""
        seat = self.seat
        assert seat is not None, "a node with children is not at the end of the game"
        return max(self.children, key=lambda c: (c.visits, c.mean(seat)))

    def select(self, exploration: float) -> Node:
        """The child with the best UCB1 value for the seat deciding here."""
        log_n = math.log(self.visits)
        seat = self.seat
        assert seat is not None, "a node with children is not at the end of the game"
        best, best_value = self.children[0], -math.inf
        for child in self.children:
            value = child.totals[seat] / child.visits + exploration * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best


class MctsPlayer(BasePlayer):
    """UCT with UCB1 selection and random playouts; budget by iterations and/or seconds."""

    def __init__(
        self,
        name: str = "mcts",
        *,
        think: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        exploration: float = math.sqrt(2),
        playout: Playout = default_playout,
        settings: dict[str, Any] | None = None,
    ):
        """The budget and the exploration constant are checked by the `mcts` player's settings
        (`settings.SETTINGS`); a subclass passes all of its own, checked, as `settings`."""
        if settings is None:
            given = {"think": think, "iterations": iterations, "seed": seed, "exploration": exploration}
            settings = {key: SETTINGS.read(key, value) for key, value in given.items()}
        if settings["think"] is None and settings["iterations"] is None:
            settings["think"] = 1.0
        self.name = name
        self.settings = settings
        self.playout = playout
        self.rng = random.Random(self.seed)
        self.last = SearchInfo()

    # The settings the plain UCT reads (`settings.SETTINGS` checks them).
    think = Read[float | None]()  # seconds a move (None: the iterations decide)
    iterations = Read[int | None]()  # iterations a move (None: the time decides)
    seed = Read[int | None]()
    exploration = Read[float]()

    def reset(self) -> None:
        """Start the random sequence again from the seed."""
        self.rng = random.Random(self.seed)
        self.last = SearchInfo()

    def info(self) -> SearchInfo:
        """Figures of the last search: iterations, seconds, the chosen move's visits and mean reward
        (`value`), and whether that mean rests on enough playouts to be shown as a win chance
        (`reliable`: at least MIN_PLAYOUTS_FOR_VALUE through the chosen move)."""
        return self.last

    def choose(self, state: State) -> str:
        """The most visited move after searching from the state (which is not changed)."""
        if state.is_over:
            raise CannotPlay(f"no move to choose: {state.result.describe() if state.result else 'over'}")
        if state.game.dynamics != TURN_BASED:
            raise CannotPlay(
                f"{self.name} plays turn-based games; {state.game.title} here is {state.game.dynamics}: "
                "use its bots (racer, rollout, greedy, random with a reaction)"
            )
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last = SearchInfo(move=moves[0])
            return moves[0]
        move = self.search(state).best().move
        assert move is not None, "every child has a move"
        return move

    def search(self, state: State) -> Node:
        """Grow a tree from the state within the budget and return its root."""
        rng = self.rng
        root = Node(None, state, rng)
        start = time.perf_counter()
        deadline = None if self.think is None else start + self.think
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            # Check the clock every few iterations: perf_counter is cheap but not free.
            if deadline is not None and done % 16 == 0 and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, state)
            done += 1
        best = root.best() if root.children else None
        self.last = SearchInfo(
            iterations=done,
            seconds=time.perf_counter() - start,
            move=best.move if best else None,
            visits=best.visits if best else 0,
            value=best.mean(root.seat) if best and root.seat is not None else None,
            reliable=best is not None and best.visits >= MIN_PLAYOUTS_FOR_VALUE,
        )
        return root

    def _iterate(self, root: Node, state: State) -> None:
        sim = state.clone()
        node = root
        path = [root]
        # Selection: descend while every move here has been tried.
        while not node.untried and node.children:
            node = node.select(self.exploration)
            assert node.move is not None, "every child has a move"
            sim.play(node.move, t=0.0)
            path.append(node)
        # Expansion: one new child.
        if node.untried:
            move = node.untried.pop()
            sim.play(move, t=0.0)
            child = Node(move, sim, self.rng)
            node.children.append(child)
            path.append(child)
        # Simulation.
        rewards = sim.rewards() if sim.is_over else self.playout(sim, self.rng)
        # Backpropagation: every seat's reward on every node of the path.
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat, reward in enumerate(rewards):
                totals[seat] += reward
