"""Mining puzzles from finished games: every position of a game's last stretch where the side to
move has exactly one winning move and every other move is proven to lose becomes a puzzle, with
its main line, themes and a difficulty.

    folder = selfplay_games("oddy", {"sides": 3, "size": 7, "pie": False}, level=6, games=20, seed=1, folder=…)
    found = mine_records(records_in(folder), source="selfplay oddy level 6")

Which positions are tried (the solvers' reach): Omny and Odd-Y, the last `CONNECTION_TAIL`
decisions of a game with at most `CONNECTION_EMPTY` empty cells; Omega, the decisions with at
most `OMEGA_EMPTY` empty cells; Onyx, the last `ONYX_TAIL` decisions. Positions already mined
(the same stones and side to move) are skipped.

The difficulty (1–5) is measured, not guessed: how many of the computer's levels `PROBE_LEVELS`
(each one seeded search) fail to find the move, plus one when the winning side needs three or more
stones along the line; capped at 5. A "mate in 1" is always 1.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import ogames
from ogames.arena import selfplay
from ogames.arena import tournament as arena
from ogames.players.solvers import onyx_tactics
from ogames.records import load_file
from ogames.rules.omega import OmegaState
from ogames.rules.onyx import OnyxState
from ogames.rules.protocol import State
from ogames.rules.stones import StoneState
from ogames.teach.puzzles.format import Puzzle
from ogames.teach.puzzles.proof import LOSS, WIN, Prover
from ogames.teach.puzzles.themes import themes

CONNECTION_TAIL = 8
CONNECTION_EMPTY = 28  # the solver proves these within its budget on the boards mined
ONYX_TAIL = 40
OMEGA_EMPTY = 13
LINE_PLIES = 7  # the longest main line kept for Omny and Odd-Y (Omega's and Onyx's run to the end)
PROBE_LEVELS = (2, 4, 6)


def selfplay_games(game: str, options: dict[str, Any], level: int, games: int, seed: int, folder: str | Path) -> Path:
    """Play (or resume) `games` self-play games at a computer level into `folder`; the folder."""
    spec = f"mcts:level={level}"
    plan = selfplay.plan_selfplay(game, options, spec, games=games, seed=seed)
    arena.run(plan, folder, workers=1, resume=Path(folder, "tournament.json").exists())
    return Path(folder)


def records_in(folder: str | Path) -> Iterator[dict[str, Any]]:
    """The game records saved in a self-play (or tournament) folder, in file order."""
    for path in sorted(Path(folder, arena.GAMES).glob("*.json")):
        yield load_file(path)


def position_key(state: State) -> str:
    """What makes two positions the same puzzle: game, options, stones and the decision to make."""
    extra: list[Any] = [state.to_move]
    if isinstance(state, OmegaState):
        extra.append(state.player_colour)
    assert isinstance(state, OmegaState | StoneState)  # the board games
    stones = state.stones
    blob = json.dumps([state.game.name, state.game.jsonable_options(), stones.tolist(), extra], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def candidates(record: dict[str, Any], sidelines: bool = False) -> Iterator[tuple[State, list[str]]]:
    """The positions of a record worth proving, each with the decisions that reach it; with
    `sidelines`, also every position one other move away from them (what the game might have been:
    strong self-play wins with many moves, and one-move turns are where unique wins live)."""
    decided = [(state.clone(), move) for state, move in selfplay.decisions(record)]
    moves = [move for _, move in decided]
    for ply, (state, _) in enumerate(decided):
        if isinstance(state, OmegaState):
            wanted = state.empty_count <= OMEGA_EMPTY
        elif isinstance(state, OnyxState):
            wanted = ply >= len(decided) - ONYX_TAIL
        else:
            empty = len(state.legal_moves())
            wanted = empty <= CONNECTION_EMPTY and ply >= len(decided) - CONNECTION_TAIL and "swap" not in state.legal_moves()
        if not wanted or state.is_over:
            continue
        yield state, moves[:ply]
        if not sidelines:
            continue
        for other in state.legal_moves():
            if other == moves[ply] or other == "swap":
                continue
            side = state.clone()
            side.play(other, t=0.0)
            if not side.is_over:
                yield side, [*moves[:ply], other]


def unique_win(state: State, prover: Prover) -> str | None:
    """The one winning move when exactly one move wins and every other is proven to lose."""
    if isinstance(state, OnyxState):
        position = onyx_tactics.Position.of(state)
        if not position.threats(1) and not position.threats(2):
            return None  # with no threat on the board, a win and the losses are rarely within reach
    elif not isinstance(state, OmegaState) and prover.mover_value(state) != WIN:
        return None  # one solve rules out most positions before every move is solved
    values = prover.move_values(state, most_wins=2)
    wins = [move for move, value in values.items() if value == WIN]
    if len(wins) != 1 or any(value not in (WIN, LOSS) for value in values.values()):
        return None
    if len(values) != len(state.legal_moves()):
        return None
    return wins[0]


def main_line(state: State, move: str, prover: Prover) -> list[str]:
    """The winning move, then alternately a best defence and a proven winning reply, to the end
    (Omny and Odd-Y: at most `LINE_PLIES`), ending on a move of the winning side."""
    winner = state.mover
    steps = [(move, True)]
    state = state.clone()
    state.play(move, t=0.0)
    long_games = isinstance(state, OmegaState | OnyxState)
    while not state.is_over and (long_games or len(steps) < LINE_PLIES):
        ours = state.mover == winner
        step = prover.winning_move(state) if ours else prover.best_defence(state, state)
        if step is None:
            break
        steps.append((step, ours))
        state.play(step, t=0.0)
    while not steps[-1][1]:
        steps.pop()  # a line ends on the winning side's step
    return [step for step, _ in steps]


def difficulty(state: State, move: str, line: list[str], found_themes: list[str], seed: int) -> int:
    """1–5: the probe levels that miss the move, plus one for a long line (see the module)."""
    if "mate-in-1" in found_themes:
        return 1
    misses = 0
    for level in PROBE_LEVELS:
        player = ogames.player(f"mcts:level={level},seed={seed + level}")
        if player.choose(state.clone()) != move:
            misses += 1
    winner_steps = (len(line) + 1) // 2
    return min(5, 1 + misses + (winner_steps >= 3))


def mine_records(
    records: Iterable[dict[str, Any]],
    source: str,
    seen: set[str] | None = None,
    prover: Prover | None = None,
    sidelines: bool = False,
) -> Iterator[Puzzle]:
    """Every puzzle found in the records, new ones only (`seen` holds position keys, and grows)."""
    seen = set() if seen is None else seen
    for number, record in enumerate(records):
        for state, moves in candidates(record, sidelines):
            key = position_key(state)
            if key in seen:
                continue
            seen.add(key)
            prover = prover if prover is not None and prover.game.options == state.game.options else Prover(state.game)
            move = unique_win(state, prover)
            if move is None:
                continue
            line = main_line(state, move, prover)
            found = themes(state, line)
            yield Puzzle(
                id=f"{state.game.name}-{key}",
                game=state.game.name,
                options=state.game.jsonable_options(),
                moves=tuple(moves),
                solution=tuple(line),
                themes=tuple(found),
                difficulty=difficulty(state, move, line, found, seed=number),
                source=source,
            )
