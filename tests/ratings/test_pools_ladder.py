"""Which games share a rating (pools), the computer levels' fixed ratings (ladder), and what a
finished game tells the ratings (places, aborted games)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import ogames
from ogames.ratings import POOLS, aborted, computer_id, computer_rating, is_computer, level_of, pool_of, ranks_of
from ogames.ratings.ladder import LADDERS, PERSON_AGAINST_OMIGA
from ogames.ratings.model import START_RATING


def settled(game: str, **options: Any) -> dict[str, Any]:
    return dict(ogames.load(game, **options).options)


def test_every_game_of_the_registry_is_rated_in_a_pool_of_its_own() -> None:
    names = {entry["name"] for entry in ogames.games()}
    assert {pool.game for pool in POOLS.values()} == names  # a new game fails here until it gets a pool
    for name in names:
        pool = pool_of(name, settled(name))
        assert pool is not None and pool.game == name and POOLS[pool.name] is pool


def test_the_variants_of_a_game_share_its_pool_and_made_up_boards_are_casual() -> None:
    for variant in ("sunder", "y", "gyre", "free-y"):
        for size in (3, 9):
            options = settled("omny", variant=variant) if variant == "free-y" else settled("omny", variant=variant, size=size)
            assert pool_of("omny", options) is POOLS["omny"]
    assert pool_of("omny", settled("omny", variant="custom")) is None
    for sides, size in ((3, 4), (5, 5), (7, 3)):
        assert pool_of("oddy", settled("oddy", sides=sides, size=size)) is POOLS["oddy"]


def test_omega_rates_duels_and_tables_apart() -> None:
    assert pool_of("omega", settled("omega", players=2, size=8)) is POOLS["omega"]
    assert pool_of("omega", settled("omega", players=2, match=True)) is POOLS["omega"]
    for players in (3, 4):
        pool = pool_of("omega", settled("omega", players=players))
        assert pool is POOLS["omega-table"] and pool.table


def test_omiga_rates_its_base_game_and_its_2v2_apart() -> None:
    assert pool_of("omiga", settled("omiga", width=9, height=7)) is POOLS["omiga"]
    teams = pool_of("omiga", settled("omiga", variant="2v2"))
    assert teams is POOLS["omiga-2v2"] and teams.table and teams.seats == (4,)
    assert [teams.team_of(seat) for seat in range(4)] == [0, 1, 0, 1]  # white1, black1, white2, black2
    for variant in ("kids", "toddler", "zen"):
        assert pool_of("omiga", settled("omiga", variant=variant)) is None
    assert pool_of("omiga", {**settled("omiga"), "cards": "AB/^ BA\\v"}) is None


def test_every_pool_has_a_ladder_each_level_above_the_one_below() -> None:
    assert set(LADDERS) == set(POOLS)
    for pool in POOLS:
        ratings = [computer_rating(pool, level).rating for level in range(1, 11)]
        assert ratings == sorted(ratings) and len(set(ratings)) == 10, pool


def test_omigas_levels_stand_where_the_scripted_person_met_them() -> None:
    """The scripted person is a new player's 1500: the level it beat about half the time stands
    nearest 1500, those it beat more often below, the others above."""
    nearest = min(range(10), key=lambda index: abs(PERSON_AGAINST_OMIGA[index] - 0.5))
    ratings = LADDERS["omiga"]
    assert min(range(10), key=lambda index: abs(ratings[index] - START_RATING)) == nearest
    for share, rating in zip(PERSON_AGAINST_OMIGA, ratings, strict=True):
        assert (rating < START_RATING) == (share > 0.5)


def test_computer_ids_name_the_levels() -> None:
    for level in range(1, 11):
        assert level_of(computer_id(level)) == level and is_computer(computer_id(level))
    for other in ("computer:0", "computer:11", "computer:", "computer:x", "computer:05x", "ann", "computers:3"):
        assert not is_computer(other)
    with pytest.raises(ValueError, match="levels are 1 to 10"):
        computer_id(11)
    with pytest.raises(ValueError, match="no computer ladder"):
        computer_rating("chess", 3)


def finished(game: str, seed: int, **options: Any) -> ogames.State:
    state = ogames.load(game, **options).new_state()
    rng = random.Random(seed)
    while state.result is None:
        state.play(rng.choice(state.legal_moves()))
    return state


def test_a_duel_ranks_its_winner_first() -> None:
    for seed in range(4):
        state = finished("omny", seed, size=3)
        winner = state.owner[state.result.winner]
        assert ranks_of(state) == [0 if seat == winner else 1 for seat in range(2)]


def test_a_drawn_match_ranks_both_first() -> None:
    state = finished("omega", 126, players=2, size=4, match=True)  # this seed's random match ends in equal totals
    assert state.result.winner == "draw"
    assert ranks_of(state) == [0, 0]


@pytest.mark.parametrize("players", [3, 4])
def test_a_table_ranks_by_score_with_the_winner_first(players: int) -> None:
    for seed in range(3):
        state = finished("omega", seed, players=players, size=5)
        ranks = ranks_of(state)
        assert sorted(ranks) == list(range(players))
        assert ranks[state.owner[state.result.winner]] == 0
        by_place = sorted(state.owner, key=lambda colour: ranks[state.owner[colour]])
        scores = [state.scores[colour] for colour in by_place[1:]]
        assert scores == sorted(scores, reverse=True)


def test_one_who_resigns_at_a_table_is_last() -> None:
    state = ogames.load("omega", players=3, size=5).new_state()
    rng = random.Random(1)
    for _ in range(12):
        state.play(rng.choice(state.legal_moves()))
    resigner = state.mover
    state.resign()
    assert ranks_of(state)[resigner] == 2


def test_a_game_ended_before_everyone_moved_is_aborted() -> None:
    state = ogames.load("omny", size=3).new_state()
    state.play("resign")
    assert aborted(state.record())
    state = ogames.load("omny", size=3).new_state()
    state.play(state.legal_moves()[0])
    state.play("resign")  # the second player resigns without a move
    assert aborted(state.record())
    state = ogames.load("omny", size=3).new_state()
    state.play(state.legal_moves()[0])
    state.play(state.legal_moves()[0])
    state.play("resign")
    assert not aborted(state.record())
    table = ogames.load("omega", players=3, size=5).new_state()
    for _ in range(2 * 3):  # two players' turns of three stones each
        table.play(table.legal_moves()[0])
    table.resign()
    assert aborted(table.record())


def test_an_unfinished_game_has_no_ranks() -> None:
    with pytest.raises(ValueError, match="not over"):
        ranks_of(ogames.load("onyx").new_state())


def test_the_ladder_in_the_docs_is_the_codes() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "ratings.md").read_text(encoding="utf-8")
    titles = {pool.title: name for name, pool in POOLS.items()}
    shown = {}
    for line in page.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] in titles and len(cells) == 11:
            shown[titles[cells[0]]] = [int(cell) for cell in cells[1:]]
    assert shown == {pool: [round(rating) for rating in ladder] for pool, ladder in LADDERS.items()}
    for name in POOLS:
        assert f"`{name}`" in page  # every pool is named on the page
