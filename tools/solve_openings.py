"""Regenerate docs/solved.md: which first moves win for the first player on small connection
boards, proved by the connection solver (`ogames.players.solvers.connection`).

    .venv/bin/python tools/solve_openings.py              # every board below, writes docs/solved.md
    .venv/bin/python tools/solve_openings.py --only "Y 5" --print

Each board is solved without the pie rule (with it, the first player always loses: see the page).
First moves are solved once per symmetry class: the board's automorphisms are found by a search
over its cell graph that keeps star cells (Omny) or sides (Odd-Y); a first move wins when the
position after it is a proven loss for White. Node counts and seconds are the solver's, on one
core, each class with a fresh transposition table.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from tool_cli import Parser

import ogames
from ogames.cli.render.hexgrid import draw_hex_board
from ogames.cli.render.polar import draw_polar_board
from ogames.players.solvers.connection import LOSS, UNKNOWN, WIN, ConnectionSolver, solve

OUT = Path(__file__).resolve().parent.parent / "docs" / "solved.md"
BUDGET = 50_000_000  # positions per first move
TABLE_BITS = 22

# (title, game, options, budget per first move)
BOARDS: list[tuple[str, str, dict, int]] = [
    ("Y 4", "omny", {"variant": "y", "size": 4}, BUDGET),
    ("Y 5", "omny", {"variant": "y", "size": 5}, BUDGET),
    ("Odd-Y 5 sides, size 2", "oddy", {"sides": 5, "size": 2, "pie": False}, BUDGET),
    ("Odd-Y 5 sides, size 3", "oddy", {"sides": 5, "size": 3, "pie": False}, BUDGET),
    ("Omny sunder 2", "omny", {"variant": "sunder", "size": 2}, BUDGET),
    ("Omny sunder 3", "omny", {"variant": "sunder", "size": 3}, 20_000_000),
    ("Omny gyre 3", "omny", {"variant": "gyre", "size": 3}, 20_000_000),
    ("Omny gyre 3, komi 0.5", "omny", {"variant": "gyre", "size": 3, "komi": 0.5}, 20_000_000),
    ("Y 6", "omny", {"variant": "y", "size": 6}, 8_000_000),
]


# ----- symmetry ---------------------------------------------------------------------------------


def automorphisms(game) -> list[tuple[int, ...]]:
    """Every permutation of the cells that keeps adjacency and the win condition: star cells onto
    star cells (Omny), sides onto sides with their cyclic order (Odd-Y)."""
    board = game.board
    n = len(board)
    nbrs = [set(board.neighbours[c]) for c in range(n)]
    if game.name == "omny":
        tag = [(len(nbrs[c]), bool(game.star_mask[c])) for c in range(n)]
    else:
        tag = [(len(nbrs[c]), int(game.cell_sides[c]).bit_count()) for c in range(n)]
    order, seen = [0], {0}
    for c in order:
        for o in sorted(nbrs[c]):
            if o not in seen:
                seen.add(o)
                order.append(o)
    found: list[tuple[int, ...]] = []
    image = [-1] * n
    used = [False] * n

    def extend(i: int) -> None:
        if i == n:
            if game.name == "omny" or _keeps_sides(game, image):
                found.append(tuple(image))
            return
        cell = order[i]
        for target in range(n):
            if used[target] or tag[target] != tag[cell]:
                continue
            if all((image[d] in nbrs[target]) == (d in nbrs[cell]) for d in order[:i]):
                image[cell], used[target] = target, True
                extend(i + 1)
                image[cell], used[target] = -1, False

    extend(0)
    return found


def _keeps_sides(game, image: Sequence[int]) -> bool:
    m = game.options["sides"]
    sides = [frozenset(game.board.cells(f"side{s}")) for s in range(m)]
    where = {side: s for s, side in enumerate(sides)}
    mapped = [where.get(frozenset(image[c] for c in side)) for side in sides]
    if None in mapped:
        return False
    runs = {int(r) for r in game.runs}
    return all(sum(1 << mapped[s] for s in range(m) if int(r) >> s & 1) in runs for r in runs)


def classes(game) -> list[list[int]]:
    """The empty cells grouped by symmetry, each class in board order."""
    perms = automorphisms(game)
    done: set[int] = set()
    out = []
    for c in range(len(game.board)):
        if c not in done:
            orbit = sorted({p[c] for p in perms})
            done |= set(orbit)
            out.append(orbit)
    return out


# ----- solving -------------------------------------------------------------------------------------


@dataclass
class Opening:
    cells: list[str]  # the symmetry class
    value: str  # for Black (the first player): win, loss, unknown
    nodes: int
    seconds: float


@dataclass
class Report:
    title: str
    game: object
    budget: int
    spec: str
    symmetries: int
    root_value: str
    root_move: str | None
    root_nodes: int
    root_seconds: float
    openings: list[Opening]


def solve_board(title: str, name: str, options: dict, budget: int) -> Report:
    game = ogames.load(name, **options)
    labels = game.board.labels
    proof = solve(game.new_state(), budget, solver=ConnectionSolver(game, table_bits=TABLE_BITS))
    openings = []
    for orbit in classes(game):
        state = game.new_state()
        state.play(labels[orbit[0]], t=0.0)
        if state.is_over:
            value, nodes, seconds = WIN, 0, 0.0
        else:
            reply = solve(state, budget, solver=ConnectionSolver(game, table_bits=TABLE_BITS))
            value = {WIN: LOSS, LOSS: WIN, UNKNOWN: UNKNOWN}[reply.value]
            nodes, seconds = reply.nodes, reply.seconds
        openings.append(Opening([labels[c] for c in orbit], value, nodes, seconds))
        print(f"  {title}: {labels[orbit[0]]} (+{len(orbit) - 1}) {value} {nodes} {seconds:.2f}s", flush=True)
    spec = ", ".join(f"{k}={v!r}" for k, v in options.items())
    return Report(
        title,
        game,
        budget,
        spec,
        len(automorphisms(game)),
        proof.value,
        proof.move,
        proof.nodes,
        proof.seconds,
        openings,
    )


# ----- the page -----------------------------------------------------------------------------------

GLYPH = {WIN: "W", LOSS: "x", UNKNOWN: "?"}


def diagram(report: Report) -> str:
    game = report.game
    value_of = {}
    for opening in report.openings:
        for label in opening.cells:
            value_of[game.board.index(label)] = opening.value

    def glyph(cell: int) -> Text:
        return Text(GLYPH[value_of[cell]])

    if game.name == "oddy" and game.options["board"] == "polar":
        return draw_polar_board(game.board, glyph).plain
    return draw_hex_board(game.board, glyph).plain


def section(report: Report) -> str:
    wins = [c for o in report.openings if o.value == WIN for c in o.cells]
    losses = [c for o in report.openings if o.value == LOSS for c in o.cells]
    unknown = [c for o in report.openings if o.value == UNKNOWN for c in o.cells]
    nodes = sum(o.nodes for o in report.openings)
    seconds = sum(o.seconds for o in report.openings)
    cells = len(report.game.board)
    lines = [
        f"## {report.title}",
        "",
        f"`ogames.load({report.game.name!r}, {report.spec})` — {cells} cells, "
        f"{report.symmetries} symmetries, {len(report.openings)} classes of first moves.",
        "",
        f"The empty board: **{report.root_value}** for Black"
        + (f" (found {report.root_move})" if report.root_move else "")
        + f", {report.root_nodes:,} positions, {report.root_seconds:.2f} s."
        + (
            f" The search from the empty board ran out of its budget, but the table below proves it a **win**: {wins[0]} wins."
            if report.root_value == UNKNOWN and wins
            else ""
        ),
        "",
        "```",
        diagram(report),
        "```",
        "",
        f"Winning first moves ({len(wins)}): {' '.join(sorted(wins, key=_board_order(report))) or 'none'}  ",
        f"Losing first moves ({len(losses)}): {' '.join(sorted(losses, key=_board_order(report))) or 'none'}",
    ]
    if unknown:
        lines.append(f"  \nNot proved within {report.budget:,} positions ({len(unknown)}): {' '.join(unknown)}")
    lines += [
        "",
        "| first move (and its symmetric copies) | for Black | positions | seconds |",
        "|---|---|---:|---:|",
    ]
    for o in report.openings:
        lines.append(f"| {' '.join(o.cells)} | {o.value} | {o.nodes:,} | {o.seconds:.2f} |")
    lines += [f"| all classes | | {nodes:,} | {seconds:.2f} |", ""]
    return "\n".join(lines)


def _board_order(report: Report):
    return report.game.board.index


HEADER = """# Solved small boards

