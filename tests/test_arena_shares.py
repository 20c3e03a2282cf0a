"""The Wilson interval the benchmarks report matches' shares with (ogames.arena.shares)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ogames.arena.shares import wilson


@st.composite
def matches(draw: st.DrawFn) -> tuple[float, int]:
    games = draw(st.integers(1, 10_000))
    return draw(st.integers(0, 2 * games)) / 2, games  # draws count half a point


@given(matches())
def test_the_interval_holds_the_share_and_stays_within_0_and_1(match: tuple[float, int]) -> None:
    points, games = match
    low, high = wilson(points, games)
    assert 0.0 <= low <= points / games <= high <= 1.0
    assert high - low > 0.0


@given(matches(), st.integers(2, 50))
def test_more_games_at_the_same_share_narrow_it(match: tuple[float, int], times: int) -> None:
    points, games = match
    low, high = wilson(points, games)
    more_low, more_high = wilson(points * times, games * times)
    assert more_high - more_low < high - low


def test_a_wider_confidence_is_a_wider_interval_and_a_known_value() -> None:
    assert wilson(8, 10)[0] < wilson(8, 10, z=1.0)[0] < 0.8 < wilson(8, 10, z=1.0)[1] < wilson(8, 10)[1]
    low, high = wilson(5, 10)  # symmetric about one half
    assert abs((low + high) / 2 - 0.5) < 1e-12 and abs(low - 0.2366) < 1e-4


def test_no_wins_start_the_interval_at_0_and_all_wins_end_it_at_1() -> None:
    for games in range(1, 200):
        assert wilson(0, games)[0] == 0.0 and wilson(games, games)[1] == 1.0
