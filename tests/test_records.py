"""Layer 3: the record format itself — shape checks and files. That every case of every game goes
through JSON and replays exactly is the conformance suite's (tests/conformance); that a tampered
record of any game is accepted whole or refused with BadRecord is the hostile tests'
(tests/hostile/test_records_input.py), both over the registry's cases."""

from __future__ import annotations

import random

import pytest

import ogames
from ogames.records import load_file, save


def played(name: str, moves: int = 8, seed: int = 1, **options) -> ogames.State:
    rng = random.Random(seed)
    state = ogames.load(name, **options).new_state(["ann", "bob"])
    for _ in range(moves):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    return state


def test_save_and_load_file(tmp_path):
    state = played("omny", variant="y", size=5)
    path = save(state, tmp_path / "game.json")
    assert ogames.replay(load_file(path)).record() == state.record()
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(ogames.BadRecord, match="not valid JSON"):
        load_file(tmp_path / "broken.json")
    with pytest.raises(ogames.BadRecord, match="cannot read"):
        load_file(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda r: r.update(format="sgf"), "not an ogames record"),
        (lambda r: r.update(version=2), "unsupported record version 2"),
        (lambda r: r.pop("moves"), "lacks moves"),
        (lambda r: r.update(extra=1), "unknown fields: extra"),
        (lambda r: r.update(game="chess"), "unknown game"),
        (lambda r: r.update(game=5), "game must be a name"),
        (lambda r: r.update(options=[]), "options must be an object"),
        (lambda r: r["options"].update(size="huge"), "size"),
        (lambda r: r.update(players=["ann"]), "players"),
        (lambda r: r.update(players="ann"), "players must be a list"),
        (lambda r: r.update(moves={}), "moves must be a list"),
        (lambda r: r["moves"].__setitem__(0, "c3"), "move 1 is not an object"),
        (lambda r: r["moves"][0].pop("by"), "who made it"),
        (lambda r: r["moves"][0].update(t="yesterday"), "bad timestamp"),
        (lambda r: r["moves"][0].update(t=float("nan")), "bad timestamp"),
        (lambda r: r.update(result="black"), "result must be null"),
        (lambda r: r.update(seats=[]), "seats must map"),
    ],
)
def test_malformed_records_name_their_fault(tamper, message):
    record = played("omny", variant="y", size=5).record()
    tamper(record)
    with pytest.raises(ogames.BadRecord, match=message):
        ogames.replay(record)


def test_not_json_text_is_rejected():
    with pytest.raises(ogames.BadRecord, match="not valid JSON"):
        ogames.replay("{oops")
    with pytest.raises(ogames.BadRecord, match="JSON object"):
        ogames.replay("[1, 2]")


def test_replay_upto_gives_earlier_positions():
    state = played("omny", moves=6, variant="y", size=5)
    record = state.record()
    early = ogames.replay(record, upto=3)
    assert early.ply == 3
    assert [e["move"] for e in early.history] == [e["move"] for e in record["moves"][:3]]
