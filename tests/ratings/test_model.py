"""One game's rating update (ogames.ratings.model): the same as the openskill package's own
models called directly, Elo's scale between settled players, a win never costing the winner,
ratings conserved between equally sure players, a provisional mark that settles, and ratings
that end up in the order of the players' real strengths."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import BradleyTerryFull, PlackettLuce

from ogames.ratings.model import DAY, IDLE_GROWTH, PROVISIONAL_DEVIATION, START_DEVIATION, Rating, rate

ratings = st.builds(Rating, st.floats(300, 2700), st.floats(30, START_DEVIATION), st.integers(0, 500))


def places(players: int) -> st.SearchStrategy[list[int]]:
    """Ranks of a finished game: any places, ties allowed."""
    return st.lists(st.integers(0, players - 1), min_size=players, max_size=players)


def library(table: bool) -> BradleyTerryFull | PlackettLuce:
    """The library's model as docs/ratings.md describes ours: the Elo scale (1500, deviation 350,
    √2·β = 400/ln 10), τ 10, and γ 1."""
    kind = PlackettLuce if table else BradleyTerryFull
    return kind(mu=1500, sigma=350, beta=400 / math.log(10) / math.sqrt(2), tau=10, gamma=lambda *_: 1.0)


@given(st.data(), st.sampled_from([2, 3, 4]))
def test_a_game_is_rated_as_the_library_rates_it(data: st.DataObject, players: int) -> None:
    table = players > 2
    before = data.draw(st.lists(ratings, min_size=players, max_size=players))
    ranks = data.draw(places(players))
    model = library(table)
    expected = model.rate([[model.rating(mu=r.rating, sigma=r.deviation)] for r in before], ranks=[float(r) for r in ranks])
    after = rate(before, ranks, table=table)
    for old, new, (theirs,) in zip(before, after, expected, strict=True):
        assert new.rating == pytest.approx(theirs.mu, abs=1e-9) and new.deviation == pytest.approx(theirs.sigma, abs=1e-9)
        assert new.games == old.games + 1


@given(ratings, ratings)
def test_a_fixed_player_keeps_its_rating_and_the_other_moves_as_against_anyone(person: Rating, computer: Rating) -> None:
    moved, kept = rate([person, computer], [0, 1], table=False, fixed=[False, True])
    assert kept == computer
    assert moved == rate([person, computer], [0, 1], table=False)[0]


@given(st.data(), st.sampled_from([2, 3, 4]))
def test_a_win_never_lowers_the_winners_rating_nor_a_last_place_raises_the_loser(data: st.DataObject, players: int) -> None:
    before = data.draw(st.lists(ratings, min_size=players, max_size=players))
    winner, loser = 0, players - 1
    middle = data.draw(st.lists(st.integers(1, players - 1), min_size=players - 2, max_size=players - 2))
    ranks = [winner, *sorted(middle), loser]
    after = rate(before, ranks, table=players > 2)
    assert after[0].rating >= before[0].rating
    if ranks.count(loser) == 1:
        assert after[-1].rating <= before[-1].rating


@given(st.floats(300, 2700), st.floats(300, 2700), st.floats(30, START_DEVIATION), st.data())
def test_ratings_are_conserved_between_players_equally_sure_of_theirs(first: float, second: float, deviation: float,
                                                                        data: st.DataObject) -> None:
    players = data.draw(st.sampled_from([2, 3, 4]))
    others = data.draw(st.lists(st.floats(300, 2700), min_size=players - 2, max_size=players - 2))
    before = [Rating(value, deviation) for value in (first, second, *others)]
    after = rate(before, data.draw(places(players)), table=players > 2)
    assert sum(r.rating for r in after) == pytest.approx(sum(r.rating for r in before), abs=1e-6)


def test_between_settled_players_the_model_expects_elos_score() -> None:
    """A win moves a rating by (1 − p)·k and a loss by −p·k: their ratio gives the expected score
    p the model uses, which between players sure of their ratings is Elo's 1 / (1 + 10^(−d/400))."""
    strong, weak = Rating(1700, 1.0), Rating(1500, 1.0)
    won = rate([strong, weak], [0, 1], table=False)[0].rating - strong.rating
    lost = strong.rating - rate([strong, weak], [1, 0], table=False)[0].rating
    expected = lost / (won + lost)
    assert expected == pytest.approx(1 / (1 + 10 ** (-200 / 400)), abs=0.005)


def test_a_new_rating_is_provisional_until_it_settles_against_the_computer() -> None:
    rng = random.Random(7)
    player = Rating()
    assert player.provisional and player.shown == "1500?"
    levels = [Rating(value, 50) for value in (1200, 1400, 1600, 1800, 2000)]
    games = 0
    while player.provisional:
        level = rng.choice(levels)
        won = rng.random() < 1 / (1 + 10 ** ((level.rating - 1700) / 400))
        player = rate([player, level], [0, 1] if won else [1, 0], table=False, fixed=[False, True])[0]
        games += 1
        assert games < 60, "a rating settles within a few dozen games"
    assert player.deviation <= PROVISIONAL_DEVIATION and player.shown == f"{round(player.rating)}"
    assert player.games == games


def test_a_rating_not_played_grows_uncertain_again_up_to_a_new_players() -> None:
    settled = Rating(1800, 60, 40)
    assert not settled.idle(7 * 86400).provisional  # a week away changes little
    assert settled.idle(7 * 86400).deviation > settled.deviation
    assert settled.idle(365 * 86400).provisional  # a year away: provisional again
    assert settled.idle(100 * 365 * 86400).deviation == START_DEVIATION
    assert settled.idle(0) == settled and settled.idle(365 * 86400).rating == settled.rating


