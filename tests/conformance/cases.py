"""Every game, variant and mode the conformance suite runs, and how to enumerate near-miss moves.

The cases follow the registry (`ogames.games()`): tests/conformance/test_registry.py fails when a
variant, or any value of a choice option, has no case, so a new variant is covered everywhere these
cases are used. Omiga's options carry a seed so that decks, and so the games the suite plays, are
the same on every run. A case's id names its golden game (tests/golden/<id>.json).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from functools import cache
from typing import Any, NamedTuple

import numpy as np

import ogames
from ogames.boards.graph import Board
from ogames.rules import REAL_TIME, TABLE
from ogames.rules.protocol import Game, State


class Case(NamedTuple):
    """One game to test: an id, the game's name and the options it is loaded with."""

    id: str
    game: str
    options: dict[str, Any]

    def load(self) -> Game:
        return ogames.load(self.game, **self.options)

    @property
    def variant(self) -> str | None:
        """The registry variant this case plays (None for a game without variants)."""
        return variant_of(self.game, self.options)


CASES: list[Case] = [
    Case("omny-y", "omny", {"variant": "y", "size": 5}),
    Case("omny-y-pie-komi", "omny", {"variant": "y", "size": 5, "pie": True, "komi": 0.5}),
    Case("omny-y-komi-choice", "omny", {"variant": "y", "size": 4, "komi_choice": True}),
    Case("omny-y-komi-choice-pie", "omny", {"variant": "y", "size": 4, "komi_choice": True, "pie": True}),
    Case("omny-sunder", "omny", {"variant": "sunder", "size": 3}),
    Case("omny-gyre", "omny", {"variant": "gyre", "size": 3}),
    Case("omny-free-y", "omny", {"variant": "free-y", "sides": (2, 3)}),
    Case("omny-custom-rhombus", "omny", {"variant": "custom", "shape": "rhombus", "size": 4, "stars": "corners"}),
    Case("omny-custom-cells", "omny", {"variant": "custom", "cells": "a1 b1 c1 a2 b2 a3", "stars": "all"}),
    Case("omny-custom-triangle", "omny", {"variant": "custom", "shape": "triangle", "size": 4, "stars": "perimeter+centre"}),
    Case("omny-custom-hexagon", "omny", {"variant": "custom", "shape": "hexagon", "size": 2, "stars": "perimeter"}),
    Case("omny-custom-irregular", "omny", {"variant": "custom", "shape": "irregular", "sides": (2, 3), "stars": "all"}),
    Case("oddy-3", "oddy", {"sides": 3, "size": 5}),
    Case("oddy-3-polar", "oddy", {"sides": 3, "size": 4, "board": "polar"}),
    Case("oddy-5", "oddy", {"sides": 5, "size": 3}),
    Case("oddy-7-nopie", "oddy", {"sides": 7, "size": 3, "pie": False}),
    Case("omega-2", "omega", {"players": 2, "size": 4}),
    Case("omega-3-pie", "omega", {"players": 3, "size": 4, "pie": True}),
    Case("omega-4", "omega", {"players": 4, "size": 5}),
    Case("omega-2-match", "omega", {"players": 2, "size": 4, "match": True}),
    Case("onyx", "onyx", {}),
    Case("onyx-pie", "onyx", {"pie": True}),
    Case("omiga-base", "omiga", {"variant": "base", "seed": 11, "width": 7, "height": 6}),
    Case("omiga-2v2", "omiga", {"variant": "2v2", "seed": 12, "width": 7, "height": 6, "target": 2}),
    Case("omiga-kids", "omiga", {"variant": "kids", "seed": 13, "width": 7, "height": 6}),
    Case("omiga-kids-turns", "omiga", {"variant": "kids", "pace": "turns", "seed": 16, "width": 7, "height": 6}),
    Case("omiga-toddler", "omiga", {"variant": "toddler", "seed": 14, "players": 3, "width": 9, "height": 5}),
    Case("omiga-zen", "omiga", {"variant": "zen", "seed": 15}),
]

CASE_IDS = [case.id for case in CASES]
BY_ID = {case.id: case for case in CASES}
# The perfect-information games (no hidden cards): those the search, the RL adapters and self-play take.
BOARD_CASES = [case for case in CASES if not case.load().hidden_information]


def make(case_id: str) -> Game:
    """The game of a case."""
    return BY_ID[case_id].load()


# ----- the registry ----------------------------------------------------------------------------------


@cache
def registry() -> dict[str, dict[str, Any]]:
    """`ogames.games()` by game name."""
    return {described["name"]: described for described in ogames.games()}


def registry_variants() -> list[tuple[str, str | None]]:
    """Every (game, variant) the library offers; a game without variants counts as one, (game, None)."""
    return [(name, variant) for name, described in registry().items() for variant in described["variants"] or [None]]


def variants_of(game: str) -> list[str]:
    """The variants the registry lists for a game (none for most games)."""
    return list(registry()[game]["variants"])


def variant_of(game: str, options: dict[str, Any]) -> str | None:
    """The variant a game loaded with these options plays: the one given, else the registry's default."""
    if not registry()[game]["variants"]:
        return None
    default = next(option["default"] for option in registry()[game]["options"] if option["name"] == "variant")
    return options.get("variant", default)


