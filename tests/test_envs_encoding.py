"""Integer actions and observation tensors (ogames.envs.encoding) for every board game case of the
conformance suite: every legal move has an action and back, the mask is exactly the legal moves at
random positions, the planes say what the state says."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ogames
from conformance.cases import BOARD_CASES
from ogames.envs import encoding

BOARD_IDS = [case[0] for case in BOARD_CASES]
_GAMES = {case_id: ogames.load(name, **options) for case_id, name, options in BOARD_CASES}


def random_position(case_id: str, seed: int, plies: int) -> ogames.State:
    """A state after up to `plies` random legal moves."""
    rng = random.Random(seed)
    state = _GAMES[case_id].new_state()
    for _ in range(plies):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()), t=0.0)
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case_id=st.sampled_from(BOARD_IDS), seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_legal_moves_and_the_mask_agree_at_random_positions(case_id, seed, plies):
    state = random_position(case_id, seed, plies)
    enc = encoding(state.game)
    moves = state.legal_moves()
    actions = [enc.action(move) for move in moves]
    assert [enc.move(a) for a in actions] == moves  # every legal move maps to an action and back
    mask = enc.legal_action_mask(state)
    assert mask.shape == (enc.num_actions,) and mask.dtype == np.bool_
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions) == enc.legal_actions(state)
    assert len(set(actions)) == len(actions)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case_id=st.sampled_from(BOARD_IDS), seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_the_planes_say_what_the_state_says(case_id, seed, plies):
    state = random_position(case_id, seed, plies)
    enc = encoding(state.game)
    obs = enc.observation(state)
    assert obs.shape == enc.shape and obs.dtype == np.float32
    plane = dict(zip(enc.plane_names, obs, strict=True))
    for cell, label in enumerate(enc.labels):
        held = state.stone_at(label)
        for colour in state.game.colours:
            assert plane[f"stone:{colour}"][cell] == (held == colour)
        assert plane["empty"][cell] == (held is None)
    for colour in state.game.colours:
        assert (plane[f"to_move:{colour}"] == (state.to_move == colour)).all()
        assert (plane[f"own:{colour}"] == (state.owner[colour] == state.mover)).all()
    if "swap_allowed" in plane:
        assert (plane["swap_allowed"] == any(m.startswith("swap") for m in state.legal_moves())).all()


@pytest.mark.parametrize("case_id", BOARD_IDS)
def test_every_action_names_a_distinct_move_of_the_game(case_id):
    enc = encoding(_GAMES[case_id])
    moves = [enc.move(a) for a in range(enc.num_actions)]
    assert len(set(moves)) == enc.num_actions
    assert moves[: enc.num_cells] == list(_GAMES[case_id].board.labels)
    assert [enc.action(m) for m in moves] == list(range(enc.num_actions))
    # Every special move the options allow is legal somewhere: found in random games.
    seen: set[str] = set()
    for seed in range(60):
        rng, state = random.Random(seed), _GAMES[case_id].new_state()
        while not state.is_over and state.ply < 4:
            seen.update(m for m in state.legal_moves() if m in enc.specials)
            state.play(rng.choice(state.legal_moves()), t=0.0)
    if case_id == "omega-3-pie":
        assert seen == {"swap white", "swap black"}  # red is the last seat: nobody swaps with it
    else:
        assert seen == set(enc.specials)


def test_the_special_moves_of_each_game():
    def specials(name, **options):
        return encoding(ogames.load(name, **options)).specials

    assert specials("omny", variant="sunder", size=3) == ()
    assert specials("omny", variant="y", size=4, komi_choice=True) == ("swap", *(f"komi={k}" for k in ("0", "0.5", "1", "1.5")))
    assert specials("oddy") == ("swap",) and specials("oddy", pie=False) == ()
    assert specials("omega", players=2, pie=True) == ("swap",)
    assert specials("omega", players=4, pie=True) == ("swap white", "swap black", "swap red", "swap blue")
    assert specials("onyx") == () and specials("onyx", pie=True) == ("swap",)


def test_other_spellings_of_a_move_have_its_action():
    enc = encoding(ogames.load("omny", variant="y", size=4, komi_choice=True))
    assert enc.action("C02") == enc.action("c2")
    assert enc.action("komi = 1.0") == enc.action("komi=1") == enc.num_cells + 3
    assert enc.action("  SWAP ") == enc.num_cells
    omega = encoding(ogames.load("omega", players=3, pie=True))
    assert omega.action("swap   Black") == omega.num_cells + 1


@pytest.mark.parametrize("bad", ["z9", "komi=7", "komi=0.25", "komi=x", "pass", "", "swap red", "komi=" + "9" * 400])
def test_moves_without_an_action_are_refused_clearly(bad):
    enc = encoding(ogames.load("omny", variant="y", size=4, komi_choice=True))
    with pytest.raises(ogames.IllegalMove, match="neither a cell"):
        enc.action(bad)


@pytest.mark.parametrize("bad", [-1, 25, 10**30, 2.0, "3", True, None])
def test_actions_out_of_range_are_refused_clearly(bad):
    enc = encoding(ogames.load("oddy", size=4))
    with pytest.raises(ogames.IllegalMove):
        enc.move(bad)
    assert enc.move(np.int64(3)) == enc.labels[3]


def test_only_board_games_have_an_encoding():
    with pytest.raises(ogames.BadOption, match="board games"):
        encoding(ogames.load("omiga", variant="zen", seed=1))
    with pytest.raises(ogames.BadOption):
        encoding("omny")  # type: ignore[arg-type]


def test_the_observer_seat_and_the_static_planes():
    game = ogames.load("onyx", pie=True)
    enc = encoding(game)
    state = game.new_state()
    state.play("c3", t=0.0)
    state.play("swap", t=0.0)  # seat 0 now holds white, and white is to move
    plane = dict(zip(enc.plane_names, enc.observation(state, seat=1), strict=True))
    assert plane["own:black"].all() and not plane["own:white"].any()
    assert plane["midpoint"].sum() == 60 and plane["side:west"].sum() == 12
    omny = ogames.load("omny", variant="y", size=4, komi_choice=True)
    state = omny.new_state()
    plane = dict(zip(encoding(omny).plane_names, encoding(omny).observation(state), strict=True))
    assert plane["komi_pending"].all() and plane["star"].sum() == 3
    state.play("komi=1.5", t=0.0)
    plane = dict(zip(encoding(omny).plane_names, encoding(omny).observation(state), strict=True))
    assert not plane["komi_pending"].any() and plane["komi"][0] == pytest.approx(0.5)


def test_omega_planes_name_whose_turn_it_is_and_the_second_game():
    game = ogames.load("omega", players=2, size=4, match=True)
    enc = encoding(game)
    state = game.new_state()
    rng = random.Random(3)
    while state.game_number == 1:
        state.play(rng.choice(state.legal_moves()), t=0.0)
    plane = dict(zip(enc.plane_names, enc.observation(state), strict=True))
    assert plane["second_game"].all()
    holder = state.colour_of(state.mover)
    assert plane[f"turn_of:{holder}"].all() and sum(plane[f"turn_of:{c}"][0] for c in game.colours) == 1


def test_the_encoding_needs_neither_pettingzoo_nor_openspiel():
    import subprocess
    import sys

    optional = ("pettingzoo", "gymnasium", "pyspiel")
    code = f"import sys, ogames.envs; print(sorted(m for m in {optional!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# The rows of the planes table in docs/environments.md and the game each one describes.
DOC_PLANE_ROWS = {
    "Odd-Y on the triangle, `pie` off": ("oddy", {"pie": False}),
    "Odd-Y on the triangle, `pie` on (its default)": ("oddy", {}),
    "Odd-Y on the polar board, 5 sides, `pie` on": ("oddy", {"board": "polar", "sides": 5}),
    "Omny, neither `pie` nor `komi_choice`": ("omny", {}),
    "Omny with `pie`": ("omny", {"pie": True}),
    "Omny with `komi_choice`": ("omny", {"komi_choice": True}),
    "Omega, 2 players": ("omega", {}),
    "Omega, 2 players, `match`": ("omega", {"match": True}),
    "Omega, 2 players, `pie`": ("omega", {"pie": True}),
    "Omega, 3 players": ("omega", {"players": 3}),
    "Omega, 4 players, `pie`": ("omega", {"players": 4, "pie": True}),
    "Onyx": ("onyx", {}),
    "Onyx with `pie`": ("onyx", {"pie": True}),
}


def test_the_plane_counts_in_the_docs_are_the_encoders() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "environments.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (.+?) \| (\d+) \|$", doc, flags=re.MULTILINE))
    assert set(DOC_PLANE_ROWS) <= set(rows), "a row of the planes table was renamed: update DOC_PLANE_ROWS"
    for row, (name, options) in DOC_PLANE_ROWS.items():
        assert int(rows[row]) == encoding(ogames.load(name, **options)).shape[0], row
    # and the rule for m sides that the table states in words
    for sides in (3, 5, 7, 25):
        for pie in (False, True):
            planes = encoding(ogames.load("oddy", board="polar", sides=sides, pie=pie)).shape[0]
            assert planes == 7 + sides + pie
    assert "Odd-Y with m sides has 7 + m planes (one more with `pie`)" in doc
