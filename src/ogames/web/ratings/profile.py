"""What a player's profile shows, made from what the database holds: each finished game's result
for the player, the opponents, and the player's record against each computer level."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ogames.web.core.computer import level_shown

PEOPLE_KINDS = ("human", "invited", "open")


def outcome(head: dict[str, Any], seats: list[int]) -> str:
    """"win", "loss" or "draw" for the player in these seats of a finished game (its stored head:
    the result's winning colour, the colour each player name sat in), "aborted" without a result."""
    result = head.get("result")
    if not result:
        return "aborted"
    winner = result.get("winner")
    if winner == "draw":
        return "draw"
    players, colours = list(head.get("players") or []), dict(head.get("seats") or {})
    name = colours.get(winner)
    if name in players:
        won = players.index(name) in seats
    else:  # a team's colour (Omiga's 2v2) names its players "white1 & white2"
        team = str(name or "").split(" & ")
        won = any(0 <= seat < len(players) and players[seat] in team for seat in seats)
    return "win" if won else "loss"


@dataclass
class LevelRecord:
    """A player's wins, losses and draws against one computer level (in any game)."""

    level: int
    results: Counter[str] = field(default_factory=Counter)


def against_levels(finished: list[dict[str, Any]]) -> list[LevelRecord]:
    """The player's record against each computer level, the lowest level first: games with a
    result where every other seat was the computer at one level."""
    found: dict[int, LevelRecord] = {}
    for game in finished:
        if game["status"] != "over":
            continue
        others = [kind for seat, kind in enumerate(game["seat_kinds"]) if seat not in game["seats"]]
        if not others or any(kind in PEOPLE_KINDS for kind in others):
            continue
        levels = {level_shown(kind) for kind in others}
        if len(levels) != 1 or None in levels:
            continue
        level = levels.pop()
        assert level is not None
        found.setdefault(level, LevelRecord(level)).results[outcome(game["head"], game["seats"])] += 1
    return [found[level] for level in sorted(found)]


def opponents(game: dict[str, Any], names: dict[int, str], taken: set[int] | None = None) -> list[dict[str, Any]]:
    """The other seats of a game as the profile lists them: an account's name (linked), the
    computer's level, or nobody known (a guest, or a deleted account); given the seats `taken`,
    a seat for a person that nobody has taken yet is free."""
    shown: list[dict[str, Any]] = []
    for seat, kind in enumerate(game["seat_kinds"]):
        if seat in game["seats"]:
            continue
        if kind not in PEOPLE_KINDS:
            shown.append({"level": level_shown(kind)})
        elif taken is not None and seat not in taken:
            shown.append({"free": True})
        else:
            shown.append({"name": names.get(seat)})
    return shown


__all__ = ["LevelRecord", "against_levels", "opponents", "outcome"]
