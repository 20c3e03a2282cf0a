"""How sure a match's share of wins is: the Wilson score interval, which (unlike the normal
approximation) stays inside 0–1 and is sound for small matches and shares near 0 or 1.

>>> low, high = wilson(27, 60)
>>> round(low, 3), round(high, 3)
(0.331, 0.575)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)  # 1.95996…: two-sided 95%


def wilson(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The interval of a share `points / games` (a draw may count half a point); (0, 1) for no games."""
    if games <= 0:
        return 0.0, 1.0
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    # Exactly the interval holds p, within 0-1; rounding alone could put its low end above a share of 0.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


__all__ = ["Z95", "wilson"]
