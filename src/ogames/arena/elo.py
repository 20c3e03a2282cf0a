"""Elo ratings with confidence intervals from pairwise results (Bradley–Terry, fitted with numpy).

The model: entrant i scores against j with probability 1 / (1 + 10^((R_j − R_i) / 400)); a draw
counts half a point to each. Ratings are the maximum of the likelihood of all pairwise results
plus `prior` virtual drawn games for every pair that met (one by default: without it a clean
sweep has no finite maximum; 0 gives the plain maximum-likelihood fit, which is then capped at
±MAX_ELO). The mean rating is 0. Newton's method on the concave log-likelihood converges in a
few steps.

Confidence intervals (95%): by default a bootstrap over games (`method="bootstrap"`): the games
are drawn again with replacement `samples` times, every sample is fitted, and the 2.5th and 97.5th
percentiles of each entrant's rating are the interval. It is right also when one game gives
several pairwise results (a 3-player game gives three). An entrant with the same result against
each opponent in all their games (a clean sweep) would get an interval of width 0 that way, so it
gets the Fisher one.
`method="fisher"` gives ±1.96 standard errors from the Fisher information at the fit for everyone
(treating pairwise results as independent).

A multi-seat game is turned into pairwise results by its ranking: for each pair of entrants at the
table, the better placed one scores 1, equals ½ each (`pairwise_results`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of odds
MAX_ELO = 4000.0  # a rating without a finite maximum (prior=0 and a clean sweep) is capped here
Z95 = 1.959963984540054

# One game's pairwise results: (entrant i, entrant j, points of i against j: 1, ½ or 0).
Pairwise = list[tuple[int, int, float]]


def pairwise_results(standing: Mapping[int, Any]) -> Pairwise:
    """The pairwise results of one game from each entrant's standing (any comparable value, e.g.
    (reward, score); higher is better)."""
    entrants = sorted(standing)
    results = []
    for a, i in enumerate(entrants):
        for j in entrants[a + 1 :]:
            si, sj = standing[i], standing[j]
            results.append((i, j, 1.0 if si > sj else 0.0 if si < sj else 0.5))
    return results


def tallies(games: Sequence[Pairwise], count: int, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(points, meetings): points[i, j] scored by i against j and games between them, each game
    counted `weights[g]` times (once by default)."""
    points = np.zeros((count, count))
    meetings = np.zeros((count, count))
    for g, game in enumerate(games):
        w = 1.0 if weights is None else float(weights[g])
        if not w:
            continue
        for i, j, s in game:
            points[i, j] += w * s
            points[j, i] += w * (1.0 - s)
            meetings[i, j] += w
            meetings[j, i] += w
    return points, meetings


def fit(points: np.ndarray, meetings: np.ndarray, prior: float = 1.0, pattern: np.ndarray | None = None) -> np.ndarray:
    """Elo ratings (mean 0) maximising the likelihood of the tallies plus `prior` virtual draws for
    every pair that met (in `pattern`, default: in `meetings`)."""
    count = len(points)
    met = (meetings > 0) if pattern is None else pattern
    w = points + prior * 0.5 * met
    n = meetings + prior * met
    r = np.zeros(count)
    cap = MAX_ELO / SCALE
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))  # p[i, j]: chance that i beats j
        grad = (w - n * p).sum(axis=1)
        curvature = n * p * p.T
        laplacian = np.diag(curvature.sum(axis=1)) - curvature
        step = np.linalg.lstsq(laplacian + np.full((count, count), 1.0 / count), grad, rcond=None)[0]
        r = np.clip(r + step, -cap, cap)
        r -= r.mean()
        if np.max(np.abs(step)) < 1e-9:
            break
    return r * SCALE


def fisher_halfwidths(ratings: np.ndarray, meetings: np.ndarray, prior: float = 1.0) -> np.ndarray:
    """Half-widths of 95% intervals from the Fisher information at the fit (mean-0 ratings)."""
    r = ratings / SCALE
    n = meetings + prior * (meetings > 0)
    p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))
    curvature = n * p * p.T
    laplacian = np.diag(curvature.sum(axis=1)) - curvature
    covariance = np.linalg.pinv(laplacian)  # the inverse on the mean-0 subspace
    variance = np.clip(np.diag(covariance), 0.0, None)
    played = meetings.sum(axis=1) > 0
    return np.where(played, Z95 * np.sqrt(variance) * SCALE, np.inf)


@dataclass(frozen=True)
class Rating:
    """One entrant's line: games, points in its pairwise results (`meetings` of them: one per
    game with two sides, more at bigger tables), Elo and its 95% interval."""

    name: str
    games: int
    points: float
    meetings: int
    elo: float
    low: float
    high: float

    @property
    def score(self) -> float:
        """Points per pairwise result (0 to 1); NaN without games."""
        return self.points / self.meetings if self.meetings else math.nan

    @property
    def error(self) -> float:
        """Half the interval's width (the ± shown in tables)."""
        return (self.high - self.low) / 2.0


