"""The compiled MCTS (`mcts` for Omny, Odd-Y, Omega and Onyx): its rules agree with the games',
its playout shortcut with the move-by-move reference, and the search finds wins, blocks losses,
plays only legal moves, leaves the state alone, repeats itself for a seed and reports."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ogames
from conformance.cases import CASES
from ogames.kernels import layout as P
from ogames.kernels import omny as omny_kernel
from ogames.kernels import step
from ogames.kernels.omny import full_board_winner
from ogames.kernels.stones import bridge_answer
from ogames.players import player
from ogames.players.mcts import CompiledMcts, MctsPlayer, warm_up
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import adapter_for, bridge_table
from ogames.players.mcts.tree import kept_or_new

BOARD_CASES = [case for case in CASES if case[1] != "omiga" and not case[2].get("match")]


def play_all(state, moves: str):
    for move in moves.split():
        state.play(move, t=0.0)
    return state


@pytest.mark.parametrize("case", BOARD_CASES, ids=[case[0] for case in BOARD_CASES])
def test_kernel_moves_follow_the_rules(case) -> None:
    """Random games played by the rules and by the kernel side by side: the same legal moves (the
    kernel's codes are the rules' actions), the same stones, mover and winner after every move."""
    _, name, options = case
    game = ogames.load(name, **options)
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_state()
        adapter = adapter_for(state)
        stones, var, owner = adapter.encode(state)
        while not state.is_over:
            codes = adapter.legal_codes(stones, var, owner)
            assert sorted(adapter.move_text(c) for c in codes) == sorted(state.legal_moves())
            assert sorted(codes) == game.actions.legal_actions(state)
            code = rng.choice(codes)
            state.play(adapter.move_text(code), t=0.0)
            adapter.play_code(stones, var, owner, code)
            assert (stones == state.stones).all()
            _, ref_var, ref_owner = adapter.encode(state)
            assert (owner == ref_owner).all()
            if state.is_over:
                assert var[P.V_WINNER] >= 0 and game.colours[var[P.V_WINNER]] == state.winner
            else:
                assert var[P.V_WINNER] == -1
                assert step.mover(var, owner, adapter.params) == state.mover
                assert (var == ref_var).all()


OMNY_FILL_CASES = [
    {"variant": "y", "size": 6},
    {"variant": "sunder", "size": 4},
    {"variant": "gyre", "size": 4},
    {"variant": "free-y", "sides": (3, 4)},
    {"variant": "y", "size": 5, "komi": 1},
    {"variant": "custom", "shape": "rhombus", "size": 4, "stars": "all", "komi": 0.5},
]


@pytest.mark.parametrize("options", OMNY_FILL_CASES, ids=lambda o: "-".join(map(str, o.values())))
def test_omny_full_board_test_names_the_move_by_move_winner(options) -> None:
    """With S + 2k odd, the colour with a winning group on the filled board is the colour that won
    first when the same fill is tested after every stone (the plain reference)."""
    game = ogames.load("omny", **options)
    total, twice = game.total_stars, int(2 * options.get("komi", 0))
    assert (total + twice) % 2 == 1
    board, stars = game.board, game.star_mask
    n = len(board)
    star_list = np.flatnonzero(stars).astype(np.int32)
    rng = random.Random(7)
    for _ in range(40):
        order = list(range(n))
        rng.shuffle(order)
        start = [0] * n
        for cell in order[: rng.randrange(n // 2)]:
            start[cell] = rng.choice((1, 2))
        turn = rng.randrange(2)
        expected = omny_kernel.fill_winner_reference(start, board.neighbours, stars, turn, total - twice, total + twice, order)
        if expected < 0:  # the random start already held a winning group: not a position of the game
            continue
        full, colour = list(start), turn
        for cell in order:
            if full[cell] == 0:
                full[cell] = colour + 1
                colour = 1 - colour
        work = np.empty((6, n), dtype=np.int32)
        got, _ = full_board_winner(
            np.array(full, dtype=np.int8),
            board.neighbour_table,
            stars,
            star_list,
            total,
            total - twice,
            total + twice,
            work[0],
            work[1],
            np.zeros(n, dtype=np.int64),
            1,
            work[4],
            work[5],
        )
        assert got == expected


def test_bridge_table_and_answer() -> None:
    """A bridge: two stones that are not adjacent with exactly two common neighbours; a stone on
    one of those is answered on the other. Checked against a brute-force look at every pair."""
    for board in (ogames.load("oddy", sides=3, size=5).board, ogames.load("oddy", sides=5, size=3).board):
        table = bridge_table(board)
        neighbours = [set(ns) for ns in board.neighbours]
        expected = set()
        for a in range(len(board)):
            for b in range(a + 1, len(board)):
                common = neighbours[a] & neighbours[b]
                if b not in neighbours[a] and len(common) == 2:
                    c, d = sorted(common)
                    expected |= {(c, d, a, b), (d, c, a, b)}
        found = {(c, int(d), int(min(x, y)), int(max(x, y))) for c in range(len(board)) for d, x, y in table[c] if d >= 0}
        assert found == expected
    board = ogames.load("oddy", sides=3, size=4).board
    stones = np.zeros(len(board), dtype=np.int8)
    a1, b2, b1, a2 = (board.index(label) for label in ("a1", "b2", "b1", "a2"))
    stones[[a1, b2]] = 1
    stones[b1] = 2  # White intrudes
    assert bridge_answer(stones, bridge_table(board), b1, 1) == a2
    assert bridge_answer(stones, bridge_table(board), b1, 2) == -1


# ----- the search ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rave,solver,bridges", [(True, True, True), (False, False, False), (True, False, True), (False, True, False)]
)
def test_finds_a_win_in_one_on_y(rave: bool, solver: bool, bridges: bool) -> None:
    # Black a2 b2 b1 touch the left and bottom sides: c2 reaches the right side (d1 is White's).
    state = play_all(ogames.load("oddy", sides=3, size=4, pie=False).new_state(), "a2 b3 b2 d1 b1 a4")
    for seed in range(3):
        bot = CompiledMcts(iterations=400, seed=seed, rave=rave, solver=solver, bridges=bridges, expand=2)
        assert bot.choose(state) == "c2"


@pytest.mark.parametrize("rave,solver", [(True, True), (False, False)])
def test_blocks_a_loss_in_one_on_y(rave: bool, solver: bool) -> None:
    state = play_all(ogames.load("oddy", sides=3, size=4, pie=False).new_state(), "a2 b3 b2 d1 b1")
    for seed in range(3):
        assert CompiledMcts(iterations=1500, seed=seed, rave=rave, solver=solver).choose(state) == "c2"


def test_finds_and_blocks_on_omny_y() -> None:
    game = ogames.load("omny", variant="y", size=4)
    win = play_all(game.new_state(), "a2 b3 b2 d1 b1 a4")
    block = play_all(game.new_state(), "a2 b3 b2 d1 b1")
    for seed in range(3):
        assert CompiledMcts(iterations=400, seed=seed).choose(win) == "c2"
        assert CompiledMcts(iterations=1500, seed=seed).choose(block) == "c2"


def test_solver_proves_a_win_in_one_and_stops() -> None:
    state = play_all(ogames.load("oddy", sides=3, size=4, pie=False).new_state(), "a2 b3 b2 d1 b1 a4")
    bot = CompiledMcts(iterations=100_000, seed=1, solver=True)
    assert bot.choose(state) == "c2"
    info = bot.info()
    assert info["proven"] == "win" and info["value"] == 1.0 and info["iterations"] < 100_000


def test_onyx_takes_the_connecting_point() -> None:
    # Black's row 6 from a6 to k6 is one point short of the East side (l6 is Black's already).
    state = ogames.load("onyx").new_state()
    moves = "b6 b2 c6 c2 d6 d2 e6 e2 f6 f3 g6 g3 h6 h2 i6 i2 j6 j2"
    play_all(state, moves)
    assert not state.is_over
    winning = []
    for move in state.legal_moves():
        trial = state.clone().play(move, t=0.0)
        if trial.winner == "black":
            winning.append(move)
    assert winning
    assert CompiledMcts(iterations=2000, seed=3).choose(state) in winning


def test_omega_last_placement_takes_the_best_cell() -> None:
    """At the game's last placement, the search picks a cell that wins for the mover when one does."""
    game = ogames.load("omega", players=3, size=4)
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        state = game.new_state()
        while not state.is_over:
            winners = {}
            if state.empty_count - 1 - game.end_empty == 0:
                for move in state.legal_moves():
                    after = state.clone().play(move, t=0.0)
                    winners[move] = after.owner[after.winner] == state.mover
                if any(winners.values()) and not all(winners.values()):
                    move = CompiledMcts(iterations=3000, seed=1).choose(state)
                    assert winners[move]
                    checked += 1
            state.play(rng.choice(state.legal_moves()), t=0.0)
    assert checked >= 3


