"""Layer 3: the record format itself — shape checks, files, and fuzzed records that may only ever be
accepted whole or rejected with BadRecord, for every game."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


GAMES = [("omny", {"variant": "y", "size": 5}), ("oddy", {"sides": 5, "size": 3}), ("omega", {}), ("onyx", {})]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_record_is_json_and_round_trips(name, options):
    state = played(name, **options)
    record = json.loads(json.dumps(state.record()))
    again = ogames.replay(record)
    assert again.record() == state.record()
    assert again.seats == state.seats and again.to_move == state.to_move
    assert ogames.replay(json.dumps(record)).record() == state.record()


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


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.text(max_size=6), st.lists(st.integers(), max_size=2))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), value=_VALUES)
def test_fuzzed_records_are_accepted_whole_or_rejected_cleanly(game, seed, value):
    """Hostile input: replace any one field of a valid record by junk; replay either rebuilds a
    state that writes the same record back, or raises BadRecord — never anything else."""
    name, options = game
    record = played(name, **options).record()
    rng = random.Random(seed)
    paths: list[tuple] = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for key, child in node.items():
                walk(child, (*path, key))
        elif isinstance(node, list):
            for i, child in enumerate(node):
                walk(child, (*path, i))

    walk(record, ())
    path = rng.choice(paths[1:])
    tampered = copy.deepcopy(record)
    node = tampered
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        state = ogames.replay(tampered)
    except ogames.BadRecord:
        return
    # Accepted: the rebuilt game is the one the record describes, and it is stable.
    rebuilt = state.record()
    assert [m["move"] for m in rebuilt["moves"]] == [m["move"] for m in tampered["moves"]]
    assert rebuilt["result"] == tampered["result"] and rebuilt["seats"] == tampered["seats"]
    assert ogames.replay(rebuilt).record() == rebuilt
