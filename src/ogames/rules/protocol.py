"""The game protocol: what every game offers, so that records, players and faces treat games alike.

A `Game` is a rule set with its options settled (immutable); a `State` is one position of one
play of it (mutable: `play`, `undo`). Game modules implement the abstract parts; everything a
face needs (whose turn, who sits where, the result, the record) is common and lives here.

Board games (Omny, Odd-Y, Omega, Onyx) offer the faces one more, typed contract: `BoardState`
(the board, the stones, the winning cells and `facts()`, what the position shows beside its
stones: `BoardFacts` or a game's own extension of it). Faces read a board game's position through
it, never by probing a state for attributes.
"""

from __future__ import annotations

import copy
import math
import numbers
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, is_dataclass
from dataclasses import fields as fields_of
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, ParamSpec, Protocol, Self, TypeAlias, TypeVar, runtime_checkable

from typing_extensions import TypeIs

from ogames.errors import BadOption, IllegalMove, shown
from ogames.rules.options import OptionSet, jsonable
from ogames.wording import Said, say

if TYPE_CHECKING:  # (only for types: `import ogames` stays free of numpy)
    import numpy as np
    import numpy.typing as npt

    from ogames.boards.graph import Board

    Stones: TypeAlias = npt.NDArray[np.int8]

TURN_BASED = "turn-based"
REAL_TIME = "real-time"
# What a game is played on (`Game.played_on`): stones on a board's cells, or cards on a card table.
BOARD = "board"
TABLE = "table"
# The goal the connection solver proves (`Game.connection_goal`): a group whose largest region holds
# few enough stars (Omny), or a group touching enough sides (Odd-Y).
REGIONS = "regions"
SIDES = "sides"
# The record format `State.record()` writes and `ogames.records` reads back (layer 3 above the rules,
# so the writing is here and the rules never import it).
RECORD_FORMAT = "ogames-record"
RECORD_VERSION = 1

MAX_MOVE = 200  # characters of a move's text (the longest real ones, Omega turns and Omiga actions, are ~30)
# Times are seconds: since the epoch (the default, time.time()) or since the start of a real-time
# game. Later than this (the year 5138) is a mistake, not a time.
MAX_TIME = 1e11

_Params = ParamSpec("_Params")
_Out = TypeVar("_Out")


@dataclass(frozen=True)
class Result:
    """How a game ended: the winning colour (or "draw") and why."""

    winner: str
    reason: str

    def describe(self) -> str:
        """A short sentence for people."""
        if self.winner == "draw":
            return say("drawn", "drawn ({reason})", reason=self.reason)
        return say("won", "{winner} won ({reason})", winner=self.winner, reason=self.reason)


class ActionCodec(Protocol):
    """A settled game's integer action space: one move-code layout (cells, then the specials) that
    the search, the RL adapters and self-play share. `rules/actions.py`'s `ActionSpace` is it."""

    @property
    def num_actions(self) -> int: ...

    @property
    def specials(self) -> tuple[str, ...]: ...

    def move_to_action(self, move: str) -> int: ...

    def action_to_move(self, action: int) -> str: ...

    def legal_actions(self, state: State) -> list[int]: ...


