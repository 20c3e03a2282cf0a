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
    assert calibration("omega", seats=3).points == IDENTITY.points  # three players: the raw chances


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
