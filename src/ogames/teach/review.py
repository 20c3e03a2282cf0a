"""A finished game's review: every move's win chance before and after, its mark, the better move.

    from ogames.teach import review
    result = review(record, budget=1000)       # a record (dict or JSON text) or a replayed state
    for move in result.moves:
        print(move.ply, move.move, move.mark, move.before, move.after, move.best)
    text = json.dumps(result.to_json())        # and Review.from_json(...) back

How it is judged. Each position of the game, from the start to the last, is searched by the
compiled MCTS (`players/mcts`) with `budget` iterations; one player walks the game so that its tree
is kept from one position to the next (what was searched under the move played is reused). A
position's win chance for each seat is the mean reward over all the visits of its search's root
(`CompiledMcts.root_worths`), so that the position before a move and the one after it are valued
alike (the best move's own worth, a maximum over noisy means, leans to the side to move). The
search also gives the best move and the line it expects. In Omny and Odd-Y with two players the
connection solver (`players/solvers/connection.py`) first tries to prove the position within
`prove` positions (its table kept for the whole game): a proof replaces the estimate (a proven win
is a chance of 1, a loss 0) and its winning move is the best one.

A move's `before` is its mover's win chance in the position it was played in, `after` in the
position it made (the result once the game is over); both go through the shipped calibration
(`calibration.py`), and the `loss` (before − after, at least 0) against its thresholds gives the
mark. The best move loses nothing and is "good", and so is any move in a position proven lost; a
move from a proven win to a proven loss is a blunder whatever the figures say. With three or four
players (Omega) every seat's chance is its own column of the search's rewards.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

from ogames.errors import BadOption, CannotPlay, OgamesError, shown
from ogames.players.mcts import CompiledMcts
from ogames.players.mcts.adapter import supports
from ogames.players.solvers.connection import ConnectionSolver, plays, solve
from ogames.records import replay
from ogames.rules.protocol import State
from ogames.teach.calibration import Calibration, calibration

Mark = Literal["good", "inaccuracy", "mistake", "blunder"]
Proven = Literal["win", "loss"]
MARKS: tuple[Mark, ...] = get_args(Mark)
PROVEN: tuple[Proven, ...] = get_args(Proven)

REVIEW_FORMAT = "ogames-review"
REVIEW_VERSION = 1
GAMES = ("omny", "oddy", "omega", "onyx")  # the board games the compiled search plays
DEFAULT_BUDGET = 1000  # search iterations per position (the calibration's: docs/review.md)
DEFAULT_PROVE = 20_000  # connection-solver positions per position (Omny and Odd-Y, two players)
MAX_BUDGET = 1_000_000
MAX_PROVE = 10_000_000
SOLVER_TABLE_BITS = 18  # 2^18 entries, 7 MB, kept for the whole game

Progress = Callable[[int, int], None]


class BadReview(OgamesError, ValueError):
    """A review's JSON that is not one this version writes (`Review.from_json`)."""


@dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game.

    ply: the move's number, from 1. seat: the index of the player who chose it (in Omega one player
    places every colour's stone of a turn), player: that player's name, colour: the colour placed.
    before / after: that player's win chance (calibrated, 0–1) in the position the move was played
    in and in the one it made; None where nothing tells (a position the search could not value).
    loss: max(0, before − after), or 0 for the best move and in a position proven lost. mark:
    "good", "inaccuracy", "mistake" or "blunder" (None when not judged: a resignation). best: the
    move the search (or the solver's proof) prefers, line: the line it expects from there (starting
    with `best`). proven: "win" or "loss" for the mover when the solver proved the position before
    the move. chances: every seat's win chance after the move, seat by seat (the graph's points).
    """

    ply: int
    seat: int
    player: str
    colour: str
    move: str
    before: float | None
    after: float | None
    loss: float | None
    mark: Mark | None
    best: str | None
    line: tuple[str, ...] = ()
    proven: Proven | None = None
    chances: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply, "seat": self.seat, "player": self.player, "colour": self.colour, "move": self.move,
            "before": self.before, "after": self.after, "loss": self.loss, "mark": self.mark, "best": self.best,
            "line": list(self.line), "proven": self.proven, "chances": list(self.chances),
        }

    @classmethod
    def from_json(cls, data: Any) -> MoveReview:
        item = _Reader(data, "move")
        return cls(
            ply=item.integer("ply"), seat=item.integer("seat"), player=item.text("player"), colour=item.text("colour"),
            move=item.text("move"), before=item.chance("before"), after=item.chance("after"), loss=item.chance("loss"),
            mark=cast(Mark | None, item.choice("mark", MARKS)), best=item.text("best", optional=True),
            line=item.texts("line"), proven=cast(Proven | None, item.choice("proven", PROVEN)),
            chances=item.chances("chances"),
        )


@dataclass(frozen=True)
class Review:
    """A reviewed game: its game and options (as the record writes them), the players by seat, the
    winning colour (None: unfinished, "draw"), every seat's win chance at the start (`start`), each
    move's `MoveReview`, and the work done: `budget` search iterations and `prove` solver
    positions per position. `version` is the review format's."""

    game: str
    options: Mapping[str, Any]
    players: tuple[str, ...]
    winner: str | None
    start: tuple[float, ...]
    moves: tuple[MoveReview, ...]
    budget: int
    prove: int = 0
    version: int = REVIEW_VERSION
    seats: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The review as JSON values (`json.dumps` writes it; `from_json` reads it back equal)."""
        return {
            "format": REVIEW_FORMAT, "version": self.version, "game": self.game, "options": dict(self.options),
            "players": list(self.players), "seats": dict(self.seats), "winner": self.winner, "start": list(self.start),
            "budget": self.budget, "prove": self.prove, "moves": [move.to_json() for move in self.moves],
        }

    @classmethod
    def from_json(cls, data: Any) -> Review:
        """A review from `to_json`'s values or their JSON text; BadReview if it is not one."""
        if isinstance(data, (str, bytes, bytearray)):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError) as exc:
                raise BadReview(f"the review is not valid JSON: {type(exc).__name__}") from None
        top = _Reader(data, "review")
        if data.get("format") != REVIEW_FORMAT:
            raise BadReview(f"not an ogames review: format is {shown(data.get('format'))}, expected {REVIEW_FORMAT!r}")
        version = top.integer("version")
        if version != REVIEW_VERSION:
            raise BadReview(f"unsupported review version {version} (this ogames reads version {REVIEW_VERSION})")
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise BadReview("the review's moves must be a list")
        options, seats = data.get("options"), data.get("seats")
        if not isinstance(options, dict) or not isinstance(seats, dict) or not all(isinstance(v, str) for v in seats.values()):
            raise BadReview("the review's options and seats must be objects")
        return cls(
            game=top.text("game"), options=options, players=top.texts("players"), winner=top.text("winner", optional=True),
            start=top.chances("start"), moves=tuple(MoveReview.from_json(move) for move in moves), budget=top.integer("budget"),
            prove=top.integer("prove"), version=version, seats=dict(seats),
        )

    def chances_of(self, seat: int) -> tuple[float, ...]:
        """One seat's win chance at the start and after every move (the graph's line for that seat)."""
        points = [self.start[seat] if self.start else float("nan")]
        points += [move.chances[seat] if move.chances else float("nan") for move in self.moves]
        return tuple(points)


class _Reader:
    """Typed reads of one JSON object of a review, each refusing a wrong value with BadReview."""

    def __init__(self, data: Any, what: str):
        if not isinstance(data, dict):
            raise BadReview(f"a {what} of a review is a JSON object, not {type(data).__name__}")
        self.data, self.what = data, what

    def _get(self, key: str) -> Any:
        if key not in self.data:
            raise BadReview(f"the review's {self.what} lacks {key!r}")
        return self.data[key]

    def integer(self, key: str) -> int:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadReview(f"the review's {self.what} {key} must be a whole number, not {shown(value)}")
        return value

    def text(self, key: str, *, optional: bool = False) -> Any:
        value = self._get(key)
        if not (isinstance(value, str) or (optional and value is None)):
            raise BadReview(f"the review's {self.what} {key} must be text, not {shown(value)}")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self._get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BadReview(f"the review's {self.what} {key} must be a list of texts")
        return tuple(value)

    def chance(self, key: str) -> float | None:
        value = self._get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise BadReview(f"the review's {self.what} {key} must be a chance from 0 to 1, not {shown(value)}")
        return float(value)

    def chances(self, key: str) -> tuple[float, ...]:
        value = self._get(key)
        if not isinstance(value, list):
            raise BadReview(f"the review's {self.what} {key} must be a list of chances")
        return tuple(_Reader({key: v}, self.what).chance(key) or 0.0 for v in value)

    def choice(self, key: str, allowed: Sequence[str]) -> str | None:
        value = self._get(key)
        if value is not None and value not in allowed:
            raise BadReview(f"the review's {self.what} {key} must be one of {', '.join(allowed)} or null, not {shown(value)}")
        return cast(str | None, value)


