"""Tournaments and self-play as Ray tasks, on one local Ray instance (2 CPUs) for the whole module:
the same records as the local runner for the same seed, resuming after an interruption, self-play
shards, and the command line with --ray. Skipped without the optional extra `ray` (the test set-up
installs it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

ray = pytest.importorskip("ray")

from ogames.arena import selfplay  # noqa: E402
from ogames.arena.ray_runner import RayExecutor, connect  # noqa: E402
from ogames.arena.tournament import GAMES, MANIFEST, plan, run  # noqa: E402
from ogames.cli.app import app  # noqa: E402

Y4 = {"variant": "y", "size": 4}
SPECS = ["random", "mcts:iterations=10"]


@pytest.fixture(scope="module", autouse=True)
def cluster():
    """One Ray instance for the module (started and stopped by ray_runner.connect itself)."""
    with connect("local", cpus=2) as found:
        yield found
    assert not ray.is_initialized()


def without_times(record: dict) -> dict:
    """A record without its wall-clock move times (the only part that differs between two runs)."""
    return {**record, "moves": [{k: v for k, v in m.items() if k != "t"} for m in record["moves"]]}


def saved(folder: Path) -> dict[str, dict]:
    return {p.name: without_times(json.loads(p.read_text())) for p in sorted((folder / GAMES).glob("*.json"))}


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The reference: the same tournament played by the local runner, in this process."""
    t = plan("omny", Y4, SPECS, games_per_pair=4, seed=5)
    folder = tmp_path_factory.mktemp("local") / "t"
    return t, folder, run(t, folder, workers=1, samples=50)


def test_the_connection_is_a_local_instance_with_two_cpus(cluster):
    assert cluster.started_here and cluster.cpus == 2
    assert cluster.describe() == "Ray (a local instance, 2 CPUs)"


def test_ray_plays_the_same_games_as_local_processes(local_run, tmp_path):
    t, reference, expected = local_run
    seen = []
    summary = run(t, tmp_path / "r", executor=RayExecutor(4), samples=50, progress=lambda s, n, k, e: seen.append((s, k, e)))
    assert summary.played == 4 and summary.complete and not summary.failed
    assert saved(tmp_path / "r") == saved(reference) and len(saved(reference)) == 4
    assert (tmp_path / "r" / MANIFEST).read_text() == (reference / MANIFEST).read_text()
    assert seen[0] == (0, -1, None) and seen[-1][0] == 4 and sorted(n for _, n, _ in seen[1:]) == [0, 1, 2, 3]
    assert [(r.name, r.points) for r in summary.table.ratings] == [(r.name, r.points) for r in expected.table.ratings]


def test_an_interrupted_ray_tournament_resumes_from_its_saved_games(local_run, tmp_path):
    t, reference, _ = local_run
    folder = tmp_path / "cut"

    def stop_after_two(saved_count: int, total: int, number: int, error: str | None) -> None:
        if saved_count == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(t, folder, executor=RayExecutor(2), samples=50, progress=stop_after_two)
    kept = saved(folder)
    assert len(kept) == 2 and all(saved(reference)[name] == record for name, record in kept.items())
    played_now = []
    summary = run(
        t, folder, executor=RayExecutor(2), resume=True, samples=50, progress=lambda s, n, number, e: played_now.append(number)
    )
    assert summary.played == 2 and summary.complete
    assert sorted(n for n in played_now if n >= 0) == sorted(p.number for p in t.pairings if p.file_name not in kept)
    assert saved(folder) == saved(reference)
    # and the local runner takes a Ray tournament's folder as its own
    assert run(t, folder, workers=1, resume=True, samples=50).played == 0


def test_self_play_through_ray_writes_the_same_examples_as_locally(tmp_path):
    t = selfplay.plan_selfplay("oddy", {"size": 3}, "mcts:iterations=8", games=3, seed=4)
    run(t, tmp_path / "local", workers=1, method="fisher")
    run(t, tmp_path / "ray", executor=RayExecutor(3), method="fisher")
    here = selfplay.read_examples(selfplay.write_examples(t, tmp_path / "local", shard_size=2))
    there = selfplay.read_examples(selfplay.write_examples(t, tmp_path / "ray", shard_size=2))
    assert sorted(p.name for p in (tmp_path / "ray" / selfplay.EXAMPLES).iterdir()) == ["shard-00000.npz", "shard-00001.npz"]
    assert set(here) == set(there)
    for key in here:
        assert np.array_equal(here[key], there[key]), key
    assert sorted(set(there["game"].tolist())) == [0, 1, 2]
    rows = len(there["action"])
    assert there["observation"].shape[0] == there["legal"].shape[0] == rows
    assert there["legal"][np.arange(rows), there["action"]].all()  # every move played was legal there


def test_the_command_runs_a_ray_tournament(tmp_path):
    out = tmp_path / "cli"
    args = ["tournament", "omny", "--variant", "y", "--size", "4", "--players", *SPECS, "--games-per-pair", "2"]
    result = CliRunner().invoke(app, [*args, "--seed", "5", "--ray", "local", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "Ray (connected already, 2 CPUs)" in result.stdout and "Elo" in result.stdout and "95% CI" in result.stdout
    assert (out / "elo.json").exists() and len(list((out / GAMES).glob("*.json"))) == 2
    assert ray.is_initialized()  # a connection it did not make is left open


def test_the_command_writes_self_play_through_ray(tmp_path):
    out = tmp_path / "sp"
    args = ["selfplay", "oddy", "--size", "3", "--player", "random", "--games", "3", "--ray", "local", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert "3 of 3 games saved" in result.stdout and "examples in 1 shard(s)" in result.stdout
    assert json.loads((out / MANIFEST).read_text())["purpose"] == "selfplay"


def test_a_game_whose_ray_worker_dies_is_a_failed_game_not_a_crash():
    import os

    from ogames.arena.ray_runner import _result

    def die() -> None:  # a local function travels to the worker by value
        os._exit(3)  # the worker process ends mid-task

    dying = ray.remote(max_retries=0)(die).remote()
    number, record, error = _result(ray, dying, 7)
    assert (number, record) == (7, None) and error is not None and error.startswith("Ray could not run the game:")
