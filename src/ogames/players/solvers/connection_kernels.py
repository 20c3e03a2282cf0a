# mypy: disable-error-code="return-value,assignment,arg-type"
# (numba kernels: numpy int64 scalars and Python ints are one type to numba; mypy tells them apart)
"""The compiled search of the connection-game solver (`connection.py`): depth-first proof-number
search (DFPN) over the stones array, with a transposition table keyed by Zobrist hashes.

One kernel serves Omny (any board, star set and komi) and Odd-Y (triangle or polar, any m): the
only thing that differs is the win test of the group holding a new stone, chosen by `kind`:
- `OMNY`: every region of the group holds at most bound/2 star cells (`kernels.omny`), the bound of
  the stone's colour in `bounds[colour − 1]`;
- `ODDY`: the sides the group touches (`cell_sides` bitmasks) lie in no run of (m+1)/2 consecutive
  sides (`runs`, from `kernels.oddy.run_masks`).

Proof and disproof numbers are from the point of view of the player to move at each node
(negamax form): a node's pn is the least dn of its children and its dn the sum of their pn.
pn = 0: the mover wins; dn = 0: the mover loses. The games cannot be drawn, so these are the only
outcomes (a full board with no winner raises).

Knowledge used when a node is expanded (each exact, see `connection.py` for why):
1. the mover wins at once if a stone of theirs on some empty cell wins;
2. otherwise, cells where an opponent stone would win are threats; another stone never spoils
   a threat (regions and touched sides depend only on the group's own cells), so two or more
   threats lose, and one threat must be blocked: it is the node's only child;
3. where the goal is a set of sides (`virtual`: Odd-Y, and Omny `y`), the mover loses if the
   opponent has a virtual win, and wins with any stone if the mover has one
   (`virtual_connections.py`: pairs of cells that each join two groups, or a group and a side);
4. there too (`mustplay`), the mover's moves are only those inside every must-play region: where
   an opponent stone on x would give it a virtual win, x and that win's carrier
   (`virtual_connections.must_play`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ogames.kernels.oddy import group_wins_into as group_wins_odd_y
from ogames.kernels.omny import group_wins_into
from ogames.players.solvers.virtual_connections import VcScratch, carrier_cell, must_play, virtual_win

OMNY, ODDY = 0, 1
INF = np.int64(1) << 40
KEY_BASE = np.uint64(0x9E3779B97F4A7C15)  # every key starts here: 0 marks an empty table slot
WIN, LOSS, OPEN, FULL = 0, 1, 2, 3

# out[] of `dfpn`
OUT_PN, OUT_DN, OUT_MOVE, OUT_NODES, OUT_REUSED = 0, 1, 2, 3, 4

# `win_test`'s bundle: (stars, the star cells listed, total, bounds, cell_sides, runs).
WinTest = tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]
# `scratch_for`'s buffers: (group, queue, mark, stamp).
Scratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@njit(cache=True)
def win_test(stars: np.ndarray, total: int, bounds: np.ndarray, cell_sides: np.ndarray, runs: np.ndarray) -> WinTest:
    """What `wins_at` needs of the game, as one tuple: (stars, the star cells listed, total,
    bounds, cell_sides, runs)."""
    return stars, np.flatnonzero(stars).astype(np.int32), total, bounds, cell_sides, runs


@njit(cache=True)
def scratch_for(n: int) -> Scratch:
    """`wins_at`'s work buffers for n cells, as one tuple: (group, queue, mark, stamp)."""
    return np.empty(n, np.int32), np.empty(n, np.int32), np.zeros(n, np.int64), np.ones(1, np.int64)


@njit(cache=True)
def wins_at(kind: int, board: np.ndarray, table: np.ndarray, cell: int, test: WinTest, scratch: Scratch) -> bool:
    """Whether the group holding the stone on `cell` wins for its colour (`test` from `win_test`,
    `scratch` from `scratch_for`). `stamp[0]` is the next unused mark value (advanced here), so the
    buffers are never cleared."""
    stars, star_list, total, bounds, cell_sides, runs = test
    group, queue, mark, stamp = scratch
    s = stamp[0]
    stamp[0] = s + 2
    if kind == OMNY:
        ok, _ = group_wins_into(board, table, stars, star_list, total, cell, bounds[board[cell] - 1], group, queue, mark, s)
        return ok
    return group_wins_odd_y(board, table, cell_sides, runs, cell, queue, mark, s)


