"""benchmarks/bench_web_load.py still does what its figures claim, in a short run (no timing is
asserted: the figures are measured in benchmarks/results/): its community mode signs every player
up through the site's forms, plays rated games between accounts (each seat recorded under its
player's account, as the player's own account page shows), keeps the lobby's seeks open for the
whole run, and loses no move; beside it, the plain load still plays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .scaling import needs_services

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_web_load.py"
SHORT = ["--games", "2", "--moves", "4", "--think", "0.05", "--time-limit", "120", "--json"]
COMMUNITY = ["--community", "--seeks", "4", "--watchers", "1", "--revisit", "0.5"]


def bench(*args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(BENCH), *SHORT, *args], capture_output=True, text=True, timeout=540)
    assert done.returncode == 0, done.stderr[-3000:]
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def played_cleanly(run: dict[str, Any], games: int = 2, moves: int = 4) -> None:
    """Every seat played its moves, none refused, unanswered or lost, no client failed."""
    assert run["players"] == 2 * games
    assert run["moves"] == games * moves  # (a game of Y 9 is not won within four moves)
    assert (run["refused"], run["unanswered"], run["lost_moves"], run["client_failures"]) == (0, 0, 0, [])


def community_held(run: dict[str, Any], seeks: int = 4, games: int = 2) -> None:
    """Every player an account seated in its game, the games rated, every seek listed throughout."""
    assert run["mode"] == "community"
    assert run["accounts"] == 2 * games + -(-seeks // 3) + 1  # players, posters (three seeks each at most), the watcher
    assert run["rated_games"] == games
    assert run["seats_of_accounts"] == 2 * games
    assert run["seeks_posted"] == seeks and run["seeks_listed_min"] == seeks
    assert run["lobby_opened"] >= 1 and run["lobby_failures"] == []
    assert run["lobby_other_bytes"] > 0  # the challenges sockets and the posters' pages were read


def test_the_community_load_plays_beside_the_plain_one() -> None:
    figures = bench(*COMMUNITY)
    plain, community = figures["runs"]
    assert (plain["mode"], plain["server"]) == ("plain", "ogames")
    played_cleanly(plain)
    played_cleanly(community)
    community_held(community)
    assert "accounts" not in plain
    assert figures["community_moves_per_second"] == community["moves_per_second"]


@needs_services
def test_the_community_load_on_two_processes_sharing_postgresql_and_redis() -> None:
    """Each player's session, made on one process, holds on the other (the seats of a game sit on
    different processes, and so do the lobby's pages)."""
    community = bench(*COMMUNITY, "--no-plain", "--workers", "2")
    assert community["servers"] == 2 and community["store"] == "postgresql + redis"
    played_cleanly(community)
    community_held(community)