# ----- reviewing ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """What the review found in one position: every seat's raw win chance (the mean over all the
    search's visits of the position, `CompiledMcts.root_worths`; None where the search did not
    value it), the best move and its line, the solver's proof for the seat to move (`mover`)."""

    chances: tuple[float, ...] | None
    best: str | None = None
    line: tuple[str, ...] = ()
    proven: Proven | None = None
    mover: int | None = None

    def proves_loss_of(self, seat: int) -> bool:
        """Whether the solver proved that `seat` loses from here (two players)."""
        if self.proven is None or self.mover is None:
            return False
        return (self.proven == "loss") == (self.mover == seat)


class Judge:
    """Values the positions of one game in order, keeping the search's tree and the solver's
    table from one position to the next."""

    def __init__(self, state: State, budget: int, prove: int, seed: int):
        self.search = CompiledMcts(iterations=budget, seed=seed)
        two = len(state.players) == 2
        self.prove = prove if two and plays(state.game) else 0
        self.solver = ConnectionSolver(state.game, table_bits=SOLVER_TABLE_BITS) if self.prove else None

    def __call__(self, state: State) -> Judgement:
        if state.is_over:
            return Judgement(tuple(state.rewards()))
        mover = state.mover
        assert mover is not None  # a game that goes on has a player to move
        if self.solver is not None:
            proof = solve(state, self.prove, solver=self.solver)
            if proof.value in PROVEN:
                won = proof.value == "win"
                chances = tuple(float(won == (seat == mover)) for seat in range(len(state.players)))
                if won and proof.move is not None:
                    return Judgement(chances, proof.move, (proof.move,), "win", mover)
                move = self.search.choose(state)  # lost: the search's move resists longest
                line = turns(state, self.search.info().pv or (move,))
                return Judgement(chances, line[0], line, "loss", mover)
        move = self.search.choose(state)
        line = turns(state, self.search.info().pv or (move,))
        return Judgement(self.search.root_worths(mover), line[0], line, None, mover)


def turns(state: State, stones: Sequence[str]) -> tuple[str, ...]:
    """A line of the search as the record writes its moves: the search's moves are single stones,
    and where a turn places several (Omega: one stone of each colour) a record entry holds them all,
    so the line's stones are played on a copy and read back as entries (a last turn the line does
    not finish stays partial). Stops at a stone the rules refuse or at the game's end."""
    copy = state.clone()
    start = len(copy.history)
    for stone in stones:
        if copy.is_over:
            break
        try:
            copy.play(stone, t=0.0)
        except OgamesError:
            break
    return tuple(str(entry["move"]) for entry in copy.history[start:]) or tuple(stones[:1])