@njit(cache=True)
def expand(
    kind: int,
    board: np.ndarray,
    colour: int,
    table: np.ndarray,
    order: np.ndarray,
    test: WinTest,
    scratch: Scratch,
    lone: np.ndarray,
    children: np.ndarray,
    virtual: bool,
    vc_sides: np.ndarray,
    vc_runs: np.ndarray,
    vc: VcScratch,
    mustplay: bool,
) -> tuple[int, int, int]:
    """Classify a position (`colour` to move): (WIN, winning cell, 0), (LOSS, −1, 0), (FULL, −1, 0)
    for a full board, or (OPEN, −1, count) with the moves worth trying written into `children`
    (every empty cell in `order`, or the one cell blocking the opponent's only threat).
    `lone[colour − 1, c]`: whether a single stone of that colour on c, alone, would win. With
    `virtual`, virtual wins decide too (over the sides `vc_sides`, won as `vc_runs` say), and with
    `mustplay` too the moves are only those that may stop the opponent's virtual wins after one stone."""
    other = 3 - colour
    count = 0
    threats = 0
    threat = -1
    for i in range(order.shape[0]):
        cell = order[i]
        if board[cell] != 0:
            continue
        # A stone with no friendly neighbour is a group of one: it wins only where `lone` says so.
        near_own = lone[colour - 1, cell]
        near_other = lone[other - 1, cell]
        for j in range(table.shape[1]):
            o = table[cell, j]
            if o < 0:
                break
            if board[o] == colour:
                near_own = True
            elif board[o] == other:
                near_other = True
        if near_own:
            board[cell] = colour
            if wins_at(kind, board, table, cell, test, scratch):
                board[cell] = 0
                return WIN, cell, 0
        if near_other:
            board[cell] = other
            if wins_at(kind, board, table, cell, test, scratch):
                threats += 1
                threat = cell
        board[cell] = 0
        children[count] = cell
        count += 1
    if count == 0:
        return FULL, -1, 0
    if threats >= 2:
        return LOSS, -1, 0
    if virtual:
        if virtual_win(board, other, table, vc_sides, vc_runs, vc) >= 0:
            return LOSS, -1, 0
        winner = virtual_win(board, colour, table, vc_sides, vc_runs, vc)
        if winner >= 0:
            cell = carrier_cell(order, vc, winner)
            return WIN, cell if cell >= 0 else children[0], 0
    if threats == 1:
        children[0] = threat
        return OPEN, -1, 1
    if virtual and mustplay:
        count = must_play(board, colour, table, vc_sides, vc_runs, vc, children, count)
        if count == 0:
            return LOSS, -1, 0
    return OPEN, -1, count


def lone_wins(
    kind: int,
    n: int,
    table: np.ndarray,
    stars: np.ndarray,
    total: int,
    bounds: np.ndarray,
    cell_sides: np.ndarray,
    runs: np.ndarray,
) -> np.ndarray:
    """`lone` for `expand`: [colour − 1, c] is whether one stone of that colour on c, with every
    other cell empty, wins (its group, regions and sides are then the same whatever else is on the
    board, as long as no friendly stone touches it)."""
    lone = np.zeros((2, n), dtype=np.bool_)
    test = win_test(stars, total, bounds, cell_sides, runs)
    scratch = scratch_for(n)
    for colour in (1, 2):
        for c in range(n):
            board = np.zeros(n, dtype=np.int8)
            board[c] = colour
            lone[colour - 1, c] = wins_at(kind, board, table, c, test, scratch)
    return lone


