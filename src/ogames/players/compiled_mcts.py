"""The `mcts` player: compiled MCTS (`mcts_kernel`) for Omny, Odd-Y, Omega and Onyx, with tree
reuse between moves, a budget in seconds or iterations, RAVE and the MCTS-solver as options.

Python only translates: the state into the kernel's arrays (an `Adapter` per game), move codes back
into move text, and keeps the tree between calls. The kernel runs iterations in batches so that the
clock is read between them. Games the kernel does not know (Omiga's turn-based modes, an Omega
tournament match, toy games in tests) are searched by the plain UCT this class extends.

Special moves are decided by the search: Omny's `komi=K` and Omega's `swap <colour>` are children
where the rules allow them, and the stone games' pie `swap` is judged on the position's own
subtree, by colour (`swap=shared`, see `mcts_kernel`'s "The pie"; `swap=move`: a child too).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ogames.errors import BadOption, CannotPlay
from ogames.players import mcts_kernel as K
from ogames.players.levels import ladder, level_settings
from ogames.players.mcts import MIN_PLAYOUTS_FOR_VALUE, MctsPlayer
from ogames.rules.protocol import State

BATCH = 256  # iterations per kernel call at most: the clock is read between calls
FIRST_BATCH = 16  # the first call, to measure the rate on this board
SLICE = 0.02  # with a time budget, a call lasts about this share of the budget (or less)
DEFAULT_NODES = 1_000_000  # node budget of the tree (32 + 8 × (3 + seats) bytes per node)
MAX_WORKERS = 64  # threads searching at once (each with its own tree of `nodes`)
MAX_NODES = 20_000_000  # at most about 1.4 GB per tree: a larger budget is refused, not allocated
PV_LENGTH = 8
REWARDS = {"win": K.REWARD_WIN, "rank": K.REWARD_RANK, "paranoid": K.REWARD_PARANOID}  # 3–4 seats
OPPONENTS = ("strong", "weak", "auto")  # how the playouts model the opponent (`opponent`)
BEHIND = 0.45  # `opponent=auto`: a searched worth below this (opponent strong) turns the model weak
PROBE = 0.25  # `opponent=auto`: the share of a search's budget that tells whether it is behind
SWAPS = ("shared", "move")  # the pie in the tree: shared by colour (mcts_kernel, "The pie"), or a move of its own
PROVED_GAMES = ("omny", "oddy")  # games the connection solver proves
PROVE_SHARE = 0.125  # with a time budget: the solver's share before the search, and again after it
PROVE_START_RATE = 100_000.0  # solver positions per second assumed until one search measures it
PROVE_TRIES = 3  # searched moves checked against a proven loss, at most
PROVE_TABLE_BITS = 18  # the solver's table inside mcts: 2^18 entries, 7 MB


# Bridge and partner tables by board (the board is kept with its table so that its id stays its own).
Tables = dict[tuple[int, bool], tuple[Any, np.ndarray]]
_BRIDGES: Tables = {}
_PARTNERS: Tables = {}


def _padded(rows: list[list[tuple[int, int, int]]]) -> np.ndarray:
    """Per cell its rows of three, as one array padded with −1."""
    width = max(1, max(len(r) for r in rows))
    table = np.full((len(rows), width, 3), -1, dtype=np.int32)
    for c, found in enumerate(rows):
        for j, row in enumerate(found):
            table[c, j] = row
    return table


def _remember(cache: Tables, key: tuple[int, bool], board: Any, table: np.ndarray) -> np.ndarray:
    """Keep a board's table (a bounded cache: emptied when it holds 64) and give it back."""
    if len(cache) >= 64:
        cache.clear()
    cache[key] = (board, table)
    return table


def bridge_table(board: Any, edges: bool = False, sides: np.ndarray | None = None) -> np.ndarray:
    """Per cell c, the bridges c is a carrier of: rows [d, a, b] where a and b are not adjacent and
    their only two common neighbours are c and d (so a stone on c is answered on d); −1 padded.
    With `edges`, also the bridges to the edge: rows [d, a, a] where a is off the perimeter and c, d
    are two adjacent perimeter cells next to a (on one side, when `sides` gives each cell's side
    bits). Built from the neighbour lists, so it fits any
    board (hex patches, polar boards)."""
    key = (id(board), edges)
    if key in _BRIDGES:
        return _BRIDGES[key][1]
    neighbours = [set(ns) for ns in board.neighbours]
    rows: list[list[tuple[int, int, int]]] = [[] for _ in neighbours]
    if edges:
        rim = board.cells("perimeter")
        for a, around in enumerate(neighbours):
            if a in rim:
                continue
            on_rim = sorted(around & rim)
            for i, c in enumerate(on_rim):
                for d in on_rim[i + 1 :]:
                    if d in neighbours[c] and (sides is None or sides[c] & sides[d]):
                        rows[c].append((d, a, a))
                        rows[d].append((c, a, a))
    for c, around in enumerate(neighbours):
        ordered = sorted(around)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                if b in neighbours[a]:
                    continue
                common = neighbours[a] & neighbours[b]
                if len(common) == 2 and c in common:
                    (d,) = common - {c}
                    rows[c].append((d, a, b))
    return _remember(_BRIDGES, key, board, _padded(rows))


def partner_table(board: Any, sides: np.ndarray | None = None) -> np.ndarray:
    """Per cell a, the bridges a stone on a makes (for the pattern bias, `mcts_kernel.pattern_points`):
    rows [b, c, d] where a and b are not adjacent and their only two common neighbours are c and d;
    and, for a off the perimeter, rows [n, c, d] (n the cell count: the edge) where c and d are two
    adjacent perimeter cells next to a (on one side, when `sides` gives each cell's side bits); −1
    padded. Built from the neighbour lists like `bridge_table`."""
    key = (id(board), sides is not None)
    if key in _PARTNERS:
        return _PARTNERS[key][1]
    neighbours = [set(ns) for ns in board.neighbours]
    n = len(neighbours)
    rim = board.cells("perimeter")
    rows: list[list[tuple[int, int, int]]] = [[] for _ in neighbours]
    for a, around in enumerate(neighbours):
        ordered = sorted(around)
        for i, c in enumerate(ordered):
            for d in ordered[i + 1 :]:
                if d not in neighbours[c]:
                    continue
                for b in sorted((neighbours[c] & neighbours[d]) - {a}):
                    if b not in around and neighbours[a] & neighbours[b] == {c, d}:
                        rows[a].append((b, c, d))
                if a not in rim and c in rim and d in rim and (sides is None or sides[c] & sides[d]):
                    rows[a].append((n, c, d))
    return _remember(_PARTNERS, key, board, _padded(rows))