@pytest.mark.parametrize("case", BOARD_CASES, ids=[case[0] for case in BOARD_CASES])
def test_plays_only_legal_moves_and_leaves_the_state_alone(case) -> None:
    _, name, options = case
    game = ogames.load(name, **options)
    rng = random.Random(3)
    bot = CompiledMcts(iterations=200, seed=2, bridges=name != "omega")
    for _ in range(2):
        state = game.new_state()
        while not state.is_over:
            before = state.record()
            stones = state.stones.copy()
            move = bot.choose(state)
            assert state.record() == before and (state.stones == stones).all()
            assert move in state.legal_moves()
            info = bot.info()
            assert info["move"] == move and info["pv"][0] == move
            state.play(move if rng.random() < 0.5 else rng.choice(state.legal_moves()), t=0.0)


@pytest.mark.parametrize("name,options", [("oddy", {"size": 6}), ("omega", {"players": 3, "size": 5}), ("onyx", {})])
def test_deterministic_for_a_seed(name: str, options: dict) -> None:
    state = ogames.load(name, **options).new_state()
    state.play(state.legal_moves()[3], t=0.0)
    first, second = CompiledMcts(iterations=1500, seed=4), CompiledMcts(iterations=1500, seed=4)
    assert first.choose(state) == second.choose(state)
    assert first.info()["pv"] == second.info()["pv"] and first.info()["value"] == second.info()["value"]


