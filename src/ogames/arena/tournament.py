"""Tournaments: any players on any game, many games at once in worker processes (or Ray tasks:
`ray_runner.py`), resumable.

    t = plan("omny", {"variant": "y", "size": 5}, ["random", "mcts:iterations=200"], games_per_pair=20)
    summary = run(t, "out/y5", workers=2)
    summary.table.ranked()

With `opening_plies` every game starts from random moves, and each opening is played once in every
seat order of its pair (or group), so that a first-move advantage, or an opening that decides the
game, counts the same for both players (the usual way engines are matched). With a `book` the
openings are its lines in turn instead (the same line for every pair in a cycle of rounds), e.g. a
book of openings after which self-play goes either way (`benchmarks/balanced_book.py`).

The folder holds `tournament.json` (the manifest: game, options, entrants, games per pair, seed),
one record per game in `games/` (named by `schedule.Pairing.file_name`), and after the run the
Elo table (`report.py` writes `elo.json`, `elo.csv` and `elo.png`). Running again into the folder
with `resume=True` reads the saved records back (`ogames.replay`), replaces any that are corrupt,
partial or not the scheduled game, and plays only the missing ones; a folder made for a different
tournament is refused, except for one with fewer games per pair: its games are the first rounds of
this one, which goes on with the rest.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Any, Protocol

from ogames.arena import schedule as sched
from ogames.arena.elo import EloTable, elo_table, pairwise_results
from ogames.arena.play import Task, game_seed, load_game, random_opening, real_time_bot, run_task, seat_player, worker_start
from ogames.errors import BadOption, BadRecord, OgamesError, shown
from ogames.records import dumps, load_file, replay
from ogames.rules import REAL_TIME, Game, State, load
from ogames.rules.options import jsonable

MANIFEST = "tournament.json"
GAMES = "games"
FORMAT = "ogames-tournament"
MAX_ENTRANTS = 64


class TournamentError(OgamesError, ValueError):
    """A tournament that cannot start or continue (e.g. its folder holds a different one)."""


@dataclass
class Tournament:
    """A planned tournament: the game, its options as given, the entrants' specs and the schedule."""

    game: str
    options: dict[str, Any]
    entrants: tuple[str, ...]
    games_per_pair: int
    seed: int
    sides: int
    real_time: bool
    settled: dict[str, Any]  # the options as the game states them (defaults filled), for the manifest
    max_time: float = 900.0
    pairings: list[sched.Pairing] = field(default_factory=list)
    # What the games are for: "tournament", or "selfplay" (`selfplay.py`), which its manifest names
    # so that neither command resumes the other's folder.
    purpose: str = "tournament"
    opening_plies: int = 0  # random moves that start every game, each opening played in every seat order
    book: tuple[tuple[str, ...], ...] = ()  # or the openings themselves, in turn

    @property
    def names(self) -> list[str]:
        """The entrants' names in records and tables: their specs, numbered when one comes twice."""
        names = []
        for k, spec in enumerate(self.entrants):
            same = self.entrants[:k].count(spec)
            names.append(spec if not same and self.entrants.count(spec) == 1 else f"{spec} #{same + 1}")
        return names

    def manifest(self) -> dict[str, Any]:
        """What identifies the tournament (stored in tournament.json and compared on resume)."""
        return {
            "format": FORMAT,
            "version": 1,
            "game": self.game,
            "options": self.settled,
            "entrants": list(self.entrants),
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "seats_per_game": self.sides,
            "games": len(self.pairings),
            **({"max_time": self.max_time} if self.real_time else {}),
            **({"purpose": self.purpose} if self.purpose != "tournament" else {}),
            **({"opening_plies": self.opening_plies} if self.opening_plies else {}),
            **({"book": [list(line) for line in self.book]} if self.book else {}),
        }

    @property
    def seat_orders(self) -> int:
        """Rounds in which a pair (group) sits in every seat order once: 2, or sides! at bigger tables."""
        return 2 if self.sides == 2 else math.factorial(self.sides)

    def opening(self, pairing: sched.Pairing) -> tuple[str, ...]:
        """The moves that start a game: none, or the opening its group plays in every seat order
        of its cycle of rounds (the book's line for the cycle, or drawn from the tournament seed,
        the group and the cycle)."""
        if self.book:
            return self.book[pairing.round // self.seat_orders % len(self.book)]
        if not self.opening_plies:
            return ()
        group = "-".join(map(str, sorted(pairing.seating)))
        key = f"ogames-opening:{self.seed}:{group}:{pairing.round // self.seat_orders}"
        seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:6], "big")
        return random_opening(load(self.game, **self.options), self.opening_plies, seed)

    def task(self, pairing: sched.Pairing) -> Task:
        """The task that plays one scheduled game."""
        names = self.names
        return Task(
            pairing.number,
            self.game,
            tuple(self.options.items()),
            tuple(self.entrants[e] for e in pairing.seating),
            tuple(names[e] for e in pairing.seating),
            game_seed(self.seed, pairing.number),
            self.max_time,
            self.opening(pairing),
        )


