"""The `share` setting: each seat's share of Omega's scores blended into a playout's reward, for
three and four players only (two-player searches are left exactly as they were)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ogames
from ogames.errors import BadOption
from ogames.kernels import reference
from ogames.players import player
from ogames.players.mcts import kernel as K
from test_omega_helpers import last_turn


@settings(max_examples=80, deadline=None)
@given(
    seats=st.integers(3, 4),
    data=st.data(),
    weight=st.floats(0.0, 1.0),
)
def test_shares_match_the_reference(seats, data, weight):
    log_scores = data.draw(st.lists(st.floats(0.0, 40.0), min_size=seats, max_size=seats))
    owner = data.draw(st.permutations(range(seats)))
    winner = data.draw(st.integers(-1, seats - 1))
    rewards = [1.0 / seats] * seats if winner < 0 else [float(s == winner) for s in range(seats)]
    got = np.zeros(4)
    got[:seats] = rewards
    sums = np.zeros(4)
    sums[:seats] = log_scores
    K.add_score_shares(got, sums, np.array(list(owner) + [0] * (4 - seats), dtype=np.int64), seats, weight)
    expected = reference.score_share_rewards(rewards, log_scores, owner, weight)
    assert got[:seats] == pytest.approx(expected, abs=1e-9)
    assert sum(got[:seats]) == pytest.approx(1.0)  # still a reward to share out, as the winner's 1 is


def test_a_bigger_score_earns_a_bigger_share():
    rewards = np.array([0.0, 1.0, 0.0, 0.0])
    sums = np.array([np.log(12.0), np.log(30.0), np.log(6.0), 0.0])
    K.add_score_shares(rewards, sums, np.arange(4, dtype=np.int64), 3, 1.0)
    assert rewards[:3] == pytest.approx([12 / 48, 30 / 48, 6 / 48])


def _search(players: int, share: float, seed: int = 3) -> tuple[str, object]:
    state = ogames.load("omega", players=players, size=4).new_state()
    bot = player("mcts", iterations=400, seed=seed, share=share, reuse=False, nodes=20_000)
    move = bot.choose(state)
    info = bot.info()
    return move, (info.visits, info.value)


def test_two_players_ignore_the_setting():
    assert _search(2, 0.0) == _search(2, 0.8)


def test_three_players_search_with_it():
    plain, shared = _search(3, 0.0), _search(3, 0.8)
    assert plain[1] != shared[1]  # the same seed, other rewards: the root's statistics differ
    assert _search(3, 0.8) == shared  # and still deterministic for a seed


@pytest.mark.parametrize("value", ["-0.1", "1.5", "x"])
def test_out_of_range_is_refused(value):
    with pytest.raises(BadOption, match="share"):
        player(f"mcts:share={value}")


def test_the_retired_power_is_refused_as_an_unknown_setting():
    with pytest.raises(BadOption, match="share_power"):
        player("mcts:share=0.5,share_power=0.25")


def _best_shares(state) -> dict[str, float]:
    """For each first stone of the last turn, the best share of the scores the mover can end with
    (it places all three stones), and whether any ending wins."""
    seat = state.mover
    colour = next(c for c, owner in state.owner.items() if owner == seat)
    best: dict[str, float] = {}
    for stones in itertools.permutations(state.legal_moves(), 3):
        end = state.clone()
        for move in stones:
            end.play(move, t=0.0)
        assert end.is_over and end.owner[end.winner] != seat, "a position the mover cannot win"
        best[stones[0]] = max(best.get(stones[0], 0.0), end.scores[colour] / sum(end.scores.values()))
    return best


@pytest.mark.parametrize("seed", [6, 8, 10, 19, 35])
def test_a_lost_last_turn_is_played_for_the_best_share(seed):
    """At the last turn, where the mover cannot win, the winner's reward sees every move as 0; with
    the share the search plays towards the ending with the biggest share, and the ended games the
    tree reaches are rewarded with it too (else its worth would sink to 0 as the tree grows)."""
    state = last_turn(seed)
    best = _best_shares(state)
    top = max(best.values())
    assert sorted(best.values())[-2] < top  # one first stone is best
    plain = player("mcts", iterations=3000, seed=1, reuse=False, nodes=20_000)
    plain.choose(state)
    assert plain.info().value == 0.0
    shared = player("mcts", iterations=3000, seed=1, share=1.0, reuse=False, nodes=20_000)
    assert best[shared.choose(state)] == top
    assert shared.info().value == pytest.approx(top, abs=0.03)
