"""An opening explorer: from a position, the moves played next, how often and with what results.

    tree = Tree.of("omny", {"variant": "y", "size": 5})
    tree.add_record(record)                         # a finished game's record (others are skipped)
    tree.add_line(["c2", "b2", "b3"], "black")      # or a line of decisions and the winning colour
    state = position(tree.game, ["c2"])             # the position after these moves (IllegalMove if not)
    for row in next_moves(state, ["c2"], [tree]): # Row(move, games, wins by colour, score for the mover, verdict)

A tree is one game with one set of settled options (a board): records of other boards are not added.
A move is a *decision* (as `ogames.arena.selfplay.decisions` reads a record): a cell, `swap`, one stone of an Omega
turn; so an Omega turn of two stones is two steps here, as its players choose them.

Transpositions. Positions are keyed by what is on the board, not the order the moves came in, where
the rules' state makes that cheap: for the stone games (Omny, Odd-Y, Onyx) the stones, the colour to
move, the placements so far and whether a swap happened (Omny's komi when chosen). Two lines that
reach the same stones share their statistics. Omega's state carries more (its turn's stone index, a
match's game number, the pie seats), so its positions are keyed by their line of moves.

Verdicts. `Verdicts` holds proofs made beforehand by the connection solver (tools/make_book.py
writes them into the shipped book): for a position, each move's value for the player who makes it,
"win" or "loss". Nothing is solved at request time.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import ogames
from ogames.errors import BadOption, BadRecord, IllegalMove, shown
from ogames.rules import REAL_TIME, Game, State
from ogames.rules.omny import OmnyState
from ogames.rules.stones import StoneState
from ogames.wording import say

BOOK = Path(__file__).with_name("data") / "book.json"
MAX_PATH = 200  # moves in a position asked for (longer than any small board's game)
DRAW = "draw"


def position_key(state: State, path: Sequence[str]) -> str:
    """What a position is, as text: the board's contents for the stone games (so transpositions
    meet), else the moves that led to it."""
    if isinstance(state, StoneState):
        komi = state.twice_komi if isinstance(state, OmnyState) else None
        return f"{state.stones.tobytes().hex()}|{state.turn}|{state.placements}|{int(state.swapped)}|{komi}"
    return "line|" + ",".join(path)


def board_key(game: Game) -> str:
    """One board: a game and its settled options, as canonical JSON."""
    return json.dumps([game.name, game.jsonable_options()], sort_keys=True, separators=(",", ":"))


@dataclass
class Stats:
    """The games that made one move from one position: how many, and who won them."""

    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)  # colour (or "draw") → games

    def add(self, winner: str | None) -> None:
        self.games += 1
        if winner is not None:
            self.wins[winner] = self.wins.get(winner, 0) + 1

    def score(self, colour: str) -> float:
        """The share of these games `colour` scored (a draw half), from 0 to 1."""
        if not self.games:
            return 0.0
        return (self.wins.get(colour, 0) + 0.5 * self.wins.get(DRAW, 0)) / self.games


@dataclass(frozen=True)
class Row:
    """One move from a position, as the explorer shows it."""

    move: str
    games: int
    wins: dict[str, int]
    score: float  # the mover's score with this move, 0 to 1
    verdict: str | None  # "win" / "loss" for the mover, proven; None: not proven

    def jsonable(self) -> dict[str, Any]:
        return {"move": self.move, "games": self.games, "wins": dict(self.wins), "score": round(self.score, 4),
                "verdict": self.verdict}


class Tree:
    """The moves played from each position of one board, with their results."""

    def __init__(self, game: Game):
        if game.dynamics == REAL_TIME:
            raise BadOption(say("explorer-real-time", "{game} is played in real time: the explorer shows turn-based games",
                                game=game.title))
        self.game = game
        self.key = board_key(game)
        self.nodes: dict[str, dict[str, Stats]] = {}
        self.lines = 0  # games added

    @classmethod
    def of(cls, name: str, options: dict[str, Any] | None = None) -> Tree:
        """An empty tree of a game and its options (BadOption if they are not valid)."""
        return cls(ogames.load(name, **dict(options or {})))

    # ----- adding games ------------------------------------------------------------------------

    def add_line(self, line: Sequence[str], winner: str | None) -> None:
        """A game as its decisions and the winning colour (or "draw", or None when unknown);
        IllegalMove if the line is not one the rules allow (nothing is then added)."""
        state, steps = self.game.new_state(), list[tuple[str, str]]()
        for move in line:
            steps.append((position_key(state, line[: len(steps)]), move))
            state.play(move)
        self._count(steps, winner)

    def add_record(self, record: dict[str, Any]) -> bool:
        """A finished game's record, if it is of this board and the rules accept it; whether it was added."""
        steps = self.steps_of(record)
        if steps is None:
            return False
        self._count(steps, record["result"].get("winner"))
        return True

    def steps_of(self, record: dict[str, Any]) -> list[tuple[str, str]] | None:
        """A finished game's decisions, each with the key of the position it was made from, if the
        record is of this board and the rules accept it (else None): what `add_record` counts."""
        if not isinstance(record, dict) or not isinstance(record.get("result"), dict):
            return None
        if not isinstance(record.get("options"), dict):
            return None
        # A record's options are written as the rules settle them (records.py checks it), so the
        # board is known without loading the game.
        if json.dumps([record.get("game"), record["options"]], sort_keys=True, separators=(",", ":")) != self.key:
            return None
        try:
            ogames.replay(record)  # whole: every move, the seats, the result
            state, steps, path = self.game.new_state(), list[tuple[str, str]](), list[str]()
            for entry in record["moves"]:
                if entry["move"] == "resign":
                    break
                for move in self._decisions(entry["move"]):
                    steps.append((position_key(state, path), move))
                    path.append(move)
                    state.play(move)
        except (BadRecord, BadOption, IllegalMove, TypeError, KeyError):
            return None
        return steps

    def _decisions(self, move: str) -> list[str]:
        """The decisions a recorded move is made of (as `ogames.arena.selfplay.decisions` reads
        them): the move itself when it is one action, else one per word (an Omega turn, a stone each)."""
        try:
            self.game.actions.move_to_action(move)
        except IllegalMove:
            return move.split()
        return [move]

    def _count(self, steps: Iterable[tuple[str, str]], winner: str | None) -> None:
        for key, move in steps:
            self.nodes.setdefault(key, {}).setdefault(move, Stats()).add(winner)
        self.lines += 1

    # ----- reading ------------------------------------------------------------------------------

    def moves_at(self, position: str) -> Mapping[str, Stats]:
        """The moves played from a position (by its `position_key`), with their games."""
        return self.nodes.get(position, {})


