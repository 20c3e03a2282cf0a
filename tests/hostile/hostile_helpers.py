"""Helpers of the hostile-input tests: a played game of every game, variant and Omiga mode, and
exact before/after snapshots of a state."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import ogames
from conformance.cases import CASES, VARIANT_CASES, ids
from ogames.rules.omiga.realtime import RealtimeState

# (id, game, options): every conformance case, so every game, variant and Omiga mode of the registry.
GAMES = CASES
GAME_IDS = ids(GAMES)
# One case per variant and mode, for tests parametrized many times over (every case is still
# sampled by the fuzzing tests, and refuses junk in the conformance suite).
MODES = VARIANT_CASES
MODE_IDS = ids(MODES)


def played(name: str, options: dict[str, Any], moves: int = 12, seed: int = 1, timed: bool = True) -> ogames.State:
    """A game after up to `moves` random moves (real time: actions a second apart, with a few
    rejected ones so that the record has meta.rejected)."""
    rng = random.Random(seed)
    game = ogames.load(name, **options)
    state = game.new_state()
    t = 1.0
    for _ in range(moves):
        legal = state.legal_moves()
        if state.is_over or not legal:
            break
        t += rng.choice((0.25, 0.5, 1.0))
        if isinstance(state, RealtimeState):
            actor = state.actors[rng.randrange(len(state.actors))]
            state.submit(actor, "place 0 a1", t)  # rejected (or, rarely, fine): either way recorded
            t += 0.125
        state.play(rng.choice(legal), t=t if timed else None)
    return state


def ongoing(name: str, options: dict[str, Any], moves: int = 5, seed: int = 1) -> ogames.State:
    """Like `played`, but stopping before any move that would end the game (so moves remain)."""
    rng = random.Random(seed)
    state = ogames.load(name, **options).new_state()
    for number in range(moves):
        legal = state.legal_moves()
        trial = state.clone()
        trial.play(rng.choice(legal), t=1.0 + number)
        if trial.is_over or not trial.legal_moves():
            break
        state = trial
    return state


def as_json(value: Any) -> str:
    """Canonical JSON text: equal texts mean equal records (types included: 1 is not 1.0)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)


def snapshot(state: ogames.State) -> str:
    """Everything a state is, as text: its record plus its mutable attributes (arrays included)."""
    parts = {"record": state.record()}
    for key, value in sorted(vars(state).items()):
        if key == "game":
            continue
        parts[key] = _plain(value)
    return as_json(parts)


def _plain(value: Any) -> Any:
    if isinstance(value, random.Random):
        return repr(value.getstate())
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if hasattr(value, "__dict__"):
        return {"__type__": type(value).__name__, **{k: _plain(v) for k, v in sorted(vars(value).items()) if k != "game"}}
    return repr(value)


def deep(record: dict[str, Any]) -> dict[str, Any]:
    """An independent copy of a record."""
    return copy.deepcopy(record)
