"""Look for zen forms that are impossible for a reason other than counting: `python tools/zen_survey.py [n]`.

Every form checked asks for at most 36 cards of each colour (so the counting lemma says nothing) and
is decided by the SAT solver, with the standard 36 designs both with and without turning. Families:
every one-colour rectangle of 30 to 36 cells, the 8 × 9 chessboard (36 + 36), and `n` seeded random
forms of each kind: compact and branchy one-colour polyominoes of 36 cells, 72-cell polyominoes with
36 random cells of each colour, and chessboards with two cells of different colour swapped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from tool_cli import Parser, whole

from ogames.players.solvers.zen import Cell, check_witness, solve
from ogames.rules.omiga.cards import STANDARD, CardSet

MODES = {"turning": STANDARD, "no turning": CardSet(STANDARD.designs, turning=False)}
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def polyomino(rng: random.Random, size: int, compact: bool) -> set[Cell]:
    """A random connected set of cells grown from one cell (compact: favour cells with many neighbours)."""
    cells = {(0, 0)}
    while len(cells) < size:
        frontier = sorted({(c + dc, r + dr) for c, r in cells for dc, dr in STEPS} - cells)
        if compact:
            weights = [sum((c + dc, r + dr) in cells for dc, dr in STEPS) ** 3 for c, r in frontier]
            cells.add(rng.choices(frontier, weights)[0])
        else:
            cells.add(rng.choice(frontier))
    return cells


def chessboard(width: int = 8, height: int = 9) -> dict[Cell, str]:
    """A chessboard-coloured rectangle (8 × 9: 36 cells of each colour)."""
    return {(c, r): "white" if (c + r) % 2 else "black" for c in range(width) for r in range(height)}


def forms(n: int, seed: int = 2024) -> Iterator[tuple[str, dict[Cell, str]]]:
    """(family, form) pairs, the same for the same n and seed."""
    rng = random.Random(seed)
    for w in range(1, 37):
        for h in range(1, 37):
            if 30 <= w * h <= 36:
                yield "one-colour rectangles of 30-36 cells", {(c, r): "black" for c in range(w) for r in range(h)}
    yield "8 x 9 chessboard", chessboard()
    for _ in range(n):
        yield "one-colour compact polyominoes of 36 cells", dict.fromkeys(polyomino(rng, 36, True), "black")
        yield "one-colour branchy polyominoes of 36 cells", dict.fromkeys(polyomino(rng, 36, False), "white")
        order = sorted(polyomino(rng, 72, rng.random() < 0.5))
        rng.shuffle(order)
        mixed = {c: "white" if i < 36 else "black" for i, c in enumerate(order)}
        yield "72-cell polyominoes, 36 random cells of each colour", mixed
        board = chessboard()
        a, b = rng.sample(sorted(board), 2)
        if board[a] != board[b]:
            board[a], board[b] = board[b], board[a]
        yield "8 x 9 chessboards with two cells swapped", board


def main(n: int = 20) -> None:
    """Decide every surveyed form in both modes and print a summary line per family and mode."""
    tally: dict[tuple[str, str], list[int]] = {}
    start = time.perf_counter()
    for family, cells in forms(n):
        for mode, cards in MODES.items():
            verdict = solve(cells, cards)
            row = tally.setdefault((family, mode), [0, 0, 0, 0])
            row[0] += 1
            row[1 + ("possible", "impossible", "unknown").index(verdict.status)] += 1
            if verdict.status == "possible":
                assert check_witness(cells, verdict.witness, cards) is None
            else:
                print(f"{verdict.status.upper()} ({mode}): {sorted(cells.items())}", flush=True)
    for (family, mode), (total, possible, impossible, unknown) in tally.items():
        print(f"{family} | {mode} | {total} forms | {possible} possible | {impossible} impossible | {unknown} unknown")
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=whole(0), default=20, help="seeded random forms of each kind (default 20)")
    main(parser.parse_args().n)
