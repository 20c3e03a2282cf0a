"""What every game, variant and mode must do (pgx's api_test, for ogames).

Random games reach the end; `legal_moves()` is exactly the set of moves `play` accepts; a record
goes through JSON and replays to the same state; clones are independent; undo restores the state
exactly; every rejected input leaves the state byte-for-byte unchanged.
"""

from __future__ import annotations

import json
import random

import pytest

import ogames
from ogames.errors import IllegalMove, OgamesError
from ogames.rules import REAL_TIME

from .cases import CASE_IDS, fingerprint, make, near_misses, play_random

pytestmark = pytest.mark.parametrize("case", CASE_IDS)


def _positions(case: str, seed: int, samples: int = 4) -> list[ogames.State]:
    """A few positions of one random game of a case: the start, some middle ones and the end."""
    game = make(case)
    rng = random.Random(f"{case}:{seed}")
    state = game.new_state()
    path = [state.clone()]
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        path.append(state.clone())
    picks = {0, len(path) - 1, *(rng.randrange(len(path)) for _ in range(samples - 2))}
    return [path[i] for i in sorted(picks)]


def test_random_games_end_with_a_result(case):
    for seed in range(3):
        state = play_random(make(case).new_state(), random.Random(seed))
        assert state.is_over, "a random game did not end"
        assert state.winner is not None
        assert state.legal_moves() == []
        assert state.to_move is None


def test_play_accepts_exactly_the_legal_moves(case):
    rng = random.Random(case)
    for state in _positions(case, seed=1):
        legal = set(state.legal_moves())
        assert len(legal) == len(state.legal_moves()), "legal_moves() lists a move twice"
        for move in rng.sample(sorted(legal), min(len(legal), 30)):
            state.clone().play(move)  # raises if a listed move is refused
        for move in near_misses(state, rng):
            if move in legal:
                continue
            before = fingerprint(state)
            try:
                trial = state.clone().play(move)
            except IllegalMove:
                trial = None
            if trial is not None:
                # Another spelling of a legal move (a symmetric card laid "turned"): it must be
                # recorded as the listed spelling.
                made = trial.history[-1]
                spelled = f"{made['by']}: {made['move']}" if state.game.dynamics == REAL_TIME else made["move"]
                assert spelled in legal, f"{move!r} was accepted but is not a legal move"
                continue
            with pytest.raises(IllegalMove):
                state.play(move)
            assert fingerprint(state) == before, f"refusing {move!r} changed the state"


def test_record_survives_json_and_replays_exactly(case):
    for state in _positions(case, seed=2):
        text = json.dumps(state.record())
        again = ogames.replay(text)
        assert again.record() == state.record()
        assert fingerprint(again) == fingerprint(state)


def test_clones_are_independent(case):
    rng = random.Random(case)
    for state in _positions(case, seed=3):
        if state.is_over:
            continue
        before = fingerprint(state)
        copy = state.clone()
        assert fingerprint(copy) == before
        copy.play(rng.choice(copy.legal_moves()))
        assert fingerprint(state) == before, "playing on a clone changed the original"
        state.play(rng.choice(state.legal_moves()))
        assert fingerprint(copy) != before or copy.ply != state.ply


def test_undo_restores_the_state_exactly(case):
    game = make(case)
    rng = random.Random(f"undo:{case}")
    state = game.new_state()
    while not state.is_over:
        before = fingerprint(state)
        move, t = rng.choice(state.legal_moves()), float(state.ply + 1)
        state.play(move, t=t)
        after = fingerprint(state)
        state.undo()
        assert fingerprint(state) == before, f"undo of move {state.ply + 1} ({move}) did not restore the state"
        state.play(move, t=t)
        assert fingerprint(state) == after, f"move {state.ply} ({move}) played again after undo differs"


def test_junk_is_refused_and_changes_nothing(case):
    junk = ["", " ", "zz99", "a0", "swap swap", "x" * 1000, "place", "place 99 a1", "resign please", "komi=abc", ":"]
    for state in _positions(case, seed=4, samples=3):
        for move in junk:
            before = fingerprint(state)
            with pytest.raises(OgamesError):
                state.play(move)
            assert fingerprint(state) == before, f"refusing {move!r} changed the state"
        for bad in (None, 3, b"a1", ["a1"]):
            before = fingerprint(state)
            with pytest.raises(OgamesError):
                state.play(bad)  # type: ignore[arg-type]
            assert fingerprint(state) == before