@njit(cache=True)
def board_key(board: np.ndarray, colour: int, zobrist: np.ndarray, side_key: np.uint64) -> np.uint64:
    """The Zobrist hash of a position: stones and the colour to move."""
    key = KEY_BASE
    for c in range(board.shape[0]):
        if board[c] != 0:
            key ^= zobrist[c, board[c]]
    if colour == 2:
        key ^= side_key
    return key


@njit(cache=True)
def tt_find(tt_key: np.ndarray, key: np.uint64) -> int:
    """The slot holding `key` (a bucket of two), or −1."""
    mask = tt_key.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    if tt_key[slot] == key:
        return slot
    if tt_key[slot ^ 1] == key:
        return slot ^ 1
    return -1


@njit(cache=True)
def tt_store(
    tt_key: np.ndarray, tt_pn: np.ndarray, tt_dn: np.ndarray, tt_move: np.ndarray, key: np.uint64, pn: int, dn: int, move: int
) -> None:
    """Keep (pn, dn, move) for `key`: in its own slot if present, else over an unproven entry of the
    bucket (a proven one is overwritten only when both are proven)."""
    slot = tt_find(tt_key, key)
    if slot < 0:
        mask = tt_key.shape[0] - 1
        first = np.int64(key & np.uint64(mask))
        second = first ^ 1
        if tt_key[first] == 0:
            slot = first
        elif tt_key[second] == 0:
            slot = second
        elif tt_pn[first] != 0 and tt_dn[first] != 0:
            slot = first
        elif tt_pn[second] != 0 and tt_dn[second] != 0:
            slot = second
        elif pn == 0 or dn == 0:
            slot = second
        else:
            return  # keep both proofs rather than an unproven entry
    tt_key[slot] = key
    tt_pn[slot] = pn
    tt_dn[slot] = dn
    tt_move[slot] = move


