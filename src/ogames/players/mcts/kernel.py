"""The compiled MCTS: whole iterations (selection, expansion, playout, backup) in numba over an
array-backed tree, for Omny, Odd-Y, Omega and Onyx. `search.CompiledMcts` drives it; the games'
moves and playouts are theirs, reached through `ogames.kernels.step` by the id the adapter gives.

**The tree** is two preallocated tables grown in place: `ints[node, I_*]` (move, parent, first
child, child count, deciding seat, colour to move, terminal winner seat, proven seat) and
`floats[node, F_*]` (visits, AMAF visits and reward, then one reward sum per seat). A node's
children are a contiguous block made all at once when it is expanded (its second visit).
`meta[M_COUNT]` is the number of nodes used; when the table is full the search goes on without
expanding.

**The pie** (`P_SHARED`): in a two-seat stone game the swap changes who owns the colours, never
the stones or the colour to move, so the position after `swap` is the position before it. From the
pie point on (`_pie_passed`) nodes are *colour nodes*: their rewards, terminal winners and proofs
are kept by colour, and the swap is no child of theirs. Where the swap is open (FL_PIE), the side
to move owns whichever colour is worth more to it: its parent reads a child worth m to the parent's
colour as min(m, 1 − m), and an iteration passing there takes the colour that the node's
statistics favour (`_take_pie`) so that the seat nodes above (the first move, Omny's komi choice)
are credited by seat. So the opening is chosen for the swap it will meet, and the swap is judged on
the whole subtree of the position instead of a child of its own (which, with no AMAF statistics and
little exploration, was starved: docs/ai.md, "Tried and rejected").

**Speed**: the small kernels are `ogames.kernels.leaf`, compiled without reference counting, so
that calling them from the loops costs nearly nothing (docs/architecture.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ogames.kernels import leaf
from ogames.kernels.layout import (
    NVARS,
    P_EXPAND,
    P_N,
    P_RAVE,
    P_SEATS,
    P_SHARED,
    P_SOLVER,
    P_TOTAL,
    V_SWAPPED,
    V_TURN,
    V_WINNER,
    Array,
    BoardArrays,
)
from ogames.kernels.step import at_pie_point, gen_moves, mover, moves_open_pie, pie_open, play_move, playout

# fparams slots (float64).
FP_C = 0  # UCT exploration
FP_RAVE_K = 1  # RAVE equivalence parameter: β = sqrt(k / (3 n + k))
FP_FPU = 2  # with RAVE: an unvisited child's value is its AMAF mean plus this (first-play urgency)
FP_SHARE = 3  # Omega with 3+ seats: weight of each seat's score share in a playout's reward (0: the winner's 1 only)
NFPARAMS = 4

# Tree columns. I_SEAT is the index of the deciding side's reward column: its seat, or in a
# colour node its colour; I_TERM and I_PROVEN name a winner the same way.
I_MOVE, I_PARENT, I_FIRST, I_NCHILD, I_SEAT, I_COLOUR, I_TERM, I_PROVEN, I_FLAGS = range(9)
NI = 9
# I_FLAGS bits, set when a node's position is first reached (`_reach`).
FL_COLOUR = 1  # a colour node: its statistics and proofs are by colour, not by seat
FL_PIE = 2  # the swap is open here: the side to move may take either colour
FL_KIDS_PIE = 4  # a seat node whose moves each open the swap (its children are colour nodes)
F_N, F_RN, F_RW, F_W = 0, 1, 2, 3  # F_W + seat: reward sums
M_COUNT = 0


@leaf
def _new_node(ints: Array, floats: Array, node: int, move: int, parent: int, seats: int) -> None:
    ints[node, I_MOVE] = move
    ints[node, I_PARENT] = parent
    ints[node, I_FIRST] = -1
    ints[node, I_NCHILD] = 0
    ints[node, I_SEAT] = -1
    ints[node, I_COLOUR] = -1
    ints[node, I_TERM] = -1
    ints[node, I_PROVEN] = -1
    ints[node, I_FLAGS] = 0
    for k in range(floats.shape[1]):
        floats[node, k] = 0.0


@leaf
def init_root(ints: Array, floats: Array, meta: Array, root_var: Array, root_owner: Array, params: Array) -> None:
    """Make the tree a single root for the position."""
    meta[M_COUNT] = 1
    _new_node(ints, floats, 0, -1, -1, params[P_SEATS])
    _reach(ints, 0, root_var, root_owner, params)


# ----- the pie shared by colour (see "The pie" above) --------------------------------------------


@leaf
def _pie_passed(var: Array, params: Array) -> bool:
    """Whether a position is at or past the pie point: a colour node of the shared pie."""
    return params[P_SHARED] != 0 and at_pie_point(var, params)


@leaf
def _kids_pie(var: Array, params: Array) -> bool:
    """Shared pie: whether every move from this (seat-node) position opens the swap (the game's
    `moves_open_pie`)."""
    return params[P_SHARED] != 0 and moves_open_pie(var, params)


@leaf
def _reach(ints: Array, node: int, var: Array, owner: Array, params: Array) -> None:
    """Fill in a node when its position is first reached: its flags, and either the winner of a
    finished game (I_TERM, proven) or the deciding side and the colour to move."""
    colour_node = _pie_passed(var, params)
    flags = 0
    if colour_node:
        flags |= FL_COLOUR
        if pie_open(var, params):
            flags |= FL_PIE
    elif _kids_pie(var, params):
        flags |= FL_KIDS_PIE
    ints[node, I_FLAGS] = flags
    if var[V_WINNER] >= 0:
        winner = var[V_WINNER] if colour_node else owner[var[V_WINNER]]
        ints[node, I_TERM] = winner
        ints[node, I_PROVEN] = winner
    else:
        ints[node, I_SEAT] = var[V_TURN] if colour_node else mover(var, owner, params)
        ints[node, I_COLOUR] = var[V_TURN]


@leaf
def _take_pie(ints: Array, floats: Array, node: int, var: Array, owner: Array) -> None:
    """An iteration passing a position where the swap is open: the side to move takes the colour
    its statistics favour (it swaps when the colour to move wins less than half), for the seat
    rewards of the nodes above; the swap is then used up, so a playout does not draw it again."""
    if ints[node, I_FLAGS] & FL_PIE and var[V_SWAPPED] == 0:
        visits = floats[node, F_N]
        if visits > 0.0 and floats[node, F_W + var[V_TURN]] < 0.5 * visits:
            owner[0], owner[1] = owner[1], owner[0]
        var[V_SWAPPED] = 1


@leaf
def child_proof(ints: Array, node: int, child: int) -> int:
    """A child's proof in the node's terms: the winning seat (colour, in a colour node), −1 if
    unproven. Across the pie point a proven child is lost for the node's side when the swap is
    open there (its side to move takes the winning colour), else won iff its colour wins."""
    proven = ints[child, I_PROVEN]
    if proven < 0 or ints[node, I_FLAGS] & FL_KIDS_PIE == 0:
        return proven
    side = ints[node, I_SEAT]
    if ints[child, I_FLAGS] & FL_PIE or proven != ints[node, I_COLOUR]:
        return 1 - side
    return side


@leaf
def reward_column(ints: Array, node: int) -> int:
    """The reward column of a node's children (and their AMAF statistics) that holds the node's
    side's results: its seat, or across the pie point its colour."""
    if ints[node, I_FLAGS] & FL_KIDS_PIE:
        return ints[node, I_COLOUR]
    return ints[node, I_SEAT]