def plan(
    game: str,
    options: dict[str, Any] | None,
    entrants: Sequence[str],
    games_per_pair: int | None = None,
    seed: int = 0,
    max_time: float = 900.0,
    opening_plies: int = 0,
    book: Sequence[Sequence[str]] = (),
) -> Tournament:
    """Check the game, options and players and schedule the games; BadOption naming what is wrong.
    `opening_plies` > 0 starts every game from that many random moves, a `book` from its openings
    in turn (see the module's note)."""
    options = dict(options or {})
    loaded = load(game, **options)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BadOption(f"the tournament seed is a whole number from 0 to 2^63 − 1, not {shown(seed)}")
    specs = tuple(" ".join(str(s).split()) for s in entrants)
    if not 2 <= len(specs) <= MAX_ENTRANTS:
        raise BadOption(f"a tournament needs 2 to {MAX_ENTRANTS} players, not {len(specs)}")
    real_time = loaded.dynamics == REAL_TIME
    sides = len(loaded.colours) if real_time else loaded.seat_count
    if sides < 2:
        raise BadOption(f"{loaded.title} with these options is played alone ({sides} seat): there is nobody to rate against")
    for spec in specs:  # every spec is built once here, so that a bad one stops the tournament before it starts
        real_time_bot(spec) if real_time else seat_player(spec, spec, 0)
    if games_per_pair is None:
        games_per_pair = sched.default_games_per_pair(sides)
    settled = {k: jsonable(v) for k, v in loaded.option_set.parse(loaded.name, options).items()}
    if real_time and not max_time > 0:
        raise BadOption(f"the simulated time limit of a real-time game must be positive, not {max_time}")
    t = Tournament(loaded.name, options, specs, games_per_pair, seed, sides, real_time, settled, float(max_time))
    t.pairings = sched.schedule(len(specs), sides, games_per_pair)
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, int) or opening_plies < 0:
        raise BadOption(f"openings are a whole number of moves, 0 or more, not {shown(opening_plies)}")
    if opening_plies and book:
        raise BadOption("give random openings or a book of openings, not both")
    if opening_plies or book:
        if real_time:
            raise BadOption(f"{loaded.title} is played in real time: openings are for turn-based games")
        if games_per_pair % t.seat_orders:
            raise BadOption(
                f"with openings the games per pair must be a multiple of {t.seat_orders} "
                f"(each opening is played in every seat order), not {games_per_pair}"
            )
        t.opening_plies = opening_plies
        t.book = tuple(_checked_line(loaded, line, k) for k, line in enumerate(book, 1))
        t.opening(t.pairings[0])  # BadOption now if no opening of that length leaves the game going
    return t


def read_book(path: Path) -> list[list[str]]:
    """A book file's openings: one a line, moves separated by spaces (or by commas where a move
    has a space in it, like Omega's `swap white`); `#` starts a comment. BadOption if it cannot be
    read or holds no opening."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise BadOption(f"cannot read the book {path}: {reason.lower()}") from None
    lines = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append([m.strip() for m in line.split(",")] if "," in line else line.split())
    if not lines:
        raise BadOption(f"the book {path} holds no opening (one a line, moves separated by spaces)")
    return lines


def _checked_line(game: Game, line: Sequence[str], number: int) -> tuple[str, ...]:
    """A book's opening as moves, checked to be legal and to leave the game going."""
    moves = tuple(str(move) for move in line)
    state = game.new_state()
    for move in moves:
        try:
            state.play(move, t=0.0)
        except OgamesError as exc:
            raise BadOption(f"opening {number} of the book ({' '.join(moves)}): {exc}") from None
    if not moves or state.is_over:
        raise BadOption(f"opening {number} of the book ({' '.join(moves) or 'empty'}) must leave the game going")
    return moves


