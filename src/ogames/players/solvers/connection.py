"""A solver for the connection games: proves who wins an Omny (any variant, star set and komi) or
Odd-Y (triangle or polar) position with perfect play, and how.

    >>> import ogames
    >>> state = ogames.load("omny", variant="y", size=3).new_state()
    >>> proof = solve(state)
    >>> proof.value, proof.move
    ('win', 'b1')

`solve(state, budget=…)` returns a `Proof`: `value` is "win" or "loss" for the player who moves
now (`state.mover`, who owns the colour to move), or "unknown" when the budget ran out; `move` is a
winning move when the value is a win (None otherwise); `nodes` (positions expanded) and `seconds`.

Why the answer is always win or loss. Neither game can be drawn: a full board always holds a
winning group (the Odd-Y theorem; for Omny RULES.md §1, checked on random fills in the tests),
and the first player to make one wins. With S + 2k odd only one colour can satisfy Omny's
condition on a full board; with S + 2k even both may, and then the race decides. The search is
exact in both cases: it stops at the first winning stone, as the rules do, so a race needs no
special case — it only prunes less.

The search (`connection_kernels.dfpn`, compiled) is depth-first proof-number search over the
stones array with a Zobrist-keyed transposition table. Two exact facts prune it: the mover wins at
once if one stone wins; otherwise every cell where an opponent stone would win is a threat that
no other stone can spoil (Omny regions are components of the board minus the group, whatever the
other cells hold; Odd-Y sides touched depend only on the group's cells), so two threats lose and
one must be blocked. The often-quoted "fill the empty cells with one colour" check tells nothing
here: filling with colour X leaves the other colour's groups unchanged, so if X did not win the
filled board, the other colour would already have won the real one.

Where the goal is a set of sides (Odd-Y, and Omny `y` without komi, which is Y), a third fact
prunes far more: virtual wins (`virtual_connections.py`), groups joined to each other and to the
sides by disjoint pairs of cells. The mover loses at once if the opponent has one and wins with any
stone if it has one itself, whatever the rest of the board holds. On Y 6 the empty board is then
proved in about 7,000 positions instead of more than 20 million (`virtual=False` turns it off,
for comparison: benchmarks/bench_virtual_wins.py). A fourth fact, there too, cuts the moves tried:
where one opponent stone on a cell x would give the opponent a virtual win, a stone of the mover
outside x and that win's carrier changes none of it, so the opponent answers on x and wins; only
moves inside every such region are searched (Hex solvers' must-play region; `mustplay=False` turns
it off: `bench_virtual_wins.py --what mustplay`).

The pie rule and Omny's komi choice are decided without search, from the no-draw property:
- Where `swap` is legal the mover wins: the position (stones, colour to move) is a win or a loss
  for the colour to move; if a win, the mover plays on with a winning placement, if a loss the
  mover swaps and so owns the other colour, the winning one, with the opponent to move. Finding
  which of the two is the only search (`move` is None if it does not finish within the budget).
- So a position whose every move hands the opponent a `swap` (Black's first stone with pie on) is
  lost, and so is Omny's komi choice (`komi=K`): then White may swap at once (no pie) or after
  Black's stone (pie). Positions from which no swap can come are searched as they are.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ogames.errors import BadOption, CannotPlay
from ogames.players.solvers import connection_kernels as kernels
from ogames.players.solvers.virtual_connections import vc_scratch_for
from ogames.rules.oddy import OddY
from ogames.rules.omny import OmnyState
from ogames.rules.protocol import REGIONS, Game, State
from ogames.rules.stones import StoneState

WIN, LOSS, UNKNOWN = "win", "loss", "unknown"
DEFAULT_BUDGET = 2_000_000  # positions expanded (a few seconds at most on small boards)
CHUNK = 200_000  # expansions per compiled call when a time limit is set
DEFAULT_TABLE_BITS = 20  # 2^20 table entries, 28 MB
DEFAULT_MOVES_BITS = 16  # at most 2^16 open positions' moves kept, 2 bytes a cell (4.7 MB on Y 8's 36 cells)


def plays(game: Game) -> bool:
    """Whether the solver plays a game: one whose win is a connection (`Game.connection_goal`)."""
    return game.connection_goal is not None


def _refuse(game: Game) -> CannotPlay:
    return CannotPlay(f"the connection solver plays Omny and Odd-Y, not {game.title}")


@dataclass
class Proof:
    """What `solve` found: value for the player to move, a winning move, and the effort."""

    value: str  # "win", "loss" or "unknown" for the player who moves now (state.mover)
    move: str | None = None  # a winning move when value is "win" (None if not found in budget)
    nodes: int = 0  # positions expanded by the search
    seconds: float = 0.0
    reason: str = ""
    colour: str | None = None  # the colour to move in the position

    @property
    def proved(self) -> bool:
        """Whether the value is a proof (not "unknown")."""
        return self.value != UNKNOWN


@dataclass
class _Core:
    """A position without pie or komi choice ahead: the result of the compiled search."""

    pn: int
    dn: int
    move: int
    nodes: int

    @property
    def value(self) -> str:
        return WIN if self.pn == 0 else LOSS if self.dn == 0 else UNKNOWN


def _centrality_order(board: Any) -> np.ndarray:
    """Cells most central first (least total distance to every cell): the order moves are tried."""
    n = len(board)
    neighbours = board.neighbours
    totals = []
    for start in range(n):
        dist = [-1] * n
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for c in frontier:
                for o in neighbours[c]:
                    if dist[o] < 0:
                        dist[o] = dist[c] + 1
                        nxt.append(o)
            frontier = nxt
        totals.append(sum(dist))
    return np.array(sorted(range(n), key=lambda c: (totals[c], c)), dtype=np.int32)


@dataclass
class ConnectionSolver:
    """The compiled search with its transposition table, for one game (kept between searches of
    that game: a player reuses what it proved on earlier moves)."""

    game: Any
    table_bits: int = DEFAULT_TABLE_BITS
    seed: int = 20240601
    virtual: bool = True  # use virtual wins where the goal is a set of sides (False: for comparison)
    mustplay: bool = True  # and prune the mover's moves to the must-play regions (False: for comparison)
    moves_bits: int = DEFAULT_MOVES_BITS  # the cache of open positions' moves (0: one slot, next to none)
    bounds: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        game = self.game
        if not plays(game):
            raise _refuse(game)
        board = game.board
        n = len(board)
        self.table = board.neighbour_table
        self.order = _centrality_order(board)
        if game.connection_goal == REGIONS:  # a group's regions hold few enough stars
            self.kind = kernels.OMNY
            self.stars = np.asarray(game.star_mask, dtype=np.bool_)
            self.total = game.total_stars
            self.cell_sides = np.zeros(1, dtype=np.int64)
            self.runs = np.zeros(1, dtype=np.int64)
        else:  # SIDES: a group touches enough sides
            self.kind = kernels.ODDY
            self.stars = np.zeros(n, dtype=np.bool_)
            self.total = 0
            self.cell_sides = game.cell_sides
            self.runs = game.runs
        vc_sides, vc_runs = _sides_goal(game)
        self.sides_goal = vc_sides is not None  # virtual wins apply (Omny `y`: only without komi)
        self.vc_sides = vc_sides if vc_sides is not None else np.zeros(1, dtype=np.int64)
        self.vc_runs = vc_runs if vc_runs is not None else np.zeros(1, dtype=np.int64)
        # the virtual wins' work tables (n×n and n×64), kept between searches; tiny when unused
        self.vc = vc_scratch_for(n if self.sides_goal and self.virtual else 1, self.table.shape[1])
        rng = np.random.default_rng(self.seed)
        self.zobrist = rng.integers(1, 2**63, size=(n, 3), dtype=np.int64).astype(np.uint64)
        self.side_key = np.uint64(rng.integers(1, 2**63, dtype=np.int64))
        self.bounds = np.zeros(2, dtype=np.int64)
        self.clear()

    def clear(self) -> None:
        """Forget every stored position."""
        self.lone: np.ndarray | None = None  # depends on the bounds (komi)
        size = 1 << self.table_bits
        self.tt_key = np.zeros(size, dtype=np.uint64)
        self.tt_pn = np.zeros(size, dtype=np.int64)
        self.tt_dn = np.zeros(size, dtype=np.int64)
        self.tt_move = np.full(size, -1, dtype=np.int32)
        # The moves cache takes at most a quarter of the table's bytes (28 a slot): large boards
        # (2 bytes a cell a slot) keep fewer positions, so an mcts player's 7 MB table stays its size.
        fits = max(1, size * 7 // len(self.order))
        kept = 1 << min(self.moves_bits, fits.bit_length() - 1)
        self.moves_key = np.zeros(kept, dtype=np.uint64)
        self.moves_count = np.zeros(kept, dtype=np.int32)
        self.moves = np.zeros((kept, len(self.order)), dtype=np.int16)
        self.reused = 0  # expansions served from the moves cache, over every search since

    def search(self, state: StoneState, budget: int, deadline: float | None = None) -> _Core:
        """Prove the position of `state` (no swap or komi choice now or later) within the budget."""
        if isinstance(state, OmnyState):  # (the solver's kind is the state's game: Omny's regions have bounds)
            bounds = np.array([state.bound(0), state.bound(1)], dtype=np.int64)
            if not np.array_equal(bounds, self.bounds):
                self.bounds = bounds  # a new komi: what the table knows no longer holds
                self.clear()
        if self.lone is None:
            self.lone = kernels.lone_wins(
                self.kind, len(state.stones), self.table, self.stars, self.total, self.bounds, self.cell_sides, self.runs
            )
        board = state.stones.copy()
        colour = state.turn + 1
        out = np.zeros(5, dtype=np.int64)
        # Omny `y` is Y only without komi: with it the colours' goals differ and may race.
        virtual = self.virtual and self.sides_goal and (self.kind == kernels.ODDY or self.bounds[0] == self.bounds[1])
        nodes = 0
        while True:
            step = budget - nodes if deadline is None else min(CHUNK, budget - nodes)
            kernels.dfpn(
                self.kind, board, colour, self.table, self.order, self.stars, self.total, self.bounds,
                self.cell_sides, self.runs, self.lone, self.zobrist, self.side_key,
                self.tt_key, self.tt_pn, self.tt_dn, self.tt_move, self.moves_key, self.moves_count, self.moves,
                step, out, virtual, self.vc_sides, self.vc_runs, self.vc, self.mustplay,
            )  # fmt: skip
            nodes += int(out[kernels.OUT_NODES])
            self.reused += int(out[kernels.OUT_REUSED])
            core = _Core(int(out[kernels.OUT_PN]), int(out[kernels.OUT_DN]), int(out[kernels.OUT_MOVE]), nodes)
            if core.value != UNKNOWN or nodes >= budget or (deadline is not None and time.perf_counter() >= deadline):
                return core


def _sides_goal(game: Any) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The sides a win touches, as Odd-Y's `cell_sides` and `runs`, where the goal is a set of
    sides: Odd-Y's own, and for Omny `y` those of Odd-Y's triangle of the same size (the same
    board and labels, the three corners its stars: a group leaves no region with two corners
    exactly when it touches all three sides, the Game of Y). (None, None) for any other Omny."""
    if game.connection_goal != REGIONS:
        return game.cell_sides, game.runs
    if game.options.get("variant") != "y":
        return None, None
    triangle = OddY(sides=3, size=game.options["size"], pie=False)
    same_board = np.array_equal(triangle.board.neighbour_table, game.board.neighbour_table)
    assert triangle.board.labels == game.board.labels and same_board
    return triangle.cell_sides, triangle.runs


