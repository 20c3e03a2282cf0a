"""The `mcts` player: compiled MCTS (`kernel.py`) for Omny, Odd-Y, Omega and Onyx, with tree reuse
between moves, a budget in seconds or iterations, RAVE, the MCTS-solver and the connection solver
as options (`settings.py` declares them all).

Python only drives: an `Adapter` translates the state, the tree (`tree.py`) is kept between calls
and searched in batches so that the clock is read between them, root parallelism is `parallel.py`'s
and the move and its figures are `report.py`'s. Games the kernel does not know (Omiga's turn-based
modes, an Omega tournament match, toy games in tests) are searched by the plain UCT this class
extends.

Special moves are decided by the search: Omny's `komi=K` and Omega's `swap <colour>` are children
where the rules allow them, and the stone games' pie `swap` is judged on the position's own
subtree, by colour (`kernel.py`, "The pie").
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ogames.kernels import layout as P
from ogames.kernels.step import OMEGA
from ogames.players import levels as ladders  # levels read the settings spec: imported as a module (a cycle)
from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import Adapter, Ints, adapter_for, supports
from ogames.players.mcts.info import Probe, SearchInfo
from ogames.players.mcts.parallel import merged_root, search_trees
from ogames.players.mcts.report import Root, choose_from_root, reliable_worth, root_worths, seat_worths
from ogames.players.mcts.settings import SETTINGS, Read
from ogames.players.mcts.tree import Budget, Floats, Search, Tree, kept_or_new, run_batches
from ogames.players.mcts.uct import MctsPlayer
from ogames.rules.protocol import State

BEHIND = 0.45  # `opponent=auto`: a searched worth below this (opponent strong) turns the model weak
PROBE = 0.25  # `opponent=auto`: the share of a search's budget that tells whether it is behind
PROVE_SHARE = 0.125  # with a time budget: the solver's share before the search, and again after it
PROVE_START_RATE = 100_000.0  # solver positions per second assumed until one search measures it
PROVE_TRIES = 3  # searched moves checked against a proven loss, at most
PROVE_TABLE_BITS = 18  # the solver's table inside mcts: 2^18 entries, 7 MB


class CompiledMcts(MctsPlayer):
    """MCTS compiled whole for Omny, Odd-Y, Omega and Onyx (plain UCT for other games).

    Its settings (`settings.SETTINGS`, also `docs/ai-settings.md`) are given as keywords, checked
    and kept in `settings`. With `workers` > 1 an `iterations` budget is the total over the
    workers (each searches its share), so that a level, which is an iteration budget, keeps its
    meaning; a `think` time is each worker's (all stop at the deadline). `nodes` is each tree's
    budget. Every worker keeps its own tree between moves (`reuse`). `level_defaults` names the
    settings a level gave (none written beside it): `fit_level` fits them to the game's ladder.
    """

    def __init__(self, name: str = "mcts", *, level_defaults: frozenset[str] = frozenset(), **given: Any):
        super().__init__(name, settings=SETTINGS.parse(given))
        self._level_defaults = level_defaults
        self._ladder: Mapping[int, ladders.Level] | None = None  # the ladder those settings were fitted to
        self._behind: tuple[Any, list[str]] | None = None  # (game, moves) where `auto` found itself behind
        self._trees: list[Tree | None] = [None] * self.workers  # one a worker, kept between moves
        self._root: Root | None = None  # the root the last move came from
        self._solver: Any = None
        self._prove_rate = PROVE_START_RATE

    level = Read[int | None]()
    workers = Read[int]()

    def fit_level(self, game: str, options: Mapping[str, Any]) -> None:
        """Take the settings of this player's level on the game's own ladder (`levels.ladder`;
        three-player Omega has smaller budgets), keeping those written beside the level. The trees
        are dropped if a setting changes."""
        levels = ladders.ladder(game, options)
        if levels is self._ladder or self.level is None:
            return
        self._ladder = levels
        settings = ladders.level_settings(self.level, think=self.think is not None, levels=levels)
        changed = {key: settings[key] for key in self._level_defaults if self.settings[key] != settings[key]}
        if changed:
            self.settings.update(changed)
            self._drop_trees()

    def _drop_trees(self) -> None:
        self._trees, self._root = [None] * self.workers, None

    def reset(self) -> None:
        """Forget the trees and start the random sequence again from the seed."""
        super().reset()
        self._drop_trees()
        self._solver = None
        self._behind = None

    def choose(self, state: State) -> str:
        """The best move after searching from the state (which is not changed)."""
        if self.level is not None:
            self.fit_level(state.game.name, state.game.options)
        if state.is_over or not supports(state):
            return super().choose(state)
        moves = state.legal_moves()
        self._root = None  # until a compiled search of this position sets it (`seat_worths`)
        if len(moves) == 1:
            self.last = SearchInfo(move=moves[0], pv=(moves[0],))
            return moves[0]
        adapter = adapter_for(state)
        think = self.think
        proof = None
        if self.settings["prove"] and adapter.proved:
            start = time.perf_counter()
            proof = self._proof(state, self._prove_budget(think))
            if proof.value == "win" and proof.move is not None:
                seconds = time.perf_counter() - start
                self.last = SearchInfo(move=proof.move, seconds=seconds, value=1.0, reliable=True, proven="win",
                                       pv=(proof.move,), by="solver", level=self.level)
                return str(proof.move)
            if think is not None:
                # The search gets what the proof left, less the share of the checks after it.
                think = max(think * (1 - PROVE_SHARE) - (time.perf_counter() - start), 0.2 * think)
        move = self.compiled_search(state, think)
        if proof is not None and proof.value == "unknown":
            move = self._avoid_proven_losses(state, adapter, move)
        return move

    def seat_worths(self, mover: int) -> tuple[float, ...] | None:
        """Every seat's mean reward under the best move of the last compiled search, whose position
        `mover` was to move in (`report.seat_worths`); None before one, or when the solver or a
        single legal move decided without searching."""
        return None if self._root is None else seat_worths(self._root, mover)

    def root_worths(self, mover: int) -> tuple[float, ...] | None:
        """Every seat's mean reward over all the visits of the last compiled search's root (the
        position's own worth, `report.root_worths`; None as for `seat_worths`)."""
        return None if self._root is None else root_worths(self._root, mover)

    # ----- the connection solver inside the search ------------------------------------------------
    def _prove_budget(self, think: float | None) -> int:
        """Solver positions for one proof: `prove`, or with a time budget what the measured
        solver speed does in PROVE_SHARE of it (so that the search keeps its time)."""
        prove: int = self.settings["prove"]
        if think is None:
            return prove
        return max(1, min(prove, int(self._prove_rate * PROVE_SHARE * think)))

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

    def _avoid_proven_losses(self, state: State, adapter: Adapter, move: str) -> str:
        """The searched move unless the solver proves that the opponent wins after it; then the
        next most visited root move not proven to lose (at most PROVE_TRIES are checked)."""
        if self._root is None:
            return move
        ints, floats = self._root
        first, count = int(ints[0, K.I_FIRST]), int(ints[0, K.I_NCHILD])
        if first < 0:
            return move
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
                    self.last = dataclasses.replace(self.last, move=candidate, avoided=tuple(order[:tries]), pv=(candidate,))
                return candidate
        return move

    # ----- the search ----------------------------------------------------------------------------
    def compiled_search(self, state: State, think: float | None = None) -> str:
        """Search with the compiled kernel within the budget (`think` seconds if given, else the
        player's own); return the chosen move. With `opponent=auto`, while the opponent is still
        modelled strong, the first PROBE share of the budget tells whether this player is behind
        (`_note_standing`): if it is, the rest of the budget searches new trees with the opponent
        weak, else the same search goes on (with one tree, exactly as if it had not stopped)."""
        think = self.think if think is None else think
        adapter = adapter_for(state)
        probes = self._probes(state, adapter)
        start = time.perf_counter()
        if self.workers > 1:
            if probes:
                return self._probed_parallel_search(state, adapter, think, start)
            return self._parallel_search(state, adapter, think, start, self.iterations)
        K.seed_rng(self.rng.getrandbits(31))  # the kernel's generator follows this player's seed only
        params, fparams = self._search_params(state, adapter)
        tree = self._tree(state, adapter, self._trees[0], params)
        self._trees = [tree]
        search = Search(adapter, adapter.encode(state), params, fparams)
        limit = self.iterations
        done = 0
        probe = None
        if probes:
            done = run_batches(tree, search, self._probe_budget(think, start), params)
            probe = Probe(done, reliable_worth(*tree.root))
            if self._note_standing(state, adapter, probe.value):
                params, fparams = self._search_params(state, adapter)
                search = Search(adapter, search.position, params, fparams)
                tree = self._tree(state, adapter, None, params)
                self._trees = [tree]
            limit = None if limit is None else limit - done
        done += run_batches(tree, search, Budget(limit, None if think is None else start + think, think), params)
        self._root = tree.root
        move = self._report(state, adapter, [tree], [done], start)
        if probe is not None:
            self.last = dataclasses.replace(self.last, probe=probe)
        return move

    def _tree(self, state: State, adapter: Adapter, kept: Tree | None, params: Ints) -> Tree:
        """`kept` re-rooted at this state where the game went on (`reuse`), else a new tree of `nodes`."""
        return kept_or_new(state, adapter, kept, params, self.settings["nodes"], self.settings["reuse"])

    def _probe_budget(self, think: float | None, start: float) -> Budget:
        """The probe's share of the budget (of `think` seconds from `start`, or the iterations)."""
        limit = None if self.iterations is None else max(1, int(self.iterations * PROBE))
        return Budget(limit, None if think is None else start + think * PROBE, think)

    def _parallel_search(self, state: State, adapter: Adapter, think: float | None, start: float, limit: int | None) -> str:
        """Root parallelism (`parallel.py`): every worker's tree searched in its own thread from its
        own seed, the move chosen from the merged root."""
        seeds = [self.rng.getrandbits(31) for _ in range(self.workers)]
        params, fparams = self._search_params(state, adapter)
        trees = [self._tree(state, adapter, kept, params) for kept in self._trees]
        self._trees = list(trees)
        budget = Budget(limit, None if think is None else start + think, think)
        done = search_trees(trees, seeds, Search(adapter, adapter.encode(state), params, fparams), budget)
        self._root = merged_root([tree.root for tree in trees])
        return self._report(state, adapter, trees, done, start)

    def _probed_parallel_search(self, state: State, adapter: Adapter, think: float | None, start: float) -> str:
        """`compiled_search`'s probe with root-parallel workers: a parallel search of the probe's
        share, then one of the rest (on the same trees, or new ones with the opponent weak)."""
        probe_budget = self._probe_budget(think, start)
        deadline = probe_budget.deadline
        self._parallel_search(state, adapter, None if deadline is None else deadline - start, start, probe_budget.limit)
        assert self._root is not None  # the merged root the probe chose from
        probe = Probe(self.last.iterations, reliable_worth(*self._root))
        probed, reused = self.last.worker_iterations, self.last.reused
        if self._note_standing(state, adapter, probe.value):
            reused = 0  # the rest searches new trees
        rest = None if self.iterations is None else max(self.iterations - probe.iterations, 0)
        left = None if think is None else max(think - (time.perf_counter() - start), 0.0)
        move = self._parallel_search(state, adapter, left, time.perf_counter(), rest)
        self.last = dataclasses.replace(
            self.last,
            iterations=self.last.iterations + probe.iterations,  # the work done, the probe's included
            worker_iterations=tuple(a + b for a, b in zip(probed, self.last.worker_iterations, strict=True)),
            reused=reused,  # what the trees held before this move
            seconds=time.perf_counter() - start,
            probe=probe,
        )
        return move

    def _report(self, state: State, adapter: Adapter, trees: list[Tree], done: list[int], start: float) -> str:
        """Choose the move from the root of the last search (`_root`: the one tree's, or the
        workers' merged) and keep the figures `info()` gives in `last`."""
        assert self._root is not None, "a search sets the root it chose from"
        seconds = time.perf_counter() - start
        move, info = choose_from_root(state, adapter, self._root, trees, self.settings["temperature"], self.rng)
        total = sum(done)
        self.last = dataclasses.replace(
            info,
            iterations=total,
            seconds=seconds,
            iterations_per_second=total / seconds if seconds > 0 else 0.0,
            level=self.level,
            workers=len(done),
            worker_iterations=tuple(done) if len(done) > 1 else (),
        )
        return move

    # ----- the opponent the playouts model -------------------------------------------------------
    def _models_differ(self, state: State, adapter: Adapter) -> bool:
        """Whether the opponent's model changes the playouts: Odd-Y and Omny with two seats and
        bridge answers."""
        return bool(self.settings["bridges"]) and adapter.answers_bridges and len(state.players) == 2

    def _probes(self, state: State, adapter: Adapter) -> bool:
        """Whether this search starts with a probe: `opponent=auto`, the opponent not yet weak."""
        auto = self.settings["opponent"] == "auto"
        return auto and self._models_differ(state, adapter) and not self._weak_opponent(state, adapter)

    def _weak_opponent(self, state: State, adapter: Adapter) -> bool:
        """Whether the playouts' opponent stones fill at random, their bridges left unsaved while
        this player's are saved: with `opponent=weak`, or with `auto` once a search of this game
        found this player behind (`_note_standing`). Only Odd-Y and Omny with two seats and bridge
        answers have the difference."""
        if not self._models_differ(state, adapter):
            return False
        if self.settings["opponent"] != "auto":
            return bool(self.settings["opponent"] == "weak")
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
        self._trees = [None] * self.workers
        return True

    def _search_params(self, state: State, adapter: Adapter) -> tuple[Ints, Floats]:
        """The kernel's int and float parameters for this player's settings on this position."""
        settings = self.settings
        params = adapter.params.copy()
        params[P.P_RAVE] = int(settings["rave"])
        params[P.P_SOLVER] = int(settings["solver"] and len(state.players) == 2)
        params[P.P_EXPAND] = settings["expand"]
        params[P.P_BRIDGE] = int(settings["bridges"])
        mover = state.mover
        params[P.P_BRIDGE_SEAT] = mover if mover is not None and self._weak_opponent(state, adapter) else -1
        params[P.P_SHARED] = int(params[P.P_PIE] != 0)  # the stone games' swap, judged by colour
        params[P.P_FILL] = int(adapter.fill_playouts(state))
        if settings["bridges"]:
            adapter.use_bridges()
        fparams = np.zeros(K.NFPARAMS, dtype=np.float64)
        fparams[K.FP_C], fparams[K.FP_RAVE_K], fparams[K.FP_FPU] = self.exploration, settings["rave_k"], settings["fpu"]
        if params[P.P_GAME] == OMEGA and len(state.players) > 2:  # only Omega's playouts leave scores
            fparams[K.FP_SHARE] = settings["share"]
        return params, fparams


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
    if supports(state):
        CompiledMcts(iterations=8, seed=seed, reuse=False, nodes=4096).choose(state)