# ----- results of games ----------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One finished (or, in real time, timed-out) game: who sat where and how each entrant placed."""

    pairing: sched.Pairing
    standing: dict[int, tuple[float, float]]  # entrant → (reward, score for tie-breaks); higher is better
    winner: str | None  # colour, "draw", or None if unfinished
    moves: int

    @property
    def pairwise(self) -> list[tuple[int, int, float]]:
        """The game's pairwise results between the entrants at the table."""
        return pairwise_results(self.standing)


def outcome(state: State, pairing: sched.Pairing, names: Sequence[str]) -> Outcome:
    """How the entrants placed in a replayed game: by their seats' rewards, a real-time game that
    ran out of time counting as a draw; at tables of more than two, losers ranked by score."""
    index = {name: k for k, name in enumerate(names)}
    seat_entrant = [index[name] for name in state.players]
    rewards = state.rewards() if state.is_over else [0.5] * len(state.players)
    scores = state.scores if len(pairing.seating) > 2 and state.is_over else None
    standing: dict[int, tuple[float, float]] = {}
    for entrant in set(seat_entrant):
        seats = [s for s, e in enumerate(seat_entrant) if e == entrant]
        reward = sum(rewards[s] for s in seats) / len(seats)
        score = 0.0
        if scores:
            score = float(sum(v for colour, v in scores.items() if seat_entrant[state.owner[colour]] == entrant))
        standing[entrant] = (reward, score)
    return Outcome(pairing, standing, state.winner, state.ply)


def check_record(record: Any, t: Tournament, pairing: sched.Pairing) -> State:
    """The state of a saved record if it is the scheduled game, complete; BadRecord otherwise."""
    state = replay(record)
    names = t.names
    expected = [names[e] for e in pairing.seating]
    if record["game"] != t.game:
        raise BadRecord(f"the record is a game of {shown(record['game'])}, not {t.game}")
    wanted = load_game(t.game, t.options, game_seed(t.seed, pairing.number)).jsonable_options()
    if record["options"] != wanted:
        raise BadRecord("the record's options are not the tournament's")
    seated = state.players if not t.real_time else _sides_of(state)
    if list(seated) != expected:
        raise BadRecord(f"the record seats {', '.join(map(str, seated))}, not {', '.join(expected)}")
    if not state.is_over and not t.real_time:
        raise BadRecord(f"the game is unfinished after {state.ply} moves")
    if not _starts_with(state, t.opening(pairing)):
        raise BadRecord("the record does not start with the scheduled opening")
    return state


def _starts_with(state: State, opening: Sequence[str]) -> bool:
    """Whether a game began with the opening's moves. Compared entry by entry in the history,
    where a turn of several placements (Omega) is one entry that the opening may end inside."""
    if not opening:
        return True
    fresh = state.game.new_state()
    for move in opening:
        fresh.play(move, t=0.0)
    begun, played = fresh.history, state.history
    if len(played) < len(begun):
        return False
    whole = all(a["move"] == b["move"] for a, b in zip(begun[:-1], played, strict=False))
    last = begun[-1]["move"].split()
    return whole and played[len(begun) - 1]["move"].split()[: len(last)] == last


def _sides_of(state: State) -> list[str]:
    """A real-time record's players by colour (2v2 seats two per colour)."""
    from ogames.rules.omiga.realtime import RealtimeState  # (real-time games only: Omiga's cost stays out)

    if not isinstance(state, RealtimeState):
        raise BadRecord(f"{state.game.name} is not played in real time")
    by_colour: dict[str, str] = {}
    for actor, name in zip(state.actors, state.players, strict=True):
        by_colour.setdefault(state.colour_of(actor), name)
    return [by_colour[c] for c in state.game.colours]


# ----- the folder ----------------------------------------------------------------------------