def _swap_ahead(state: StoneState) -> bool:
    """Whether a `swap` may still come later in the game (not legal now)."""
    if state.swapped:
        return False
    if isinstance(state, OmnyState) and state.twice_komi is None:
        return True  # Omny komi choice pending: White may swap after it
    return bool(state.game.options.get("pie")) and state.placements == 0


def solve(
    state: State,
    budget: int = DEFAULT_BUDGET,
    *,
    seconds: float | None = None,
    solver: ConnectionSolver | None = None,
) -> Proof:
    """Prove the value of an Omny or Odd-Y position for the player to move.

    `budget` bounds the positions the search expands, `seconds` (optional) the time; a `solver`
    may be passed to keep its transposition table between calls (it must be for the same game).
    """
    if not plays(state.game):
        raise _refuse(state.game)
    if state.is_over:
        raise CannotPlay(f"the game is over: {state.result.describe() if state.result else ''}")
    if budget < 1:
        raise BadOption(f"the budget must be at least 1 position, not {budget}")
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    solver = solver or ConnectionSolver(state.game)
    assert isinstance(state, StoneState)  # Omny and Odd-Y states are
    value, move, nodes, reason = _solve(state, solver, budget, deadline, need_move=True)
    return Proof(value, move, nodes, time.perf_counter() - start, reason, state.to_move)