class Counts(Protocol):
    """Games counted by position on one board: a `Tree`, or the site's index (web/explore/site.py)."""

    @property
    def key(self) -> str: ...  # the board's `board_key`

    def moves_at(self, position: str) -> Mapping[str, Stats]: ...


def position(game: Game, path: Sequence[str]) -> State:
    """The position after `path` on a board; IllegalMove naming the first move the rules refuse."""
    if len(path) > MAX_PATH:
        raise IllegalMove(shown(path[MAX_PATH]), say("explorer-too-long", "a line of at most {n} moves", n=MAX_PATH))
    state = game.new_state()
    for move in path:
        state.play(move)
    return state


def next_moves(state: State, path: Sequence[str], trees: Sequence[Counts], verdicts: Verdicts | None = None,
               unplayed: bool = True) -> list[Row]:
    """The moves played from a position in some trees (or other counts of its board), their games
    added up, most played first (then by score), with each proven verdict; a move proven but never
    played is listed too, with no games (unless `unplayed` is False)."""
    board, key, colour = board_key(state.game), position_key(state, path), state.to_move
    played: dict[str, Stats] = {}
    for tree in trees:
        if tree.key != board:
            raise BadOption("a tree of another board")
        for move, stats in tree.moves_at(key).items():
            total = played.setdefault(move, Stats())
            total.games += stats.games
            for winner, count in stats.wins.items():
                total.wins[winner] = total.wins.get(winner, 0) + count
    proven = verdicts.at(board, key) if verdicts else {}
    rows = [Row(move, stats.games, dict(stats.wins), stats.score(colour) if colour else 0.0, proven.get(move))
            for move, stats in played.items()]
    if unplayed:
        rows += [Row(move, 0, {}, 0.0, verdict) for move, verdict in proven.items() if move not in played]
    return sorted(rows, key=lambda row: (-row.games, -row.score, row.verdict != "win", row.move))


class Verdicts:
    """Proven values of moves: board → position → move → "win"/"loss" for the player who makes it."""

    def __init__(self, table: dict[str, dict[str, dict[str, str]]] | None = None):
        self.table = table or {}

    def at(self, board: str, position: str) -> dict[str, str]:
        return self.table.get(board, {}).get(position, {})

    def put(self, board: str, position: str, move: str, verdict: str) -> None:
        self.table.setdefault(board, {}).setdefault(position, {})[move] = verdict


@dataclass(frozen=True)
class Book:
    """The shipped self-play book: a tree per board, and the solver's verdicts."""

    trees: dict[str, Tree]
    verdicts: Verdicts

    def tree(self, game: Game) -> Tree:
        """The book's tree of this board (an empty one if the book has none)."""
        return self.trees.get(board_key(game)) or Tree(game)


def read_book(path: Path) -> Book:
    """A book file: {"boards": [{"game", "options", "lines": [[moves…, winner]…]}], "verdicts": {…}}
    (tools/make_book.py writes it); a line the rules refuse is skipped."""
    data = json.loads(path.read_text(encoding="utf-8"))
    trees = {}
    for board in data.get("boards", []):
        tree = Tree.of(board["game"], board["options"])
        for *line, winner in board["lines"]:
            try:
                tree.add_line(line, winner)
            except IllegalMove:
                continue
        trees[tree.key] = tree
    return Book(trees, Verdicts(data.get("verdicts", {})))


@lru_cache(maxsize=1)
def shipped_book() -> Book:
    """The book shipped with ogames (read once)."""
    return read_book(BOOK) if BOOK.exists() else Book({}, Verdicts())


__all__ = ["BOOK", "Book", "Counts", "Row", "Stats", "Tree", "Verdicts", "board_key", "next_moves", "position", "position_key",
           "read_book", "shipped_book"]