class Adapter:
    """A game's position and moves as the kernel's arrays and codes."""

    def __init__(self, state: State):
        game: Any = state.game  # each game's own arrays (board, stars, lattice…) are read below
        self.game = game
        self.name = game.name
        self.board = game.board
        n = len(self.board)
        self.n = n
        self.colours = tuple(game.colours)
        params = np.zeros(K.NPARAMS, dtype=np.int64)
        params[K.P_N] = n
        params[K.P_SEATS] = len(state.players)
        params[K.P_COLOURS] = len(self.colours)
        self.table = self.board.neighbour_table
        self.stars = np.zeros(1, dtype=np.bool_)
        self.star_list = np.zeros(1, dtype=np.int32)
        self.cell_sides = np.zeros(1, dtype=np.int64)
        self.runs = np.zeros(1, dtype=np.int64)
        self.square_table = np.full((1, 2, 4), -1, dtype=np.int32)
        self.midpoint_corners = np.full((1, 4), -1, dtype=np.int32)
        self.side_bits = np.zeros(1, dtype=np.int8)
        options = game.options
        if self.name == "oddy":
            params[K.P_GAME] = K.ODDY
            params[K.P_PIE] = int(bool(options["pie"]))
            params[K.P_PIE_AT] = 1
            self.cell_sides, self.runs = game.cell_sides, game.runs
        elif self.name == "omny":
            params[K.P_GAME] = K.OMNY
            total = game.total_stars
            params[K.P_TOTAL] = total
            pie, choice = bool(options["pie"]), bool(options["komi_choice"])
            params[K.P_PIE] = int(pie or choice)
            params[K.P_PIE_AT] = 0 if choice and not pie else 1
            params[K.P_KOMI_PIE] = int(pie)
            self.stars = np.ascontiguousarray(game.star_mask)
            self.star_list = np.flatnonzero(game.star_mask).astype(np.int32)
            self.komi_fixed = None if choice else int(2 * options["komi"])
        elif self.name == "omega":
            params[K.P_GAME] = K.OMEGA
            params[K.P_END_EMPTY] = game.end_empty
        elif self.name == "onyx":
            params[K.P_GAME] = K.ONYX
            params[K.P_PIE] = int(bool(options["pie"]))
            params[K.P_PIE_AT] = 1
            lattice = game.lattice
            self.square_table, self.midpoint_corners, self.side_bits = (
                lattice.square_table,
                lattice.midpoint_corners,
                lattice.side_bits,
            )
        else:
            raise CannotPlay(f"the compiled search does not play {game.title}")
        params[K.P_BRIDGE_SEAT] = -1
        self.params = params
        self.edge_bridges = False
        self.bridges = np.full((1, 1, 3), -1, dtype=np.int32)
        self.partners = np.full((1, 1, 3), -1, dtype=np.int32)

    @staticmethod
    def supports(state: State) -> bool:
        """Whether the kernel plays this game (Omega's two-game match is left to the plain UCT)."""
        name = state.game.name
        if name == "omega":
            return not state.game.options["match"]
        return name in ("omny", "oddy", "onyx")

    def encode(self, state: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The position as (stones, var, owner)."""
        var = np.zeros(K.NVARS, dtype=np.int64)
        var[K.V_WINNER] = -1
        var[K.V_PIESEAT] = -1
        owner = np.zeros(4, dtype=np.int64)
        for colour, seat in state.owner.items():
            owner[self.colours.index(colour)] = seat
        if self.name == "omega":
            var[K.V_TURN] = state.stone_index
            var[K.V_TURNCOL] = state.turn_colour
            var[K.V_PIESEAT] = -1 if state.pie_seat is None else state.pie_seat
            var[K.V_PLAYED] = state.played
        else:
            var[K.V_TURN] = state.turn
            var[K.V_SWAPPED] = int(state.swapped)
            var[K.V_PLACEMENTS] = state.placements
            if self.name == "omny":
                var[K.V_KOMI] = -1 if state.twice_komi is None else state.twice_komi
        return np.ascontiguousarray(state.stones, dtype=np.int8).copy(), var, owner

    def use_bridges(self, edges: bool) -> None:
        """Give the playouts of Odd-Y and Omny their bridge table (with bridges to the edge or not)."""
        if self.name in ("oddy", "omny"):
            self.bridges = bridge_table(self.board, edges, self.game.cell_sides if self.name == "oddy" else None)

    def use_patterns(self, edges: bool) -> bool:
        """Give the search of Odd-Y and Omny the tables of the pattern bias (the bridge table too,
        which answers intrusions); whether the game has patterns."""
        if self.name not in ("oddy", "omny"):
            return False
        sides = self.game.cell_sides if self.name == "oddy" else None
        self.use_bridges(edges)
        self.partners = partner_table(self.board, sides)
        return True

    def rule_arrays(self) -> tuple[np.ndarray, ...]:
        """The board arrays the kernel's rules take, as the one tuple `play_move`, `playout` and
        `run` take (`arrays`)."""
        return (self.table, self.stars, self.star_list, self.cell_sides, self.runs, self.square_table, self.side_bits)

    def play_code(self, stones: np.ndarray, var: np.ndarray, owner: np.ndarray, code: int) -> None:
        """Make one move with the kernel's rules on arrays from `encode` (for tests and tools)."""
        n = self.n
        logs = np.log(np.maximum(np.arange(n + 2), 1))
        work = np.empty((6, n + int(self.params[K.P_TOTAL]) + 8), dtype=np.int32)
        mark = np.zeros(n, dtype=np.int64)
        K.play_move(stones, var, owner, self.params, code, self.rule_arrays(), logs, work, mark, 1, np.zeros(4))

    def legal_codes(self, stones: np.ndarray, var: np.ndarray, owner: np.ndarray) -> list[int]:
        """The kernel's legal move codes for arrays from `encode`."""
        out = np.empty(self.n + int(self.params[K.P_TOTAL]) + 8, dtype=np.int32)
        count = K.gen_moves(stones, var, owner, self.params, self.midpoint_corners, out)
        return [int(c) for c in out[:count]]

    def move_text(self, code: int) -> str:
        """The move a code stands for, as `play` takes it."""
        n = self.n
        if code < n:
            return self.board.labels[code]
        if self.name == "omega":
            return "swap" if len(self.colours) == 2 else f"swap {self.colours[code - n]}"
        if code == n:
            return "swap"
        twice = code - n - 1
        return f"komi={twice // 2}" if twice % 2 == 0 else f"komi={twice // 2}.5"

    def path_moves(self, state: Any) -> list[str]:
        """The moves made so far, one per tree level (Omega's turn entries split into placements)."""
        moves: list[str] = []
        for entry in state.history:
            move = entry["move"]
            if self.name == "omega" and not move.startswith("swap") and move != "resign":
                moves.extend(move.split())
            else:
                moves.append(move)
        return moves


class CompiledMcts(MctsPlayer):
    """MCTS compiled whole for Omny, Odd-Y, Omega and Onyx (plain UCT for other games).

    Settings: `think` (seconds) and/or `iterations`, `seed`, `exploration` (UCT constant; with
    RAVE the default is smaller), `rave` and `solver` (on/off), `rave_k` (RAVE equivalence), `fpu`
    (with RAVE, an unvisited move is worth its AMAF mean plus this; 1e6 tries every move first),
    `nodes` (tree size budget), `expand` (visits before a node's children are made), `bridges` (playouts of
    Odd-Y and Omny answer an intrusion into a bridge), `edges` (and into a
    bridge to the edge), `reuse`
    (keep the subtree of the moves played since the last search), `temperature` (draw the move
    among the root's with chances ∝ visits^(1/T); 0 takes the most visited), `prove` (positions
    the connection solver may expand first in Omny and Odd-Y: a proven win is played, a chosen
    move proven to lose is replaced; 0: off), `decisive` (a node's moves are only its win in one,
    else the block of the opponent's win in one, where there is one), `reward` (with 3–4 seats:
    `win` 1 to the winner; `rank` Omega's seats by the rank of their scores; `paranoid` the others
    get 1 − the searching seat's reward), `captures` (Onyx playouts stop a capture the last stone
    threatens), `bias` (progressive bias from simple patterns in Odd-Y and Omny, with RAVE: each
    new child gets `bias` virtual AMAF wins per pattern point — 2 for saving a bridge the last
    stone intruded into, 1 each for touching the last stone, making a bridge with an own stone and
    making a bridge to the edge — so it is tried sooner and its prior fades as real AMAF results
    come in; 0 off, the default: tournaments showed no gain, see README), `level` (1–10, see
    `levels.py`; for `info()`, and the level's settings in `level_defaults`, those not written
    beside it, are fitted to the game's ladder in `fit_level`), `workers` (root parallelism: that
    many independent trees searched at once in threads, see `_parallel_search`; 1), `replies`
    (the fill playouts of Odd-Y and Omny play each colour's last good reply to the stone before,
    learnt from the playouts won and forgotten when it loses, `mcts_kernel._learn_replies`; off:
    see README for what it was worth), `opponent` (how the playouts of Odd-Y and Omny model the
    opponent: `strong`, its stones save their bridges as this player's do; `weak`, they fill at
    random; `auto`, strong until a search finds this player behind, then weak for the rest of the
    game, see `_note_standing`).

    With `workers` > 1 an `iterations` budget is the total over the workers (each searches its
    share), so that a level, which is an iteration budget, keeps its meaning; a `think` time is
    each worker's (all stop at the deadline). `nodes` is each tree's budget. Every worker keeps its
    own tree between moves (`reuse`). Measured (`benchmarks/bench_workers.py`, README): two trees of
    I iterations play about as well as one of 2·I, so two workers pay where a second core is free;
    on a busy shared machine they get no more CPU than one thread, so the default is 1.
    """

    def __init__(
        self,
        name: str = "mcts",
        *,
        think: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        exploration: float | None = None,
        rave: bool = True,
        solver: bool = False,
        rave_k: float = 500.0,
        fpu: float = 1e6,
        nodes: int = DEFAULT_NODES,
        expand: int = 8,
        bridges: bool = True,
        edges: bool = False,
        reuse: bool = True,
        temperature: float = 0.0,
        prove: int = 0,
        decisive: bool = False,
        reward: str = "win",
        captures: bool = False,
        bias: float = 0.0,
        level: int | None = None,
        workers: int = 1,
        swap: str = "shared",
        replies: bool = False,
        opponent: str = "auto",
        level_defaults: frozenset[str] = frozenset(),
    ):
        if exploration is None:
            exploration = 0.25 if rave else math.sqrt(2)
        super().__init__(name, think=think, iterations=iterations, seed=seed, exploration=exploration)
        if not 2 <= nodes <= MAX_NODES:
            raise BadOption(f"nodes must be from 2 to {MAX_NODES:,}, not {nodes}")
        self.rave = bool(rave)
        self.solver = bool(solver)
        self.rave_k = float(rave_k)
        self.fpu = float(fpu)
        self.nodes = int(nodes)
        if expand < 1:
            raise BadOption(f"expand must be at least 1, not {expand}")
        self.expand = int(expand)
        self.bridges = bool(bridges)
        self.edges = bool(edges)
        self.reuse = bool(reuse)
        if not temperature >= 0:
            raise BadOption(f"temperature must be 0 or more, not {temperature}")
        self.temperature = float(temperature)
        if prove < 0:
            raise BadOption(f"prove must be 0 (off) or a number of positions, not {prove}")
        self.prove = int(prove)
        self.decisive = bool(decisive)
        if reward not in REWARDS:
            raise BadOption(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.reward = reward
        self.captures = bool(captures)
        if not bias >= 0:
            raise BadOption(f"bias must be 0 (off) or more, not {bias}")
        self.bias = float(bias)
        self.level = level
        self._level_defaults = level_defaults  # the settings the level gave (none written beside it)
        self._ladder: Mapping[int, Any] | None = None  # the ladder those settings were fitted to
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
            raise BadOption(f"workers must be a whole number of at least 1 (at most {MAX_WORKERS}), not {workers!r}")
        self.workers = workers
        if swap not in SWAPS:
            raise BadOption(f"swap must be one of {', '.join(SWAPS)}, not {swap!r}")
        self.swap = swap
        self.replies = bool(replies)
        if opponent not in OPPONENTS:
            raise BadOption(f"opponent must be one of {', '.join(OPPONENTS)}, not {opponent!r}")
        self.opponent = opponent
        self._behind: tuple[Any, list[str]] | None = None  # (game, moves) where `auto` found itself behind
        self._tree: dict[str, Any] | None = None
        self._trees: list[dict[str, Any] | None] = [None] * workers  # with workers > 1
        self._root: tuple[np.ndarray, np.ndarray] | None = None  # the root the last move came from
        self._solver: Any = None
        self._prove_rate = PROVE_START_RATE

    def fit_level(self, game: str, options: Mapping[str, Any]) -> None:
        """Take the settings of this player's level on the game's own ladder (`levels.ladder`;
        three-player Omega has smaller budgets), keeping those written beside the level. The tree
        is dropped if a setting changes."""
        levels = ladder(game, options)
        if levels is self._ladder or self.level is None:
            return
        self._ladder = levels
        settings = level_settings(self.level, think=self.think is not None, levels=levels)
        for key in self._level_defaults:
            if getattr(self, key) != settings[key]:
                setattr(self, key, settings[key])
                self._tree, self._trees, self._root = None, [None] * self.workers, None

    def reset(self) -> None:
        """Forget the tree and start the random sequence again from the seed."""
        super().reset()
        self._tree = None
        self._trees = [None] * self.workers
        self._root = None
        self._solver = None
        self._behind = None

    def choose(self, state: State) -> str:
        """The best move after searching from the state (which is not changed)."""
        if self.level is not None:
            self.fit_level(state.game.name, state.game.options)
        if state.is_over or not Adapter.supports(state):
            return super().choose(state)
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last = {
                "iterations": 0,
                "seconds": 0.0,
                "move": moves[0],
                "visits": 0,
                "value": None,
                "reliable": False,
                "pv": [moves[0]],
            }
            return moves[0]
        think = self.think
        proof = None
        if self.prove and state.game.name in PROVED_GAMES:
            start = time.perf_counter()
            proof = self._proof(state, self._prove_budget(think))
            if proof.value == "win" and proof.move is not None:
                self.last = {
                    "iterations": 0,
                    "seconds": time.perf_counter() - start,
                    "move": proof.move,
                    "visits": 0,
                    "value": 1.0,
                    "reliable": True,
                    "proven": "win",
                    "pv": [proof.move],
                    "by": "solver",
                    "level": self.level,
                }
                return proof.move
            if think is not None:
                # The search gets what the proof left, less the share of the checks after it.
                think = max(think * (1 - PROVE_SHARE) - (time.perf_counter() - start), 0.2 * think)
        move = self.compiled_search(state, think)
        if proof is not None and proof.value == "unknown":
            move = self._avoid_proven_losses(state, move)
        return move

    # ----- the connection solver inside the search ------------------------------------------------
    def _prove_budget(self, think: float | None) -> int:
        """Solver positions for one proof: `prove`, or with a time budget what the measured
        solver speed does in PROVE_SHARE of it (so that the search keeps its time)."""
        if think is None:
            return self.prove
        return max(1, min(self.prove, int(self._prove_rate * PROVE_SHARE * think)))

    def _proof(self, state: State, budget: int) -> Any:
        """The connection solver's proof for the position within the budget (its table kept
        between moves of one game); the solver's speed is measured on the way."""
        from ogames.players.solvers.connection import ConnectionSolver, solve

        if self._solver is None or self._solver.game is not state.game:
            self._solver = ConnectionSolver(state.game, table_bits=PROVE_TABLE_BITS)
        proof = solve(state, budget, solver=self._solver)
        if proof.nodes >= 1000 and proof.seconds > 0:
            self._prove_rate = 0.5 * self._prove_rate + 0.5 * proof.nodes / proof.seconds
        return proof

    def _avoid_proven_losses(self, state: State, move: str) -> str:
        """The searched move unless the solver proves that the opponent wins after it; then the
        next most visited root move not proven to lose (at most PROVE_TRIES are checked)."""
        if self._root is None:
            return move
        ints, floats = self._root
        first, count = int(ints[0, K.I_FIRST]), int(ints[0, K.I_NCHILD])
        if first < 0:
            return move
        adapter = Adapter(state)
        ranked = sorted(range(first, first + count), key=lambda c: -floats[c, K.F_N])
        order = [move] + [m for m in (adapter.move_text(int(ints[c, K.I_MOVE])) for c in ranked) if m != move]
        mover = state.mover
        for tries, candidate in enumerate(order):
            if tries >= PROVE_TRIES:
                break
            child = state.clone()
            child.play(candidate, t=0.0)
            if child.is_over:
                return candidate
            proof = self._proof(child, max(1, self._prove_budget(self.think) // PROVE_TRIES))
            lost = proof.value != "unknown" and (proof.value == "win") == (child.mover != mover)
            if not lost:
                if candidate != move:
                    self.last.update(move=candidate, avoided=order[:tries], pv=[candidate])
                return candidate
        return move

    # ----- the search ----------------------------------------------------------------------------
    def _seed(self) -> None:
        """Seed the kernel's generator from this player's own sequence before every search, so
        that a player's moves depend on its seed only, not on other searches in between."""
        K.seed_rng(self.rng.getrandbits(31))

    def _tree_for(self, state: State, adapter: Adapter) -> dict[str, Any]:
        """The tree to search from: the kept one re-rooted at this state when it continues the
        position last searched, else a new one."""
        self._tree = self._reused_or_new(state, adapter, self._tree, self._search_params(state, adapter)[0])
        return self._tree

    def _reused_or_new(self, state: State, adapter: Adapter, kept: dict[str, Any] | None, params: np.ndarray) -> dict[str, Any]:
        """`kept` re-rooted at this state when it continues the position it searched, else a new
        tree (in `kept`'s arrays when they fit) for the search's `params`."""
        path = adapter.path_moves(state)
        if self.reuse and kept is not None and kept["game"] is state.game and kept["players"] == len(state.players):
            old = kept["path"]
            if len(path) >= len(old) and path[: len(old)] == old:
                node = 0
                ints = kept["ints"]
                for move in path[len(old) :]:
                    if move == "swap" and ints[node, K.I_FLAGS] & K.FL_PIE:
                        continue  # a shared pie: the swap leaves the position, and so the node, as it was
                    first, count = ints[node, K.I_FIRST], ints[node, K.I_NCHILD]
                    found = -1
                    for child in range(first, first + count) if first >= 0 else ():
                        if adapter.move_text(int(ints[child, K.I_MOVE])) == move:
                            found = child
                            break
                    node = found
                    if node < 0:
                        break
                if node >= 0 and ints[node, K.I_SEAT] >= 0:
                    if node != 0:
                        used = int(kept["meta"][K.M_COUNT])
                        old_i, old_f = ints[:used].copy(), kept["floats"][:used].copy()
                        kept["meta"][K.M_COUNT] = K.compact(old_i, old_f, ints, kept["floats"], node)
                    if path and path[-1] == "swap":
                        ints[0, K.I_FLAGS] &= ~K.FL_PIE  # the swap is used up at the new root
                    kept["path"] = path
                    kept["reused"] = int(kept["floats"][0, K.F_N])
                    return kept
        capacity = self.nodes
        seats = len(state.players)
        if kept is not None and kept["ints"].shape[0] == capacity and kept["floats"].shape[1] == K.F_W + seats:
            ints, floats = kept["ints"], kept["floats"]
        else:
            # np.empty takes pages from the system only as nodes are written.
            ints = np.empty((capacity, K.NI), dtype=np.int32)
            floats = np.empty((capacity, K.F_W + seats), dtype=np.float64)
        meta = np.zeros(2, dtype=np.int64)
        _, var, owner = adapter.encode(state)
        K.init_root(ints, floats, meta, var, owner, params)
        tree = {
            "game": state.game,
            "players": len(state.players),
            "path": path,
            "ints": ints,
            "floats": floats,
            "meta": meta,
            "reused": 0,
            # Each colour's last good reply to each cell, learnt by the playouts (`replies`).
            "replies": np.full((2, len(adapter.board)), -1, dtype=np.int32),
        }
        return tree

    def compiled_search(self, state: State, think: float | None = None) -> str:
        """Search with the compiled kernel within the budget (`think` seconds if given, else the
        player's own); return the chosen move. With `opponent=auto`, while the opponent is still
        modelled strong, the first PROBE share of the budget tells whether this player is behind
        (`_note_standing`): if it is, the rest of the budget searches a new tree with the opponent
        weak, else the same search goes on (with one tree, exactly as if it had not stopped)."""
        think = self.think if think is None else think
        adapter = Adapter(state)
        probes = self._probes(state, adapter)
        start = time.perf_counter()
        if self.workers > 1:
            if probes:
                return self._probed_parallel_search(state, adapter, think, start)
            return self._parallel_search(state, adapter, think, start, self.iterations)
        self._seed()
        params, fparams = self._search_params(state, adapter)
        self._tree = tree = self._reused_or_new(state, adapter, self._tree, params)
        stones, var, owner = adapter.encode(state)
        limit = self.iterations
        done = 0
        probe = None
        if probes:
            probe_limit, probe_deadline = self._probe_budget(think, start)
            done = self._search_loop(tree, adapter, stones, var, owner, params, fparams, probe_limit, probe_deadline, think)
            probe = {"iterations": done, "value": self._reliable_worth(tree["ints"], tree["floats"])}
            if self._note_standing(state, adapter, probe["value"]):
                params, fparams = self._search_params(state, adapter)
                self._tree = tree = self._reused_or_new(state, adapter, None, params)
            limit = None if limit is None else limit - done
        deadline = None if think is None else start + think
        done += self._search_loop(tree, adapter, stones, var, owner, params, fparams, limit, deadline, think)
        self._root = (tree["ints"], tree["floats"])
        move = self._report(state, adapter, [tree], done, time.perf_counter() - start)
        if probe is not None:
            self.last["probe"] = probe
        return move

    def _reliable_worth(self, ints: np.ndarray, floats: np.ndarray) -> float | None:
        """The worth to the side to move of the root's best move (1 or 0 if proven), None when the
        root has no children yet or the move fewer than MIN_PLAYOUTS_FOR_VALUE visits."""
        if ints[0, K.I_FIRST] < 0:
            return None
        best = self._best_child(ints, floats, 0)
        proven, worth = _outlook(ints, floats, best)
        if proven >= 0:
            return 1.0 if proven == ints[0, K.I_SEAT] else 0.0
        return None if worth is None or floats[best, K.F_N] < MIN_PLAYOUTS_FOR_VALUE else worth

    def _probe_budget(self, think: float | None, start: float) -> tuple[int | None, float | None]:
        """The probe's share of the budget: (iterations, deadline), None where there is no limit."""
        limit = None if self.iterations is None else max(1, int(self.iterations * PROBE))
        return limit, None if think is None else start + think * PROBE

    def _probed_parallel_search(self, state: State, adapter: Adapter, think: float | None, start: float) -> str:
        """`compiled_search`'s probe with root-parallel workers: a parallel search of the probe's
        share, then one of the rest (on the same trees, or new ones with the opponent weak)."""
        limit, deadline = self._probe_budget(think, start)
        self._parallel_search(state, adapter, None if deadline is None else deadline - start, start, limit)
        assert self._root is not None  # the merged root the probe chose from
        value = self._reliable_worth(*self._root)
        probe = {"iterations": self.last["iterations"], "value": value}
        probed, reused = self.last["worker_iterations"], self.last["reused"]
        if self._note_standing(state, adapter, value):
            reused = 0  # the rest searches new trees
        rest = None if self.iterations is None else max(self.iterations - probe["iterations"], 0)
        left = None if think is None else max(think - (time.perf_counter() - start), 0.0)
        move = self._parallel_search(state, adapter, left, time.perf_counter(), rest)
        self.last["iterations"] += probe["iterations"]  # the work done, the probe's included
        self.last["worker_iterations"] = [a + b for a, b in zip(probed, self.last["worker_iterations"], strict=True)]
        self.last["reused"] = reused  # what the trees held before this move
        self.last["seconds"] = time.perf_counter() - start
        self.last["probe"] = probe
        return move

    # ----- the opponent the playouts model -------------------------------------------------------
    def _models_differ(self, state: State, adapter: Adapter) -> bool:
        """Whether the opponent's model changes the playouts: Odd-Y and Omny with two seats and
        bridge answers."""
        return self.bridges and adapter.name in ("oddy", "omny") and len(state.players) == 2

    def _probes(self, state: State, adapter: Adapter) -> bool:
        """Whether this search starts with a probe: `opponent=auto`, the opponent not yet weak."""
        return self.opponent == "auto" and self._models_differ(state, adapter) and not self._weak_opponent(state, adapter)

    def _weak_opponent(self, state: State, adapter: Adapter) -> bool:
        """Whether the playouts' opponent stones fill at random, their bridges left unsaved while
        this player's are saved: with `opponent=weak`, or with `auto` once a search of this game
        found this player behind (`_note_standing`). Only Odd-Y and Omny with two seats and bridge
        answers have the difference."""
        if not self._models_differ(state, adapter):
            return False
        if self.opponent != "auto":
            return self.opponent == "weak"
        if self._behind is None:
            return False
        game, moves = self._behind
        return game is state.game and adapter.path_moves(state)[: len(moves)] == moves

    def _note_standing(self, state: State, adapter: Adapter, value: float | None) -> bool:
        """After a probe (`opponent=auto`, the opponent still strong): when it values its
        best move below BEHIND (`value`: None when too few visits tell), the rest of this game
        models the opponent as weak and the trees, grown under the other model, are dropped;
        returns whether it switched. Against perfect play such a position is lost or nearly; the
        weak model looks for the moves that keep winning chances against an opponent who does not
        defend every bridge, where the strong one sees every move as about equally lost."""
        if value is None or value >= BEHIND:
            return False
        self._behind = (state.game, adapter.path_moves(state))
        self._tree, self._trees = None, [None] * self.workers
        return True

    def _search_params(self, state: State, adapter: Adapter) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's int and float parameters for this player's settings on this position."""
        params = adapter.params.copy()
        params[K.P_RAVE] = int(self.rave)
        params[K.P_SOLVER] = int(self.solver and len(state.players) == 2)
        params[K.P_FILL] = 0
        params[K.P_EXPAND] = self.expand
        params[K.P_BRIDGE] = int(self.bridges)
        mover = state.mover
        params[K.P_BRIDGE_SEAT] = mover if mover is not None and self._weak_opponent(state, adapter) else -1
        params[K.P_REPLIES] = int(self.replies)
        params[K.P_DECISIVE] = int(self.decisive)
        params[K.P_REWARD] = REWARDS[self.reward]
        params[K.P_CAPTURES] = int(self.captures)
        params[K.P_SHARED] = int(self.swap == "shared" and params[K.P_PIE] != 0)  # the stone games' swap
        if self.bridges:
            adapter.use_bridges(self.edges)
        bias = self.bias if self.rave and self.bias > 0 and adapter.use_patterns(self.edges) else 0.0
        params[K.P_LAST] = self._last_cell(state, adapter)
        if adapter.name == "omny":
            twice = adapter.komi_fixed if state.twice_komi is None else state.twice_komi  # type: ignore[attr-defined]
            # One fill and one test decide a playout when S + 2k is odd (no race); komi chosen in
            # play could make it even, so then every stone is tested.
            params[K.P_FILL] = int(twice is not None and (adapter.game.total_stars + twice) % 2 == 1)
        fparams = np.array([self.exploration, self.rave_k, self.fpu, bias], dtype=np.float64)
        return params, fparams

    @staticmethod
    def _search_loop(
        tree: dict[str, Any],
        adapter: Adapter,
        stones: np.ndarray,
        var: np.ndarray,
        owner: np.ndarray,
        params: np.ndarray,
        fparams: np.ndarray,
        limit: int | None,
        deadline: float | None,
        think: float | None,
        stop: threading.Event | None = None,
    ) -> int:
        """Run the kernel on one tree in batches until `limit` iterations, the deadline, a proven
        root, or (a worker among several) `stop` is set; return the iterations run. `params` may
        be changed (the solver is switched off once every move is proven lost)."""
        arrays = adapter.rule_arrays()
        done = 0
        batch = BATCH if deadline is None else FIRST_BATCH
        while True:
            if limit is not None:
                batch = min(batch, limit - done)
            if batch <= 0 or (stop is not None and stop.is_set()):
                break
            called = time.perf_counter()
            ran = K.run(
                tree["ints"],
                tree["floats"],
                tree["meta"],
                stones,
                var,
                owner,
                params,
                fparams,
                arrays,
                adapter.midpoint_corners,
                adapter.bridges,
                adapter.partners,
                tree["replies"],
                batch,
            )
            done += ran
            if ran < batch:  # the root is proven
                if tree["ints"][0, K.I_PROVEN] == tree["ints"][0, K.I_SEAT]:
                    if stop is not None:
                        stop.set()  # a proven win: the other workers need not search on
                    break
                # Every move loses against perfect play: search on without the proofs for the
                # move that resists best against an opponent who may not find the win.
                params[K.P_SOLVER] = 0
            now = time.perf_counter()
            if deadline is not None:
                if now >= deadline:
                    break
                # Big boards run a few thousand iterations a second: size the next call so that
                # the clock is read often enough not to overrun a short budget.
                rate = ran / max(now - called, 1e-6)
                assert think is not None  # a deadline comes from a think time
                batch = int(min(BATCH, max(1, rate * min(SLICE * think, deadline - now))))
            else:
                batch = BATCH
        return done

    # ----- root parallelism ----------------------------------------------------------------------
    def _parallel_search(self, state: State, adapter: Adapter, think: float | None, start: float, limit: int | None) -> str:
        """Root parallelism: `workers` independent trees, each searched in its own thread (the
        kernel runs without the GIL) from its own seed, with its own tree arrays, parameters and
        scratch buffers (the kernel allocates those per call; numba's random generator is per
        thread). Their roots' statistics are then merged move by move (`_merged_root`) and the
        move is chosen from the merged counts. With an iteration budget each worker runs its share
        of the total, so the result depends on the seed only; with a time budget, on the clock."""
        count = self.workers
        seeds = [self.rng.getrandbits(31) for _ in range(count)]
        params, fparams = self._search_params(state, adapter)
        trees = [self._reused_or_new(state, adapter, kept, params) for kept in self._trees]
        self._trees = list(trees)
        stones, var, owner = adapter.encode(state)
        shares = [None if limit is None else limit // count + (w < limit % count) for w in range(count)]
        deadline = None if think is None else start + think
        stop = threading.Event()

        def work(w: int) -> int:
            K.seed_rng(seeds[w])  # this thread's generator
            return self._search_loop(
                trees[w], adapter, stones, var, owner, params.copy(), fparams, shares[w], deadline, think, stop
            )

        with ThreadPoolExecutor(max_workers=count, thread_name_prefix="mcts-worker") as pool:
            done = list(pool.map(work, range(count)))
        self._root = _merged_root([(t["ints"], t["floats"]) for t in trees])
        return self._report(state, adapter, trees, sum(done), time.perf_counter() - start, per_worker=done)

    @staticmethod
    def _last_cell(state: State, adapter: Adapter) -> int:
        """The cell of the last move made (what the patterns answer), −1 if it was not a stone."""
        history = state.history
        if not history or adapter.name not in ("oddy", "omny"):
            return -1
        move = history[-1]["move"]
        return adapter.board.index(move) if adapter.board.has(move) else -1

    def _best_child(self, ints: np.ndarray, floats: np.ndarray, node: int) -> int:
        """A proven win for the side deciding here, else the most visited child that is not a
        proven loss (ties: the better worth), else the most visited."""
        first = int(ints[node, K.I_FIRST])
        seat = int(ints[node, K.I_SEAT])
        proofs, worths = _outlooks(ints, floats, node)
        children = range(len(proofs))
        wins = [i for i in children if proofs[i] == seat]
        if wins:
            return first + max(wins, key=lambda i: floats[first + i, K.F_N])
        two = floats.shape[1] - K.F_W == 2
        # Proven losses are avoided while some move is not one; when all are, the most visited
        # (the search went on without proofs) resists best.
        alive = [i for i in children if not (two and proofs[i] >= 0)] or list(children)

        def key(i: int) -> tuple[float, float]:
            return floats[first + i, K.F_N], 0.0 if np.isnan(worths[i]) else worths[i]

        return first + max(alive, key=key)

    def _drawn_child(self, ints: np.ndarray, floats: np.ndarray) -> int:
        """A root child drawn with chances ∝ visits^(1/temperature) (a proven win if there is
        one; proven losses only when every move is one)."""
        first = int(ints[0, K.I_FIRST])
        seat = int(ints[0, K.I_SEAT])
        proofs, _ = _outlooks(ints, floats, 0)
        if (proofs == seat).any():
            return self._best_child(ints, floats, 0)
        two = floats.shape[1] - K.F_W == 2
        children = [first + i for i in range(len(proofs))]
        alive = [c for c, proof in zip(children, proofs, strict=True) if not (two and proof >= 0)] or children
        visited = [c for c in alive if floats[c, K.F_N] > 0] or alive
        top = max(floats[c, K.F_N] for c in visited) or 1.0
        weights = [(floats[c, K.F_N] / top) ** (1.0 / self.temperature) if floats[c, K.F_N] > 0 else 1.0 for c in visited]
        return self.rng.choices(visited, weights=weights)[0]

    def _report(
        self,
        state: State,
        adapter: Adapter,
        trees: list[dict[str, Any]],
        done: int,
        seconds: float,
        per_worker: list[int] | None = None,
    ) -> str:
        """Choose the move from the root of the last search (`_root`: the one tree's, or the
        workers' merged) and record the figures `info()` gives."""
        assert self._root is not None, "a search sets the root it chose from"
        ints, floats = self._root
        if ints[0, K.I_FIRST] < 0:  # nothing searched (a budget of no time): any legal move
            move = state.legal_moves()[0]
            self.last = {"iterations": done, "seconds": seconds, "move": move, "visits": 0, "value": None, "reliable": False}
            self.last["pv"] = [move]
            return move
        seat = int(ints[0, K.I_SEAT])
        best = self._best_child(ints, floats, 0)
        swap = ints[0, K.I_FLAGS] & K.FL_PIE and "swap" in state.legal_moves() and _takes_other_colour(ints, floats, best)
        if self.temperature > 0 and not swap:
            best = self._drawn_child(ints, floats)
        visits = float(floats[best, K.F_N])
        proven, value = _outlook(ints, floats, best)
        if proven >= 0:
            value = 1.0 if proven == seat else 0.0
        code = int(ints[best, K.I_MOVE])
        pv = ["swap"] if swap else []
        if swap:  # the other colour, with the opponent to play the best move of this one
            value = None if value is None else 1.0 - value
            proven = -1 if proven < 0 else 1 - proven
        pv.append(adapter.move_text(code))
        if ints[best, K.I_SEAT] >= 0:
            # The line goes on in the tree that visited the move most (the only one, one worker).
            tree_ints, tree_floats, node = _deepest_line(trees, code)
            while tree_ints[node, K.I_FIRST] >= 0 and len(pv) < PV_LENGTH:
                node = self._best_child(tree_ints, tree_floats, node)
                pv.append(adapter.move_text(int(tree_ints[node, K.I_MOVE])))
                if tree_ints[node, K.I_SEAT] < 0:
                    break
        move = pv[0]
        self.last = {
            "iterations": done,
            "seconds": seconds,
            "move": move,
            "visits": int(visits),
            "value": value,
            "reliable": visits >= MIN_PLAYOUTS_FOR_VALUE or proven >= 0,
            "proven": None if proven < 0 else ("win" if proven == seat else "loss"),
            "pv": pv,
            "nodes": sum(int(tree["meta"][K.M_COUNT]) for tree in trees),
            "reused": sum(tree["reused"] for tree in trees),
            "iterations_per_second": done / seconds if seconds > 0 else 0.0,
            "level": self.level,
        }
        if per_worker is not None:
            self.last.update(workers=len(per_worker), worker_iterations=list(per_worker))
        return move


def _outlooks(ints: np.ndarray, floats: np.ndarray, node: int) -> tuple[np.ndarray, np.ndarray]:
    """Each child's proof in the node's terms (−1: none) and mean worth to the side deciding
    at the node (NaN: unvisited), children in order (`mcts_kernel.outlooks`)."""
    count = int(ints[node, K.I_NCHILD])
    proofs, worths = np.empty(count, dtype=np.int64), np.empty(count)
    K.outlooks(ints, floats, node, proofs, worths)
    return proofs, worths


def _outlook(ints: np.ndarray, floats: np.ndarray, child: int) -> tuple[int, float | None]:
    """A root child's proof and worth to the side to move (None: unvisited)."""
    proofs, worths = _outlooks(ints, floats, 0)
    i = child - int(ints[0, K.I_FIRST])
    return int(proofs[i]), None if np.isnan(worths[i]) else float(worths[i])


def _takes_other_colour(ints: np.ndarray, floats: np.ndarray, best: int) -> bool:
    """At a root where the swap is open (shared pie): whether the side to move does better with
    the other colour, i.e. its colour's best move is proven lost or wins less than half."""
    proven, worth = _outlook(ints, floats, best)
    if proven >= 0:
        return proven != ints[0, K.I_SEAT]
    return worth is not None and worth < 0.5


def _deepest_line(trees: list[dict[str, Any]], code: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The tree whose root child for move `code` has the most visits, and that child."""
    found: tuple[np.ndarray, np.ndarray, int] | None = None
    most = -1.0
    for tree in trees:
        ints, floats = tree["ints"], tree["floats"]
        first = int(ints[0, K.I_FIRST])
        if first < 0:
            continue
        for child in range(first, first + int(ints[0, K.I_NCHILD])):
            if ints[child, K.I_MOVE] == code and floats[child, K.F_N] > most:
                found, most = (ints, floats, child), float(floats[child, K.F_N])
    assert found is not None, "the chosen move is a root child of some tree"
    return found


def _merged_root(roots: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The workers' roots as one root with its children, in the tree's columns: per move, the sums
    of visits, AMAF figures and reward sums, and a proof if any worker found one (a proven win
    for the seat to move wins over the others; proofs are exact, so workers do not disagree).
    Children are ordered by move code, so that the merge does not depend on expansion order."""
    ints0, floats0 = roots[0]
    columns = floats0.shape[1]
    rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    root_i = ints0[0].copy()
    root_f = np.zeros(columns)
    seat = int(root_i[K.I_SEAT])
    for ints, floats in roots:
        root_f += floats[0]
        proven = int(ints[0, K.I_PROVEN])
        if proven >= 0 and (root_i[K.I_PROVEN] < 0 or proven == seat):
            root_i[K.I_PROVEN] = proven
        first = int(ints[0, K.I_FIRST])
        if first < 0:
            continue
        for child in range(first, first + int(ints[0, K.I_NCHILD])):
            code = int(ints[child, K.I_MOVE])
            if code not in rows:
                row = ints[child].copy()
                row[K.I_PROVEN] = -1
                rows[code] = (row, np.zeros(columns))
            row, sums = rows[code]
            sums += floats[child]
            for column in (K.I_SEAT, K.I_COLOUR, K.I_TERM, K.I_FLAGS):
                row[column] = max(row[column], ints[child, column])
            proven = int(ints[child, K.I_PROVEN])
            if proven >= 0 and (row[K.I_PROVEN] < 0 or proven == seat):
                row[K.I_PROVEN] = proven
    codes = sorted(rows)
    merged_i = np.empty((1 + len(codes), K.NI), dtype=np.int32)
    merged_f = np.empty((1 + len(codes), columns), dtype=np.float64)
    merged_i[0], merged_f[0] = root_i, root_f
    merged_i[0, K.I_FIRST] = 1 if codes else -1
    merged_i[0, K.I_NCHILD] = len(codes)
    for k, code in enumerate(codes, start=1):
        merged_i[k], merged_f[k] = rows[code]
        merged_i[k, K.I_PARENT] = 0
        merged_i[k, K.I_FIRST] = -1
        merged_i[k, K.I_NCHILD] = 0
    return merged_i, merged_f


def warm_up(state: State, seed: int = 0) -> None:
    """Make the game's compiled kernels ready on a copy of the state: one move and one random
    playout, the work of one search iteration, and a few iterations of the compiled search. The
    first run after an install compiles them (seconds); later runs load them from numba's cache.
    The state itself is not changed."""
    if state.is_over:
        return
    rng = random.Random(seed)
    sim = state.clone()
    sim.play(rng.choice(sim.legal_moves()), t=0.0)
    if not sim.is_over:
        sim.random_playout(rng)
    if Adapter.supports(state):
        CompiledMcts(iterations=8, seed=seed, reuse=False, nodes=4096).choose(state)