def spearman(first: list[float], second: list[float]) -> float:
    """Spearman's rank correlation of two lists without ties."""
    def order(values: list[float]) -> list[int]:
        ranks = [0] * len(values)
        for place, index in enumerate(sorted(range(len(values)), key=values.__getitem__)):
            ranks[index] = place
        return ranks

    a, b = order(first), order(second)
    n = len(a)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) / (n * (n * n - 1))


@settings(max_examples=20)
@given(st.lists(st.floats(800, 2400), min_size=6, max_size=10, unique=True), st.integers(0, 2**32), st.sampled_from([2, 3]))
def test_after_many_games_the_ratings_follow_the_players_strengths(strengths: list[float], seed: int, players: int) -> None:
    """Simulated players of known strength (Elo's model for duels, Plackett–Luce's with
    Gumbel noise for tables) meet at random: their ratings end up ordered as their strengths."""
    strengths = sorted(strengths)
    if min(b - a for a, b in itertools.pairwise(strengths)) < 100:
        strengths = [800 + 150 * i for i in range(len(strengths))]  # too close to tell apart in a few hundred games
    rng = random.Random(seed)
    current = [Rating() for _ in strengths]
    for _ in range(60 * len(strengths)):
        seats = rng.sample(range(len(strengths)), players)
        scale = 400 / math.log(10)
        performance = [strengths[seat] / scale - math.log(-math.log(1e-12 + rng.random() * (1 - 2e-12))) for seat in seats]
        order = sorted(range(players), key=lambda i: -performance[i])
        ranks = [order.index(i) for i in range(players)]
        after = rate([current[seat] for seat in seats], ranks, table=players > 2)
        for seat, new in zip(seats, after, strict=True):
            current[seat] = new
    assert spearman([r.rating for r in current], strengths) >= 0.9


@given(st.lists(ratings, min_size=4, max_size=4), st.sampled_from([[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 0, 0]]))
def test_two_teams_of_two_are_rated_as_the_library_rates_teams(before: list[Rating], ranks: list[int]) -> None:
    """Omiga's 2v2: seats 0 and 2 against 1 and 3, each team's place shared by its players."""
    model = library(True)
    team = [[model.rating(mu=before[seat].rating, sigma=before[seat].deviation) for seat in seats] for seats in ((0, 2), (1, 3))]
    (a, c), (b, d) = model.rate(team, ranks=[float(ranks[0]), float(ranks[1])])
    after = rate(before, ranks, table=True, teams=[0, 1, 0, 1])
    for new, theirs in zip(after, (a, b, c, d), strict=True):
        assert new.rating == pytest.approx(theirs.mu, abs=1e-9) and new.deviation == pytest.approx(theirs.sigma, abs=1e-9)
    if ranks[0] < ranks[1]:  # the winning team's players both gain, the losers both lose
        assert after[0].rating > before[0].rating and after[2].rating > before[2].rating
        assert after[1].rating < before[1].rating and after[3].rating < before[3].rating


def test_a_team_cannot_be_split_between_places() -> None:
    with pytest.raises(ValueError, match="share its place"):
        rate([Rating()] * 4, [0, 1, 1, 0], table=True, teams=[0, 1, 0, 1])
    with pytest.raises(ValueError, match="two teams"):
        rate([Rating()] * 4, [0, 0, 0, 0], table=True, teams=[0, 0, 0, 0])


def test_a_result_that_does_not_fit_is_refused() -> None:
    with pytest.raises(ValueError, match="one rank per player"):
        rate([Rating(), Rating()], [0], table=False)
    with pytest.raises(ValueError, match="two players"):
        rate([Rating(), Rating(), Rating()], [0, 1, 2], table=False)


def test_the_library_rates_its_published_example_as_published() -> None:
    """openskill's README: two teams of two new players under the default Plackett–Luce model,
    the first team winning (the numbers as the README prints them)."""
    model = PlackettLuce()
    [[a, b], [x, y]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]])
    assert (a.mu, a.sigma) == pytest.approx((26.964294621803063, 8.177962604389991), abs=1e-12)
    assert (x.mu, x.sigma) == pytest.approx((23.035705378196937, 8.177962604389991), abs=1e-12)
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and (x.mu, x.sigma) == (y.mu, y.sigma)


@given(ratings, st.floats(0, 3000 * DAY), st.floats(0, 3000 * DAY))
def test_time_away_only_adds_uncertainty_in_quadrature_up_to_a_new_players(rating: Rating, first: float, then: float) -> None:
    away = rating.idle(first)
    assert (away.rating, away.games) == (rating.rating, rating.games)
    assert rating.deviation <= away.deviation <= START_DEVIATION
    assert rating.idle(first + then).deviation >= away.deviation  # longer away: never surer
    # Glicko's step: the variance grows by IDLE_GROWTH² a day, so two absences add up to one.
    assert math.isclose(away.idle(then).deviation, rating.idle(first + then).deviation, rel_tol=1e-9)
    expected = min(START_DEVIATION, math.sqrt(rating.deviation**2 + IDLE_GROWTH**2 * first / DAY))
    assert math.isclose(away.deviation, expected, rel_tol=1e-9)


@given(st.floats(30, PROVISIONAL_DEVIATION - 1))
def test_a_settled_rating_is_provisional_again_after_the_days_docs_ratings_md_gives(deviation: float) -> None:
    days = (PROVISIONAL_DEVIATION**2 - deviation**2) / IDLE_GROWTH**2  # (110² − d²) / 7²
    settled = Rating(1700, deviation, 30)
    assert not settled.idle((days - 1) * DAY).provisional
    assert settled.idle((days + 1) * DAY).provisional
    assert settled.idle((days + 1) * DAY).shown == "1700?"
