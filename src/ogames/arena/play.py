"""Playing one scheduled game, in whatever process: a `Task` in, the game's record out.

Everything a game needs travels in its task (plain values, so tasks go to worker processes), and
every random choice in it comes from the task's seed: the same task gives the same game, except
with players that think for a time rather than a number of iterations. A task may carry an
opening: moves made before the players take over (`random_opening`).
"""

from __future__ import annotations

import hashlib
import random
import signal
from dataclasses import dataclass
from typing import Any

from ogames.errors import BadOption, shown
from ogames.rules import REAL_TIME, Game, State, load

MAX_MOVES = 100_000  # a turn-based game still going after this many moves is recorded unfinished


@dataclass(frozen=True)
class Task:
    """One game to play: the game and its options (as given), the entrants' specs and names in
    seat order (sides: colours in real time), its number and its seed."""

    number: int
    game: str
    options: tuple[tuple[str, Any], ...]
    specs: tuple[str, ...]
    names: tuple[str, ...]
    seed: int
    max_time: float = 900.0
    opening: tuple[str, ...] = ()  # moves made before the players take over


OPENING_TRIES = 100


def random_opening(game: Game, plies: int, seed: int) -> tuple[str, ...]:
    """`plies` moves drawn at random from the start that leave the game going (drawn again, from
    the next seed, while they end it); BadOption if no such opening turns up."""
    for attempt in range(OPENING_TRIES):
        rng = random.Random(f"{seed}:{attempt}")
        state = game.new_state()
        moves: list[str] = []
        while len(moves) < plies and not state.is_over:
            moves.append(rng.choice(state.legal_moves()))
            state.play(moves[-1], t=0.0)
        if not state.is_over:
            return tuple(moves)
    raise BadOption(f"no opening of {plies} random moves leaves {game.title} going: ask for fewer")


def game_seed(tournament_seed: int, number: int) -> int:
    """The seed of one game of a tournament (0 to 2^48 − 1), from the tournament's seed and the game number."""
    digest = hashlib.sha256(f"ogames-tournament:{tournament_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def load_game(name: str, options: dict[str, Any], seed: int) -> Game:
    """The game with its options; a game with a `seed` option (Omiga's decks) that was not given
    one gets the game's seed, so that every game of a tournament deals differently."""
    game = load(name, **options)
    if "seed" in game.option_set.names() and options.get("seed") is None:
        game = load(name, **{**options, "seed": seed})
    return game


def seat_player(spec: str, name: str, seed: int) -> Any:
    """A turn-based player from its spec, named for the records, seeded unless its spec sets a seed:
    every kind that takes a seed gets one (uct and solver too), so an iteration-budget run repeats."""
    from ogames.players import computer_player

    return computer_player(spec, name=name, seed=seed)


def real_time_bot(spec: str) -> Any:
    """A real-time Omiga bot from its spec (BadOption if the spec is not one)."""
    from ogames.players.omiga.bots import Bot

    try:
        return Bot.make(spec)
    except BadOption as exc:
        raise BadOption(f"{exc} (player {shown(spec)}; real-time Omiga takes bots such as racer:reaction=expert)") from None
    except ValueError as exc:
        raise BadOption(f"player {shown(spec)}: {exc}") from None


def play_task(task: Task) -> dict[str, Any]:
    """Play the task's game to its end and return its record."""
    game = load_game(task.game, dict(task.options), task.seed)
    if game.dynamics == REAL_TIME:
        return _play_real_time(game, task).record()
    seated = enumerate(zip(task.specs, task.names, strict=True))
    players = [seat_player(spec, name, task.seed + seat) for seat, (spec, name) in seated]
    state = game.new_state(list(task.names))
    for move in task.opening:
        state.play(move)
    for p in players:
        p.reset()
    while not state.is_over and state.ply < MAX_MOVES:
        seat = state.mover
        assert seat is not None  # a turn-based game that goes on has a mover
        state.play(players[seat].choose(state))
    return state.record()


def _play_real_time(game: Game, task: Task) -> State:
    from ogames.arena.realtime_match import play_game
    from ogames.rules.omiga.realtime import RealtimeState

    probe = game.new_state()
    assert isinstance(probe, RealtimeState)  # what REAL_TIME promises
    sides = {colour: k for k, colour in enumerate(game.colours)}
    side_of = [sides[probe.colour_of(actor)] for actor in probe.actors]
    state = game.new_state([task.names[k] for k in side_of])
    assert isinstance(state, RealtimeState)
    bots = {actor: real_time_bot(task.specs[k]) for actor, k in zip(state.actors, side_of, strict=True)}
    return play_game(state, bots, task.seed, task.max_time)


def worker_start() -> None:
    """In each worker process: leave Ctrl-C to the parent, which stops the tournament."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_task(task: Task) -> tuple[int, dict[str, Any] | None, str | None]:
    """(number, record, None), or (number, None, why) if the game could not be played."""
    try:
        return task.number, play_task(task), None
    except Exception as exc:  # one broken game must not stop the others; the parent reports it
        return task.number, None, f"{type(exc).__name__}: {exc}"