@dataclass(frozen=True)
class EloTable:
    """Ratings of every entrant (in entrant order), the pairwise tallies and how intervals were made."""

    ratings: list[Rating]
    points: np.ndarray
    meetings: np.ndarray
    method: str
    prior: float

    def ranked(self) -> list[Rating]:
        """The ratings, best first."""
        return sorted(self.ratings, key=lambda r: -r.elo)

    def _pair(self, i: int, j: int) -> dict:
        return {"points": float(self.points[i, j]), "games": int(self.meetings[i, j])}

    def to_json(self) -> dict:
        """The table as JSON values (entrants, pairwise points and games, the method)."""
        names = [r.name for r in self.ratings]
        return {
            "method": self.method,
            "prior_draws": self.prior,
            "ratings": [
                {
                    "name": r.name,
                    "games": r.games,
                    "points": r.points,
                    "pairwise_games": r.meetings,
                    "score": None if math.isnan(r.score) else round(r.score, 6),
                    "elo": round(r.elo, 2),
                    "low": _finite(r.low),
                    "high": _finite(r.high),
                }
                for r in self.ratings
            ],
            "pairwise": {a: {b: self._pair(i, j) for j, b in enumerate(names) if i != j} for i, a in enumerate(names)},
        }


def uniform_results(games: Sequence[Pairwise], count: int) -> np.ndarray:
    """Per entrant: whether it had one result against each opponent in every game they met (all
    wins, all draws or all losses against each): then every bootstrap sample repeats its results."""
    seen: dict[tuple[int, int], set[float]] = {}
    for game in games:
        for i, j, s in game:
            seen.setdefault((i, j) if i < j else (j, i), set()).add(s if i < j else 1.0 - s)
    uniform = np.ones(count, dtype=bool)
    for (i, j), values in seen.items():
        if len(values) > 1:
            uniform[i] = uniform[j] = False
    return uniform


def _finite(value: float) -> float | None:
    return round(value, 2) if math.isfinite(value) else None


def elo_table(
    names: Sequence[str],
    games: Sequence[Pairwise],
    method: str = "bootstrap",
    samples: int = 1000,
    prior: float = 1.0,
    seed: int = 0,
) -> EloTable:
    """Fit the ratings of `names` from each game's pairwise results, with 95% intervals by
    `method` ("bootstrap" over games, or "fisher")."""
    if method not in ("bootstrap", "fisher"):
        raise ValueError(f"confidence intervals come by bootstrap or fisher, not {method!r}")
    count = len(names)
    points, meetings = tallies(games, count)
    ratings = fit(points, meetings, prior)
    if method == "fisher" or not games:
        half = fisher_halfwidths(ratings, meetings, prior)
        low, high = ratings - half, ratings + half
        label = "Fisher information, 95%"
    else:
        rng = np.random.default_rng(seed)
        pattern = meetings > 0
        draws = np.empty((samples, count))
        per_game = [tallies([g], count) for g in games]
        stacked_points = np.stack([p for p, _ in per_game])
        stacked_meetings = np.stack([m for _, m in per_game])
        for b in range(samples):
            weights = rng.multinomial(len(games), np.full(len(games), 1.0 / len(games)))
            p = np.tensordot(weights, stacked_points, axes=1)
            m = np.tensordot(weights, stacked_meetings, axes=1)
            draws[b] = fit(p, m, prior, pattern)
        low, high = np.percentile(draws, [2.5, 97.5], axis=0)
        label = f"bootstrap over games ({samples} samples), 95%"
        # An entrant with one result against each opponent in every game (a clean sweep) has it in
        # every sample too, so the bootstrap sees no spread at all: such entrants get the Fisher interval.
        same = uniform_results(games, count)
        if same.any():
            half = fisher_halfwidths(ratings, meetings, prior)
            low = np.where(same, ratings - half, low)
            high = np.where(same, ratings + half, high)
            label += f"; Fisher for {int(same.sum())} with one result per opponent"
    played = meetings.sum(axis=1)
    scored = points.sum(axis=1)
    seen = np.zeros(count, dtype=int)
    for game in games:
        for k in {e for i, j, _ in game for e in (i, j)}:
            seen[k] += 1
    table = [
        Rating(
            str(name),
            int(seen[i]),
            float(scored[i]),
            round(float(played[i])),
            float(ratings[i]),
            float(low[i]) if played[i] else -math.inf,
            float(high[i]) if played[i] else math.inf,
        )
        for i, name in enumerate(names)
    ]
    return EloTable(table, points, meetings, label, prior)
