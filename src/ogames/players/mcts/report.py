"""What a search found: the move chosen from a root's statistics (`choose_from_root`) with the
line it expects, as the `SearchInfo` a player's `info()` gives."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ogames.players.mcts import kernel as K
from ogames.players.mcts.adapter import Adapter
from ogames.players.mcts.info import MIN_PLAYOUTS_FOR_VALUE, SearchInfo
from ogames.players.mcts.tree import Floats, Tree
from ogames.rules.protocol import State

PV_LENGTH = 8

Root = tuple[npt.NDArray[np.int32], Floats]


def outlooks(ints: npt.NDArray[np.int32], floats: Floats, node: int) -> tuple[npt.NDArray[np.int64], Floats]:
    """Each child's proof in the node's terms (−1: none) and mean worth to the side deciding
    at the node (NaN: unvisited), children in order (`kernel.outlooks`)."""
    count = int(ints[node, K.I_NCHILD])
    proofs, worths = np.empty(count, dtype=np.int64), np.empty(count)
    K.outlooks(ints, floats, node, proofs, worths)
    return proofs, worths


def outlook(ints: npt.NDArray[np.int32], floats: Floats, child: int) -> tuple[int, float | None]:
    """A root child's proof and worth to the side to move (None: unvisited)."""
    proofs, worths = outlooks(ints, floats, 0)
    i = child - int(ints[0, K.I_FIRST])
    return int(proofs[i]), None if np.isnan(worths[i]) else float(worths[i])


def _two_seats(floats: Floats) -> bool:
    return bool(floats.shape[1] - K.F_W == 2)


def best_child(ints: npt.NDArray[np.int32], floats: Floats, node: int) -> int:
    """A proven win for the side deciding here, else the most visited child that is not a
    proven loss (ties: the better worth), else the most visited."""
    first = int(ints[node, K.I_FIRST])
    seat = int(ints[node, K.I_SEAT])
    proofs, worths = outlooks(ints, floats, node)
    children = range(len(proofs))
    wins = [i for i in children if proofs[i] == seat]
    if wins:
        return first + max(wins, key=lambda i: floats[first + i, K.F_N])
    two = _two_seats(floats)
    # Proven losses are avoided while some move is not one; when all are, the most visited
    # (the search went on without proofs) resists best.
    alive = [i for i in children if not (two and proofs[i] >= 0)] or list(children)

    def key(i: int) -> tuple[float, float]:
        return float(floats[first + i, K.F_N]), 0.0 if np.isnan(worths[i]) else float(worths[i])

    return first + max(alive, key=key)


def drawn_child(ints: npt.NDArray[np.int32], floats: Floats, temperature: float, rng: random.Random) -> int:
    """A root child drawn with chances ∝ visits^(1/temperature) (a proven win if there is
    one; proven losses only when every move is one)."""
    first = int(ints[0, K.I_FIRST])
    seat = int(ints[0, K.I_SEAT])
    proofs, _ = outlooks(ints, floats, 0)
    if (proofs == seat).any():
        return best_child(ints, floats, 0)
    two = _two_seats(floats)
    children = [first + i for i in range(len(proofs))]
    alive = [c for c, proof in zip(children, proofs, strict=True) if not (two and proof >= 0)] or children
    visited = [c for c in alive if floats[c, K.F_N] > 0] or alive
    top = max(floats[c, K.F_N] for c in visited) or 1.0
    weights = [(floats[c, K.F_N] / top) ** (1.0 / temperature) if floats[c, K.F_N] > 0 else 1.0 for c in visited]
    return rng.choices(visited, weights=weights)[0]


def reliable_worth(ints: npt.NDArray[np.int32], floats: Floats) -> float | None:
    """The worth to the side to move of the root's best move (1 or 0 if proven), None when the
    root has no children yet or the move fewer than MIN_PLAYOUTS_FOR_VALUE visits."""
    if ints[0, K.I_FIRST] < 0:
        return None
    best = best_child(ints, floats, 0)
    proven, worth = outlook(ints, floats, best)
    if proven >= 0:
        return 1.0 if proven == ints[0, K.I_SEAT] else 0.0
    return None if worth is None or floats[best, K.F_N] < MIN_PLAYOUTS_FOR_VALUE else worth


def seat_worths(root: Root, mover: int) -> tuple[float, ...] | None:
    """Every seat's mean reward under the root's best move, seat by seat (None when the root has no
    children yet or the move no visit). With two seats the worth to the side to move settles both
    (the rewards sum to 1, and the columns of a shared pie are by colour, not seat); with three or
    four each seat's column is read, which a review's graph of every player's chances needs.
    `mover` is the seat to move (`State.mover`; in a colour node the tree's side is a colour)."""
    ints, floats = root
    if ints[0, K.I_FIRST] < 0:
        return None
    best = best_child(ints, floats, 0)
    seats = int(floats.shape[1] - K.F_W)
    if seats == 2:
        proven, worth = outlook(ints, floats, best)
        if proven >= 0:
            worth = 1.0 if proven == ints[0, K.I_SEAT] else 0.0
        if worth is None:
            return None
        return (worth, 1.0 - worth) if mover == 0 else (1.0 - worth, worth)
    visits = float(floats[best, K.F_N])
    if visits <= 0:
        return None
    return tuple(float(floats[best, K.F_W + s]) / visits for s in range(seats))