What the connection solver (`ogames.players.solvers.connection.solve`, also the `solver` player)
proves about the first move on small boards of Omny and Odd-Y, with the pie rule off.
Regenerate with `.venv/bin/python tools/solve_openings.py` (it writes this page).

How to read it. Every cell of a diagram is Black's (the first player's) first stone there:
`W` it wins with perfect play, `x` it loses, `?` not proved within the budget. The lists name the
same cells. The game cannot be drawn, so every position is a win or a loss for the player to move;
"positions" counts the positions the depth-first proof-number search expanded to prove that first
move (solving White's reply position from scratch, a fresh transposition table each time);
symmetric first moves are solved once (the symmetries are found from the board's cell graph, keeping
star cells or sides). Times: {machine}, one core, compiled code warm, on a machine shared with
other work (indicative only; the position counts are exact and repeatable).

With the pie rule on, the first player always loses: whatever Black plays, White swaps if that
stone wins and plays on (with one of its winning replies) if it loses — so no search is needed, and
`solve` says so at once. The same holds for Omny's komi choice: after `komi=K` White chooses sides.
The value of a swap position is therefore always a win for the player to move; the solver searches
only to tell which way: on (a winning placement) or `swap`.

The method, the pruning and the tests that check it against plain minimax are described in
`src/ogames/players/solvers/connection.py`. Omny `y` is the Game of Y (the three corners are the
star cells; a group wins when no region holds two of them, i.e. it touches all three sides) and
Odd-Y with 3 sides on the triangle is the same game, so the Y tables hold for both.
"""


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=[b[0] for b in BOARDS], help="solve only the board(s) with this title")
    parser.add_argument("--print", action="store_true", help="print the sections instead of writing docs/solved.md")
    args = parser.parse_args()
    boards = [b for b in BOARDS if not args.only or b[0] in args.only]
    # Warm the compiled code so that the first board's times do not include loading it.
    solve(ogames.load("omny", variant="y", size=3).new_state())
    solve(ogames.load("oddy", sides=5, size=2, pie=False).new_state())
    sections = []
    start = time.perf_counter()
    for title, name, options, budget in boards:
        print(title, flush=True)
        sections.append(section(solve_board(title, name, options, budget)))
    machine = f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}"
    page = HEADER.format(machine=machine) + "\n" + "\n".join(sections)
    page += f"\nTotal time of the run: {time.perf_counter() - start:.0f} s.\n"
    if args.print:
        print(page)
    else:
        OUT.write_text(page)
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