def test_moves_depend_on_the_seed_only() -> None:
    """Another search between two moves (which draws from the same compiled generator) changes
    nothing; reset() starts the sequence again."""
    state = ogames.load("oddy", sides=3, size=6, pie=False).new_state()
    alone, busy = CompiledMcts(iterations=800, seed=9), CompiledMcts(iterations=800, seed=9)
    first = [alone.choose(state), alone.choose(state)]
    busy.choose(state)
    CompiledMcts(iterations=500, seed=1).choose(state)
    assert [first[0], busy.choose(state)] == first
    assert busy.info()["pv"] == alone.info()["pv"]
    busy.reset()
    assert busy.choose(state) == first[0]


def test_info_reports_the_search() -> None:
    state = ogames.load("omny", variant="sunder", size=4).new_state()
    warm_up(state)  # the kernel loaded first: a cold load (about 0.3 s) would eat the whole think time
    bot = CompiledMcts(think=0.2, seed=1)
    move = bot.choose(state)
    info = bot.info()
    assert info["iterations"] > 100 and 0.1 < info["seconds"] < 0.2 + 2.0  # room for a loaded machine
    assert info["move"] == move and len(info["pv"]) >= 2 and 0.0 <= info["value"] <= 1.0
    assert info["nodes"] > 1


def test_tree_is_reused_after_the_reply_and_reset_otherwise() -> None:
    game = ogames.load("oddy", sides=3, size=6, pie=False)
    state = game.new_state()
    bot = CompiledMcts(iterations=3000, seed=1)
    state.play(bot.choose(state), t=0.0)
    state.play(bot.info()["pv"][1], t=0.0)  # the reply the search expected
    bot.choose(state)
    assert bot.info()["reused"] > 0
    state.undo()  # not a continuation: a new tree
    bot.choose(state)
    assert bot.info()["reused"] == 0
    other = game.new_state()
    bot.choose(other)
    assert bot.info()["reused"] == 0


