"""Tournaments and self-play with iteration-budget players repeat game for game from their seed:
every player whose kind takes a seed gets one derived from the game's seed and its seat (uct and
solver too, not only random and mcts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ogames.arena import selfplay
from ogames.arena.play import seat_player
from ogames.arena.tournament import GAMES, plan, run
from ogames.errors import BadOption


def moves_by_game(folder: Path) -> dict[str, list[str]]:
    records = {p.name: json.loads(p.read_text()) for p in sorted((folder / GAMES).glob("*.json"))}
    return {name: [entry["move"] for entry in record["moves"]] for name, record in records.items()}


def test_a_tournament_of_uct_and_solver_players_repeats_from_its_seed(tmp_path: Path) -> None:
    specs = ["uct:iterations=12", "solver:budget=20,fallback=uct,iterations=12", "random"]
    first, second = (run(plan("oddy", {"size": 4}, specs, games_per_pair=2, seed=5), tmp_path / n, workers=1) for n in "ab")
    assert first.complete and second.complete
    games = moves_by_game(tmp_path / "a")
    assert len(games) == 6 and games == moves_by_game(tmp_path / "b")


def test_a_uct_self_play_repeats_from_its_seed_and_its_games_differ(tmp_path: Path) -> None:
    for name in "ab":
        t = selfplay.plan_selfplay("omny", {"variant": "y", "size": 4}, "uct:iterations=10", games=4, seed=2)
        assert run(t, tmp_path / name, workers=1, method="fisher").complete
    games = moves_by_game(tmp_path / "a")
    assert games == moves_by_game(tmp_path / "b")
    assert len({tuple(moves) for moves in games.values()}) > 1  # each game (and seat) has a seed of its own


@pytest.mark.parametrize("spec", ["random", "mcts:iterations=5", "uct:iterations=5", "solver:iterations=5"])
def test_every_seeded_kind_is_seeded_by_its_seat_unless_its_spec_says(spec: str) -> None:
    player = seat_player(spec, "p", 41)
    assert (player.fallback if spec.startswith("solver") else player).seed == 41
    pinned = seat_player(f"{spec}{',' if ':' in spec else ':'}seed=7", "p", 41)
    assert (pinned.fallback if spec.startswith("solver") else pinned).seed == 7


@pytest.mark.parametrize(("spec", "why"), [("human", "a person"), ("racer", "a real-time Omiga bot")])
def test_a_tournament_seat_refuses_players_that_cannot_be_asked_for_a_move(spec: str, why: str) -> None:
    with pytest.raises(BadOption, match=why):
        seat_player(spec, "p", 1)