@leaf
def side_value(ints: Array, node: int, child: int, mean: float) -> float:
    """A child's mean worth to the node's side (read from `reward_column`): across the pie point,
    where the swap is open (or the child not reached yet), the side gets the colour the opponent
    leaves it, min(mean, 1 − mean)."""
    unreached = ints[child, I_SEAT] < 0 and ints[child, I_TERM] < 0
    if ints[node, I_FLAGS] & FL_KIDS_PIE and (ints[child, I_FLAGS] & FL_PIE or unreached):
        return min(mean, 1.0 - mean)
    return mean


@leaf
def outlooks(ints: Array, floats: Array, node: int, proofs: Array, worths: Array) -> None:
    """For the driver: each child's proof (`child_proof`) and mean worth to the node's side
    (`side_value`; NaN if unvisited) into `proofs` and `worths`, children in order."""
    first = ints[node, I_FIRST]
    column = F_W + reward_column(ints, node)
    for i in range(ints[node, I_NCHILD]):
        child = first + i
        proofs[i] = child_proof(ints, node, child)
        visits = floats[child, F_N]
        worths[i] = side_value(ints, node, child, floats[child, column] / visits) if visits > 0.0 else np.nan


@leaf
def add_score_shares(rewards: Array, sums: Array, owner: Array, seats: int, weight: float) -> None:
    """Blend each seat's share of the scores into a playout's rewards: rewards become
    (1 − weight) × rewards + weight × share, a seat's share being its colour's score (a product of
    group sizes, given as the sum of their logarithms in `sums`, by colour) over the sum of every
    colour's. The rewards still sum to 1, so the seats' columns stay comparable (max^n); a second
    place close behind the winner is worth more than a crushed one, which the winner's 1 alone
    does not tell apart."""
    top = sums[0]
    for k in range(1, seats):
        top = max(top, sums[k])
    total = 0.0
    for k in range(seats):
        total += np.exp(sums[k] - top)
    for s in range(seats):
        rewards[s] *= 1.0 - weight
    for k in range(seats):
        rewards[owner[k]] += weight * np.exp(sums[k] - top) / total


