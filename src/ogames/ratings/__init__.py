"""Players' ratings (docs/ratings.md): a rating per player and pool with its deviation and a
provisional mark, computed by the `openskill` package's Weng–Lin models; the computer's levels as
rated players with fixed ratings; and their storage. No web here: the web site calls
`RatingStore.apply_result` when a rated game ends.

- `pools`: which games share a rating (`pool_of`, `POOLS`).
- `model`: `Rating` and `rate`, one game's update.
- `ladder`: the computer levels' ratings (`computer_id`, `computer_rating`).
- `results`: a finished game's places (`ranks_of`) and whether it was aborted (`aborted`).
- `store`: `RatingStore` (apply a result once per game, leaderboards, history).
"""

from ogames.ratings.ladder import computer_id, computer_rating, is_computer, level_of
from ogames.ratings.model import Rating, rate
from ogames.ratings.pools import POOLS, Pool, pool_of
from ogames.ratings.results import aborted, ranks_of
from ogames.ratings.store import HistoryPoint, RatingChange, RatingStore, Standing

__all__ = [
    "POOLS",
    "HistoryPoint",
    "Pool",
    "Rating",
    "RatingChange",
    "RatingStore",
    "Standing",
    "aborted",
    "computer_id",
    "computer_rating",
    "is_computer",
    "level_of",
    "pool_of",
    "ranks_of",
    "rate",
]
