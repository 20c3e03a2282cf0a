"""The compiled MCTS: whole iterations (selection, expansion, playout, backup) in numba over an
array-backed tree, for Omny, Odd-Y, Omega and Onyx. `ogames.players.compiled_mcts` drives it.

**Positions** are three arrays: `stones` (int8, 0 empty, k + 1 colour k), `var` (int64, the
V_* slots below) and `owner` (int64, colour → seat; the pie rule changes it, never the stones).
Special moves are codes past the cells: `n` is the stone games' `swap`, `n + c` Omega's
`swap <colour c>`, `n + 1 + 2k` Omny's `komi=k` (with `n + 1 + twice`).

**The tree** is two preallocated tables grown in place: `ints[node, I_*]` (move, parent, first
child, child count, deciding seat, colour to move, terminal winner seat, proven seat) and
`floats[node, F_*]` (visits, AMAF visits and reward, then one reward sum per seat). A node's
children are a contiguous block made all at once when it is expanded (its second visit).
`meta[M_COUNT]` is the number of nodes used; when the table is full the search goes on without
expanding.

**The pie** (`P_SHARED`, the player's `swap=shared`): in a two-seat stone game the swap changes
who owns the colours, never the stones or the colour to move, so the position after `swap` is the
position before it. From the pie point on (`_pie_passed`) nodes are *colour nodes*: their rewards,
terminal winners and proofs are kept by colour, and the swap is no child of theirs. Where the swap is
open (FL_PIE), the side to move owns whichever colour is worth more to it: its parent reads a child
worth m to the parent's colour as min(m, 1 − m), and an iteration passing there takes the colour
that the node's statistics favour (`_take_pie`) so that the seat nodes above (the first move, Omny's
komi choice) are credited by seat. So the opening is chosen for the swap it will meet, and the swap
is judged on the whole subtree of the position instead of a child of its own (which, with no AMAF
statistics and little exploration, was starved: the second seat swapped and won almost every game
of Omny sunder 5 between two levels). `swap=move` keeps the swap a move with its own subtree.

**Rules** are the games' own: win tests call the kernels of `ogames.kernels` (Omny's region star
test `omny.group_wins_into`, Odd-Y's winning-sides test `oddy.group_wins_into`, Onyx's
`connects_into` and `find_captures`, groups by `flood.fill_group_stamped`; Omega's end and score
follow `rules/omega.py`); the plain references are tested against them in the test suite.

**Playouts** follow the games' own random-playout kernels (and their distribution: a pending
`swap` is one legal move among the others, an unchosen komi is uniform). Odd-Y, and Omny when S + 2k
is odd (no race), fill the board once and find the one colour with a winning group (see
`kernels/oddy.py` for why that is the winner of the game played move by move; for Omny the same
holds: the condition is monotone and only one colour can hold it on a full board). Omny with S + 2k
even tests after every stone; Onyx plays move by move with captures; Omega fills to its end and
compares sums of log group sizes (exact ties go to the later colour, as the rules say). The fills
of Odd-Y and Omny may answer the stone before (`_fill`): the bridge it intruded into is saved
(P_BRIDGE; by every seat's stones, or with P_BRIDGE_SEAT by the searching seat's only: the
opponent modelled weak, `_answering_colours`), else the colour plays its last good reply
(P_REPLIES, `_learn_replies`).

**Speed**: the small kernels are `ogames.kernels.leaf`, compiled without reference counting, so
that calling them from the loops costs nearly nothing (docs/architecture.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ogames.kernels import leaf
from ogames.kernels.flood import fill_group_stamped
from ogames.kernels.oddy import group_wins_into as group_wins_odd_y
from ogames.kernels.oddy import shuffled_empties
from ogames.kernels.omny import full_board_winner as _omny_full_winner
from ogames.kernels.omny import group_wins_into
from ogames.kernels.onyx import (
    GOALS,
    bag_add,
    bag_remove,
    connects_into,
    empty_bag,
    find_captures,
    midpoint_open,
    random_open_cell,
)

# Games.
ODDY, OMNY, OMEGA, ONYX = 0, 1, 2, 3

# var slots.
V_TURN = 0  # colour index to move (Omega: the colour of the next stone)
V_SWAPPED = 1  # stone games: the pie swap happened
V_PLACEMENTS = 2  # stone games: stones placed (pie needs it)
V_KOMI = 3  # Omny: twice the komi, −1 while unchosen
V_WINNER = 4  # winning colour, −1 while the game goes on
V_TURNCOL = 5  # Omega: whose turn by colour
V_PIESEAT = 6  # Omega: the seat acting in the pie phase, −1 outside it
V_PLAYED = 7  # Omega: seats that played (did not swap) in the pie phase
NVARS = 8

# params slots (int64).
P_GAME = 0
P_N = 1
P_SEATS = 2
P_COLOURS = 3
P_PIE = 4  # stone games: swap may happen at all (pie on, or Omny's komi choice)
P_PIE_AT = 5  # stone games: placements made when swap is open
P_TOTAL = 6  # Omny: star cells S
P_END_EMPTY = 7  # Omega: cells left empty at the end
P_FILL = 8  # Omny: S + 2k is odd, so one fill and one test decide a playout
P_RAVE = 9
P_SOLVER = 10
P_KOMI_PIE = 11  # Omny komi choice with pie: Black places a stone after choosing komi
P_EXPAND = 12  # visits a node has before its children are made
P_BRIDGE = 13  # playouts answer an intrusion into a bridge (Odd-Y, Omny)
P_DECISIVE = 14  # expansion keeps only a winning move, else the block of the opponent's win in one
P_REWARD = 15  # games of 3–4 seats: REWARD_WIN, REWARD_RANK or REWARD_PARANOID (see `run`)
P_CAPTURES = 16  # Onyx playouts answer a capture threat by taking the threatened square's corner
P_LAST = 17  # the cell of the move that led to the root (−1: none, or not a cell): patterns read it
P_SHARED = 18  # stone games with a swap: statistics by colour from the pie point on (see "The pie" above)
P_REPLIES = 19  # Odd-Y and Omny fill playouts: last good reply with forgetting (see `_learn_replies`)
P_BRIDGE_SEAT = 20  # with P_BRIDGE: only this seat's stones answer (the opponent's fill at random); −1 every seat's
NPARAMS = 21

# Rewards of a finished playout with three or four seats.
REWARD_WIN = 0  # 1 to the winner, 0 to the others
REWARD_RANK = 1  # Omega: by rank of the scores, 1 for the first down to 0 for the last
REWARD_PARANOID = 2  # every other seat gets 1 − the root seat's reward: they play against it

# fparams slots (float64).
FP_C = 0  # UCT exploration
FP_RAVE_K = 1  # RAVE equivalence parameter: β = sqrt(k / (3 n + k))
FP_FPU = 2  # with RAVE: an unvisited child's value is its AMAF mean plus this (first-play urgency)
FP_BIAS = 3  # with RAVE: virtual AMAF wins per pattern point of a new child (0: no patterns)
NFPARAMS = 4

# Pattern points of a move (`pattern_points`): progressive bias as prior AMAF wins.
PT_SAVE = 2  # answers the opponent's last stone, which intruded into a bridge of the mover's
PT_BRIDGE = 1  # makes a bridge with a stone of the mover's (both carriers empty)
PT_EDGE = 1  # makes a bridge to the edge (a template on the second row: two empty rim carriers)
PT_TOUCH = 1  # touches the opponent's last stone

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



# ----- rules pieces ------------------------------------------------------------------------------


@leaf
def _omega_scores(stones, table, colours, logs, queue, mark, stamp, sums):
    """Omega: the colour with the highest product of group sizes (sums of logs; a tie within
    1e-9 goes to the later colour, the rules' tie-break); the sums per colour are left in `sums`."""
    for k in range(4):
        sums[k] = 0.0
    n = stones.shape[0]
    for seed in range(n):
        value = stones[seed]
        if value == 0 or mark[seed] == stamp:
            continue
        sums[value - 1] += logs[fill_group_stamped(stones, table, seed, mark, stamp, queue)]
    best = 0
    for k in range(1, colours):
        if sums[k] >= sums[best] - 1e-9:
            best = k
    return best


# ----- positions: moves, mover, playing a move ---------------------------------------------------


@leaf
def _mover(var, owner, params):
    if params[P_GAME] == OMEGA:
        if var[V_PIESEAT] >= 0:
            return var[V_PIESEAT]
        return owner[var[V_TURNCOL]]
    return owner[var[V_TURN]]


@leaf
def _pie_open(var, params):
    return (
        params[P_PIE] != 0
        and var[V_SWAPPED] == 0
        and var[V_TURN] == 1
        and var[V_WINNER] < 0
        and var[V_KOMI] >= 0
        and var[V_PLACEMENTS] == params[P_PIE_AT]
    )


@leaf
def gen_moves(stones, var, owner, params, midpoint_corners, out):
    """Write the legal move codes into `out`; return how many."""
    n = params[P_N]
    game = params[P_GAME]
    count = 0
    if game == OMNY and var[V_KOMI] < 0:
        for twice in range(params[P_TOTAL] + 1):
            out[count] = n + 1 + twice
            count += 1
        return count
    for c in range(n):
        if stones[c] == 0:
            if game == ONYX and not midpoint_open(stones, midpoint_corners, c):
                continue
            out[count] = c
            count += 1
    if game == OMEGA:
        seat = var[V_PIESEAT]
        if seat >= 1 and var[V_TURN] == 0:
            for colour in range(params[P_COLOURS]):
                if owner[colour] < seat:
                    out[count] = n + colour
                    count += 1
    elif _pie_open(var, params):
        out[count] = n
        count += 1
    return count


@leaf
def _omega_end_turn(stones, var, params, played, table, logs, queue, mark, stamp, sums, ends=True):
    p = params[P_COLOURS]
    if var[V_PIESEAT] >= 0:
        var[V_PLAYED] += played
        var[V_PIESEAT] += 1
        if var[V_PIESEAT] < p:
            return
        var[V_PIESEAT] = -1
        var[V_TURNCOL] = var[V_PLAYED] % p
    else:
        var[V_TURNCOL] = (var[V_TURNCOL] + 1) % p
    if var[V_TURNCOL] == 0 and ends:
        empty = 0
        for c in range(stones.shape[0]):
            if stones[c] == 0:
                empty += 1
        if empty < p * p:
            var[V_WINNER] = _omega_scores(stones, table, p, logs, queue, mark, stamp, sums)


@leaf
def play_move(stones, var, owner, params, move, arrays, logs, work, mark, stamp, sums, ends=True):
    """Make one move; set var[V_WINNER] when it ends the game. Returns the next free stamp.
    `sums` is scratch for Omega's scores (4 floats).
    `arrays` is the board's tuple (table, stars, star_list, cell_sides, runs, square_table,
    side_bits): `Adapter.rule_arrays()`. `ends` False: the caller knows that the move does not
    end the game (a tree node reached before), so the tests for the end are skipped."""
    table, stars, star_list, cell_sides, runs, square_table, side_bits = arrays
    n = params[P_N]
    game = params[P_GAME]
    group = work[0]
    queue = work[1]
    if game == OMEGA:
        if move >= n:  # swap with the holder of colour move − n
            seat = var[V_PIESEAT]
            mine = 0
            for colour in range(params[P_COLOURS]):
                if owner[colour] == seat:
                    mine = colour
            target = move - n
            owner[mine], owner[target] = owner[target], owner[mine]
            _omega_end_turn(stones, var, params, 0, table, logs, queue, mark, stamp, sums, ends)
            return stamp + 1
        stones[move] = var[V_TURN] + 1
        var[V_TURN] += 1
        if var[V_TURN] == params[P_COLOURS]:
            var[V_TURN] = 0
            _omega_end_turn(stones, var, params, 1, table, logs, queue, mark, stamp, sums, ends)
        return stamp + 1
    if move > n:  # Omny komi choice
        var[V_KOMI] = move - n - 1
        if params[P_KOMI_PIE] == 0:
            var[V_TURN] = 1
        return stamp
    if move == n:  # pie swap: seats exchange colours, the colour to move stays
        owner[0], owner[1] = owner[1], owner[0]
        var[V_SWAPPED] = 1
        return stamp
    turn = var[V_TURN]
    stones[move] = turn + 1
    var[V_PLACEMENTS] += 1
    if not ends:
        if game == ONYX:  # captures change the position: they are made all the same
            taken = find_captures(stones, square_table, move, work[2])
            for k in range(taken):
                stones[work[2][k]] = 0
        var[V_TURN] = 1 - turn
        return stamp
    if game == ODDY:
        if group_wins_odd_y(stones, table, cell_sides, runs, move, queue, mark, stamp):
            var[V_WINNER] = turn
        stamp += 1
    elif game == OMNY:
        total = params[P_TOTAL]
        bound = total - var[V_KOMI] if turn == 0 else total + var[V_KOMI]
        wins, _ = group_wins_into(stones, table, stars, star_list, total, move, bound, group, queue, mark, stamp)
        if wins:
            var[V_WINNER] = turn
        stamp += 2
    else:  # ONYX
        taken = find_captures(stones, square_table, move, work[2])
        for k in range(taken):
            stones[work[2][k]] = 0
        if connects_into(stones, table, side_bits, GOALS[stones[move]], move, queue, mark, stamp):
            var[V_WINNER] = turn
        stamp += 1
    var[V_TURN] = 1 - turn
    return stamp


# ----- decisive moves ----------------------------------------------------------------------------


@njit(cache=True)
def _wins_with(stones, var, owner, params, cell, colour, scratch, arrays, logs, work, mark, stamp):
    """Whether a stone of `colour` on the empty `cell` ends the game in that colour's favour (on a
    copy of the position). Returns (wins, next stamp)."""
    n = params[P_N]
    stones_copy = scratch[0]
    for c in range(n):
        stones_copy[c] = stones[c]
    var_copy = np.empty(NVARS, dtype=np.int64)
    for v in range(NVARS):
        var_copy[v] = var[v]
    var_copy[V_TURN] = colour
    owner_copy = np.empty(4, dtype=np.int64)
    for k in range(4):
        owner_copy[k] = owner[k]
    stamp = play_move(stones_copy, var_copy, owner_copy, params, cell, arrays, logs, work, mark, stamp, np.zeros(4))
    return var_copy[V_WINNER] == colour, stamp


@njit(cache=True)
def decisive_moves(stones, var, owner, params, moves, count, scratch, arrays, logs, work, mark, stamp):
    """Keep in `moves[:count]` only a decisive move where there is one: a stone that wins at once;
    else, in Omny and Odd-Y, the cell where the opponent's stone would win (no other stone spoils
    such a threat there: a group's regions and touched sides depend on its own cells only; with two
    threats the position is lost anyway). Onyx is tested for wins only: a capture may spoil a
    threat. Returns (count, next stamp); positions with a pending swap or komi are left alone."""
    game = params[P_GAME]
    if game == OMEGA or var[V_WINNER] >= 0:
        return count, stamp
    if game == OMNY and var[V_KOMI] < 0:
        return count, stamp
    for i in range(count):
        if moves[i] >= params[P_N]:  # a swap is open: the pie decides, not a stone
            return count, stamp
    turn = var[V_TURN]
    for i in range(count):
        wins, stamp = _wins_with(stones, var, owner, params, moves[i], turn, scratch, arrays, logs, work, mark, stamp)
        if wins:
            moves[0] = moves[i]
            return 1, stamp
    if game == ONYX:
        return count, stamp
    for i in range(count):
        threat, stamp = _wins_with(stones, var, owner, params, moves[i], 1 - turn, scratch, arrays, logs, work, mark, stamp)
        if threat:
            moves[0] = moves[i]
            return 1, stamp
    return count, stamp


# ----- patterns (progressive bias) ---------------------------------------------------------------


@leaf
def pattern_points(stones, table, bridges, partners, cell, last, value):
    """Pattern points of a stone of `value` on the empty `cell` (the PT_* weights summed), after
    the opponent's stone on `last` (−1: none). `partners[cell]` rows are [b, c, d]: `cell` and b
    make a bridge with carriers c and d; b = the cell count stands for the edge (c, d on the rim).
    `bridges` is the carrier table of `_bridge_answer`."""
    n = stones.shape[0]
    points = 0
    if last >= 0:
        if _bridge_answer(stones, bridges, last, value) == cell:
            points += PT_SAVE
        for j in range(table.shape[1]):
            if table[cell, j] == last:
                points += PT_TOUCH
                break
    bridge = 0
    edge = 0
    for j in range(partners.shape[1]):
        b = partners[cell, j, 0]
        if b < 0:
            break
        if stones[partners[cell, j, 1]] != 0 or stones[partners[cell, j, 2]] != 0:
            continue
        if b == n:
            edge = PT_EDGE
        elif stones[b] == value:
            bridge = PT_BRIDGE
    return points + bridge + edge


@leaf
def _bias_children(ints, floats, first, count, stones, colour, last, bias, table, bridges, partners):
    """Progressive bias: each new child that is a cell gets `bias` virtual AMAF wins per pattern
    point, so that RAVE tries it sooner and its prior fades as real AMAF results come in."""
    n = stones.shape[0]
    for child in range(first, first + count):
        cell = ints[child, I_MOVE]
        if cell >= n:
            continue
        points = pattern_points(stones, table, bridges, partners, cell, last, colour + 1)
        if points > 0:
            floats[child, F_RN] += bias * points
            floats[child, F_RW] += bias * points


# ----- playouts ----------------------------------------------------------------------------------


@leaf
def _bridge_answer(stones, bridges, last, value):
    """The cell that saves a bridge of colour `value` that a stone on `last` just intruded into
    (two `value` stones sharing exactly two empty neighbours, `last` one of them), or −1."""
    for j in range(bridges.shape[1]):
        d = bridges[last, j, 0]
        if d < 0:
            break
        if stones[d] == 0 and stones[bridges[last, j, 1]] == value and stones[bridges[last, j, 2]] == value:
            return d
    return -1


@leaf
def capture_answer(stones, square_table, last, value):
    """Onyx: the point that stops a capture the stone on `last` threatens against stones of
    `value` (a square with `last` a corner, two `value` stones on the corners beside it, the
    opposite corner and the midpoint empty: the opponent's stone there would take both), or −1."""
    for k in range(square_table.shape[1]):
        mid = square_table[last, k, 0]
        if mid < 0:
            break
        opposite = square_table[last, k, 1]
        if (
            stones[mid] == 0
            and stones[opposite] == 0
            and stones[square_table[last, k, 2]] == value
            and stones[square_table[last, k, 3]] == value
        ):
            return opposite
    return -1


@leaf
def _answering_colours(owner, params):
    """The colours whose playout stones save their bridges, as bits (colour c: bit c): none
    without P_BRIDGE, both, or only the colour of P_BRIDGE_SEAT (read after the playout's pie, so
    a swap moves the answers with the seat)."""
    if params[P_BRIDGE] == 0:
        return 0
    seat = params[P_BRIDGE_SEAT]
    bits = 0
    for colour in range(2):
        if seat < 0 or owner[colour] == seat:
            bits |= 1 << colour
    return bits


@leaf
def _fill(stones, order, where, start, stop, last, turn, bridges, use_bridges, replies, use_replies):
    """Place the stones of positions `start` to `stop` − 1 of the fill `order` (the empty cells,
    shuffled), colours alternating from colour `turn`, after a stone on `last` (−1: none). Each
    stone goes on the next cell of the order unless it answers the stone before: the bridge it
    saves (`bridges`, if its colour's bit is set in `use_bridges`), else its colour's last good
    reply to that stone if the cell is empty (`replies`), which is then moved up to its turn.
    `order` is left in play order; `where` holds each cell's position in it (filled by the caller
    when answers are on). Returns the last cell."""
    answers = use_bridges != 0 or use_replies
    for k in range(start, stop):
        cell = order[k]
        if answers and last >= 0:
            d = _bridge_answer(stones, bridges, last, turn + 1) if (use_bridges >> turn) & 1 else -1
            if d < 0 and use_replies:
                e = replies[turn, last]
                if e >= 0 and stones[e] == 0:
                    d = e
            if d >= 0:
                pos = where[d]
                order[pos] = cell
                where[cell] = pos
                order[k] = d
                where[d] = k
                cell = d
        stones[cell] = turn + 1
        last = cell
        turn = 1 - turn
    return last


@leaf
def _learn_replies(stones, order, count, replies, winner_colour):
    """Last good reply with forgetting (Baier & Drake): after a fill, each move of the winning
    colour is remembered as that colour's reply to the move before it, and a loser's remembered
    reply that was played again and lost is forgotten. `order[:count]` is the fill in play order."""
    for k in range(1, count):
        cell = order[k]
        colour = stones[cell] - 1
        previous = order[k - 1]
        if colour == winner_colour:
            replies[colour, previous] = cell
        elif replies[colour, previous] == cell:
            replies[colour, previous] = -1


@njit(cache=True)
def playout(stones, var, owner, params, arrays, midpoint_corners, logs, work, mark, stamp, moves_out, bridges, sums, replies):
    """Finish the game at random from this position (changed in place). Returns (winning seat,
    next stamp, moves recorded in `moves_out` as cell * 4 + colour for AMAF, −1 if the
    playout's moves are read from the final board instead). Omega leaves each colour's score
    (sum of log group sizes) in `sums`."""
    table, stars, star_list, cell_sides, runs, square_table, side_bits = arrays
    n = params[P_N]
    game = params[P_GAME]
    order = work[3]
    if game == OMEGA:
        p = params[P_COLOURS]
        count = shuffled_empties(stones, order)
        to_place = count - params[P_END_EMPTY]
        colour = var[V_TURN]
        for i in range(to_place):
            stones[order[i]] = colour + 1
            colour += 1
            if colour == p:
                colour = 0
        winner = _omega_scores(stones, table, p, logs, work[1], mark, stamp, sums)
        return owner[winner], stamp + 1, -1
    if game == OMNY and var[V_KOMI] < 0:
        komi = n + 1 + np.random.randint(0, params[P_TOTAL] + 1)
        stamp = play_move(stones, var, owner, params, komi, arrays, logs, work, mark, stamp, sums)
    if _pie_open(var, params):
        legal = 0
        for c in range(n):
            if stones[c] == 0 and (game != ONYX or midpoint_open(stones, midpoint_corners, c)):
                legal += 1
        if np.random.randint(0, legal + 1) == 0:
            owner[0], owner[1] = owner[1], owner[0]
            var[V_SWAPPED] = 1
    turn = var[V_TURN]
    use_bridges = _answering_colours(owner, params)
    use_replies = params[P_REPLIES] != 0
    where = work[4]
    if game == ODDY or game == OMNY:
        count = shuffled_empties(stones, order)
        if use_bridges != 0 or use_replies:
            for k in range(count):
                where[order[k]] = k
    if game == ODDY:
        _fill(stones, order, where, 0, count, -1, turn, bridges, use_bridges, replies, use_replies)
        # Exactly one colour has winning groups on the full board: the first found decides.
        queue = work[1]
        for seed in range(n):
            if mark[seed] == stamp:
                continue
            if group_wins_odd_y(stones, table, cell_sides, runs, seed, queue, mark, stamp):
                if use_replies:
                    _learn_replies(stones, order, count, replies, stones[seed] - 1)
                return owner[stones[seed] - 1], stamp + 1, -1
        return owner[0], stamp + 1, -1  # unreachable: Odd-Y has no draws
    if game == OMNY:
        total = params[P_TOTAL]
        black_bound = total - var[V_KOMI]
        white_bound = total + var[V_KOMI]
        if params[P_FILL] != 0:
            _fill(stones, order, where, 0, count, -1, turn, bridges, use_bridges, replies, use_replies)
            colour, stamp = _omny_full_winner(
                stones, table, stars, star_list, total, black_bound, white_bound, work[0], work[1], mark, stamp, work[4], work[5]
            )
            if use_replies:
                _learn_replies(stones, order, count, replies, max(colour, 0))
            return owner[max(colour, 0)], stamp, -1
        cell = -1
        for k in range(count):
            cell = _fill(stones, order, where, k, k + 1, cell, turn, bridges, use_bridges, replies, use_replies)
            bound = black_bound if turn == 0 else white_bound
            wins, _ = group_wins_into(stones, table, stars, star_list, total, cell, bound, work[0], work[1], mark, stamp)
            stamp += 2
            if wins:
                if use_replies:
                    _learn_replies(stones, order, k + 1, replies, turn)
                return owner[turn], stamp, -1
            turn = 1 - turn
        return owner[0], stamp, -1  # unreachable: Omny has no draws
    # ONYX: move by move, captures reopen points.
    empties = order
    where = work[4]
    count = empty_bag(stones, empties, where)
    captured = work[2]
    recorded = 0
    answers = params[P_CAPTURES] != 0
    last = -1
    while count > 0:
        cell = -1
        if answers and last >= 0:
            cell = capture_answer(stones, square_table, last, turn + 1)
        if cell < 0:
            cell = random_open_cell(stones, midpoint_corners, empties, count, 64 * n)
        if cell < 0:
            break
        stones[cell] = turn + 1
        count = bag_remove(empties, where, count, cell)
        last = cell
        if recorded < moves_out.shape[0]:
            moves_out[recorded] = cell * 4 + turn
            recorded += 1
        taken = find_captures(stones, square_table, cell, captured)
        for k in range(taken):
            stones[captured[k]] = 0
            count = bag_add(empties, where, count, captured[k])
        if connects_into(stones, table, side_bits, GOALS[stones[cell]], cell, work[1], mark, stamp):
            return owner[turn], stamp + 1, recorded
        stamp += 1
        turn = 1 - turn
    return -1, stamp, recorded  # no legal move left (the rules never allow it): a shared result


# ----- the search --------------------------------------------------------------------------------


@leaf
def _rank_rewards(sums, var, owner, params, winner, rewards):
    """Omega: each seat's reward by the rank of its colour's score, from 1 (the winner, as the
    rules' tie-break chose it) down to 0 for the lowest score."""
    colours = params[P_COLOURS]
    seats = params[P_SEATS]
    for colour in range(colours):
        seat = owner[colour]
        if seat == winner:
            continue
        below = 0
        for other in range(colours):
            if other != colour and owner[other] != winner and sums[other] < sums[colour]:
                below += 1
        rewards[seat] = below / (seats - 1.0)


@leaf
def _new_node(ints, floats, node, move, parent, seats):
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
def init_root(ints, floats, meta, root_var, root_owner, params):
    """Make the tree a single root for the position."""
    meta[M_COUNT] = 1
    _new_node(ints, floats, 0, -1, -1, params[P_SEATS])
    _reach(ints, 0, root_var, root_owner, params)


# ----- the pie shared by colour (see "The pie" above) --------------------------------------------


@leaf
def _pie_passed(var, params):
    """Whether a position is at or past the pie point: a colour node of the shared pie."""
    return params[P_SHARED] != 0 and var[V_KOMI] >= 0 and var[V_PLACEMENTS] >= params[P_PIE_AT]


@leaf
def _kids_pie(var, params):
    """Shared pie: whether every move from this (seat-node) position opens the swap: Black's stone
    one placement before the pie point, or, in Omny's komi choice without pie, the komi itself."""
    if params[P_SHARED] == 0 or var[V_SWAPPED] != 0 or _pie_passed(var, params):
        return False
    if var[V_KOMI] < 0:
        return params[P_KOMI_PIE] == 0 and params[P_PIE_AT] == 0
    return var[V_TURN] == 0 and var[V_PLACEMENTS] + 1 == params[P_PIE_AT]


@leaf
def _reach(ints, node, var, owner, params):
    """Fill in a node when its position is first reached: its flags, and either the winner of a
    finished game (I_TERM, proven) or the deciding side and the colour to move."""
    colour_node = _pie_passed(var, params)
    flags = 0
    if colour_node:
        flags |= FL_COLOUR
        if _pie_open(var, params):
            flags |= FL_PIE
    elif _kids_pie(var, params):
        flags |= FL_KIDS_PIE
    ints[node, I_FLAGS] = flags
    if var[V_WINNER] >= 0:
        winner = var[V_WINNER] if colour_node else owner[var[V_WINNER]]
        ints[node, I_TERM] = winner
        ints[node, I_PROVEN] = winner
    else:
        ints[node, I_SEAT] = var[V_TURN] if colour_node else _mover(var, owner, params)
        ints[node, I_COLOUR] = var[V_TURN]


@leaf
def _take_pie(ints, floats, node, var, owner):
    """An iteration passing a position where the swap is open: the side to move takes the colour
    its statistics favour (it swaps when the colour to move wins less than half), for the seat
    rewards of the nodes above; the swap is then used up, so a playout does not draw it again."""
    if ints[node, I_FLAGS] & FL_PIE and var[V_SWAPPED] == 0:
        visits = floats[node, F_N]
        if visits > 0.0 and floats[node, F_W + var[V_TURN]] < 0.5 * visits:
            owner[0], owner[1] = owner[1], owner[0]
        var[V_SWAPPED] = 1


@leaf
def child_proof(ints, node, child):
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
def reward_column(ints, node):
    """The reward column of a node's children (and their AMAF statistics) that holds the node's
    side's results: its seat, or across the pie point its colour."""
    if ints[node, I_FLAGS] & FL_KIDS_PIE:
        return ints[node, I_COLOUR]
    return ints[node, I_SEAT]


@leaf
def side_value(ints, node, child, mean):
    """A child's mean worth to the node's side (read from `reward_column`): across the pie point,
    where the swap is open (or the child not reached yet), the side gets the colour the opponent
    leaves it, min(mean, 1 − mean)."""
    unreached = ints[child, I_SEAT] < 0 and ints[child, I_TERM] < 0
    if ints[node, I_FLAGS] & FL_KIDS_PIE and (ints[child, I_FLAGS] & FL_PIE or unreached):
        return min(mean, 1.0 - mean)
    return mean


@leaf
def outlooks(ints, floats, node, proofs, worths):
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
def _select(ints, floats, node, params, fparams):
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
def _prove(ints, node, params):
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
    ints,
    floats,
    meta,
    root_stones,
    root_var,
    root_owner,
    params,
    fparams,
    arrays,
    midpoint_corners,
    bridges,
    partners,
    replies,
    iterations,
):
    """Run up to `iterations` iterations; return how many ran (fewer when the root is proven).
    `arrays` is the board's tuple that `play_move` takes; `partners` is the bridge-partner table
    of `pattern_points` (read only with a bias, FP_BIAS > 0, in Odd-Y and Omny with RAVE)."""
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
    sums = np.zeros(4)
    reward_mode = params[P_REWARD] if seats > 2 else REWARD_WIN
    decisive = params[P_DECISIVE] != 0
    scratch = np.empty((1, n), dtype=np.int8)
    bias = fparams[FP_BIAS]
    patterns = rave and bias > 0.0 and (params[P_GAME] == ODDY or params[P_GAME] == OMNY)
    table = arrays[0]
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
                if decisive and count > 1:
                    count, stamp = decisive_moves(
                        stones, var, owner, params, moves, count, scratch, arrays, logs, work, mark, stamp
                    )
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
                if patterns and var[V_WINNER] < 0 and (params[P_GAME] != OMNY or var[V_KOMI] >= 0):
                    last = params[P_LAST] if node == 0 else ints[node, I_MOVE]
                    if last >= n:
                        last = -1
                    _bias_children(ints, floats, first, count, stones, var[V_TURN], last, bias, table, bridges, partners)
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
        else:
            if rave:
                for c in range(n):
                    leaf_stones[c] = stones[c]
            winner, stamp, recorded = playout(
                stones, var, owner, params, arrays, midpoint_corners, logs, work, mark, stamp, playout_moves, bridges, sums,
                replies,
            )
            if winner >= 0:
                rewards[winner] = 1.0
                if reward_mode == REWARD_RANK and params[P_GAME] == OMEGA:
                    _rank_rewards(sums, var, owner, params, winner, rewards)
            else:
                for s in range(seats):
                    rewards[s] = 1.0 / seats
        if reward_mode == REWARD_PARANOID:
            root_seat = ints[0, I_SEAT]
            for s in range(seats):
                if s != root_seat:
                    rewards[s] = 1.0 - rewards[root_seat]
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
def compact(ints, floats, new_ints, new_floats, root):
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
def seed_rng(seed):
    """Seed numba's random generator (the search's own stream)."""
    np.random.seed(seed)