def write_atomic(path: Path, text: str) -> None:
    """Write a file whole or not at all (through a temporary file renamed into place)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def open_folder(t: Tournament, folder: Path, resume: bool) -> tuple[dict[int, Outcome], list[str]]:
    """Make or check the folder; the outcomes of the games already saved and notes on what was
    replaced or ignored. TournamentError if the folder holds something else."""
    manifest_path = folder / MANIFEST
    notes: list[str] = []
    stored = read_manifest(folder)
    if stored is not None:
        if not resume:
            raise TournamentError(f"{folder} already holds a tournament: add --resume to continue it, or choose another --out")
        if _extended(stored, t.manifest()):
            notes.append(f"more games per pair: {stored['games_per_pair']} saved, {t.games_per_pair} now")
        else:
            differences = _differences(stored, t.manifest())
            if differences:
                raise TournamentError(f"{folder} holds a different tournament ({differences}): choose another --out")
    elif folder.exists() and any(folder.iterdir()):
        raise TournamentError(f"{folder} is not empty and holds no {MANIFEST}: choose a new or empty folder for --out")
    elif resume:
        notes.append(f"nothing to resume in {folder}: starting the tournament")
    (folder / GAMES).mkdir(parents=True, exist_ok=True)
    write_atomic(manifest_path, json.dumps(t.manifest(), indent=2) + "\n")
    return _saved_outcomes(t, folder / GAMES, notes), notes


def read_manifest(folder: Path) -> Any:
    """The manifest saved in `folder` as stored (None if there is none); TournamentError if it
    cannot be read."""
    manifest_path = folder / MANIFEST
    if not manifest_path.exists():
        return None
    try:
        return json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TournamentError(f"{manifest_path} cannot be read as a tournament manifest: {exc}") from None


def from_manifest(manifest: Any) -> Tournament:
    """The tournament a manifest (`Tournament.manifest()`) describes, planned again from it, so
    that its schedule, seeds and openings are those of the games saved under it."""
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise TournamentError("not an ogames tournament's manifest")
    try:
        t = plan(
            manifest["game"],
            manifest["options"],
            manifest["entrants"],
            games_per_pair=manifest["games_per_pair"],
            seed=manifest["seed"],
            max_time=manifest.get("max_time", 900.0),
            opening_plies=manifest.get("opening_plies", 0),
            book=manifest.get("book", ()),
        )
    except (KeyError, TypeError) as exc:
        raise TournamentError(f"the tournament manifest lacks or garbles {exc}") from None
    t.purpose = manifest.get("purpose", "tournament")
    return t


def read_saved(folder: Path) -> tuple[Tournament, dict[int, Outcome]] | None:
    """The tournament saved in `folder` and the outcomes of its games saved so far, read only:
    nothing is written, replaced or removed, so it may read a folder a run is adding games to (a
    record that does not check is left out). None if the folder holds no tournament."""
    manifest = read_manifest(folder)
    if manifest is None:
        return None
    t = from_manifest(manifest)
    games = folder / GAMES
    return t, _saved_outcomes(t, games, [], tidy=False) if games.is_dir() else {}


def _extended(stored: Any, wanted: dict[str, Any]) -> bool:
    """Whether the tournament is the stored one with more games per pair: its schedule, seeds and
    openings begin with the stored ones (rounds are added at the end), so the saved games stay."""
    if not isinstance(stored, dict) or not isinstance(stored.get("games_per_pair"), int):
        return False
    grown = {"games_per_pair", "games"}
    same = {k: v for k, v in stored.items() if k not in grown} == {k: v for k, v in wanted.items() if k not in grown}
    return same and stored["games_per_pair"] < wanted["games_per_pair"]


def _differences(stored: Any, wanted: dict[str, Any]) -> str:
    if not isinstance(stored, dict) or stored.get("format") != FORMAT:
        return "its manifest is not an ogames tournament's"
    keys = [k for k in wanted if stored.get(k) != wanted[k]] + [k for k in stored if k not in wanted]
    return "; ".join(f"{k}: {_brief(stored.get(k))} there, {_brief(wanted.get(k))} here" for k in keys[:4])


def _brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not None else "none"
    return text if len(text) <= 80 else text[:79] + "…"


def _saved_outcomes(t: Tournament, games: Path, notes: list[str], tidy: bool = True) -> dict[int, Outcome]:
    """The outcomes of the records in `games`; with `tidy`, records that do not check (and writes
    an interruption cut short) are removed, to be played again."""
    expected = {p.file_name: p for p in t.pairings}
    found: dict[int, Outcome] = {}
    for path in sorted(games.iterdir()):
        if path.name.startswith("."):
            if tidy and path.name.endswith(".tmp"):
                path.unlink()  # a write that an interruption cut short
            continue
        pairing = expected.get(path.name)
        if pairing is None:
            notes.append(f"ignored {path.name}: not a game of this tournament")
            continue
        try:
            state = check_record(load_file(path), t, pairing)
        except BadRecord as exc:
            if tidy:
                why = str(exc).replace(str(path), "").lstrip(": ")
                notes.append(f"replacing {path.name}: {why}")
                path.unlink()
            continue
        found[pairing.number] = outcome(state, pairing, t.names)
    return found


# ----- running -----------------------------------------------------------------------------


@dataclass
class Summary:
    """What a run leaves: the outcomes of all saved games, the Elo table, failures and notes."""

    tournament: Tournament
    outcomes: dict[int, Outcome]
    table: EloTable
    played: int  # games played in this run (the rest were read back)
    failed: dict[int, str]
    notes: list[str]

    @property
    def unfinished(self) -> int:
        """Real-time games that ran out of simulated time (counted as draws)."""
        return sum(1 for o in self.outcomes.values() if o.winner is None)

    @property
    def complete(self) -> bool:
        """Whether every scheduled game has its record."""
        return len(self.outcomes) == len(self.tournament.pairings)


# Called after each game: (games saved so far, games in the tournament, the game's number, why it failed or None).
Progress = Callable[[int, int, int, str | None], None]
# What an executor reports for each task it ran: `play.run_task`'s (number, record or None, why it failed or None).
Finished = Callable[[int, dict[str, Any] | None, str | None], None]


class Executor(Protocol):
    """Where the games are played: `execute(tasks, finished, started)` plays every task (each with
    `play.run_task`), calls `finished` with each result in the caller's thread as games end, and
    calls `started` once, when its workers are running and before the first `finished`. It lets
    KeyboardInterrupt through after stopping the games under way. The local processes here and
    Ray tasks (`ray_runner.py`) are the two; everything else about a run is shared."""

    def __call__(self, tasks: list[Task], finished: Finished, started: Callable[[], None]) -> None: ...


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def local_executor(workers: int) -> Executor:
    """Games in `workers` forked processes on this machine (1: one after another in this process)."""
    if workers < 1:
        raise BadOption(f"--workers must be at least 1, not {workers}")

    def execute(tasks: list[Task], finished: Finished, started: Callable[[], None]) -> None:
        if workers == 1 or len(tasks) <= 1:
            started()
            for task in tasks:
                finished(*run_task(task))
        else:
            _run_pool(tasks, min(workers, len(tasks)), finished, started)

    return execute


def run(
    t: Tournament,
    folder: str | Path,
    workers: int | None = None,
    resume: bool = False,
    progress: Progress | None = None,
    notes: Callable[[list[str]], None] | None = None,
    samples: int = 1000,
    method: str = "bootstrap",
    executor: Executor | None = None,
) -> Summary:
    """Play every game not yet saved in the folder (by `executor`; by default in `workers` local
    processes, 1: in this one), save each record as it ends, and rate the entrants from all saved
    games (intervals by `method`: bootstrap over games or fisher, see `elo.py`). `progress` is
    first called (game number −1) once the workers are running: start a display thread there, not before."""
    folder = Path(folder)
    if executor is None:
        executor = local_executor(default_workers() if workers is None else workers)
    outcomes, said = open_folder(t, folder, resume)
    if notes:
        notes(said)
    missing = [p for p in t.pairings if p.number not in outcomes]
    failed: dict[int, str] = {}
    by_number = {p.number: p for p in t.pairings}

    def finished(number: int, record: dict[str, Any] | None, error: str | None) -> None:
        pairing = by_number[number]
        if record is not None:
            try:
                state = check_record(record, t, pairing)
            except BadRecord as exc:  # a player or rule bug: keep the game out, say why
                error = f"its record does not replay: {exc}"
            else:
                write_atomic(folder / GAMES / pairing.file_name, dumps(record))
                outcomes[number] = outcome(state, pairing, t.names)
        if error is not None:
            failed[number] = error
        if progress:
            progress(len(outcomes), len(t.pairings), number, error)

    def started() -> None:
        if progress:
            progress(len(outcomes), len(t.pairings), -1, None)

    executor([t.task(p) for p in missing], finished, started)
    table = elo_table(t.names, [outcomes[n].pairwise for n in sorted(outcomes)], method=method, samples=samples, seed=t.seed)
    return Summary(t, outcomes, table, len(missing) - len(failed), failed, said)


def start_method() -> str:
    """How worker processes start: forked where the system can (no re-import, and scripts need no
    `if __name__ == "__main__"` guard), spawned elsewhere."""
    return "fork" if "fork" in get_all_start_methods() else "spawn"


def _run_pool(tasks: list[Task], workers: int, finished: Finished, started: Callable[[], None]) -> None:
    # The workers are forked when the first task is submitted, all at once, before `started` lets
    # the caller start any thread (a progress display): a fork copies the locks other threads hold.
    pool = ProcessPoolExecutor(workers, mp_context=get_context(start_method()), initializer=worker_start)
    try:
        pending: set[Future] = {pool.submit(run_task, task) for task in tasks}
        started()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                finished(*future.result())
    except BaseException:
        # Interrupted (Ctrl-C) or failed: stop the games under way now. Saved games stay; a
        # resumed run plays the rest.
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
