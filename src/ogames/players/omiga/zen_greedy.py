"""The chance of completing a zen form under the real draw rules, by Monte-Carlo with a greedy player.

Each game is a seeded zen state played to its end by `greedy_move`: start and draw from the
colour the form still needs most, then lay cards while any fits (preferring placements that keep
the most positions of the form open, then the most neighbours touched), then end the round.
The figure is a lower bound on the chance for the best player: a better player can only do better.
"""

from __future__ import annotations

from dataclasses import dataclass

from ogames.rules import load
from ogames.rules.omiga.zen.state import LOST, ZenState


def _needed(state: ZenState, colour: str) -> int:
    placed = sum(1 for c in state.layout.values() if c == colour)
    return state.form.count(colour) - placed


def _frontier_colours(state: ZenState) -> dict[str, int]:
    """For each colour, how many empty cells next to the layout a card of that colour could take."""
    cells = state.form.cells
    out: dict[str, int] = {}
    seen = set()
    for col, row in state.layout:
        for nxt in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
            if nxt in state.layout or nxt in seen:
                continue
            seen.add(nxt)
            for colour in {c for dx, dy in state.offsets if (c := cells.get((nxt[0] - dx, nxt[1] - dy))) is not None}:
                out[colour] = out.get(colour, 0) + 1
    return out


def greedy_move(state: ZenState) -> str:
    """The greedy player's move in a zen state that is not over."""
    if not state.layout:
        colour = max(state.form.colours, key=state.form.count)
        return f"start {colour}"
    if not state.hand:
        drawable = [c for c in state.supplies if state.drawable(c)]
        open_now = _frontier_colours(state)
        return f"draw {max(drawable, key=lambda c: (open_now.get(c, 0), _needed(state, c), len(state.supplies[c])))}"
    best, best_score = "end", None
    for i, (colour, design) in enumerate(state.hand):
        printed = state.cards.designs[design]
        for cell, face in state.placements(i):
            col, row = state.table.position(cell)
            around = sum((col + dc, row + dr) in state.layout for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            score = (len(state.fits_form(cell, colour)), around)
            if best_score is None or score > best_score:
                best_score = score
                best = f"place {i + 1} {state.table.label(cell)}" + ("" if face == printed else " turned")
    return best


@dataclass(frozen=True)
class Estimate:
    """Completed games out of played games, with a 95% Wilson interval."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        """The fraction of games completed."""
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """95% Wilson score interval of the rate."""
        n, p, z = self.games, self.rate, 1.96
        if n == 0:
            return 0.0, 1.0
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)


def play_greedy(form: str, seed: int) -> ZenState:
    """One zen game of a form, its decks shuffled by `seed`, played to the end by the greedy player."""
    state = load("omiga", variant="zen", form=form, seed=seed).new_state()
    assert isinstance(state, ZenState)
    while not state.is_over:
        state.play(greedy_move(state), t=0.0)
    return state


def estimate(form: str, games: int = 200, first_seed: int = 0) -> Estimate:
    """How many of `games` seeded games (seeds first_seed, first_seed + 1, …) the greedy player completes."""
    wins = sum(play_greedy(form, seed).winner != LOST for seed in range(first_seed, first_seed + games))
    return Estimate(wins, games)