@leaf
def _select(ints: Array, floats: Array, node: int, params: Array, fparams: Array) -> int:
    seat = ints[node, I_SEAT]
    column = F_W + reward_column(ints, node)
    across = ints[node, I_FLAGS] & FL_KIDS_PIE != 0  # the swap opens below: values by `side_value`
    first = ints[node, I_FIRST]
    count = ints[node, I_NCHILD]
    rave = params[P_RAVE] != 0
    solver = params[P_SOLVER] != 0
    c = fparams[FP_C]
    k = fparams[FP_RAVE_K]
    log_n = np.log(floats[node, F_N] + 1.0)
    best = first
    best_value = -1e300
    for child in range(first, first + count):
        if solver:
            proven = child_proof(ints, node, child)
            if proven >= 0:
                if proven == seat:
                    return child  # a proven win for the player to move here
                if params[P_SEATS] == 2:
                    # A proven loss is chosen only when every move loses.
                    value = -1e200 + floats[child, F_N]
                    if value > best_value:
                        best, best_value = child, value
                    continue
        visits = floats[child, F_N]
        if visits == 0.0:
            if rave and floats[child, F_RN] > 0.0:
                amaf = floats[child, F_RW] / floats[child, F_RN]
                value = fparams[FP_FPU] + (side_value(ints, node, child, amaf) if across else amaf)
            else:
                value = 1e9  # unvisited children first, in the (shuffled) order of expansion
        else:
            mean = floats[child, column] / visits
            if rave and floats[child, F_RN] > 0.0:
                beta = np.sqrt(k / (3.0 * visits + k))
                mean = (1.0 - beta) * mean + beta * floats[child, F_RW] / floats[child, F_RN]
            if across:
                mean = side_value(ints, node, child, mean)
            value = mean + c * np.sqrt(log_n / visits)
        if value > best_value:
            best, best_value = child, value
    return best


@leaf
def _prove(ints: Array, node: int, params: Array) -> None:
    """MCTS-solver: mark `node` proven for a seat when its children decide it."""
    seat = ints[node, I_SEAT]
    first = ints[node, I_FIRST]
    if first < 0:
        return
    last = first + ints[node, I_NCHILD]
    for child in range(first, last):
        if child_proof(ints, node, child) == seat:
            ints[node, I_PROVEN] = seat
            return
    common = -2
    for child in range(first, last):
        proven = child_proof(ints, node, child)
        if proven < 0:
            return
        if common == -2:
            common = proven
        elif common != proven:
            common = -1
    if common >= 0:
        ints[node, I_PROVEN] = common