def _solve(
    state: StoneState, solver: ConnectionSolver, budget: int, deadline: float | None, need_move: bool
) -> tuple[str, str | None, int, str]:
    """(value for state.mover, winning move, nodes, reason)."""
    if state.pie_available():
        if not need_move:
            return WIN, None, 0, "swap is legal: the mover wins by playing on or by swapping"
        core = solver.search(state, budget, deadline)
        if core.value == WIN:
            return WIN, state.board.labels[core.move], core.nodes, f"{state.to_move} to move wins; no need to swap"
        if core.value == LOSS:
            return WIN, "swap", core.nodes, f"{state.to_move} to move loses, so the mover swaps"
        return WIN, None, core.nodes, "swap is legal, so the mover wins, but which way was not found within the budget"
    if _swap_ahead(state):
        # Few moves, each to a position proved without search (a swap node or an immediate win).
        mover, nodes, open_moves = state.mover, 0, []
        for move in state.legal_moves():
            child = state.clone()
            child.play(move, t=0.0)
            if child.result is not None:
                if child.owner[child.result.winner] == mover:
                    return WIN, move, nodes, f"{move} wins at once"
                continue
            value, _, used, _ = _solve(child, solver, budget - nodes, deadline, need_move=False)
            nodes += used
            if value != UNKNOWN and (value == WIN) == (child.mover == mover):
                return WIN, move, nodes, f"{move} wins"
            if value == UNKNOWN:
                open_moves.append(move)
        if open_moves:
            return UNKNOWN, None, nodes, f"not proved within the budget: {', '.join(open_moves[:5])}"
        return LOSS, None, nodes, "every move lets the opponent swap (or choose sides) and win"
    core = solver.search(state, budget, deadline)
    proved = state.board.labels[core.move] if core.value == WIN else None
    reason = {WIN: f"{proved} wins", LOSS: "every move loses", UNKNOWN: "not proved within the budget"}[core.value]
    return core.value, proved, core.nodes, reason