def review(
    record_or_replay: Mapping[str, Any] | str | bytes | State,
    *,
    budget: int = DEFAULT_BUDGET,
    prove: int = DEFAULT_PROVE,
    seed: int = 0,
    progress: Progress | None = None,
    calibrated: Calibration | None = None,
) -> Review:
    """Review a game of Omny, Odd-Y, Omega or Onyx: a record (a dict, or its JSON text), or the
    state `ogames.replay` made of it. `budget`: search iterations per position; `prove`: connection
    solver positions per position (Omny and Odd-Y with two players; 0: no proofs). `progress(done,
    total)` is called after each position. BadRecord for a record that is not valid, BadOption for
    a bad budget, CannotPlay for a game the review does not cover."""
    _check_budget("budget", budget, 1, MAX_BUDGET)
    _check_budget("prove", prove, 0, MAX_PROVE)
    record = record_or_replay.record() if isinstance(record_or_replay, State) else record_or_replay
    final = replay(dict(record) if isinstance(record, Mapping) else record)
    record = final.record()
    if final.game.name not in GAMES or not supports(final):
        raise CannotPlay(f"a review covers Omny, Odd-Y, Omega and Onyx, not {final.game.title}")
    entries = record["moves"]
    state = replay(record, upto=0)
    judge = Judge(state, budget, prove, seed)
    cal = calibrated or calibration(final.game.name, len(final.players))
    total = len(entries) + 1
    movers: list[tuple[int, str]] = []
    judged = [judge(state)]
    if progress is not None:
        progress(1, total)
    for number, entry in enumerate(entries, start=1):
        movers.append(_mover(state, entry))
        state.replay_entry(entry)
        judged.append(judge(state))
        if progress is not None:
            progress(number + 1, total)
    seats = len(state.players)
    chances = _filled([j.chances for j in judged], seats)
    moves = tuple(
        _move_review(number, entry, movers[number - 1], state.players, judged[number - 1], judged[number],
                     chances[number - 1], chances[number], cal)
        for number, entry in enumerate(entries, start=1)
    )
    return Review(
        game=final.game.name, options=record["options"], players=tuple(record["players"]), winner=final.winner,
        start=tuple(cal(c) for c in chances[0]), moves=moves, budget=budget, prove=judge.prove,
        seats=dict(record["seats"]),
    )


def _mover(state: State, entry: Mapping[str, Any]) -> tuple[int, str]:
    """The seat that makes the record's next move and its colour: the colour to move, or in Omega,
    where one player places every colour's stone, the colour that player owns."""
    seat = state.mover
    if seat is None:  # pragma: no cover - a record's move is made in a game that goes on
        return 0, str(entry["by"])
    colour = state.to_move
    if colour is None or state.owner.get(colour) != seat:
        colour = next((c for c, owner in state.owner.items() if owner == seat), colour)
    return seat, str(colour if colour is not None else entry["by"])


def _check_budget(name: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadOption(f"{name} must be a whole number from {low} to {high}, not {shown(value)}")


def _filled(found: list[tuple[float, ...] | None], seats: int) -> list[tuple[float, ...]]:
    """Every position's chances, a position the search did not value (a forced move) taking those
    of the position after it, and failing that before it (even chances when none is known)."""
    out: list[tuple[float, ...] | None] = list(found)
    for i in range(len(out) - 2, -1, -1):
        if out[i] is None:
            out[i] = out[i + 1]
    even = tuple(1.0 / seats for _ in range(seats))
    last = even
    for i, chances in enumerate(out):
        if chances is None:
            out[i] = last
        else:
            last = chances
    return [c if c is not None else even for c in out]


def _move_review(
    number: int,
    entry: Mapping[str, Any],
    mover: tuple[int, str],
    players: Sequence[str],
    here: Judgement,
    there: Judgement,
    chances_before: tuple[float, ...],
    chances_after: tuple[float, ...],
    cal: Calibration,
) -> MoveReview:
    seat, colour = mover
    before, after = cal(chances_before[seat]), cal(chances_after[seat])
    loss = max(0.0, before - after)
    move = str(entry["move"])
    mark: Mark | None
    if move == "resign":
        mark = None
    elif here.proven == "win" and there.proves_loss_of(seat):
        mark = "blunder"  # from a proven win to a proven loss
    elif move == here.best or here.proven == "loss":
        # The best move loses nothing, nor does any move where all lose: a fall of the figures
        # after it is the next search seeing further, not the move's fault.
        mark, loss = "good", 0.0
    else:
        mark = cast(Mark, cal.mark(loss))
    return MoveReview(
        ply=number, seat=seat, player=players[seat], colour=colour, move=move, before=before, after=after, loss=loss,
        mark=mark, best=here.best, line=here.line, proven=here.proven, chances=tuple(cal(c) for c in chances_after),
    )
