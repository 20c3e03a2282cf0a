"""Golden games (tests/golden/, written by tools/make_golden.py): replaying each one must give the
same legal-move count before every ply and the same record, so any change of a rule shows here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ogames

GOLDEN = sorted((Path(__file__).resolve().parent.parent / "golden").glob("*.json"))


def test_every_case_has_a_golden_game():
    from .cases import CASE_IDS

    assert {p.stem for p in GOLDEN} == set(CASE_IDS)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_replays_move_by_move(path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    record = golden["record"]
    state = ogames.load(record["game"], **record["options"]).new_state(record["players"])
    for ply, (move, count) in enumerate(zip(golden["moves"], golden["legal_move_counts"], strict=True), start=1):
        assert len(state.legal_moves()) == count, f"ply {ply}: the number of legal moves changed"
        state.play(move, t=float(ply))
    assert state.is_over
    assert state.record() == record
    assert ogames.replay(record).record() == record