def _subtree(ints: np.ndarray, floats: np.ndarray, node: int, depth: int) -> list:
    """A node's moves, visits and rewards with its children's, `depth` levels down, in order."""
    first, count = int(ints[node, K.I_FIRST]), int(ints[node, K.I_NCHILD])
    below = [] if first < 0 or depth == 0 else [_subtree(ints, floats, c, depth - 1) for c in range(first, first + count)]
    return [
        int(ints[node, K.I_SEAT]),
        floats[node].tolist(),
        [int(ints[c, K.I_MOVE]) for c in range(first, first + count)],
        below,
    ]


def test_reuse_keeps_the_subtree_exactly() -> None:
    """Re-rooting copies the subtree of the moves played, statistics and all."""
    game = ogames.load("omega", players=2, size=4)
    state = game.new_state()
    bot = CompiledMcts(iterations=4000, seed=3, expand=2)
    move = bot.choose(state)
    tree = bot._trees[0]
    assert tree is not None
    ints, floats = tree.ints, tree.floats
    first, count = ints[0, K.I_FIRST], ints[0, K.I_NCHILD]
    child = next(c for c in range(first, first + count) if adapter_for(state).move_text(int(ints[c, K.I_MOVE])) == move)
    before = _subtree(ints, floats, child, 3)
    tree_size = tree.nodes
    state.play(move, t=0.0)
    adapter = adapter_for(state)
    params = bot._search_params(state, adapter)[0]
    kept = kept_or_new(state, adapter, tree, params, bot.settings["nodes"], reuse=True)  # re-rooted, nothing searched yet
    assert kept is tree and _subtree(kept.ints, kept.floats, 0, 3) == before
    assert kept.reused == before[1][K.F_N]
    assert kept.nodes < tree_size


def test_special_moves_are_searched() -> None:
    """The pie swap, the komi choice and Omega's swaps are the search's own choices."""
    oddy = play_all(ogames.load("oddy", sides=3, size=5).new_state(), "c2")  # the centre: worth taking
    assert CompiledMcts(iterations=20_000, seed=1).choose(oddy) == "swap"
    edge = play_all(ogames.load("oddy", sides=3, size=5).new_state(), "a1")  # a corner: not worth it
    assert CompiledMcts(iterations=20_000, seed=1).choose(edge) != "swap"
    komi = ogames.load("omny", variant="y", size=4, komi_choice=True).new_state()
    assert CompiledMcts(iterations=3000, seed=1).choose(komi).startswith("komi=")
    omega = play_all(ogames.load("omega", players=3, size=4, pie=True).new_state(), "e5 c3 d4")
    assert CompiledMcts(iterations=500, seed=1).choose(omega) in omega.legal_moves()


def test_other_games_fall_back_to_plain_uct() -> None:
    state = ogames.load("omega", players=2, size=4, match=True).new_state()
    bot = CompiledMcts(iterations=50, seed=1)
    assert bot.choose(state) in state.legal_moves()
    assert bot.info()["pv"] == () and bot.info()["iterations"] == 50


def test_player_kinds() -> None:
    assert isinstance(player("mcts:iterations=10"), CompiledMcts)
    uct = player("uct:iterations=10,seed=2")
    assert isinstance(uct, MctsPlayer) and not isinstance(uct, CompiledMcts)
    bot = player("mcts:think=0.5,rave=off,solver=on,nodes=5000,expand=3,bridges=off,fpu=0.5,rave_k=100,reuse=no")
    names = ("rave", "solver", "nodes", "expand", "bridges", "fpu", "rave_k", "reuse")
    assert tuple(bot.settings[name] for name in names) == (False, True, 5000, 3, False, 0.5, 100.0, False)
    with pytest.raises(ValueError, match="rave='maybe' is not valid: on or off"):
        player("mcts:rave=maybe")
