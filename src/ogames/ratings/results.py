"""What a finished game tells the ratings: each seat's place (`ranks_of`) and whether the game
was aborted before everyone had moved, and so is not rated (`aborted`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ogames.rules.protocol import State


def ranks_of(state: State) -> list[int]:
    """Each seat's place in a finished game, 0 the first (equal places tie): the winner first and
    everyone else second, all equal on a draw; at Omega's tables of three and four the others
    follow by score, with the rules' own tie-break (the later colour), and one who resigned last.
    In a game of teams (more seats than colours: Omiga's 2v2) a seat's place is its team's: its
    share of the result (`rewards`), the winners first."""
    if state.result is None:
        raise ValueError("the game is not over: it has no ranks yet")
    seats = len(state.players)
    if state.result.winner == "draw":
        return [0] * seats
    if seats > len(state.owner):
        shares = state.rewards()
        return [sorted(set(shares), reverse=True).index(share) for share in shares]
    colours = list(state.owner)
    winner = state.result.winner
    scores = state.scores
    if seats <= 2 or not scores:
        return [0 if seat == state.owner[winner] else 1 for seat in range(seats)]
    last = state.history[-1] if state.history else {}
    resigned = last.get("by") if last.get("move") == "resign" else None
    others = sorted(
        (colour for colour in colours if colour != winner),
        key=lambda colour: (colour != resigned, scores[colour], colours.index(colour)),
        reverse=True,
    )
    place = {state.owner[colour]: rank for rank, colour in enumerate([winner, *others])}
    return [place[seat] for seat in range(seats)]


def aborted(record: Mapping[str, Any]) -> bool:
    """Whether a game (its record, `ogames.records`' format) ended before every player had made a
    move: such a game is not rated, as on lichess. A resignation or a loss on time (stored as a
    resignation) is not a move."""
    movers = {entry.get("by") for entry in record.get("moves", []) if entry.get("move") != "resign"}
    return len(movers) < len(record.get("players", []))
