"""Omny (RULES.md §1): place stones; win with a group none of whose regions holds more than
half the star cells (minus komi for Black, plus komi for White).

Named variants pick the board and the star cells (sunder, y, gyre, free-y); `custom` takes any
hex patch or cell list and any star set. Komi is an option, or chosen in play with `komi_choice`
(`komi=K` as Black's first action); the pie rule lets White swap seats.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ogames.boards import Board, explicit_cells, hexagon, irregular_hexagon, rhombus, triangle
from ogames.errors import BadOption, IllegalMove, UnknownLabel
from ogames.kernels import omny as kernel
from ogames.kernels import reference
from ogames.kernels.flood import components
from ogames.rules.options import Option, OptionSet
from ogames.rules.protocol import REGIONS, OmnyFacts, RegionCount, Result
from ogames.rules.stones import BLACK, StoneGame, StoneState
from ogames.wording import say

VARIANTS = ("sunder", "y", "gyre", "free-y", "custom")
SHAPES = ("triangle", "hexagon", "rhombus", "irregular")
STAR_WORDS = ("all", "perimeter", "corners", "centre")
DEFAULT_SIZE = {"sunder": 5, "gyre": 5, "y": 7, "hexagon": 5, "rhombus": 5, "triangle": 7}
DEFAULT_SIDES = (5, 6)
MAX_SIZE = 30
# A custom cell list may be a little larger than the largest named board (a hexagon of side 30
# has 2611 cells): a random playout on 3000 cells takes ~60 ms; on 90,000 it took minutes.
MAX_CELLS = 3000
_MAX_CELLS_TEXT = 8 * MAX_CELLS  # characters of a cell list written as text (labels like ab12 and a space)
DEFAULT_CUSTOM_SHAPE = "hexagon"
DEFAULT_CUSTOM_STARS = "all"

_LABELISH = re.compile(r"^[a-z]+[0-9]+$")
_KOMI_MOVE = re.compile(r"^komi\s*=\s*(\S+)$")


@dataclass(frozen=True)
class StarsOption(Option):
    """The `stars` option (of kind text): a `+`-joined set of named cell sets, or a list of cell labels."""

    def _convert(self, value: Any) -> str | tuple[str, ...]:
        if isinstance(value, str):
            words = [w.strip() for w in value.strip().lower().split("+")]
            words = ["centre" if w == "center" else w for w in words]
            if all(w in STAR_WORDS for w in words):
                return "+".join(dict.fromkeys(words))
            labels = value.strip().lower().replace(",", " ").split()
            strange = [w for w in (words if "+" in value else labels) if w not in STAR_WORDS and not _LABELISH.match(w)]
            if strange or not labels:
                raise self._fail(value, f"use {', '.join(STAR_WORDS)}, a +-joined combination, or a list of cell labels")
            return tuple(labels)
        if isinstance(value, Sequence) and value and all(isinstance(v, str) for v in value):
            return tuple(v.strip().lower() for v in value)
        raise self._fail(value, f"use {', '.join(STAR_WORDS)}, a +-joined combination, or a list of cell labels")


OPTIONS = OptionSet(
    (
        Option("variant", "choice", "y", "board and star cells: sunder, y, gyre, free-y or custom", choices=VARIANTS),
        Option(
            "size",
            "int",
            None,
            f"side length, 2 to {MAX_SIZE} (default 5 for sunder, gyre, custom hexagon and rhombus; 7 for y and custom triangle)",
            minimum=2,
            maximum=MAX_SIZE,
            applies_to=("sunder", "y", "gyre", "custom"),
        ),
        Option(
            "sides",
            "ints",
            None,
            f"a,b: side lengths of the irregular hexagon, each 2 to {MAX_SIZE} (free-y, custom irregular; default 5,6)",
            applies_to=("free-y", "custom"),
        ),
        Option("shape", "choice", None, "custom board shape (default hexagon)", choices=SHAPES, applies_to=("custom",)),
        Option(
            "cells",
            "labels",
            None,
            f"custom board: an explicit list of cell labels instead of a shape (2 to {MAX_CELLS} connected cells)",
            max_length=_MAX_CELLS_TEXT,
            max_items=MAX_CELLS,
            applies_to=("custom",),
        ),
        StarsOption(
            "stars",
            "text",
            None,
            "custom star cells: all, perimeter, corners, centre, a +-joined combination, or labels",
            max_length=_MAX_CELLS_TEXT,
            max_items=MAX_CELLS,
            applies_to=("custom",),
        ),
        Option("komi", "half", 0, "komi k: a whole number or plus 0.5, 0 ≤ k ≤ S/2", minimum=0),
        Option("pie", "bool", False, "pie rule: White may swap seats on White's first turn"),
        Option("komi_choice", "bool", False, "Black's first action chooses komi (komi=K); then White may swap"),
    )
)


def format_komi(twice: int) -> str:
    """Komi written without a trailing .0: 3, 3.5."""
    return str(twice // 2) if twice % 2 == 0 else f"{twice // 2}.5"


def komi_value(twice: int) -> int | float:
    """Komi as the option stores it: an int, or a float ending in .5."""
    return twice // 2 if twice % 2 == 0 else twice / 2


class Omny(StoneGame):
    """Omny with its options settled: the board, the star cells and the komi rules."""

    name = "omny"
    title = "Omny"
    summary = "Make a group none of whose regions holds more than half the star cells."
    option_set = OPTIONS
    variants = VARIANTS
    connection_goal = REGIONS
    sgf = True

    board: Board
    star_cells: frozenset[int]
    star_mask: np.ndarray

    def settle(self, options: dict[str, Any]) -> dict[str, Any]:
        """Check the options against the variant, build the board and the star cells, check komi."""
        options = dict(options)
        variant = options["variant"]
        if variant == "custom":
            board, stars = self._custom(options)
        else:
            _refuse(options, variant, allowed={"sides"} if variant == "free-y" else {"size"})
            if variant == "free-y":
                options["sides"] = _sides(options["sides"])
                board = irregular_hexagon(*options["sides"])
                stars = board.cells("perimeter")
                if len(stars) % 2 == 0:
                    a, b = options["sides"]
                    raise BadOption(say("free-y-parity",
                                        "free-y needs an odd number of perimeter (star) cells; sides=({a}, {b}) gives "
                                        "{n}: choose side lengths of different parity", a=a, b=b, n=len(stars)))
            else:
                options["size"] = options["size"] or DEFAULT_SIZE[variant]
                board = triangle(options["size"]) if variant == "y" else hexagon(options["size"])
                stars = {"sunder": board.cells("all"), "y": board.cells("corners"), "gyre": _gyre_stars(board)}[variant]
        total = len(stars)
        komi = options["komi"]
        if options["komi_choice"] and komi != 0:
            raise BadOption(say("komi-with-choice",
                                "komi={komi} cannot be set with komi_choice on: Black chooses komi as the first action",
                                komi=komi))
        if 2 * komi > total:
            raise BadOption(say("komi-too-large",
                                "komi={komi} is too large: it may be at most half the star cells, {most} ({stars} star cells)",
                                komi=komi, most=format_komi(total), stars=total))
        self.board = board
        self.star_cells = frozenset(stars)
        mask = board.mask(stars)
        mask.setflags(write=False)
        self.star_mask = mask
        return options

    def _custom(self, options: dict[str, Any]) -> tuple[Board, frozenset[int]]:
        """The board and star cells of the custom variant (fills the shape's defaults in `options`)."""
        if options["cells"] is not None:
            _refuse(options, "custom", allowed={"cells", "stars"}, why="with an explicit cell list")
            board = _cell_board(options["cells"])
            options["cells"] = tuple(board.labels)
        else:
            shape = options["shape"] = options["shape"] or DEFAULT_CUSTOM_SHAPE
            if shape == "irregular":
                _refuse(options, "custom", allowed={"shape", "sides", "stars"}, why="with shape=irregular")
                options["sides"] = _sides(options["sides"])
                board = irregular_hexagon(*options["sides"])
            else:
                _refuse(options, "custom", allowed={"shape", "size", "stars"}, why=f"with shape={shape}")
                size = options["size"] = options["size"] or DEFAULT_SIZE[shape]
                makers: dict[str, Callable[[int], Board]] = {"triangle": triangle, "hexagon": hexagon, "rhombus": rhombus}
                board = makers[shape](size)
        spec = options["stars"] = options["stars"] or DEFAULT_CUSTOM_STARS
        stars = _resolve_stars(board, spec)
        if isinstance(spec, tuple):
            options["stars"] = tuple(board.labels[c] for c in sorted(stars))
        return board, stars

    @property
    def total_stars(self) -> int:
        """S, the number of star cells."""
        return len(self.star_cells)

    def action_specials(self) -> list[str]:
        """`swap` when the pie or the komi choice may offer it, then every `komi=K` when komi is chosen in play."""
        options = self.options
        out = ["swap"] if options["pie"] or options["komi_choice"] else []
        if options["komi_choice"]:
            out += [f"komi={format_komi(twice)}" for twice in range(self.total_stars + 1)]
        return out

    def action_alias(self, move: str) -> str | None:
        """`komi=K` in any spelling of K the rules accept (1.50, 3/2) as its canonical text."""
        match = _KOMI_MOVE.match(move)
        if match is None:
            return None
        try:
            twice = 2 * Fraction(match.group(1))
        except (ValueError, ZeroDivisionError):
            return None
        if twice.denominator != 1 or not 0 <= twice <= self.total_stars:
            return None
        return f"komi={format_komi(int(twice))}"

    @property
    def max_game_length(self) -> int:
        """Every cell, the komi choice and the swap."""
        return len(self.board) + 2

    @property
    def star_labels(self) -> list[str]:
        """Labels of the star cells, in board order."""
        return [self.board.labels[c] for c in sorted(self.star_cells)]

    def new_state(self, players: Sequence[str] | None = None) -> OmnyState:
        """The empty board, Black (seat 0) to move (or to choose komi)."""
        return OmnyState(self, players)


class OmnyState(StoneState):
    """An Omny position: stones, the komi in force (None until chosen), and the winning group."""

    game: Omny

    def __init__(self, game: Omny, players: Sequence[str] | None = None):
        super().__init__(game, players)
        choosing = bool(game.options["komi_choice"])
        self.twice_komi: int | None = None if choosing else int(2 * Fraction(game.options["komi"]))

    @property
    def komi(self) -> int | float | None:
        """The komi in force (chosen or from the options); None while Black has yet to choose it."""
        return None if self.twice_komi is None else komi_value(self.twice_komi)

    def bound(self, turn: int) -> int:
        """Twice the most stars a region may hold for colour index `turn`: S − 2k (Black), S + 2k (White)."""
        if self.twice_komi is None:
            raise ValueError("komi has not been chosen yet")
        total = self.game.total_stars
        return total - self.twice_komi if turn == 0 else total + self.twice_komi

    # ----- komi choice and pie -----------------------------------------------------------------
    def komi_moves(self) -> list[str]:
        """Every `komi=K` Black may choose: 0, 0.5, … up to S/2."""
        return [f"komi={format_komi(twice)}" for twice in range(self.game.total_stars + 1)]

    def legal_moves(self) -> list[str]:
        if self.result is None and self.twice_komi is None:
            return self.komi_moves()
        return super().legal_moves()

    def pie_available(self) -> bool:
        options = self.game.options
        if self.swapped or self.turn != 1 or self.twice_komi is None or self.result is not None:
            return False
        if options["komi_choice"] and not options["pie"]:
            return self.placements == 0  # White chooses sides right after Black chose komi
        return bool(options["pie"]) and self.placements == 1

    def swap_refusal(self) -> str:
        options = self.game.options
        if not options["pie"] and not options["komi_choice"]:
            return say("pie-off", "the pie rule is off in this game")
        if self.twice_komi is None:
            return say("komi-first", "Black must choose komi first")
        if options["komi_choice"] and not options["pie"]:
            return say("swap-after-komi", "swap is only allowed as White's reply to Black's komi choice")
        return say("swap-first-move", "swap is only allowed as White's first move")

    def apply(self, move: str) -> dict[str, Any]:
        if move.startswith("komi") and not self.board.has(move):
            return self.choose_komi(move)
        if self.twice_komi is None:
            raise IllegalMove(move, say("komi-first-action", "Black's first action is to choose komi: komi=K, K from 0 to {most} "
                                        "in steps of 0.5", most=format_komi(self.game.total_stars)))
        return super().apply(move)

    def choose_komi(self, move: str) -> dict[str, Any]:
        """Black's komi choice (`komi=K`), only as Black's first action when komi_choice is on."""
        options = self.game.options
        if not options["komi_choice"]:
            raise IllegalMove(move, say("komi-fixed", "komi is fixed at {komi} by the game's options: it is not chosen in play",
                                        komi=format_komi(self.twice_komi or 0)))
        if self.twice_komi is not None:
            raise IllegalMove(move, say("komi-chosen", "komi was already chosen: {komi}", komi=format_komi(self.twice_komi)))
        total = self.game.total_stars
        match = _KOMI_MOVE.match(move)
        try:
            exact = Fraction(match.group(1)) if match else None
        except (ValueError, ZeroDivisionError):
            exact = None
        if exact is None or (2 * exact).denominator != 1:
            raise IllegalMove(move, say("komi-form", "write komi as komi=K, K a whole number or a whole number plus 0.5"))
        if not 0 <= 2 * exact <= total:
            raise IllegalMove(move, say("komi-range", "komi is from 0 to half the star cells: {most} ({stars} star cells)",
                                        most=format_komi(total), stars=total))
        self.twice_komi = int(2 * exact)
        if not options["pie"]:
            self.turn = 1  # choosing komi is Black's whole turn; with pie, Black also places a stone
        return {"move": f"komi={format_komi(self.twice_komi)}"}

    # ----- the win test ------------------------------------------------------------------------
    def after_placement(self, cell: int) -> tuple[Result | None, dict[str, Any]]:
        group = np.empty(len(self.board), dtype=np.int32)
        game = self.game
        bound = self.bound(self.turn)
        table = self.board.neighbour_table
        wins, count = kernel.group_wins(self.stones, table, game.star_mask, game.total_stars, cell, bound, group)
        if not wins:
            return None, {}
        labels = sorted(self.board.labels[c] for c in group[:count])
        self.winning_group = labels
        colour = game.colours[self.turn]
        reason = say("omny-win", "{colour} group {group} leaves no region with more than {most} of the {stars} star cells",
                     colour=colour, group=" ".join(labels), most=bound // 2, stars=game.total_stars)
        return Result(colour, reason), {"group": labels}

    def group_satisfies(self, label: str) -> bool:
        """Whether the group on a cell meets its colour's win condition now (plain-Python reference)."""
        cell = self.board.index(label)
        if self.stones[cell] == 0:
            raise UnknownLabel(f"{label!r} holds no stone")
        bound = self.bound(int(self.stones[cell]) - 1)
        return kernel.group_wins_reference(self.stones.tolist(), self.board.neighbours, self.game.star_mask, cell, bound)[0]

    # ----- what the faces show (BoardState) ----------------------------------------------------
    def regions(self) -> tuple[RegionCount, ...]:
        """Per colour, how near it is to the win (see `RegionCount`): of each of its groups the
        star count of the largest region, the fewest of those, and the most a winning group's
        regions may hold. Empty while komi is still to be chosen."""
        if self.twice_komi is None:
            return ()
        game, board = self.game, self.board
        table, stars = board.neighbour_table, game.star_mask.astype(np.int64)
        groups = np.empty(len(board), dtype=np.int32)
        regions = np.empty(len(board), dtype=np.int32)
        out = []
        for turn, colour in enumerate(game.colours):
            best: int | None = None
            for group in range(components(self.stones != turn + 1, table, groups)):
                count = components(groups == group, table, regions)
                inside = regions >= 0
                largest = int(np.bincount(regions[inside], weights=stars[inside], minlength=count).max(initial=0))
                best = largest if best is None else min(best, largest)
            out.append(RegionCount(colour, best, self.bound(turn) // 2, game.total_stars))
        return tuple(out)

    def facts(self) -> OmnyFacts:
        """The winning group, the komi in force and how near each colour is to the win."""
        return OmnyFacts(winning=tuple(self.winning_cells()), komi=self.komi, regions=self.regions())

    # ----- search support ----------------------------------------------------------------------
    def random_playout(self, rng: random.Random) -> list[float]:
        """Rewards per seat after a uniformly random playout, run by the compiled kernel."""
        if self.result is not None:
            return self.rewards()
        state: OmnyState = self
        if self.twice_komi is None:
            # The kernel knows nothing of the komi choice: make it with the generic moves.
            state = self.clone()
            while state.result is None and state.twice_komi is None:
                state.play(rng.choice(state.legal_moves()), t=0.0)
            if state.result is not None:
                return state.rewards()
        owner = dict(state.owner)
        if state.pie_available():
            # Uniform over the legal moves: swap is one choice among the empty cells and itself.
            empty = int(np.count_nonzero(state.stones == 0))
            if rng.randrange(empty + 1) == 0:
                owner[BLACK], owner["white"] = owner["white"], owner[BLACK]
        game = state.game
        winner = kernel.random_playout(
            state.stones,
            state.board.neighbour_table,
            game.star_mask,
            game.total_stars,
            state.turn,
            state.bound(0),
            state.bound(1),
            rng.getrandbits(62),
        )
        if winner < 0:
            raise RuntimeError("an Omny playout ended without a winner (the rules say this cannot happen)")
        seat = owner[game.colours[winner]]
        return [1.0 if s == seat else 0.0 for s in range(len(self.players))]


# ----- option helpers ------------------------------------------------------------------------------


def _refuse(options: dict[str, Any], variant: str, allowed: set[str], why: str = "") -> None:
    """BadOption for a board option that the variant does not use."""
    for name in ("size", "sides", "shape", "cells", "stars"):
        if name not in allowed and options[name] is not None:
            where = f"variant={variant}" + (f" {why}" if why else "")
            raise BadOption(f"option {name}={options[name]!r} does not apply to omny {where}")


def _sides(value: tuple[int, ...] | None) -> tuple[int, int]:
    """The (a, b) side lengths of an irregular hexagon, checked."""
    if value is None:
        return DEFAULT_SIDES
    if len(value) != 2 or not all(2 <= v <= MAX_SIZE for v in value):
        raise BadOption(f"option sides={list(value)!r} is not valid: two side lengths a,b from 2 to {MAX_SIZE} are needed")
    return (value[0], value[1])


def _gyre_stars(board: Board) -> frozenset[int]:
    return board.cells("perimeter") | board.cells("centre")


def _cell_board(labels: tuple[str, ...]) -> Board:
    """A custom board from a cell list: every label valid, none twice, and the cells connected."""
    try:
        board = explicit_cells(labels)
    except (UnknownLabel, ValueError) as exc:
        reason = exc.said if isinstance(exc, UnknownLabel) else str(exc)
        raise BadOption(say("cells-invalid", "option cells is not valid: {reason}", reason=reason)) from None
    if len(board) < 2:
        raise BadOption(say("cells-too-few", "option cells is not valid: a board needs at least two cells"))
    if len(reference.components([False] * len(board), board.neighbours)) != 1:
        raise BadOption(say("cells-not-connected", "option cells is not valid: the cells must form one connected board"))
    return board


def _resolve_stars(board: Board, spec: str | tuple[str, ...]) -> frozenset[int]:
    """The star cells a `stars` value names on a board."""
    if isinstance(spec, str):
        cells: set[int] = set()
        for word in spec.split("+"):
            if word == "centre" and len(board.cells("centre")) != 1:
                raise BadOption(say("stars-no-centre", "option stars={spec} is not valid: this board has no single centre cell",
                                    spec=repr(spec)))
            cells |= board.cells(word)
        if not cells:
            raise BadOption(say("stars-none",
                                "option stars={spec} is not valid: it names no cell of this board", spec=repr(spec)))
        return frozenset(cells)
    found: list[int] = []
    for label in spec:
        try:
            cell = board.index(label)
        except UnknownLabel:
            raise BadOption(say("star-not-a-cell", "option stars is not valid: star {label} is not a cell of this board",
                                label=repr(label))) from None
        if cell in found:
            raise BadOption(say("star-twice", "option stars is not valid: star {label} is named twice", label=repr(label)))
        found.append(cell)
    return frozenset(found)
