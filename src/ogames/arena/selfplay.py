"""Self-play data: games of one player against itself, saved as records and, for the board games
(Omny, Odd-Y, Omega, Onyx), as training examples.

    t = plan_selfplay("omny", {"variant": "y", "size": 5}, "mcts:iterations=200", games=100, seed=1)
    run(t, "selfplay/y5", workers=2)           # or executor=RayExecutor(…), as for tournaments
    write_examples(t, "selfplay/y5")           # examples/shard-00000.npz …

A self-play run is a tournament of copies of one player (`Tournament.purpose` "selfplay"): the same
seeded tasks, the same folder (`tournament.json`, one record per game in `games/`), the same
resuming and the same executors (local processes or Ray tasks). The examples are made afterwards
from the saved records, so they are always those games' positions, and a resumed run rewrites
every shard with the games saved by then.

Each shard `examples/shard-NNNNN.npz` holds the positions of up to `shard_size` games in game
order (shard k: games k·size … (k+1)·size − 1), one row per decision (every stone of an Omega turn
is one), in numpy arrays (`numpy.load(path)`, no pickle needed):
- `observation` float32 (N, planes, cells): the rules' planes (`rules/planes.py`, the same as
  `ogames.envs.encoding`'s) seen by the seat to move;
- `legal` bool (N, actions): the legal-action mask over the rules' actions (`Game.actions`);
- `action` int32 (N,): the action played there (`game.actions.move_to_action(move)`);
- `value` float32 (N,): the game's final result for the seat to move (`rules.planes.outcome`: +1 won,
  −1/(p−1) lost at a table of p, 0 drawn or unfinished);
- `game`, `ply`, `seat` int32 (N,): the game's number, the decision's index within the game, and
  the seat that decided;
- `plane_names`, `action_names` str: the observation rows' names and each action's move text;
- `meta` str: JSON with the game, its settled options and the player's spec.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ogames.arena import tournament as arena
from ogames.errors import BadOption, BadRecord, IllegalMove, shown
from ogames.records import load_file, replay
from ogames.rules import REAL_TIME, State, load
from ogames.rules.planes import observation_planes, outcome
from ogames.rules.protocol import ActionCodec

EXAMPLES = "examples"
MAX_GAMES = 1_000_000
DEFAULT_SHARD_SIZE = 256


def plan_selfplay(game: str, options: dict[str, Any] | None, spec: str, games: int, seed: int = 0) -> arena.Tournament:
    """`games` games of the player `spec` in every seat; BadOption naming what is wrong."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise BadOption(f"--games must be a whole number from 1 to {MAX_GAMES:,}, not {shown(games)}")
    loaded = load(game, **dict(options or {}))
    sides = len(loaded.colours) if loaded.dynamics == REAL_TIME else loaded.seat_count
    if sides < 2:
        raise BadOption(f"{loaded.title} with these options is played alone: self-play needs two or more seats")
    # One pair (or group) of copies meeting `games` times is exactly `games` games, seats rotating.
    t = arena.plan(game, options, [spec] * sides, games_per_pair=games, seed=seed)
    t.purpose = "selfplay"
    return t


def has_examples(game: str) -> bool:
    """Whether the game's positions can be written as tensors (the board games: those whose rules
    declare an integer action space, `Game.actions`)."""
    try:
        return load(game).actions.num_actions > 0
    except BadOption:
        return False


def decisions(record: dict[str, Any]) -> Iterator[tuple[State, str]]:
    """Each position of a recorded game where a seat decided, with the move it made (the state is
    live: read it before taking the next item). An Omega turn `e5 c3` is one decision per stone,
    as its players choose them; a resignation ends the game without a move to learn from."""
    state = replay(record, upto=0)
    actions = state.game.actions
    for entry in record["moves"]:
        move = entry["move"]
        if move == "resign":
            return
        for part in _parts(actions, move):
            yield state, part
            state.play(part)


