"""The review's calibration (`ogames.teach.calibration`): the shipped data is what the review
needs — measured at the review's own budget, a monotone curve per game, ordered thresholds — and
the map and the marks behave as documented."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ogames.teach.calibration import IDENTITY, Calibration, calibration
from ogames.teach.review import DEFAULT_BUDGET, GAMES

chances = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def test_the_shipped_calibration_was_measured_at_the_reviews_budget_for_every_game() -> None:
    for game in GAMES:
        shipped = calibration(game)
        assert shipped.budget == DEFAULT_BUDGET, "re-run benchmarks/bench_review_calibration.py after changing the budget"
        assert shipped.games >= 200
        assert shipped.points != IDENTITY.points, f"{game} has its own curve"
        raws = [x for x, _ in shipped.points]
        observed = [y for _, y in shipped.points]
        assert raws == sorted(raws) and observed == sorted(observed)
        assert 0.0 < shipped.inaccuracy < shipped.mistake < shipped.blunder < 1.0

def test_omega_with_three_and_four_players_has_its_own_curve_and_thresholds() -> None:
    two = calibration("omega")
    for seats in (3, 4):
        shipped = calibration("omega", seats)
        assert shipped.budget == DEFAULT_BUDGET and shipped.games >= 200
        assert shipped.points not in (IDENTITY.points, two.points)
        raws = [x for x, _ in shipped.points]
        observed = [y for _, y in shipped.points]
        assert raws == sorted(raws) and observed == sorted(observed)
        for x, y in shipped.points:  # the map goes through its stored points
            assert shipped(x) == pytest.approx(y)
        assert 0.0 < shipped.inaccuracy < shipped.mistake < shipped.blunder < 1.0
    # A game with no curve of its own for that player count: the raw chances, the two-player marks.
    other = calibration("omny", seats=3)
    assert other.points == IDENTITY.points
    assert (other.inaccuracy, other.mistake, other.blunder) == (two.inaccuracy, two.mistake, two.blunder)


def test_the_two_player_curves_are_the_ones_measured_before_more_players_were() -> None:
    # The two-player calibration as benchmarks/bench_review_calibration.py wrote it (200 games):
    # measuring Omega with more players leaves it as it was.
    omega = calibration("omega", seats=2)
    assert omega.games == 200
    assert omega.points[4:6] == ((0.4524, 0.2881), (0.5474, 0.7107))
    assert calibration("omny").points[3] == (0.3623, 0.2426)
    assert calibration("onyx").points[-1] == (0.9239, 1.0)
    assert (omega.inaccuracy, omega.mistake, omega.blunder) == (0.0709, 0.1539, 0.3071)
    assert omega(0.5) == pytest.approx(0.2881 + (0.5 - 0.4524) / (0.5474 - 0.4524) * (0.7107 - 0.2881))


@given(chances, chances)
def test_the_map_keeps_the_order_of_chances_and_their_range(a: float, b: float) -> None:
    for game in GAMES:
        cal = calibration(game)
        low, high = sorted((a, b))
        assert 0.0 <= cal(low) <= cal(high) <= 1.0


def test_the_ends_stay_where_they_are_and_the_marks_follow_the_thresholds() -> None:
    cal = Calibration(((0.2, 0.1), (0.8, 0.9)), 0.1, 0.2, 0.3)
    assert cal(0.0) == 0.0 and cal(1.0) == 1.0  # proofs and finished games
    assert cal(0.5) == pytest.approx(0.5) and cal(0.1) == 0.1 and cal(0.95) == 0.9  # flat beyond the points
    assert [cal.mark(x) for x in (0.0, 0.1, 0.19, 0.2, 0.3, 1.0)] == [
        "good", "inaccuracy", "inaccuracy", "mistake", "blunder", "blunder"]