def first_of_each(key: Callable[[Case], Hashable]) -> list[Case]:
    """The first case of each distinct `key(case)`, in the cases' order."""
    seen: dict[Hashable, Case] = {}
    for case in CASES:
        seen.setdefault(key(case), case)
    return list(seen.values())


# A representative case of each game, and of each variant (and of each dynamics within a variant:
# Omiga's kids in real time and in turns): for tests whose cost grows with every case but whose
# subject does not change with a game's other options (pie, komi, board size).
def mode_of(game: Game) -> tuple[str, str | None, str]:
    """What a game is played as: its name, its variant (if it has variants) and its dynamics."""
    return game.name, game.options.get("variant"), game.dynamics


GAME_CASES = first_of_each(lambda case: case.game)
VARIANT_CASES = first_of_each(lambda case: mode_of(case.load()))


def modes_of(game: str) -> set[tuple[str, str | None, str]]:
    """Every way the registry's cases play a game (see `mode_of`): what a test with its own
    hand-picked options for each mode must cover."""
    return {mode_of(case.load()) for case in VARIANT_CASES if case.game == game}


def ids(cases: list[Case]) -> list[str]:
    return [case.id for case in cases]


# ----- playing ---------------------------------------------------------------------------------------


def board_of(state: State) -> Board:
    """The board a state is played on (Omiga's lies under its table of cards)."""
    board = getattr(state, "board", None)
    return board if board is not None else state.table.board  # type: ignore[attr-defined]


def resign_move(state: State) -> str:
    """The move that resigns for the player to move (in real time, for the first actor)."""
    return "resign" if state.to_move else f"{state.actors[0]}: resign"  # type: ignore[attr-defined]


def play_random(state: State, rng: random.Random, limit: int = 5000) -> State:
    """Uniformly random legal moves until the game ends (or `limit` moves, which fails the caller)."""
    for _ in range(limit):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    return state


def near_misses(state: State, rng: random.Random, count: int = 200) -> list[str]:
    """Canonical moves of the game's own vocabulary, most of them illegal here: the suite checks
    that `play` accepts exactly those that `legal_moves()` lists."""
    labels = _labels(state)
    words: list[str] = []
    if state.game.played_on == TABLE:  # Omiga's actions
        colours = list(state.game.colours)
        if state.game.dynamics == REAL_TIME:
            for actor in state.actors:  # type: ignore[attr-defined]
                designs = [*state.hands[actor], rng.randrange(len(state.table.card_set))]  # type: ignore[attr-defined]
                words += [f"{actor}: discard"]
                words += [f"{actor}: place {d} {label}{t}" for d in designs for label in labels for t in ("", " turned")]
        elif state.game.options["variant"] == "zen":
            words += [f"{verb} {c}{t}" for verb in ("start", "draw") for c in colours for t in ("", " turned")]
            words += [f"place {i} {label}{t}" for i in (1, 2, 3) for label in labels for t in ("", " turned")]
            words += ["end"]
        else:
            words += ["discard"] + [f"place {label}{t}" for label in labels for t in ("", " turned")]
    else:
        words += [*labels, "swap", "pass"]
        words += [f"swap {c}" for c in state.game.colours]
        words += [f"komi={k / 2:g}" for k in range(0, 8)]
    rng.shuffle(words)
    return words[:count]


def _labels(state: State) -> list[str]:
    return list(board_of(state).labels)


def fingerprint(state: State) -> bytes:
    """Every mutable value of a state, as bytes: equal fingerprints mean equal states.

    Immutable shared parts (the game, boards, card sets) are left out, and so are private
    attributes (`_name`): by the project's convention those are scratch buffers and caches, whose
    contents carry no state. Arrays count by dtype, shape and contents; other objects by their
    attributes, recursively.
    """
    out: list[str] = []
    shared = {id(value) for value in vars(state.game).values()}  # the game's immutable parts
    _walk(state, out, shared)
    return "\n".join(out).encode()


def _walk(value: Any, out: list[str], seen: set[int]) -> None:
    from ogames.rules.omiga.cards import CardSet

    if isinstance(value, (Game, Board, CardSet)) or (callable(value) and not hasattr(value, "__dict__")) or id(value) in seen:
        out.append(type(value).__name__)
        return
    if isinstance(value, np.ndarray):
        out.append(f"array {value.dtype} {value.shape} {value.tobytes().hex()}")
    elif isinstance(value, np.generic):
        out.append(f"{type(value).__name__} {value!r}")
    elif isinstance(value, dict):
        out.append(f"dict {len(value)}")
        for key in sorted(value, key=repr):
            out.append(repr(key))
            _walk(value[key], out, seen)
    elif isinstance(value, (list, tuple)):
        out.append(f"{type(value).__name__} {len(value)}")
        for item in value:
            _walk(item, out, seen)
    elif isinstance(value, (set, frozenset)):
        out.append(f"set {sorted(map(repr, value))}")
    elif isinstance(value, random.Random):
        out.append(f"rng {value.getstate()!r}")
    elif hasattr(value, "__dict__") or hasattr(value, "__slots__"):
        seen.add(id(value))
        out.append(type(value).__name__)
        attrs = dict(vars(value)) if hasattr(value, "__dict__") else {}
        for slot in getattr(type(value), "__slots__", ()):
            if hasattr(value, slot):
                attrs[slot] = getattr(value, slot)
        for key in sorted(attrs):
            if key.startswith("_"):
                continue
            out.append(key)
            _walk(attrs[key], out, seen)
    else:
        out.append(repr(value))
