"""Reading `ogames play GAME --name value …`: game options come from the game's OptionSet, so every
option of every game works without per-game code; other `--word value` pairs name seats by colour."""

from __future__ import annotations

from collections.abc import Sequence

from ogames.errors import BadOption
from ogames.rules import game_class


def parse_play_args(game: str, args: Sequence[str]) -> tuple[dict[str, str | bool], dict[str, str]]:
    """(options, seats) from the extra arguments; BadOption naming the argument if one is malformed.

    `--name value` and `--name=value` set an option; a bool option also takes `--name` / `--no-name`.
    Any other `--word value` is kept as a seat (`--white mcts`); the caller checks it is a colour.
    """
    option_set = game_class(game).option_set
    kinds = {o.name: o.kind for o in option_set.options}
    options: dict[str, str | bool] = {}
    seats: dict[str, str] = {}
    tokens = list(args)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if not token.startswith("--") or len(token) <= 2:
            raise BadOption(f"unexpected argument {token!r}: options are written --name value")
        name, has_value, value = token[2:].partition("=")
        key = name.replace("-", "_").lower()
        i += 1
        if key.startswith("no_") and kinds.get(key[3:]) == "bool":
            if has_value:
                raise BadOption(f"{token!r}: --no-{key[3:]} takes no value")
            options[key[3:]] = False
            continue
        if kinds.get(key) == "bool" and not has_value and (i >= len(tokens) or tokens[i].startswith("--")):
            options[key] = True
            continue
        if not has_value:
            if i >= len(tokens) or tokens[i].startswith("--"):
                raise BadOption(f"--{name} needs a value")
            value = tokens[i]
            i += 1
        if key in kinds:
            options[key] = value
        else:
            seats[key] = value.strip().lower()
    return options, seats
