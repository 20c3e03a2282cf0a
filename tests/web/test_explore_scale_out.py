"""The opening explorer across two server processes behind one PostgreSQL (docs/web.md, "The opening
explorer"): a game that ends on one process is counted at once on the other — its explorer page,
read just before, shows it on the next request — and the index's rows are written once. The
index's own checks of test_explore_index.py on PostgreSQL too (its "insert … on conflict")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from ogames.web.core.store import Store
from ogames.web.explore.site import explorer_games

from .scaling import needs_services, two_servers
from .serving import call, play_through
from .test_explore_index import counted_once, taken_back

pytestmark = pytest.mark.slow

Y4 = "game=omny&variant=y&size=4&source=site"
LINE = ["a1", "d1", "a2", "c2", "a3", "b3", "a4"]  # Black wins


def site_games(base: str, moves: str = "") -> dict[str, int]:
    status, view = call(base, f"/api/explore?{Y4}" + (f"&moves={moves}" if moves else ""))
    assert status == 200, view
    return {row["move"]: row["games"] for row in view["next"]}


@needs_services
def test_a_game_ended_on_one_process_shows_at_once_on_the_other(services: tuple[Any, Any], tmp_path: Path) -> None:
    with two_servers(services, tmp_path, "explore_across") as (url, base_a, base_b):
        assert site_games(base_b) == {}  # read on B before the game: nothing kept that hides the next one
        play_through(base_a, LINE)
        assert site_games(base_b) == {"a1": 1}
        assert site_games(base_b, "a1,d1,a2") == {"c2": 1}
        assert site_games(base_a) == {"a1": 1}
        engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(explorer_games)).scalar() == 1
        engine.dispose()


@needs_services
@pytest.mark.parametrize("scenario", [counted_once, taken_back])
def test_the_index_on_postgresql(services: tuple[Any, Any], scenario: Any) -> None:
    pg, _ = services
    scenario(Store(pg.new_database(f"explore_{scenario.__name__}")))
