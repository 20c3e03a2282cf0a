"""The search's raw win chance mapped to the chance observed in self-play, and the marks' thresholds.

The mean reward a search of a few thousand iterations reports is not a frequency: measured against
the outcomes of self-play games at the review's budget it is too sure or not sure enough, by
amounts that differ along the scale. `calibration.json` keeps the measurement as data — points
(raw, observed) of a monotone (isotonic) fit, read here and interpolated between — with the
thresholds of the loss in calibrated win chance that make a move an inaccuracy, a mistake or a
blunder. `benchmarks/bench_review_calibration.py` writes the file; docs/review.md shows the plot.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Calibration:
    """A monotone map raw → observed win chance (`points`, raw increasing) and the marks'
    thresholds (loss in calibrated win chance at which a move is an inaccuracy, mistake, blunder)."""

    points: tuple[tuple[float, float], ...]
    inaccuracy: float
    mistake: float
    blunder: float
    budget: int = 0
    games: int = 0

    def __call__(self, raw: float) -> float:
        """The calibrated win chance of a raw one (clamped to [0, 1]; linear between the points,
        flat beyond the first and last; 0 and 1 stay 0 and 1, which are proofs or finished games)."""
        raw = min(1.0, max(0.0, raw))
        if raw in (0.0, 1.0):
            return raw
        xs = [x for x, _ in self.points]
        i = bisect_right(xs, raw)
        if i == 0:
            return self.points[0][1]
        if i == len(xs):
            return self.points[-1][1]
        (x0, y0), (x1, y1) = self.points[i - 1], self.points[i]
        share = 0.0 if x1 == x0 else (raw - x0) / (x1 - x0)
        return min(1.0, max(0.0, y0 + share * (y1 - y0)))

    def mark(self, loss: float) -> str:
        """The mark of a move that lost `loss` of the mover's (calibrated) win chance."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "good"



IDENTITY = Calibration(((0.0, 0.0), (1.0, 1.0)), 0.1, 0.2, 0.3)  # the raw figures, for measuring them


@cache
def _shipped() -> dict[str, Any]:
    text = resources.files("ogames.teach").joinpath("calibration.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def calibration(game: str, seats: int = 2) -> Calibration:
    """The shipped calibration (`calibration.json`) of a game's win chance with `seats` players: the
    curve self-play measured for that game and player count (every game with two players, Omega
    with three and four, kept under "players") with that count's thresholds; else the raw figures
    with the two-player thresholds."""
    data = _shipped()
    part = data if seats == 2 else data.get("players", {}).get(str(seats), {})
    curve = part.get("curves", {}).get(game)
    points = tuple((float(x), float(y)) for x, y in curve) if curve else IDENTITY.points
    marks = part["thresholds"] if curve else data["thresholds"]
    games = int(part["games"]) if curve else int(data["games"])
    return Calibration(points, float(marks["inaccuracy"]), float(marks["mistake"]), float(marks["blunder"]),
                       int(data["budget"]), games)