@njit(cache=True)
def dfpn(
    kind: int,
    board: np.ndarray,
    colour: int,
    table: np.ndarray,
    order: np.ndarray,
    stars: np.ndarray,
    total: int,
    bounds: np.ndarray,
    cell_sides: np.ndarray,
    runs: np.ndarray,
    lone: np.ndarray,
    zobrist: np.ndarray,
    side_key: np.uint64,
    tt_key: np.ndarray,
    tt_pn: np.ndarray,
    tt_dn: np.ndarray,
    tt_move: np.ndarray,
    moves_key: np.ndarray,
    moves_count: np.ndarray,
    moves: np.ndarray,
    max_nodes: int,
    out: np.ndarray,
    virtual: bool,
    vc_sides: np.ndarray,
    vc_runs: np.ndarray,
    vc: VcScratch,
    mustplay: bool,
) -> None:
    """Search the position (`board`, `colour` to move; not over) until it is proved or `max_nodes`
    expansions are spent; out = [pn, dn, best move (−1 if none), expansions, expansions whose
    moves came from the moves cache]. The board is restored on return. Entries go into the
    transposition table (kept between calls).

    DFPN enters an open node again each time its thresholds grow, and the table keeps only its
    numbers: the moves `expand` found for it (after the virtual wins and must-play regions, most of
    an expansion's cost) are kept in a cache of their own (`moves_key` → `moves_count`, `moves`;
    one slot a key, the newest kept), so entering it again costs a look-up."""
    n = board.shape[0]
    depth_cap = n + 2
    thpn = np.empty(depth_cap, dtype=np.int64)
    thdn = np.empty(depth_cap, dtype=np.int64)
    keys = np.empty(depth_cap, dtype=np.uint64)
    mover = np.empty(depth_cap, dtype=np.int64)
    count = np.zeros(depth_cap, dtype=np.int64)
    chosen = np.zeros(depth_cap, dtype=np.int64)
    children = np.empty((depth_cap, n), dtype=np.int32)
    cpn = np.empty((depth_cap, n), dtype=np.int64)
    cdn = np.empty((depth_cap, n), dtype=np.int64)
    test = win_test(stars, total, bounds, cell_sides, runs)
    scratch = scratch_for(n)

    moves_mask = np.uint64(moves_key.shape[0] - 1)
    nodes = 0
    reused = 0
    depth = 0
    thpn[0] = INF
    thdn[0] = INF
    mover[0] = colour
    keys[0] = board_key(board, colour, zobrist, side_key)
    entering = True
    ret_pn = np.int64(0)
    ret_dn = np.int64(0)
    ret_move = -1
    while True:
        returning = False
        if entering:
            entering = False
            key = keys[depth]
            slot = tt_find(tt_key, key)
            if slot >= 0 and (tt_pn[slot] >= thpn[depth] or tt_dn[slot] >= thdn[depth]):
                ret_pn, ret_dn, ret_move = tt_pn[slot], tt_dn[slot], tt_move[slot]
                returning = True
            else:
                nodes += 1
                cached = np.int64(key & moves_mask)
                if moves_key[cached] == key:
                    status, move, k = OPEN, -1, moves_count[cached]
                    children[depth, :k] = moves[cached, :k]
                    reused += 1
                else:
                    status, move, k = expand(kind, board, mover[depth], table, order, test, scratch, lone,
                                              children[depth], virtual, vc_sides, vc_runs, vc, mustplay)
                    if status == OPEN:
                        moves_key[cached] = key
                        moves_count[cached] = k
                        moves[cached, :k] = children[depth, :k]
                if status == FULL:
                    raise ValueError("a full board without a winner: these games cannot be drawn")
                if status == WIN or status == LOSS:
                    ret_pn = np.int64(0) if status == WIN else INF
                    ret_dn = INF if status == WIN else np.int64(0)
                    ret_move = move
                    tt_store(tt_key, tt_pn, tt_dn, tt_move, key, ret_pn, ret_dn, move)
                    returning = True
                else:
                    count[depth] = k
                    colour_here = mover[depth]
                    for i in range(k):
                        child = key ^ zobrist[children[depth, i], colour_here] ^ side_key
                        s = tt_find(tt_key, child)
                        if s >= 0:
                            cpn[depth, i] = tt_pn[s]
                            cdn[depth, i] = tt_dn[s]
                        else:
                            cpn[depth, i] = 1
                            cdn[depth, i] = 1
        if not returning:
            # The node at `depth` is expanded: work on it until it exceeds a threshold.
            k = count[depth]
            pn = INF
            dn = np.int64(0)
            best = 0
            second = INF
            for i in range(k):
                d = cdn[depth, i]
                if d < pn:
                    second = pn
                    pn = d
                    best = i
                elif d < second:
                    second = d
                dn += cpn[depth, i]
            if dn > INF:
                dn = INF
            if pn >= thpn[depth] or dn >= thdn[depth] or nodes >= max_nodes:
                ret_pn, ret_dn, ret_move = pn, dn, children[depth, best]
                tt_store(tt_key, tt_pn, tt_dn, tt_move, keys[depth], pn, dn, ret_move)
                returning = True
            else:
                chosen[depth] = best
                cell = children[depth, best]
                here = mover[depth]
                board[cell] = here
                child_thpn = thdn[depth] - dn + cpn[depth, best]
                # The 1+ε trick (ε = 1/4): stay with this child a little past the second best.
                limit = second + 1 if second >= INF else second + 1 + second // 4
                child_thdn = thpn[depth] if thpn[depth] < limit else limit
                depth += 1
                mover[depth] = 3 - here
                keys[depth] = keys[depth - 1] ^ zobrist[cell, here] ^ side_key
                thpn[depth] = child_thpn
                thdn[depth] = child_thdn
                entering = True
                continue
        # Hand (ret_pn, ret_dn) back to the parent.
        if depth == 0:
            out[OUT_PN] = ret_pn
            out[OUT_DN] = ret_dn
            out[OUT_MOVE] = ret_move
            out[OUT_NODES] = nodes
            out[OUT_REUSED] = reused
            return
        depth -= 1
        i = chosen[depth]
        board[children[depth, i]] = 0
        cpn[depth, i] = ret_pn
        cdn[depth, i] = ret_dn
