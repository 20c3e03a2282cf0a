"""A player's rating in one pool and how a finished game changes it, through the `openskill`
package's Weng–Lin models (docs/ratings.md says why these and not a Glicko-2 package).

The models are set on the Elo scale: a new player starts at 1500 with a deviation of 350, as in
Glicko, and `BETA` is chosen so that between two settled players (deviations near 0) the chance
of winning is Elo's, 1 / (1 + 10^(−d/400)) for a difference d. A deviation then means what
Glicko's RD means, and a rating is provisional while its deviation is above 110 (lichess's mark).

- Two-player pools: `BradleyTerryFull` (Weng and Lin's Bradley–Terry, pairwise logistic: the model
  Elo and Glicko stand on).
- Omega's tables of three and four: `PlackettLuce`, whose one update takes the whole finishing
  order of the table. Omiga's 2v2 is rated by the same model with teams: a team's skill is the
  sum of its players' (openskill's teams), and each player moves by their share of its surprise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce

START_RATING = 1500.0
START_DEVIATION = 350.0
BETA = 400.0 / math.log(10.0) / math.sqrt(2.0)  # √2·β = 400/ln 10: Elo's logistic between two settled players
# Added (in quadrature) to every player's deviation before each game, as Glicko-2's volatility
# is: a rating never settles so far that it stops following a player who improves. With it a
# player who plays on settles at a deviation of about 60–70 (docs/ratings.md).
TAU = 10.0
PROVISIONAL_DEVIATION = 110.0  # lichess: a rating is provisional while its deviation is above 110
# A rating not played grows uncertain again (Glicko's step for a player who sat a period out):
# its variance grows by IDLE_GROWTH² a day, up to a new player's, so a settled rating (deviation
# about 60) is provisional again after about half a year without a rated game in its pool.
IDLE_GROWTH = 7.0
DAY = 86400.0


@dataclass(frozen=True)
class Rating:
    """A player's rating in a pool: the rating (the model's mean skill, on the Elo scale), its
    deviation (the model's sigma: one standard deviation of what the rating might really be) and
    the rated games played."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    games: int = 0

    @property
    def provisional(self) -> bool:
        """Whether the rating has not settled yet (deviation above 110)."""
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def shown(self) -> str:
        """As a page shows it: the rating rounded, with "?" while it is provisional ("1500?")."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    def idle(self, seconds: float) -> Rating:
        """The rating after `seconds` without a rated game: its deviation grown, up to a new player's."""
        if seconds <= 0 or self.deviation >= START_DEVIATION:
            return self
        grown = math.sqrt(self.deviation**2 + IDLE_GROWTH**2 * seconds / DAY)
        return Rating(self.rating, min(grown, START_DEVIATION), self.games)


def undamped(*_: Any) -> float:
    """Weng and Lin's γ, the share of each game's information a deviation takes in: all of it.
    The library's default, σ/c, was made for many teams at once; between two players (and three
    or four) it only slows a new rating down, to about 40 games before it settles where Glicko
    takes about 10; with 1 it takes about 20 (docs/ratings.md)."""
    return 1.0


def two_player_model() -> BradleyTerryFull:
    """The model of the two-player pools, on the Elo scale."""
    return BradleyTerryFull(mu=START_RATING, sigma=START_DEVIATION, beta=BETA, tau=TAU, gamma=undamped)


def table_model() -> PlackettLuce:
    """The model of Omega's tables of three and four, on the same scale."""
    return PlackettLuce(mu=START_RATING, sigma=START_DEVIATION, beta=BETA, tau=TAU, gamma=undamped)


def rate(ratings: Sequence[Rating], ranks: Sequence[int], *, table: bool, fixed: Sequence[bool] | None = None,
         teams: Sequence[int] | None = None) -> list[Rating]:
    """Each player's rating after one game, in seat order: `ranks` per seat (0 first; equal ranks
    tie), `table` for a table of three or more (Plackett–Luce) rather than two players
    (Bradley–Terry). `teams` gives each seat's team when players play together (2v2): teammates
    share their team's place. A player marked `fixed` (a computer level) keeps its rating; the
    others count one more game."""
    if len(ratings) != len(ranks) or len(ratings) < 2:
        raise ValueError(f"a rated game needs one rank per player and two players or more, not {len(ratings)} and {len(ranks)}")
    if not table and len(ratings) != 2:
        raise ValueError(f"a two-player pool rates games of two players, not {len(ratings)}")
    fixed = [False] * len(ratings) if fixed is None else list(fixed)
    seat_team = list(range(len(ratings))) if teams is None else list(teams)
    if len(seat_team) != len(ratings):
        raise ValueError(f"one team per seat: {len(ratings)} players but {len(seat_team)} teams")
    order = sorted(set(seat_team))  # the teams, each with its seats in seat order
    members = [[seat for seat, team in enumerate(seat_team) if team == each] for each in order]
    if len(members) < 2:
        raise ValueError("a rated game needs two teams or more")
    if any(len({ranks[seat] for seat in team}) != 1 for team in members):
        raise ValueError(f"the players of a team share its place, not {list(ranks)!r}")
    model: Any = table_model() if table else two_player_model()
    before = [[model.rating(mu=ratings[seat].rating, sigma=ratings[seat].deviation) for seat in team] for team in members]
    after = model.rate(before, ranks=[float(ranks[team[0]]) for team in members])
    new = {seat: rated for team, rated_team in zip(members, after, strict=True)
           for seat, rated in zip(team, rated_team, strict=True)}
    return [
        old if keep else Rating(new[seat].mu, new[seat].sigma, old.games + 1)
        for seat, (old, keep) in enumerate(zip(ratings, fixed, strict=True))
    ]