def root_worths(root: Root, mover: int) -> tuple[float, ...] | None:
    """Every seat's mean reward over all the root's visits, seat by seat: the worth of the position
    itself, as a review's graph shows it (None when nothing is searched yet). Where the best move's
    worth (`seat_worths`) leans to the side to move, a maximum over noisy means, this mean does not
    take sides that way, so that a position searched before a move and the one searched after it
    can be compared. With two seats it is the children's worths to the side to move weighted by
    their visits (a proven child counting 1 or 0), which also reads the shared pie's columns right;
    `mover` is the seat to move, as for `seat_worths`."""
    ints, floats = root
    first = int(ints[0, K.I_FIRST])
    if first < 0:
        return None
    seats = int(floats.shape[1] - K.F_W)
    if seats != 2:
        total = float(floats[0, K.F_N])
        return None if total <= 0 else tuple(float(floats[0, K.F_W + s]) / total for s in range(seats))
    proofs, means = outlooks(ints, floats, 0)
    visits = floats[first : first + len(proofs), K.F_N]
    means = np.where(proofs >= 0, (proofs == ints[0, K.I_SEAT]).astype(np.float64), means)
    counted = (visits > 0) & ~np.isnan(means)
    if not counted.any():
        return None
    worth = float(np.dot(visits[counted], means[counted]) / visits[counted].sum())
    return (worth, 1.0 - worth) if mover == 0 else (1.0 - worth, worth)


def _takes_other_colour(ints: npt.NDArray[np.int32], floats: Floats, best: int) -> bool:
    """At a root where the swap is open (shared pie): whether the side to move does better with
    the other colour, i.e. its colour's best move is proven lost or wins less than half."""
    proven, worth = outlook(ints, floats, best)
    if proven >= 0:
        return bool(proven != ints[0, K.I_SEAT])
    return worth is not None and worth < 0.5


def _deepest_line(trees: Sequence[Tree], code: int) -> tuple[npt.NDArray[np.int32], Floats, int]:
    """The tree whose root child for move `code` has the most visits, and that child."""
    found: tuple[npt.NDArray[np.int32], Floats, int] | None = None
    most = -1.0
    for tree in trees:
        ints, floats = tree.ints, tree.floats
        first = int(ints[0, K.I_FIRST])
        if first < 0:
            continue
        for child in range(first, first + int(ints[0, K.I_NCHILD])):
            if ints[child, K.I_MOVE] == code and floats[child, K.F_N] > most:
                found, most = (ints, floats, child), float(floats[child, K.F_N])
    assert found is not None, "the chosen move is a root child of some tree"
    return found


def choose_from_root(
    state: State,
    adapter: Adapter,
    root: Root,
    trees: Sequence[Tree],
    temperature: float,
    rng: random.Random,
) -> tuple[str, SearchInfo]:
    """The move chosen from `root` (the one tree's, or the workers' merged) and what the search
    found about it (the line from the tree that visited the move most). The figures of the work
    done (iterations, seconds, level…) are the caller's to add."""
    ints, floats = root
    if ints[0, K.I_FIRST] < 0:  # nothing searched (a budget of no time): any legal move
        move = state.legal_moves()[0]
        return move, SearchInfo(move=move, pv=(move,))
    seat = int(ints[0, K.I_SEAT])
    best = best_child(ints, floats, 0)
    swap = bool(ints[0, K.I_FLAGS] & K.FL_PIE) and "swap" in state.legal_moves() and _takes_other_colour(ints, floats, best)
    if temperature > 0 and not swap:
        best = drawn_child(ints, floats, temperature, rng)
    visits = float(floats[best, K.F_N])
    proven, value = outlook(ints, floats, best)
    if proven >= 0:
        value = 1.0 if proven == seat else 0.0
    code = int(ints[best, K.I_MOVE])
    pv = ["swap"] if swap else []
    if swap:  # the other colour, with the opponent to play the best move of this one
        value = None if value is None else 1.0 - value
        proven = -1 if proven < 0 else 1 - proven
    pv.append(adapter.move_text(code))
    if ints[best, K.I_SEAT] >= 0:
        tree_ints, tree_floats, node = _deepest_line(trees, code)
        while tree_ints[node, K.I_FIRST] >= 0 and len(pv) < PV_LENGTH:
            node = best_child(tree_ints, tree_floats, node)
            pv.append(adapter.move_text(int(tree_ints[node, K.I_MOVE])))
            if tree_ints[node, K.I_SEAT] < 0:
                break
    info = SearchInfo(
        move=pv[0],
        visits=int(visits),
        value=value,
        reliable=visits >= MIN_PLAYOUTS_FOR_VALUE or proven >= 0,
        proven=None if proven < 0 else ("win" if proven == seat else "loss"),
        pv=tuple(pv),
        nodes=sum(tree.nodes for tree in trees),
        reused=sum(tree.reused for tree in trees),
    )
    return pv[0], info
