"""Tournament schedules (every pair, every seat, equally often) and the Elo fit on synthetic results."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations, permutations

import numpy as np
import pytest

from ogames.arena.elo import elo_table, fit, pairwise_results, tallies
from ogames.arena.schedule import FILE_PATTERN, balanced, default_games_per_pair, schedule
from ogames.errors import BadOption

# ----- schedules ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("entrants", "games"), [(2, 2), (2, 10), (3, 4), (5, 6)])
def test_two_sides_every_pair_plays_equally_often_in_each_seat(entrants, games):
    plan = schedule(entrants, 2, games)
    assert len(plan) == math.comb(entrants, 2) * games
    seatings = Counter(p.seating for p in plan)
    for i, j in combinations(range(entrants), 2):
        assert seatings[(i, j)] == seatings[(j, i)] == games // 2
    firsts = Counter(p.seating[0] for p in plan)
    assert set(firsts.values()) == {(entrants - 1) * games // 2}


def test_rounds_hold_every_pair_once_and_numbers_run_in_order():
    plan = schedule(4, 2, 3)
    assert [p.number for p in plan] == list(range(len(plan)))
    for r in range(3):
        pairs = [frozenset(p.seating) for p in plan if p.round == r]
        assert sorted(map(sorted, pairs)) == [list(c) for c in combinations(range(4), 2)]


def test_odd_games_per_pair_still_spread_the_first_seat():
    plan = schedule(3, 2, 1)
    assert Counter(p.seating[0] for p in plan) == Counter({0: 1, 1: 1, 2: 1})
    assert not balanced(1, 2) and balanced(4, 2) and balanced(12, 3) and not balanced(8, 3)


@pytest.mark.parametrize(("entrants", "sides"), [(3, 3), (4, 3), (4, 4)])
def test_bigger_tables_rotate_through_every_seat_order(entrants, sides):
    cycle = math.factorial(sides)
    plan = schedule(entrants, sides, cycle)
    assert len(plan) == math.comb(entrants, sides) * cycle
    for group in combinations(range(entrants), sides):
        seatings = [p.seating for p in plan if set(p.seating) == set(group)]
        assert sorted(seatings) == sorted(tuple(group[k] for k in order) for order in permutations(range(sides)))
    # hence every entrant sits in every seat, and every pair in every pair of seats, equally often
    seat_counts = Counter((e, s) for p in plan for s, e in enumerate(p.seating))
    assert len(set(seat_counts.values())) == 1
    pair_seats = Counter((p.seating[a], p.seating[b], a, b) for p in plan for a in range(sides) for b in range(sides) if a != b)
    assert len(set(pair_seats.values())) == 1


def test_file_names_identify_number_round_and_seats():
    plan = schedule(4, 3, 6)
    names = [p.file_name for p in plan]
    assert len(set(names)) == len(names)
    match = FILE_PATTERN.fullmatch(plan[7].file_name)
    assert match and int(match[1]) == 7 and int(match[2]) == plan[7].round
    assert tuple(map(int, match[3].split("-"))) == plan[7].seating


def test_schedules_refuse_what_cannot_be_played():
    with pytest.raises(BadOption, match="at least two players"):
        schedule(1, 2, 2)
    with pytest.raises(BadOption, match="at least 3 players"):
        schedule(2, 3, 6)
    with pytest.raises(BadOption, match="at least 1"):
        schedule(2, 2, 0)
    assert default_games_per_pair(2) == 10 and default_games_per_pair(3) == 12 and default_games_per_pair(4) == 24


# ----- Elo ----------------------------------------------------------------------------------------


def games_between(i: int, j: int, wins: int, draws: int, losses: int) -> list[list[tuple[int, int, float]]]:
    return [[(i, j, 1.0)]] * wins + [[(i, j, 0.5)]] * draws + [[(i, j, 0.0)]] * losses


def test_a_stronger_player_gets_a_higher_rating():
    games = games_between(0, 1, 14, 2, 4) + games_between(1, 2, 12, 4, 4) + games_between(0, 2, 18, 0, 2)
    table = elo_table(["a", "b", "c"], games, samples=200)
    a, b, c = (r.elo for r in table.ratings)
    assert a > b > c
    assert abs(a + b + c) < 1e-6  # mean 0
    assert [r.name for r in table.ranked()] == ["a", "b", "c"]
    assert [r.games for r in table.ratings] == [40, 40, 40]
    assert table.ratings[0].points == 14 + 1 + 18 + 0


def test_the_fit_matches_the_elo_formula_for_two_players():
    # 75% against one opponent is 400·log10(3) ≈ 191 Elo apart; with no prior the fit is exact.
    points, meetings = tallies(games_between(0, 1, 30, 0, 10), 2)
    r = fit(points, meetings, prior=0.0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=1e-6)


def test_symmetric_results_give_equal_ratings():
    games = games_between(0, 1, 5, 2, 5) + games_between(1, 2, 5, 2, 5) + games_between(2, 0, 5, 2, 5)
    for method in ("bootstrap", "fisher"):
        table = elo_table(["a", "b", "c"], games, method=method, samples=200)
        assert [r.elo for r in table.ratings] == pytest.approx([0, 0, 0], abs=1e-6)
        widths = [r.error for r in table.ratings]
        assert all(w > 0 for w in widths)


@pytest.mark.parametrize("method", ["bootstrap", "fisher"])
def test_intervals_shrink_with_more_games(method):
    few = elo_table(["a", "b"], games_between(0, 1, 6, 2, 4), method=method, samples=400)
    many = elo_table(["a", "b"], games_between(0, 1, 60, 20, 40), method=method, samples=400)
    assert many.ratings[0].error < few.ratings[0].error / 2
    for table in (few, many):
        r = table.ratings[0]
        assert r.low < r.elo < r.high


def test_a_clean_sweep_stays_finite_and_the_bootstrap_is_seeded():
    table = elo_table(["a", "b"], games_between(0, 1, 10, 0, 0), samples=100, seed=3)
    assert 0 < table.ratings[0].elo < 1000 and math.isfinite(table.ratings[0].high)
    # every bootstrap sample is the same sweep: the interval comes from the Fisher information
    assert table.ratings[0].error > 50 and "Fisher for 2" in table.method
    mixed = elo_table(["a", "b", "c"], games_between(0, 1, 10, 0, 0) + games_between(1, 2, 3, 1, 2), samples=100)
    assert "Fisher for 1" in mixed.method and all(r.error > 0 for r in mixed.ratings)
    # three-player games that always end alike: each pair's result never varies
    same = elo_table(["x", "y", "z"], [pairwise_results({0: (1.0, 0.0), 1: (0.0, 0.0), 2: (0.0, 0.0)})] * 6, samples=50)
    assert "Fisher for 3" in same.method and all(r.error > 0 for r in same.ratings)
    again = elo_table(["a", "b"], games_between(0, 1, 10, 0, 0), samples=100, seed=3)
    assert again.ratings == table.ratings


def test_multi_seat_rankings_become_pairwise_results():
    # entrant 2 won; 0 beat 1 on score; a tie is half a point each
    assert pairwise_results({0: (0.0, 30.0), 1: (0.0, 12.0), 2: (1.0, 8.0)}) == [(0, 1, 1.0), (0, 2, 0.0), (1, 2, 0.0)]
    assert pairwise_results({3: (0.5, 0.0), 1: (0.5, 0.0)}) == [(1, 3, 0.5)]
    table = elo_table(["x", "y", "z"], [pairwise_results({0: (0.0, 3.0), 1: (0.0, 2.0), 2: (1.0, 1.0)})] * 6, samples=100)
    assert table.ratings[2].elo > table.ratings[0].elo > table.ratings[1].elo
    assert [r.games for r in table.ratings] == [6, 6, 6] and [r.meetings for r in table.ratings] == [12, 12, 12]


def test_an_entrant_without_games_has_no_interval():
    table = elo_table(["a", "b", "c"], games_between(0, 1, 3, 0, 3), samples=50)
    assert table.ratings[2].games == 0 and table.ratings[2].low == -math.inf
    json_table = table.to_json()
    assert json_table["ratings"][2]["low"] is None and json_table["pairwise"]["a"]["b"] == {"points": 3.0, "games": 6}
    assert np.isfinite(table.ratings[0].elo)
