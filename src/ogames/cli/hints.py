"""Hints for a learner at the terminal, as the site gives them (`web/boards/learner_hints.py`): in a
game of one person against the computer, `hint` names the computer's best move for the person, a
few times a game (`ogames play --hints N`, 3 by default). A game with another person at any seat
has none. A hint is a search of its own (the computer players' thinking time, or their iterations
with `--iterations`), so it never changes what the computer opponents know."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.markup import escape

from ogames.cli.engine import search_note
from ogames.players import BasePlayer, make_player
from ogames.rules.protocol import State

HINTS = 3  # a game's hints unless --hints says otherwise (the site's `hints_per_game`)


@dataclass
class Hints:
    """A game's hints: how many it offers and has given, and the search that gives them; `none`
    says why a game offers none."""

    limit: int
    think: float | None = None
    iterations: int | None = None
    seed: int | None = None
    used: int = 0
    none: str = "this game gives no hints"

    @classmethod
    def for_game(cls, players: Sequence[BasePlayer], per_game: int, **search: Any) -> Hints:
        """`per_game` hints where exactly one seat is a person's and every other the computer's."""
        if sum(player.human for player in players) != 1 or len(players) < 2:
            return cls(0, none="hints are given only in a game of one person against the computer", **search)
        return cls(per_game, none="this game was started with --hints 0", **search)

    def give(self, state: State) -> str:
        """The hint for the side to move, or why there is none (rich markup)."""
        if self.limit == 0:
            return f"[red]✗ {escape(self.none)}[/]"
        if self.used >= self.limit:
            return f"[red]✗ you have used all the hints of this game ({self.limit})[/]"
        searcher = make_player("mcts", think=self.think, iterations=self.iterations, seed=self.seed)
        move = searcher.choose(state.clone())
        self.used += 1
        left = self.limit - self.used
        return (f"hint: [bold]{escape(move)}[/] is the computer's choice here{search_note(searcher.info())}  "
                f"[dim]({left} {'hint' if left == 1 else 'hints'} left)[/]")