@njit(cache=True, nogil=True)  # nogil: root-parallel workers run it from threads at once
def run(
    ints: Array,
    floats: Array,
    meta: Array,
    root_stones: Array,
    root_var: Array,
    root_owner: Array,
    params: Array,
    fparams: Array,
    arrays: BoardArrays,
    midpoint_corners: Array,
    bridges: Array,
    iterations: int,
) -> int:
    """Run up to `iterations` iterations; return how many ran (fewer when the root is proven).
    `arrays` is the board's tuple that `play_move` takes; `bridges` the carrier table of the
    playouts' bridge answers."""
    n = params[P_N]
    seats = params[P_SEATS]
    capacity = ints.shape[0]
    rave = params[P_RAVE] != 0
    solver = params[P_SOLVER] != 0
    logs = np.zeros(n + 2)
    for s in range(2, n + 2):
        logs[s] = np.log(s)
    width = n + params[P_TOTAL] + 8
    work = np.empty((6, max(width, 8)), dtype=np.int32)
    mark = np.zeros(n, dtype=np.int64)
    stamp = 1
    stones = np.empty(n, dtype=np.int8)
    var = np.empty(NVARS, dtype=np.int64)
    owner = np.empty(4, dtype=np.int64)
    path = np.empty(4 * n + 64, dtype=np.int64)
    moves = np.empty(width, dtype=np.int32)
    amaf = np.zeros(n, dtype=np.int8)
    leaf_stones = np.empty(n, dtype=np.int8)
    playout_moves = np.empty(8 * n + 64, dtype=np.int32)
    rewards = np.zeros(4)  # by seat
    colour_rewards = np.zeros(2)  # with the shared pie: by colour
    shared = params[P_SHARED] != 0
    share = fparams[FP_SHARE]  # set only for Omega with 3+ seats, whose playouts leave scores in `sums`
    sums = np.zeros(4)
    done = 0
    for _ in range(iterations):
        if solver and ints[0, I_PROVEN] >= 0:
            break
        for c in range(n):
            stones[c] = root_stones[c]
        for v in range(NVARS):
            var[v] = root_var[v]
        for s in range(4):
            owner[s] = root_owner[s]
        node = 0
        depth = 0
        path[0] = 0
        if shared:
            _take_pie(ints, floats, 0, var, owner)
        # Selection and expansion.
        while ints[node, I_TERM] < 0 and depth < path.shape[0] - 1:
            if ints[node, I_FIRST] < 0:
                if floats[node, F_N] < params[P_EXPAND] and node != 0:
                    break
                if meta[M_COUNT] >= capacity:
                    break
                count = gen_moves(stones, var, owner, params, midpoint_corners, moves)
                if shared and ints[node, I_FLAGS] & FL_PIE and count > 0 and moves[count - 1] == n:
                    count -= 1  # the swap is no child: the side to move takes either colour
                if count == 0 or meta[M_COUNT] + count > capacity:
                    break
                for i in range(count - 1, 0, -1):
                    j = np.random.randint(0, i + 1)
                    moves[i], moves[j] = moves[j], moves[i]
                first = meta[M_COUNT]
                for i in range(count):
                    _new_node(ints, floats, first + i, moves[i], node, seats)
                ints[node, I_FIRST] = first
                ints[node, I_NCHILD] = count
                meta[M_COUNT] = first + count
            child = _select(ints, floats, node, params, fparams)
            reached = ints[child, I_SEAT] >= 0  # then the move is known not to end the game
            move = ints[child, I_MOVE]
            stamp = play_move(stones, var, owner, params, move, arrays, logs, work, mark, stamp, sums, not reached)
            if not reached and ints[child, I_TERM] < 0:
                _reach(ints, child, var, owner, params)
            node = child
            depth += 1
            path[depth] = node
            if shared:
                _take_pie(ints, floats, node, var, owner)
            if ints[node, I_FIRST] < 0 and floats[node, F_N] < params[P_EXPAND]:
                break
        # Simulation.
        for s in range(seats):
            rewards[s] = 0.0
        recorded = -1
        if ints[node, I_TERM] >= 0:
            winner = ints[node, I_TERM]
            rewards[owner[winner] if ints[node, I_FLAGS] & FL_COLOUR else winner] = 1.0
            if share > 0.0:
                # The move into an end of the game left its scores in `sums` (the tree plays every
                # move from the root again): an ended game is rewarded as a playout's end is, else
                # the lines the tree has followed to the end would lose their shares.
                add_score_shares(rewards, sums, owner, seats, share)
        else:
            if rave:
                for c in range(n):
                    leaf_stones[c] = stones[c]
            winner, stamp, recorded = playout(
                stones, var, owner, params, arrays, midpoint_corners, logs, work, mark, stamp, playout_moves, bridges, sums
            )
            if winner >= 0:
                rewards[winner] = 1.0
            else:
                for s in range(seats):
                    rewards[s] = 1.0 / seats
            if share > 0.0:
                add_score_shares(rewards, sums, owner, seats, share)
        if shared:
            for colour in range(2):
                colour_rewards[colour] = rewards[owner[colour]]
        # AMAF marks: which colour played each cell first after the leaf.
        if rave:
            if recorded < 0:
                for c in range(n):
                    amaf[c] = stones[c] if leaf_stones[c] == 0 else 0
            else:
                for c in range(n):
                    amaf[c] = 0
                for i in range(recorded - 1, -1, -1):
                    code = playout_moves[i]
                    amaf[code // 4] = code % 4 + 1
        # Backup, leaf to root.
        for d in range(depth, -1, -1):
            here = path[d]
            by_colour = ints[here, I_FLAGS] & FL_COLOUR != 0
            floats[here, F_N] += 1.0
            for s in range(seats):
                floats[here, F_W + s] += colour_rewards[s] if by_colour else rewards[s]
            if d < depth and ints[here, I_SEAT] >= 0:
                below = path[d + 1]
                move = ints[below, I_MOVE]
                colour = ints[here, I_COLOUR]
                if rave:
                    column = reward_column(ints, here)
                    reward = colour_rewards[column] if by_colour or ints[here, I_FLAGS] & FL_KIDS_PIE else rewards[column]
                    if move < n:
                        amaf[move] = colour + 1
                    first = ints[here, I_FIRST]
                    for child in range(first, first + ints[here, I_NCHILD]):
                        cm = ints[child, I_MOVE]
                        if cm < n and amaf[cm] == colour + 1:
                            floats[child, F_RN] += 1.0
                            floats[child, F_RW] += reward
                if solver and ints[below, I_PROVEN] >= 0 and ints[here, I_PROVEN] < 0:
                    _prove(ints, here, params)
        done += 1
    return done


@njit(cache=True)
def compact(ints: Array, floats: Array, new_ints: Array, new_floats: Array, root: int) -> int:
    """Copy the subtree under `root` into the new tables (root first, children blocks kept
    contiguous); return the number of nodes copied."""
    queue = np.empty(ints.shape[0], dtype=np.int64)  # old index of each new node, in order
    queue[0] = root
    new_ints[0, :] = ints[root, :]
    new_floats[0, :] = floats[root, :]
    new_ints[0, I_PARENT] = -1
    new_ints[0, I_MOVE] = -1
    count = 1
    head = 0
    while head < count:
        old = queue[head]
        first = ints[old, I_FIRST]
        if first >= 0:
            kids = ints[old, I_NCHILD]
            new_ints[head, I_FIRST] = count
            for i in range(kids):
                new_ints[count + i, :] = ints[first + i, :]
                new_floats[count + i, :] = floats[first + i, :]
                new_ints[count + i, I_PARENT] = head
                queue[count + i] = first + i
            count += kids
        head += 1
    return count


@njit(cache=True)
def seed_rng(seed: int) -> None:
    """Seed numba's random generator (the search's own stream)."""
    np.random.seed(seed)