def _parts(actions: ActionCodec, move: str) -> list[str]:
    """The decisions a recorded move is made of: the move itself when it is one action (a cell,
    `swap`, Omega's `swap red`), else one per word (an Omega turn `e5 c3`, a stone each)."""
    try:
        actions.move_to_action(move)
    except IllegalMove:
        return move.split()
    return [move]


def game_examples(record: dict[str, Any], number: int) -> dict[str, np.ndarray]:
    """The rows of one game (see the module's docstring), checked against the rules as they go."""
    rows: dict[str, list[Any]] = {k: [] for k in ("observation", "legal", "action", "seat")}
    final: State | None = None
    for state, move in decisions(record):
        actions, planes = state.game.actions, observation_planes(state.game)
        seat = state.mover
        assert seat is not None  # a game that goes on has a seat to decide
        mask = _legal_mask(actions, state)
        action = actions.move_to_action(move)
        if not mask[action]:
            raise BadRecord(f"game {number}: {move} is not a legal action at its position")
        rows["observation"].append(planes.observation(state))
        rows["legal"].append(mask)
        rows["action"].append(action)
        rows["seat"].append(seat)
        final = state
    if final is None:
        return {}
    values = outcome(final) if final.is_over else [0.0] * len(final.players)
    count = len(rows["action"])
    return {
        "observation": np.stack(rows["observation"]).astype(np.float32),
        "legal": np.stack(rows["legal"]).astype(np.bool_),
        "action": np.asarray(rows["action"], dtype=np.int32),
        "value": np.asarray([values[s] for s in rows["seat"]], dtype=np.float32),
        "game": np.full(count, number, dtype=np.int32),
        "ply": np.arange(count, dtype=np.int32),
        "seat": np.asarray(rows["seat"], dtype=np.int32),
    }


def write_examples(t: arena.Tournament, folder: str | Path, shard_size: int = DEFAULT_SHARD_SIZE) -> list[Path]:
    """Write every shard from the records saved in the folder (replacing older shards); the
    shards' paths. Nothing for games without tensors (see `has_examples`)."""
    if shard_size < 1:
        raise BadOption(f"--shard-size must be at least 1, not {shard_size}")
    if not has_examples(t.game):
        return []
    folder = Path(folder)
    game = load(t.game, **t.options)
    actions = game.actions
    out = folder / EXAMPLES
    out.mkdir(exist_ok=True)
    names = {
        "plane_names": np.asarray(observation_planes(game).plane_names, dtype=np.str_),
        "action_names": np.asarray([actions.action_to_move(a) for a in range(actions.num_actions)], dtype=np.str_),
        "meta": np.asarray(json.dumps({"game": t.game, "options": t.settled, "player": t.entrants[0]})),
    }
    written = []
    for start in range(0, len(t.pairings), shard_size):
        parts = []
        for pairing in t.pairings[start : start + shard_size]:
            path = folder / arena.GAMES / pairing.file_name
            if path.exists():
                parts.append(game_examples(load_file(path), pairing.number))
        parts = [p for p in parts if p]
        if not parts:
            continue
        arrays = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
        written.append(_save_shard(out / f"shard-{start // shard_size:05d}.npz", {**arrays, **names}))
    return written


def _legal_mask(actions: ActionCodec, state: State) -> np.ndarray:
    """The legal-action mask: true on the actions of the state's legal moves."""
    mask = np.zeros(actions.num_actions, dtype=np.bool_)
    mask[actions.legal_actions(state)] = True
    return mask


def _save_shard(path: Path, arrays: dict[str, np.ndarray]) -> Path:
    """Write a shard whole or not at all (a temporary file renamed into place)."""
    tmp = path.with_name(f".{path.stem}.tmp.npz")
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)
    return path


def read_examples(paths: Sequence[str | Path]) -> dict[str, np.ndarray]:
    """The rows of several shards together (the per-row arrays concatenated, the names from the first)."""
    loaded = [dict(np.load(p, allow_pickle=False)) for p in paths]
    if not loaded:
        return {}
    rows = ("observation", "legal", "action", "value", "game", "ply", "seat")
    return {k: (np.concatenate([d[k] for d in loaded]) if k in rows else loaded[0][k]) for k in loaded[0]}
