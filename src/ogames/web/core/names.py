"""Seats and moves as a page in another language names them.

A game's record keeps what the server wrote, in English: the seats' names ("player 2", "computer
(level 3)") and the moves' notation ("swap", "komi=1.5", "resign"; Omiga's "place 12 c4 turned").
The pages show them in their language: `seat_name` and `move_words` put the names and notations the
server makes into the page's words (i18n.py), and leave anything else as it is (a cell label is
the same in every language). English pages show them as written.
"""

from __future__ import annotations

import re

from ogames.web import i18n
from ogames.web.messages import colour_words

_PLAYER = re.compile(r"^player(?: (\d+))?$")
_COMPUTER = re.compile(r"^computer \(level (\d+)\)$")


def seat_name(name: str, language: str) -> str:
    """A seat's name in a language: "player", "player N" and "computer (level N)" (the names the
    server gives) in its words; any other name as it is."""
    if language == i18n.DEFAULT:
        return name
    t = i18n.words(language)
    if found := _PLAYER.match(name):
        return t["seat_player_n"].format(n=found.group(1)) if found.group(1) else t["seat_player"]
    if found := _COMPUTER.match(name):
        return t["computer_level"].format(n=found.group(1))
    return name


def _colour(colour: str, language: str, form: str = "") -> str:
    return colour_words(colour, form, language) or colour


def move_words(move: str | None, language: str) -> str:
    """A board game's move as the move list shows it: cells as they are, the special moves in words."""
    move = "" if move is None else str(move)
    if language == i18n.DEFAULT:
        return move
    t = i18n.words(language)
    if move == "swap":
        return t["move_swap"]
    if move.startswith("swap "):
        return t["move_swap_colour"].format(colour=_colour(move[5:], language))
    if move == "resign":
        return t["move_resign"]
    if move == "lost on time":
        return t["move_lost_on_time"]
    if move.startswith("komi="):
        return t["komi_value"].format(k=move[5:])
    return move


__all__ = ["move_words", "seat_name"]