class Game(ABC):
    """A game with its options settled. Subclasses declare name, options and colours."""

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    option_set: ClassVar[OptionSet]
    variants: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **options: Any):
        self.options: dict[str, Any] = self.settle(self.option_set.parse(self.name, options))

    def settle(self, options: dict[str, Any]) -> dict[str, Any]:
        """Check options against each other and fill variant-dependent values (override)."""
        return options

    @property
    @abstractmethod
    def colours(self) -> tuple[str, ...]:
        """The colours in play, in turn order; seat i starts with colour i."""

    # ----- what kind of game this is (OpenSpiel's GameType, in brief) ------------------------
    # Facts every play of the game shares, declared by the game so that the faces, the solvers and
    # the adapters read them instead of asking which game it is.
    played_on: ClassVar[str] = BOARD
    """BOARD (stones on a board's cells: a `BoardGame`) or TABLE (cards on a card table)."""
    min_players: ClassVar[int] = 2
    """The fewest seats any options give (OpenSpiel's min_num_players)."""
    max_players: ClassVar[int] = 2
    """The most seats any options give (OpenSpiel's max_num_players)."""
    most_colours: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Options under which the game has the most colours (none: every play has the default ones)."""
    numbered_sides: ClassVar[bool] = False
    """Whether a drawing of the board numbers its sides (a win is told by the sides a group touches)."""
    connection_goal: ClassVar[str | None] = None
    """What a win connects, for the connection solver: REGIONS, SIDES, or None (a game it does not play)."""
    sgf: ClassVar[bool] = False
    """Whether a play on a hex board can be written as SGF (HexGui's Hex files: two colours, stones)."""

    @property
    def dynamics(self) -> str:
        """TURN_BASED (one mover at a time, `play`) or REAL_TIME (everyone acts at once on a clock)."""
        return TURN_BASED

    @property
    def seat_count(self) -> int:
        """How many players sit at the game (seat i starts with colour i; may differ from the colours)."""
        return len(self.colours)

    @property
    def hidden_information(self) -> bool:
        """Whether a player cannot see everything that decides the game (e.g. the order of a deck)."""
        return False

    @abstractmethod
    def new_state(self, players: Sequence[str] | None = None) -> State:
        """The starting position, with the players' names by seat (seat 0 moves first)."""

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """Name, title, variants and options, JSON-ready."""
        return {
            "name": cls.name,
            "title": cls.title,
            "summary": cls.summary,
            "variants": list(cls.variants),
            "options": cls.option_set.describe(),
        }

    def jsonable_options(self) -> dict[str, Any]:
        """The settled options as JSON values (what records store)."""
        return {k: jsonable(v) for k, v in self.options.items()}

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<{self.title}: {shown}>"

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # Settled games never change: copies of states share theirs.
        return self

    @property
    def max_game_length(self) -> int | None:
        """The most actions (`actions`) one play can take (OpenSpiel's max_game_length); None for a
        game without an integer action space."""
        return None

    @property
    def actions(self) -> ActionCodec:
        """The integer action space (`rules/actions.py`): the board games declare one; BadOption here."""
        raise BadOption(f"{self.name} has no integer action space: only the board games have one")

    @staticmethod
    def fail(message: str) -> BadOption:
        """A BadOption to raise from settle()."""
        return BadOption(message)


class State(ABC):
    """One position. Game modules implement the abstract members; the rest is shared."""

    def __init__(self, game: Game, players: Sequence[str] | None = None, seats: int | None = None):
        self.game = game
        count = len(game.colours) if seats is None else seats
        names = [f"player {i + 1}" for i in range(count)] if players is None else [str(p) for p in players]
        if len(names) != count:
            raise BadOption(f"{game.name} needs {count} player names, not {len(names)}")
        self.players: list[str] = names
        # Which seat owns each colour now; the pie rule changes this, never the stones.
        self.owner: dict[str, int] = {colour: i % count for i, colour in enumerate(game.colours)}
        self.history: list[dict[str, Any]] = []
        self.result: Result | None = None

    # Fields that moves change in place: `clone()` and undo points give each copy its own
    # `.copy()` of every `mutable_fields` entry (numpy arrays, lists, dicts, sets, or anything with
    # a `copy()` of its own that is independent), and of every `nested_fields` entry (a dict whose
    # values change in place) a new dict of the values' own `.copy()`. All other fields are shared
    # between copies, so they must be immutable or only ever replaced, never changed in place. A
    # class lists only its own fields; its bases' are added. A state class that declares none (nor
    # do its bases below State) has every field deep-copied.
    mutable_fields: ClassVar[tuple[str, ...]] = ("players", "owner")
    nested_fields: ClassVar[tuple[str, ...]] = ()
    _shallow: ClassVar[tuple[str, ...]] = ("players", "owner")
    _nested: ClassVar[tuple[str, ...]] = ()
    _declared: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        shallow: dict[str, None] = {}
        nested: dict[str, None] = {}
        for klass in reversed(cls.__mro__):
            shallow.update(dict.fromkeys(klass.__dict__.get("mutable_fields", ())))
            nested.update(dict.fromkeys(klass.__dict__.get("nested_fields", ())))
        cls._shallow = tuple(name for name in shallow if name not in nested)
        cls._nested = tuple(nested)
        cls._declared = any(
            "mutable_fields" in klass.__dict__ or "nested_fields" in klass.__dict__ for klass in cls.__mro__ if klass is not State
        )

    # ----- what each game implements -------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[str]:
        """Every move the player to move may make now (without "resign", always allowed)."""

    @property
    @abstractmethod
    def to_move(self) -> str | None:
        """The colour whose stone (or card) is placed next; None once the game is over."""

    @abstractmethod
    def stone_at(self, label: str) -> str | None:
        """The colour on a cell, or None if it is empty."""

    @abstractmethod
    def apply(self, move: str) -> dict[str, Any]:
        """Check and make one move (already lower-cased, not "resign"); return its record entry
        without "by" and "t": at least {"move": canonical}. Raise IllegalMove and change
        nothing if the move is not allowed."""

    # ----- shared behaviour ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    @property
    def winner(self) -> str | None:
        """The winning colour, "draw", or None while the game goes on."""
        return self.result.winner if self.result else None

    @property
    def scores(self) -> dict[str, Any] | None:
        """Per-colour scores where the game has them (Omega); None otherwise."""
        return None

    @property
    def seats(self) -> dict[str, str]:
        """Who owns each colour now (after any swap), by player name."""
        return {colour: self.players[seat] for colour, seat in self.owner.items()}

    @property
    def mover(self) -> int | None:
        """The seat that decides the next move (the owner of the colour to move, unless a game
        says otherwise: in Omega one player places every colour's stone in a turn)."""
        colour = self.to_move
        return None if colour is None else self.owner[colour]

    def rewards(self) -> list[float]:
        """Per seat: 1 for the winner, 0 for the others, shared equally on a draw (for AI search)."""
        count = len(self.players)
        if self.result is None:
            raise ValueError("the game is not over")
        if self.result.winner == "draw":
            return [1.0 / count] * count
        winner = self.owner[self.result.winner]
        return [1.0 if seat == winner else 0.0 for seat in range(count)]

    def random_playout(self, rng: random.Random) -> list[float]:
        """Rewards per seat after playing uniformly random moves to the end, from a copy of this
        state (games override this with a compiled kernel; AI search calls it many times)."""
        state = self.clone()
        while state.result is None:
            state.play(rng.choice(state.legal_moves()), t=0.0)
        return state.rewards()

    @property
    def ply(self) -> int:
        """Number of moves made."""
        return len(self.history)

    def play(self, move: str, *, t: float | None = None) -> Self:
        """Make a move for the colour to move; IllegalMove (nothing changed) if it is not allowed.

        `t` is when the move was made (seconds; default: now). Everything is checked before
        anything changes: the move's text, the time, then the rules.
        """
        key = check_move_text(move)
        stamp = _stamp(t, move)
        if self.result is not None:
            raise IllegalMove(move, say("game-over", "the game is over: {result}", result=self.result.describe()))
        if key == "resign":
            return self.resign(self.to_move, t=stamp)
        by = self.to_move
        entry = self.apply(key)
        self.history.append({**entry, "by": by, "t": stamp})
        return self

    def resign(self, colour: str | None = None, *, t: float | None = None) -> Self:
        """The owner of a colour (default: the one to move) gives up."""
        colour = self.to_move if colour is None else colour
        stamp = _stamp(t, "resign")
        if self.result is not None:
            raise IllegalMove("resign", say("game-over", "the game is over: {result}", result=self.result.describe()))
        if not isinstance(colour, str) or colour not in self.game.colours:
            raise IllegalMove("resign", say("not-a-colour", "{colour} is not a colour in this game ({colours})",
                                            colour=shown(colour), colours=list(self.game.colours)))
        result = self.resign_result(colour)
        self.result = result
        self.history.append({"move": "resign", "by": colour, "t": stamp})
        return self

    def resign_result(self, colour: str) -> Result:
        """The result when a colour resigns: in two-colour games the other one wins (override for more)."""
        others = [c for c in self.game.colours if c != colour]
        if len(others) != 1:
            raise NotImplementedError("games with more than two colours decide what resigning means")
        return Result(others[0], say("resigned", "{colour} resigned", colour=colour))

    def undo(self) -> State:
        """Take back the last move: restore the fields kept just before it (see `keeping_undo`), or
        rebuild the position by replaying the earlier moves when none were kept."""
        history = self.history
        if not history:
            raise IllegalMove("undo", say("nothing-to-undo", "there is no move to take back"))
        points: list[_UndoPoint] | None = self.__dict__.get("_undo_points")
        point = points[-1] if points else None
        if points is None or point is None or point.after is not history[-1] or len(history) not in (point.ply, point.ply + 1):
            return self.undo_by_replay()
        points.pop()
        del history[point.ply :]
        if point.last is not None:
            history[point.ply - 1] = point.last  # Omega rewrites its last entry within a turn
        fields = self._copy_fields(point.fields)  # the point may be shared with clones: keep it intact
        fields["history"], fields["_undo_points"] = history, points
        self.__dict__.clear()
        self.__dict__.update(fields)
        return self

    def undo_by_replay(self) -> State:
        """Take back the last move by replaying all earlier ones on a new state (the plain
        reference for `undo`, and its fallback)."""
        if not self.history:
            raise IllegalMove("undo", say("nothing-to-undo", "there is no move to take back"))
        return self._become_replayed(self.history[:-1])

    def _become_replayed(self, entries: list[dict[str, Any]]) -> Self:
        """Become a new state that made the recorded `entries` again (`replay_entry`): in place,
        so that references to this state stay valid."""
        fresh = self.game.new_state(self.players)
        for entry in entries:
            fresh.replay_entry(entry)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        return self

    def keeping_undo(self, change: Callable[_Params, _Out], *args: _Params.args, **kwargs: _Params.kwargs) -> _Out:
        """Make a change (a move: `play`, `resign`, a real-time action) so that `undo` can take it
        back without replaying: keep this state's fields as they were before it, if it adds an
        entry to the history (or rewrites the last one). Games wrap their moves in this."""
        history = self.history
        ply = len(history)
        last = history[-1] if history else None
        fields = self._copy_fields(self.__dict__, skip=("history", "_undo_points"))
        out = change(*args, **kwargs)
        history = self.history  # (a move may adopt the fields of a trial copy: Omega's several placements)
        if history and (len(history) != ply or history[-1] is not last):
            points = self.__dict__.setdefault("_undo_points", [])
            if not points or points[-1].after is not history[-1]:  # not kept already by a nested call
                points.append(_UndoPoint(ply, last, history[-1], fields))
        return out

    def replay_entry(self, entry: dict[str, Any]) -> None:
        """Make one recorded move again, checking that it is the move the record says it was:
        the same mover, the same canonical move and the same details (a winning group, captures,
        a card), none missing and none extra. IllegalMove (nothing changed) if it is not."""
        move, by = entry["move"], entry["by"]
        if move == "resign":
            self.resign(by, t=entry.get("t"))
            return
        if by != self.to_move:
            who = by if isinstance(by, str) and len(by) <= 40 else shown(by)
            raise IllegalMove(move, say("record-wrong-mover", "the record says {who} moved, but it was {colour}'s turn",
                                        who=who, colour=self.to_move))
        self.play(move, t=entry.get("t"))
        problem = entry_mismatch(entry, self.history[-1])
        if problem:
            self.undo()  # the rules took the move but wrote it otherwise: take it back (rare, so undo's cost is fine)
            raise IllegalMove(move, problem)

    def record_moves(self) -> list[dict[str, Any]]:
        """The moves as records store them (override to group several placements into one entry)."""
        return [dict(entry) for entry in self.history]

    def record(self) -> dict[str, Any]:
        """The whole game as a JSON-serialisable dict; `ogames.replay` turns it back into a state
        (the format is described, and read, in `ogames.records`)."""
        head = self.record_head()
        return {**{key: value for key, value in head.items() if key != "result"}, "moves": self.record_moves(),
                "result": head["result"]}

    def record_head(self) -> dict[str, Any]:
        """The record without its moves: what `record` writes around them, made in the same time
        however long the game (a server stores it with each move's entry)."""
        result = self.result
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": self.game.jsonable_options(),
            "players": list(self.players),
            "seats": self.seats,
            "result": None if result is None else {"winner": result.winner, "reason": str(result.reason)},
        }

    def clone(self) -> Self:
        """An independent copy: its own copy of each field a move changes in place
        (`mutable_fields`, `nested_fields`), of the history list (whose entries are never changed
        once made) and of the undo points; everything else is shared, the game and its board
        included (they are immutable)."""
        other = object.__new__(type(self))
        fields = self._copy_fields(self.__dict__, skip=("history", "_undo_points"))
        fields["history"] = copy.deepcopy(self.history) if not self._declared else list(self.history)
        if "_undo_points" in self.__dict__:
            fields["_undo_points"] = list(self.__dict__["_undo_points"])
        other.__dict__.update(fields)
        return other

    def _copy_fields(self, fields: dict[str, Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
        """A copy of a field dict with its own copy of every mutable field (`.copy()` for
        `mutable_fields`, a dict of the values' `.copy()` for `nested_fields`); `skip` leaves fields out."""
        out = fields.copy()
        for name in skip:
            out.pop(name, None)
        if not self._declared:
            return copy.deepcopy(out)  # the game and its board copy to themselves
        for name in self._shallow:
            value = out.get(name)
            if value is not None:
                out[name] = value.copy()
        for name in self._nested:
            value = out.get(name)
            if value is not None:
                out[name] = {key: item.copy() for key, item in value.items()}
        return out

    def __repr__(self) -> str:
        status = self.result.describe() if self.result else f"{self.to_move} to move"
        return f"<{self.game.title} state, {self.ply} moves, {status}>"


# ----- the board games' contract ----------------------------------------------------------------
# Omny, Odd-Y, Omega and Onyx: stones on the cells of one board. Their states are `BoardState`s,
# their games `BoardGame`s; faces narrow a `State` with `is_board_state(state)` (the same as
# `isinstance(state, BoardState)`, remembered per class).


@dataclass(frozen=True)
class BoardFacts:
    """What a board game's position shows beside its stones, as the rules work it out: the cells
    to outline as the win (the winning group; Omega: the winner's stones; none while the game goes
    on, after a resignation or on a draw) and the stones the last move removed (Onyx's captures).
    Games with more to show extend it: `OmnyFacts`, `OmegaFacts`, `OnyxFacts`."""

    winning: tuple[str, ...] = ()
    captures: tuple[str, ...] = ()

    def jsonable(self) -> dict[str, Any]:
        """The facts as JSON values by field name (tuples as lists, nested facts as dicts)."""
        return {item.name: _jsonable(getattr(self, item.name)) for item in fields_of(self)}


@dataclass(frozen=True)
class RegionCount:
    """How near one colour is to an Omny win (RULES.md §1). Of each of its groups, take the star
    count of its largest region (the regions of a group are the parts the board falls into
    without the group's cells); `best` is the smallest such count (None without stones), `limit`
    the most a region may hold for the colour to win (⌊S/2 − k⌋ for Black, ⌊S/2 + k⌋ for White),
    `stars` the star cells S. A group wins once its largest region holds at most `limit`."""

    colour: str
    best: int | None
    limit: int
    stars: int


@dataclass(frozen=True)
class OmnyFacts(BoardFacts):
    """Omny's facts: the komi in force (None while Black has yet to choose it) and, per colour in
    colour order, how near it is to the win (none while komi is still to be chosen)."""

    komi: int | float | None = None
    regions: tuple[RegionCount, ...] = ()


@dataclass(frozen=True)
class Placing:
    """Which stone of an Omega turn is placed next: the `index`-th (from 1) of `of`."""

    index: int
    of: int


@dataclass(frozen=True)
class OmegaFacts(BoardFacts):
    """Omega's facts: each colour's group sizes on the board, largest first (a colour scores their
    product), and which stone of the turn is placed next (None once the game is over)."""

    groups: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    placing: Placing | None = None


@dataclass(frozen=True)
class OnyxFacts(BoardFacts):
    """Onyx's facts: how many stones of each colour have been captured so far."""

    captured: Mapping[str, int] = field(default_factory=dict)


@runtime_checkable
class BoardState(Protocol):
    """What every board game's state offers the faces beyond `State`: the board, the stones on it
    (one int8 per cell: 0 empty, k + 1 for the k-th colour of `game.colours`; the faces only read
    them), the last move's captures and the winning cells (both cheap), and the position's facts
    (`facts()`: all of it, and what each game works out beside, which may take a while on a large
    board)."""

    @property
    def board(self) -> Board:
        """The board the stones are on (the same for the whole game)."""
        ...

    @property
    def stones(self) -> Stones:
        """The stone on each cell: 0 empty, k + 1 for the k-th colour (read only)."""
        ...

    @property
    def last_captures(self) -> Sequence[str]:
        """The stones the last move removed (Onyx's captures; none in the other games)."""
        ...

    def winning_cells(self) -> list[str]:
        """The cells to outline as the win, sorted (see `BoardFacts.winning`)."""
        ...

    def facts(self) -> BoardFacts:
        """What the position shows beside its stones (a game's own `BoardFacts` extension)."""
        ...


@runtime_checkable
class BoardGame(Protocol):
    """What every board game offers the faces beyond `Game`: its board and its star cells (Omny's
    stars; none in the other games). Its states are `BoardState`s."""

    @property
    def board(self) -> Board:
        """The board every state of the game is played on."""
        ...

    @property
    def star_cells(self) -> frozenset[int]:
        """The cells marked as stars (empty in games without them)."""
        ...


def is_board_state(state: object) -> TypeIs[BoardState]:
    """Whether a state is a board game's: `isinstance(state, BoardState)`, remembered per class."""
    return conforms(state, BoardState)


def is_board_game(game: object) -> TypeIs[BoardGame]:
    """Whether a game is a board game: `isinstance(game, BoardGame)`, remembered per class."""
    return conforms(game, BoardGame)


_CONFORMING: dict[tuple[type, type], bool] = {}


def conforms(value: object, protocol: type) -> bool:
    """`isinstance(value, protocol)` for a runtime-checkable protocol, remembered per class of
    `value` (the check looks up every member of the protocol each time, which is slow in a hot
    path; the classes here set their members in `__init__`, so one instance answers for all)."""
    key = (type(value), protocol)
    known = _CONFORMING.get(key)
    if known is None:
        known = _CONFORMING[key] = isinstance(value, protocol)
    return known


def _jsonable(value: Any) -> Any:
    """Facts as JSON values: dataclasses and mappings as dicts, tuples as lists."""
    if is_dataclass(value) and not isinstance(value, type):
        return {item.name: _jsonable(getattr(value, item.name)) for item in fields_of(value)}
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_jsonable(item) for item in value]
    return value


def entry_mismatch(entry: dict[str, Any], made: dict[str, Any]) -> str | None:
    """How a recorded entry differs from the one the rules made (the time aside), or None."""
    for key in sorted((set(entry) | set(made)) - {"t"}, key=str):
        if key not in entry:
            return say("record-leaves-out", "the record leaves out {key}={value}, which the rules give",
                       key=key, value=shown(made[key]))
        if key not in made:
            return say("record-adds", "the record says {key}={value}, which the rules do not give",
                       key=key, value=shown(entry[key]))
        if made[key] != entry[key]:
            return say("record-differs", "the record says {key}={value}, the rules give {rules}",
                       key=key, value=shown(entry[key]), rules=shown(made[key]))
    return None


def occupied(cell: str, colour: str) -> Said:
    """Why a stone cannot go on a cell that holds one."""
    return say("occupied", "{cell} is occupied by {colour}", cell=cell, colour=colour)


def check_move_text(move: object) -> str:
    """A move's text, stripped and lower-cased; IllegalMove if it is not text of a sensible length."""
    if not isinstance(move, str):
        raise IllegalMove(move, say("move-not-text", "a move must be text such as a cell label, not {kind}",
                                    kind=type(move).__name__))
    if len(move) > MAX_MOVE:
        raise IllegalMove(move, say("move-too-long", "a move is at most {limit} characters", limit=MAX_MOVE))
    return move.strip().lower()


def check_time(t: object, move: object = None) -> float:
    """A move's time as a float: a finite number of seconds from 0 to MAX_TIME (bool is not a
    number here); IllegalMove naming the move otherwise."""
    if isinstance(t, bool) or not isinstance(t, numbers.Real):
        raise IllegalMove(move, say("time-not-number", "its time t={t} is not a number of seconds", t=shown(t)))
    try:
        value = float(t)
    except (OverflowError, ValueError, TypeError):
        value = math.inf
    if not math.isfinite(value) or not 0 <= value <= MAX_TIME:
        raise IllegalMove(move, say("time-out-of-range", "its time t={t} is not a time: seconds from 0 to {limit} are needed",
                                    t=shown(t), limit=f"{MAX_TIME:.0e}"))
    return value


def _stamp(t: object, move: object = None) -> float:
    """The time a move is recorded with: `t` checked and rounded to milliseconds, or now."""
    return round(time.time() if t is None else check_time(t, move), 3)


class _UndoPoint:
    """What `undo` needs to take back one move: the history's length and last entry before it, the
    entry the move made (to check that the point belongs to the last move), and every other field
    as it was (with its own copies of the mutable ones)."""

    __slots__ = ("after", "fields", "last", "ply")

    def __init__(self, ply: int, last: dict[str, Any] | None, after: dict[str, Any], fields: dict[str, Any]):
        self.ply = ply
        self.last = last
        self.after = after
        self.fields = fields

