"""PettingZoo AEC environments and the Gymnasium single-agent wrapper (ogames.envs): PettingZoo's
own API and seed tests on every board game case, Gymnasium's env checker, and games played
through the adapters that agree with the rules move for move. Skipped without the `rl` extra."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from conformance.cases import BOARD_CASES

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state as pettingzoo_state_test
from pettingzoo.test.state_test import test_state_space as pettingzoo_state_space_test

import ogames
from ogames.envs import env, raw_env, single_agent_env

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


@pytest.mark.parametrize("name", ["omny", "oddy", "omega", "onyx"])
def test_pettingzoo_render_test_passes_in_human_and_ansi_modes(name, capsys):
    render_test(lambda render_mode=None: env(name, render_mode=render_mode))
    shown = capsys.readouterr().out
    assert shown.count("moves:") >= 5  # "human" printed the board and the moves at each step
    if name != "omega":  # a drawing with column letters (Omega's hexagon is labelled on its edges too)
        assert " a " in shown or "a1" in shown


def test_pettingzoo_state_tests_pass_and_state_is_every_seats_observation():
    name, options = "omega", {"players": 3, "size": 4, "pie": True}
    pettingzoo_state_space_test(env(name, **options))
    pettingzoo_state_test(env(name, **options), num_cycles=20)
    wrapped = env(name, **options)
    wrapped.reset()
    rng = random.Random(2)
    for _ in range(5):
        obs = wrapped.observe(wrapped.agent_selection)
        wrapped.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    full = wrapped.state()
    assert full.shape == wrapped.state_space.shape == (3, *wrapped.unwrapped.encoding.shape)
    for seat, agent in enumerate(wrapped.possible_agents):
        assert np.array_equal(full[seat], wrapped.observe(agent)["observation"])
    behind = wrapped.unwrapped.rules_state  # the ogames state, beside PettingZoo's state()
    assert isinstance(behind, ogames.State) and behind.history and not behind.is_over


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
    assert aec.rules_state.record() == reference.record()
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
    winner_seat = aec.rules_state.owner[aec.rules_state.winner]
    assert totals[f"player_{winner_seat}"] == 1.0
    assert sum(totals.values()) == pytest.approx(0.0)
    assert sorted(totals.values()) == [-0.5, -0.5, 1.0]


def test_the_raw_env_refuses_an_illegal_action_and_changes_nothing():
    aec = raw_env("oddy", size=3)
    aec.reset()
    aec.step(aec.encoding.action("a1"))
    before = aec.rules_state.record()
    with pytest.raises(ogames.IllegalMove, match="not legal"):
        aec.step(aec.encoding.action("a1"))
    with pytest.raises(ogames.IllegalMove, match="outside"):
        aec.step(999)
    assert aec.rules_state.record() == before


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
        raw_env("onyx", render_mode="rgb_array")
    with pytest.raises(ogames.BadOption, match="render_mode"):
        single_agent_env("onyx", render_mode="rgb_array")


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
        assert gym_env.rules_state.mover == 1  # the opponent (seat 0) already moved
        rng = random.Random(episode)
        total, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, _truncated, _info = gym_env.step(action)
            total += reward
        assert not obs["action_mask"].any()
        won = gym_env.rules_state.owner[gym_env.rules_state.winner] == 1
        assert total == (1.0 if won else -1.0)
        results.add(total)
    assert results == {1.0, -1.0}
    with pytest.raises(ogames.CannotPlay, match="reset"):
        gym_env.step(0)


def test_the_gymnasium_env_renders_the_board_for_people_and_keeps_state_as_an_alias(capsys):
    gym_env = single_agent_env("oddy", size=3, seat=1, render_mode="human")
    gym_env.reset(seed=0)
    gym_env.step(int(np.flatnonzero(gym_env.unwrapped._observe()["action_mask"])[0]))
    assert capsys.readouterr().out.count("moves:") == 2  # after reset and after the step
    assert gym_env.unwrapped.state is gym_env.unwrapped.rules_state
    assert gym_env.render() is None


def test_an_illegal_action_ends_the_episode_with_minus_one():
    gym_env = single_agent_env("oddy", size=3)
    gym_env.reset(seed=0)
    gym_env.step(gym_env.encoding.action("a1"))
    taken = next(gym_env.encoding.action(e["move"]) for e in gym_env.rules_state.history[1:])
    _, reward, terminated, _, info = gym_env.step(taken)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)


def test_the_same_seed_gives_the_same_opponent_moves():
    def opening(seed):
        gym_env = single_agent_env("omega", opponent="random", seat=1, size=4)
        gym_env.reset(seed=seed)
        return [e["move"] for e in gym_env.rules_state.history]

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
