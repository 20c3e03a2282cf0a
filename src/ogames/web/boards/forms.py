"""The board games' new-game form: what its template is given, and the `NewGame` a submitted form
asks for (the JSON API takes a `NewGame` as it is)."""

from __future__ import annotations

from typing import Any

import ogames
from ogames.web.boards.correspondence import DAYS_CHOICES
from ogames.web.boards.live import BROWSER_GAMES
from ogames.web.boards.protocol import NewGame
from ogames.web.core.common import form_fields, form_options
from ogames.web.core.protocol import DEFAULT_LEVEL, LEVEL_RANGE, level_of
from ogames.wording import say


def form_context(game: dict[str, Any], form: dict[str, str] | None = None) -> dict[str, Any]:
    """What the new-game template needs: the game, its fields, the values to show, the computer's
    levels 1–10 (the one chosen: the form's, an old name read as its level, else the default)."""
    return {
        "game": game,
        "fields": form_fields(game),
        "values": form or {},
        "playable": game["name"] in BROWSER_GAMES,
        "levels": list(LEVEL_RANGE),
        "chosen_level": chosen_level((form or {}).get("level")),
        "seat_count": _seat_count(game["name"]),
        "max_seats": _max_seats(game),
        "people_choices": ("here", "invite", "open"),
        "days_choices": DAYS_CHOICES,
    }


def chosen_level(value: str | None) -> int:
    """The level a form chose (an old name read as its level), else the default one."""
    try:
        return level_of(value)
    except ValueError:
        return DEFAULT_LEVEL


def _max_seats(game: dict[str, Any]) -> int:
    """The most seats the game can have (Omega's `players` option goes to 4)."""
    players = next((option for option in game["options"] if option["name"] == "players"), None)
    return int(players["maximum"]) if players and players.get("maximum") else _seat_count(game["name"])


def _seat_count(name: str) -> int:
    try:
        return ogames.load(name).seat_count
    except Exception:
        return 2


def new_game_from_form(game: dict[str, Any], form: dict[str, str]) -> NewGame:
    """The NewGame a submitted form asks for: options left empty (or not for the chosen variant)
    keep their defaults; ValidationError or ValueError if the form is malformed."""
    options: dict[str, Any] = dict(form_options(game, form))
    mode = form.get("mode", "hotseat")
    seat = form.get("seat", "1")
    if not seat.isdigit() or len(seat) > 2:
        raise ValueError(say("seat-by-number", "choose your seat by its number"))
    request: dict[str, Any] = {"game": game["name"], "options": options, "level": form.get("level", str(DEFAULT_LEVEL))}
    if mode == "seats":  # who sits in each seat, one choice per seat (`who_1`, `who_2`, …)
        request["seats"] = seat_choices_from_form(game["name"], options, form)
    else:
        request.update(mode=mode, seat=int(seat) - 1)
    if form.get("rated") == "on":
        request["rated"] = True
    timing = form.get("timing", "live")
    if timing == "days":  # a correspondence game: days per move (the protocol says which are allowed)
        days = form.get("days", "").strip()
        if not days.isdigit() or len(days) > 3:
            raise ValueError(say("days-by-number", "choose the days per move: {choices}", choices=list(DAYS_CHOICES)))
        request["days"] = int(days)
        return NewGame.model_validate(request)
    minutes = form.get("clock_minutes", "").strip()
    if minutes not in ("", "0"):
        request["clock"] = {"minutes": minutes, "increment": form.get("clock_increment", "").strip() or "0"}
    return NewGame.model_validate(request)


def seat_choices_from_form(name: str, options: dict[str, Any], form: dict[str, str]) -> list[str]:
    """The `who_N` choices of a form, as many as the game with these options has seats (a page
    without its script sends every seat's choice; the ones past the game's seats are left out)."""
    choices = [form[f"who_{n}"] for n in range(1, 7) if f"who_{n}" in form]
    try:
        seats = ogames.load(name, **options).seat_count
    except Exception:  # bad options: the hub says why when it loads the game
        return choices
    return choices[:seats]


__all__ = ["chosen_level", "form_context", "new_game_from_form", "seat_choices_from_form"]
