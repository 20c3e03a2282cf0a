"""Omiga's computer levels (`levels.omiga_spec`): the specs docs/levels.md states, each level faster
and no weaker in strategy than the one below and none faster than a person; the scripted person
they are measured against (`players/omiga/person.py`); and a small run of the measurement
(`benchmarks/bench_omiga_levels.py`). Whether each level beats the one below is the benchmark's
table in docs/levels.md, not a test."""

from __future__ import annotations

import gzip
import importlib.util
import json
import random
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

import ogames
from ogames.arena.realtime_match import play_game
from ogames.errors import BadOption
from ogames.players import player
from ogames.players.levels import HIGHEST, LOWEST, OMIGA_LEVELS, omiga_spec
from ogames.players.omiga.bots import STRATEGIES, Bot
from ogames.players.omiga.person import Person

ROOT = Path(__file__).resolve().parents[1]


def bench() -> Any:
    """benchmarks/bench_omiga_levels.py as a module (a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("bench_omiga_levels", ROOT / "benchmarks" / "bench_omiga_levels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def documented_specs() -> dict[int, str]:
    """The level table of docs/levels.md's Omiga section: level → spec."""
    text = (ROOT / "docs" / "levels.md").read_text(encoding="utf-8")
    section = text.split("## Omiga's real-time bots by level", 1)[1].split("\n#", 1)[0]  # the table before the former ladder's
    return {int(level): spec for level, spec in re.findall(r"^\| (\d+) \| `([a-z]+:reaction=[\d.]+)` \|", section, re.M)}


def test_the_level_specs_are_what_the_docs_say() -> None:
    assert documented_specs() == OMIGA_LEVELS
    assert sorted(OMIGA_LEVELS) == list(range(LOWEST, HIGHEST + 1))
    for level in (0, 11, True, "3"):
        with pytest.raises(ValueError, match="level must be"):
            omiga_spec(level)  # type: ignore[arg-type]


def test_each_level_is_faster_no_weaker_and_none_is_faster_than_a_person() -> None:
    bots = [player(omiga_spec(level)) for level in range(LOWEST, HIGHEST + 1)]
    assert all(isinstance(bot, Bot) for bot in bots)
    reactions = [bot.reaction for bot in bots]
    assert all(slower > faster for slower, faster in pairwise(reactions))
    order = ["random", "greedy", "racer", "rollout"]
    strategies = [order.index(bot.strategy) for bot in bots]
    assert strategies == sorted(strategies) and set(order) == set(STRATEGIES)
    # The cliff of issue 19: a level at 0.05 s a card won before a person laid one. Even with its
    # jitter, no level acts faster than the quickest action of the scripted person.
    assert min(bot.reaction * (1 - bot.jitter) for bot in bots) >= Person().fastest


def test_the_scripted_person_is_deterministic_for_a_seed_and_reacts_in_its_range() -> None:
    def game(seed: int) -> list[dict[str, Any]]:
        state = ogames.load("omiga", seed=seed).new_state()
        play_game(state, {"white": Person(), "black": Bot.make(omiga_spec(3))}, seed)
        assert state.is_over
        return state.history

    first = game(7)
    assert game(7) == first and game(8) != first
    times = [entry["t"] for entry in first if entry["by"] == "white"]
    gaps = [later - earlier for earlier, later in pairwise([0.0, *times])]
    assert gaps and all(0.4 - 1e-3 <= gap for gap in gaps)  # an action at least its fastest reaction after the last
    rng = random.Random(1)
    delays = [Person().delay(rng) for _ in range(500)]
    assert 0.4 <= min(delays) < 0.5 and 1.4 < max(delays) <= 1.5


def test_the_person_takes_a_win_it_holds_and_discards_a_hand_that_fits_nowhere() -> None:
    state = ogames.load("omiga", seed=1).new_state()  # white h6, black h5: White wins behind h5, on h4
    table = state.table
    for label in ("g6", "g5", "g4"):
        cell = table.cell(label)
        design, face = next((d, f) for d in range(36) for f in table.faces_of(d) if table.why_not(cell, "white", f) is None)
        table.place(cell, "white", design, face)
    winning = next((d, f) for d in range(36) for f in table.faces_of(d) if table.why_not(table.cell("h4"), "white", f) is None)
    state.hands["white"] = [winning[0]]
    for seed in range(10):
        action = Person(blocks=1.0).decide(state, "white", random.Random(seed))
        assert action is not None and action.split()[2] == "h4"
    assert state.act("white", action, 1.0) and state.winner == "white"
    # Along seeded random games: a hand that fits nowhere is discarded, else a fitting card is laid.
    discards = 0
    for seed in range(6):
        state = ogames.load("omiga", seed=seed).new_state()
        rng = random.Random(seed)
        while not state.is_over:
            for actor in state.actors:
                action = Person().decide(state, actor, rng)
                options = {state.action_text(*option) for option in state.placements(actor)}
                assert action in (options or {"discard"})
                discards += not options
            state.play(rng.choice(state.legal_moves()), t=state.clock + 1)
    assert discards
    with pytest.raises(ValueError, match="fastest <= slowest"):
        Person(fastest=2.0, slowest=1.0)
    with pytest.raises(ValueError, match="chance from 0 to 1"):
        Person(climbs=1.5)


def test_the_measurement_plays_scores_and_resumes(tmp_path: Path) -> None:
    b = bench()
    ladder = b.ladder_with(["10=random:reaction=0.9"])
    assert ladder[10] == "random:reaction=0.9" and ladder[1] == OMIGA_LEVELS[1]
    pairs = [p for p in b.matchups(ladder) if p[0] in ("person – 1", "2 – 1")]
    out = tmp_path / "games.jsonl.gz"
    assert [title for title, _ in b.run(pairs, 4, 11, out)] == ["person – 1", "2 – 1"]
    lines = [json.loads(line) for line in gzip.decompress(out.read_bytes()).decode().splitlines()]
    assert len(lines) == 8 and {line["seed"] for line in lines} == {11, 12, 13, 14}
    assert all(line["winner"] in ("a", "b", "draw") and line["end"] > 0 for line in lines)
    assert [line["a_colour"] for line in lines[:4]] == ["white", "black"] * 2
    again = b.play(lines[0]["a"], lines[0]["b"], 11, first_white=True)
    assert again == lines[0]  # seeded: the same game again
    saved = out.read_bytes()
    list(b.run(pairs, 4, 11, out))
    assert out.read_bytes() == saved and len(b.read(out)) == 8  # nothing is played twice
    results = b.collect(pairs, 4, 11, out)
    person = results["person – 1"]
    wins = sum(line["winner"] == "a" for line in lines[:4]) + 0.5 * sum(line["winner"] == "draw" for line in lines[:4])
    assert person["games"] == 4 and person["points"] == wins
    low, high = person["interval"]
    assert 0 <= low <= wins / 4 <= high <= 1
    assert "| 1 | `random:reaction=2` |" in b.person_table(ladder, results)
    assert "| 2 – 1 |" in b.neighbour_table(results)
    with pytest.raises(BadOption, match="a real-time Omiga bot is one of"):
        b.ladder_with(["3=genius:reaction=1"])