# ----- plain reference ---------------------------------------------------------------------------

# A whole position as the reference's memo keys it: stones, turn, swapped, placements, Omny's komi, owners.
PositionKey = tuple[bytes, int, bool, int, int | None, tuple[tuple[str, int], ...]]


def winner_reference(state: State, memo: dict[PositionKey, int] | None = None) -> int:
    """The seat that wins with perfect play, by plain minimax over `legal_moves` and `play` (the
    rules themselves, swap and komi moves included), memoised on the whole position. Slow: for
    tests on small boards."""
    memo = {} if memo is None else memo
    assert isinstance(state, StoneState)
    return _winner(state.clone(), memo)


def _position_key(state: StoneState) -> PositionKey:
    return (
        state.stones.tobytes(),
        state.turn,
        state.swapped,
        state.placements,
        state.twice_komi if isinstance(state, OmnyState) else 0,
        tuple(sorted(state.owner.items())),
    )


def _winner(state: StoneState, memo: dict[PositionKey, int]) -> int:
    if state.result is not None:
        return state.owner[state.result.winner]
    key = _position_key(state)
    if key in memo:
        return memo[key]
    mover = state.mover
    assert mover is not None  # the game goes on
    found = 1 - mover
    for move in state.legal_moves():
        state.play(move, t=0.0)
        seat = _winner(state, memo)
        state.undo()
        if seat == mover:
            found = mover
            break
    memo[key] = found
    return found


def winning_moves_reference(state: State, memo: dict[PositionKey, int] | None = None) -> list[str]:
    """Every move after which the mover wins with perfect play (plain minimax)."""
    memo = {} if memo is None else memo
    assert isinstance(state, StoneState)
    mover = state.mover
    found = []
    for move in state.legal_moves():
        child = state.clone()
        child.play(move, t=0.0)
        if _winner(child, memo) == mover:
            found.append(move)
    return found
