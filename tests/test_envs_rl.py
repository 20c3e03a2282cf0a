"""PettingZoo AEC environments and the Gymnasium single-agent wrapper (ogames.envs): PettingZoo's
own API and seed tests on every board game case, Gymnasium's env checker, and games played
through the adapters that agree with the rules move for move. Skipped without the `rl` extra."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from conformance.cases import CASES

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import ogames
from ogames.envs import env, raw_env, single_agent_env

BOARD_CASES = [case for case in CASES if case[1] != "omiga"]
BOARD_IDS = [case[0] for case in BOARD_CASES]
OPTIONS = {case_id: (name, options) for case_id, name, options in BOARD_CASES}


@pytest.fixture(autouse=True)
def _quiet():
    # PettingZoo warns that a dict observation "probably should be" a Box: its own classic games do
    # the same (the action mask rides along), so the warning says nothing here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("case_id", BOARD_IDS)
def test_pettingzoo_api_and_seed_tests_pass(case_id):
    name, options = OPTIONS[case_id]
    api_test(env(name, **options), num_cycles=300)
    seed_test(lambda: env(name, **options), num_cycles=300)


@pytest.mark.parametrize("case_id", BOARD_IDS)
def test_a_game_through_the_aec_env_is_the_game_the_rules_play(case_id):
    name, options = OPTIONS[case_id]
    aec = raw_env(name, **options)
    aec.reset(seed=1)
    rng = random.Random(case_id)
    reference = ogames.load(name, **options).new_state(aec.possible_agents)
    for agent in aec.agent_iter():
        obs, _reward, terminated, _truncated, _info = aec.last()
        if terminated:
            aec.step(None)
            continue
        assert aec.possible_agents.index(agent) == reference.mover
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(aec.encoding.move(int(a)) for a in legal) == sorted(reference.legal_moves())
        action = int(rng.choice(legal))
        aec.step(action)
        reference.play(aec.encoding.move(action), t=0.0)
    assert aec.state.record() == reference.record()
    assert aec.agents == []


def test_rewards_at_the_end_sum_to_zero_and_favour_the_winner():
    aec = raw_env("omega", players=3, size=4)
    aec.reset()
    rng = random.Random(5)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, _, _ = aec.last()
        totals[agent] += reward
        aec.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    winner_seat = aec.state.owner[aec.state.winner]
    assert totals[f"player_{winner_seat}"] == 1.0
    assert sum(totals.values()) == pytest.approx(0.0)
    assert sorted(totals.values()) == [-0.5, -0.5, 1.0]


def test_the_raw_env_refuses_an_illegal_action_and_changes_nothing():
    aec = raw_env("oddy", size=3)
    aec.reset()
    aec.step(aec.encoding.action("a1"))
    before = aec.state.record()
    with pytest.raises(ogames.IllegalMove, match="not legal"):
        aec.step(aec.encoding.action("a1"))
    with pytest.raises(ogames.IllegalMove, match="outside"):
        aec.step(999)
    assert aec.state.record() == before


def test_the_wrapped_env_ends_the_game_on_an_illegal_action():
    wrapped = env("oddy", size=3)
    wrapped.reset()
    wrapped.step(0)
    wrapped.step(0)  # a1 again: White's illegal action
    assert all(wrapped.terminations.values())
    assert wrapped.rewards == {"player_0": 0, "player_1": -1}


def test_bad_options_are_refused_with_the_rules_message():
    with pytest.raises(ogames.BadOption, match="size"):
        env("omny", variant="sunder", size=99)
    with pytest.raises(ogames.BadOption, match="board games"):
        env("omiga", variant="zen", seed=1)
    with pytest.raises(ogames.BadOption, match="render_mode"):
        raw_env("onyx", render_mode="human")


@pytest.mark.parametrize(
    ("name", "options", "seat", "opponent"),
    [
        ("omny", {"variant": "sunder", "size": 3}, 0, "random"),
        ("oddy", {"size": 4}, 1, "random"),
        ("omega", {"players": 3, "size": 4, "pie": True}, 2, "random"),
        ("onyx", {}, 1, "mcts:iterations=16"),
    ],
)
def test_gymnasium_env_checker_passes(name, options, seat, opponent):
    check_env(single_agent_env(name, opponent=opponent, seat=seat, **options), skip_render_check=True)


def test_single_agent_games_end_with_the_agent_seats_outcome():
    gym_env = single_agent_env("omny", opponent="random", seat=1, variant="y", size=4, pie=True)
    results = set()
    for episode in range(12):
        obs, _ = gym_env.reset(seed=episode)
        assert gym_env.state.mover == 1  # the opponent (seat 0) already moved
        rng = random.Random(episode)
        total, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, _truncated, _info = gym_env.step(action)
            total += reward
        assert not obs["action_mask"].any()
        won = gym_env.state.owner[gym_env.state.winner] == 1
        assert total == (1.0 if won else -1.0)
        results.add(total)
    assert results == {1.0, -1.0}
    with pytest.raises(ogames.CannotPlay, match="reset"):
        gym_env.step(0)


def test_an_illegal_action_ends_the_episode_with_minus_one():
    gym_env = single_agent_env("oddy", size=3)
    gym_env.reset(seed=0)
    gym_env.step(gym_env.encoding.action("a1"))
    taken = next(gym_env.encoding.action(e["move"]) for e in gym_env.state.history[1:])
    _, reward, terminated, _, info = gym_env.step(taken)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)


def test_the_same_seed_gives_the_same_opponent_moves():
    def opening(seed):
        gym_env = single_agent_env("omega", opponent="random", seat=1, size=4)
        gym_env.reset(seed=seed)
        return [e["move"] for e in gym_env.state.history]

    assert opening(4) == opening(4)
    assert len({tuple(opening(s)) for s in range(6)}) > 1


def test_bad_seats_and_opponents_are_refused():
    with pytest.raises(ogames.BadOption, match="seat"):
        single_agent_env("oddy", seat=2)
    with pytest.raises(ogames.BadOption):
        single_agent_env("oddy", opponent="grandmaster")
    with pytest.raises(ogames.BadOption, match="opponent"):
        single_agent_env("oddy", opponent=42)
    for who, why in (("human", "a person"), ("racer:reaction=expert", "a real-time Omiga bot")):
        with pytest.raises(ogames.BadOption, match=why):
            single_agent_env("oddy", opponent=who)
