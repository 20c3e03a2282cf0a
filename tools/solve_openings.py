"""Regenerate docs/solved.md: which first moves win for the first player on small connection
boards, proved by the connection solver (`ogames.players.solvers.connection`), each proved verdict
(or a random sample on the big boards) checked again by a second method
(`ogames.players.solvers.strategy_check`).

    .venv/bin/python tools/solve_openings.py                  # solve and check what is missing, write the page
    nice -n 10 .venv/bin/python tools/solve_openings.py --only "Y 7"   # one board, into the results file
    .venv/bin/python tools/solve_openings.py --page           # the page from the stored results only

Each board is solved without the pie rule (with it, the first player always loses: see the page).
First moves are solved once per symmetry class: the board's automorphisms are found by a search
over its cell graph that keeps star cells (Omny) or sides (Odd-Y); a first move wins when the
position after it is a proven loss for White. Node counts and seconds are the solver's, on one
core, each class with a fresh transposition table. Results go to benchmarks/results/solved-openings.json
as each class finishes, and a run takes what is there (`--again` solves again).
"""

from __future__ import annotations

import heapq
import json
import os
import platform
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from tool_cli import Parser

import ogames
from ogames.cli.render.hexgrid import draw_hex_board
from ogames.cli.render.polar import draw_polar_board
from ogames.players.solvers.connection import LOSS, UNKNOWN, WIN, ConnectionSolver, _centrality_order, solve
from ogames.players.solvers.strategy_check import check_win, solver_strategy

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "solved.md"
# Every verdict the run proved, written as each first move finishes, so that a long run can be
# stopped and resumed and the page rewritten without solving again.
RESULTS = ROOT / "benchmarks" / "results" / "solved-openings.json"
BUDGET = 50_000_000  # positions per first move
TABLE_BITS = 22


@dataclass(frozen=True)
class Board:
    title: str
    game: str
    options: dict
    budget: int  # positions per first move
    root_budget: int | None = None  # for the search from the empty board (None: the same; 0: skip it)
    table_bits: int = TABLE_BITS
    checks: int | None = None  # proven classes checked by the second method (None: all of them)
    pairing: bool = False  # the walk may end lines in a checked pairing strategy (Y and Odd-Y only)
    note: str = ""  # said on the page under the board's table


Y7_NOTE = """Y 7 was out of reach before the solver used virtual wins (groups joined to each other and
to the sides by disjoint pairs of cells: `ogames.players.solvers.virtual_connections`): at 20,000,000
positions per class no class was proved. With them the largest class needs a few million.

The second method reaches Y 7 with pairing: the plain walk of every defence did not finish its
smallest class (c3) in 30 minutes, since each ply more multiplies the defences by about 25; a
line now also ends where the winner holds pairs of cells that win every full board in which it
gets one cell of each pair, checked board by board by the rules' plain win test, and where the
winner moves it takes a move that ends the line so (or wins at once) before asking the solver. On
the five classes of Y 6 that cut the walk from 230,659–541,196 positions to 477–2,023 (2.1 s at
most), and c3 of Y 7, unfinished at 1,000,000 positions without it, took 7,214 (8 s)
([strategy-check.md](../benchmarks/results/strategy-check.md), `benchmarks/bench_strategy_check.py`)."""

Y8_NOTE = """Y 8 came within reach with must-play regions: without them no class of first moves was
proved within 20,000,000 positions (5–6 minutes each, a table of 2^24 entries), and a search from
the empty board was still unknown at 100,000,000 positions (27 minutes). With them every class was
proved within the same budget, from 1.6 million positions (c3, 94 s) to 18.6 million (d1, 16
minutes); 73 minutes in all on one core of a shared machine. The empty board was not searched as a
whole: the table proves it. The second method reached Y 8 once the walk ended lines at once
where the winner can (a win, or a checked pairing) instead of following the solver's move there:
before, the walk of a1 had not closed after 66 minutes. A random sample of two classes was walked,
both White's strategy against every defence: c1 in 401,765 positions (31 minutes, the solver's own
proof of the class included) and b2 in 364,831 (17 minutes), both agreeing; the other six rest on
the solver alone (its pruning checked against plain minimax on small boards, and its Y 4–7
verdicts by the walk)."""

BOARDS: list[Board] = [
    Board("Y 4", "omny", {"variant": "y", "size": 4}, BUDGET),
    Board("Y 5", "omny", {"variant": "y", "size": 5}, BUDGET),
    Board("Odd-Y 5 sides, size 2", "oddy", {"sides": 5, "size": 2, "pie": False}, BUDGET),
    Board("Odd-Y 5 sides, size 3", "oddy", {"sides": 5, "size": 3, "pie": False}, BUDGET),
    Board("Omny sunder 2", "omny", {"variant": "sunder", "size": 2}, BUDGET),
    Board("Omny sunder 3", "omny", {"variant": "sunder", "size": 3}, 20_000_000),
    Board("Omny gyre 3", "omny", {"variant": "gyre", "size": 3}, 20_000_000),
    Board("Omny gyre 3, komi 0.5", "omny", {"variant": "gyre", "size": 3, "komi": 0.5}, 20_000_000),
    Board("Y 6", "omny", {"variant": "y", "size": 6}, 8_000_000),
    Board(
        "Y 7",
        "omny",
        {"variant": "y", "size": 7},
        20_000_000,
        table_bits=24,
        pairing=True,
        note=Y7_NOTE,
    ),
    Board("Y 8", "omny", {"variant": "y", "size": 8}, 20_000_000, root_budget=0, table_bits=24, checks=2, pairing=True,
          note=Y8_NOTE),
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


UNTRIED = "untried"  # a class the run was stopped before


@dataclass
class Opening:
    cells: list[str]  # the symmetry class
    value: str  # for Black (the first player): win, loss, unknown, untried
    nodes: int
    seconds: float
    check: dict | None = None  # the second method's result, when this class was checked


@dataclass
class Report:
    title: str
    game: object
    budget: int
    spec: str
    symmetries: int
    root_value: str | None  # None: the empty board was not searched
    root_move: str | None
    root_nodes: int
    root_seconds: float
    openings: list[Opening]
    checks_wanted: int | None  # the board's sample size (None: every proven class)
    note: str = ""


def solve_board(board: Board, known: dict, save) -> Report:
    """Solve the empty board (unless skipped) and every class of first moves, taking what `known`
    (this board's stored results) already holds and saving each new result as it finishes."""
    game = ogames.load(board.game, **board.options)
    labels = game.board.labels
    root_budget = board.budget if board.root_budget is None else board.root_budget
    root = known.get("root")
    if root is None or root["budget"] != root_budget:
        if root_budget:
            proof = solve(game.new_state(), root_budget, solver=ConnectionSolver(game, table_bits=board.table_bits))
            root = {
                "budget": root_budget,
                "value": proof.value,
                "move": proof.move,
                "nodes": proof.nodes,
                "seconds": proof.seconds,
            }
        else:
            root = {"budget": 0, "value": None, "move": None, "nodes": 0, "seconds": 0.0}
        known["root"] = root
        save()
    stored = known.setdefault("openings", {})
    orbits = classes(game)
    rank = {int(c): i for i, c in enumerate(_centrality_order(game.board))}
    for orbit in sorted(orbits, key=lambda orbit: rank[orbit[0]]):  # central first: a stopped run has those
        first = labels[orbit[0]]
        if first not in stored:
            entry = stored[first] = solve_opening(game, first, board)
            save()
            print(
                f"  {board.title}: {first} (+{len(orbit) - 1}) {entry['value']} {entry['nodes']} {entry['seconds']:.2f}s",
                flush=True,
            )
    return report_of(board, known)


def report_of(board: Board, known: dict) -> Report:
    """The page's view of a board's stored results (classes not solved yet are "untried")."""
    game = ogames.load(board.game, **board.options)
    labels = game.board.labels
    stored, checks = known.get("openings", {}), known.get("checks", {})
    openings = []
    for orbit in classes(game):
        first = labels[orbit[0]]
        entry = stored.get(first, {"value": UNTRIED, "nodes": 0, "seconds": 0.0})
        openings.append(Opening([labels[c] for c in orbit], entry["value"], entry["nodes"], entry["seconds"], checks.get(first)))
    root = known.get("root") or {"value": None, "move": None, "nodes": 0, "seconds": 0.0}
    return Report(
        board.title,
        game,
        board.budget,
        ", ".join(f"{k}={v!r}" for k, v in board.options.items()),
        len(automorphisms(game)),
        root["value"],
        root["move"],
        root["nodes"],
        root["seconds"],
        openings,
        board.checks,
        board.note,
    )


def solve_opening(game, first: str, board: Board) -> dict:
    """Black's first stone on `first`: a win for Black when White's reply position is a proven loss."""
    state = game.new_state()
    state.play(first, t=0.0)
    if state.is_over:
        return {"value": WIN, "nodes": 0, "seconds": 0.0, "budget": board.budget}
    reply = solve(state, board.budget, solver=ConnectionSolver(game, table_bits=board.table_bits))
    value = {WIN: LOSS, LOSS: WIN, UNKNOWN: UNKNOWN}[reply.value]
    return {"value": value, "nodes": reply.nodes, "seconds": reply.seconds, "budget": board.budget, "white_reply": reply.move}


# ----- the second method ------------------------------------------------------------------------------

CHECK_LIMIT = 20_000_000  # positions walked per checked class


def check_board(board: Board, known: dict, save, rng: random.Random) -> None:
    """Check the board's proven verdicts (all, or a random sample of `board.checks` classes) by the
    second method, keeping the checks already stored."""
    proven = sorted(first for first, entry in known.get("openings", {}).items() if entry["value"] in (WIN, LOSS))
    done = known.setdefault("checks", {})
    wanted = len(proven) if board.checks is None else min(board.checks, len(proven))
    todo = [first for first in proven if first not in done]
    rng.shuffle(todo)
    for first in todo[: max(0, wanted - len(done))]:
        entry = done[first] = check_opening(board, first, known["openings"][first]["value"])
        save()
        print(f"  {board.title}: {first} checked: {entry}", flush=True)


def check_opening(board: Board, first: str, value: str) -> dict:
    """Whether the verdict `value` (for Black) of Black's first stone on `first` holds when the
    winning side's strategy is played out against every defence through the rules."""
    game = ogames.load(board.game, **board.options)
    state = game.new_state()
    black = state.mover
    state.play(first, t=0.0)
    winner = black if value == WIN else 1 - black
    strategy = solver_strategy(ConnectionSolver(game, table_bits=board.table_bits), board.budget)
    checked = check_win(state, winner, strategy, limit=CHECK_LIMIT, pairing=board.pairing)
    return {
        "method": "strategy+pairing" if board.pairing else "strategy",
        "pairings": checked.pairings,
        "agrees": checked.holds,
        "positions": checked.positions,
        "games": checked.games,
        "seconds": checked.seconds,
        "reason": checked.reason,
        "line": checked.refuted_by,
    }


# ----- the page -----------------------------------------------------------------------------------

GLYPH = {WIN: "W", LOSS: "x", UNKNOWN: "?", UNTRIED: "."}


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
        root_line(report, wins),
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
    untried = [c for o in report.openings if o.value == UNTRIED for c in o.cells]
    if untried:
        lines.append(f"  \nNot tried (the run was stopped first) ({len(untried)}): {' '.join(untried)}")
    lines += [
        "",
        "| first move (and its symmetric copies) | for Black | positions | seconds | second method |",
        "|---|---|---:|---:|---|",
    ]
    for o in report.openings:
        effort = "— | —" if o.value == UNTRIED else f"{o.nodes:,} | {o.seconds:.2f}"
        lines.append(f"| {' '.join(o.cells)} | {o.value} | {effort} | {check_cell(o.check)} |")
    lines += [f"| all classes | | {nodes:,} | {seconds:.2f} | |", "", check_line(report), ""]
    if report.note:
        lines += [report.note, ""]
    return "\n".join(lines)


def check_cell(check: dict | None) -> str:
    if check is None:
        return ""
    if check["agrees"]:
        paired = f", {check['pairings']:,} lines ended by pairing" if check.get("pairings") else ""
        return f"agrees ({check['positions']:,} positions{paired}, {check['seconds']:.0f} s)"
    if check["reason"].startswith("not finished"):
        return f"not finished ({check['reason'].removeprefix('not finished ')}, {check['seconds']:.0f} s)"
    return f"**does not agree**: {check['reason']} after {' '.join(check['line']) or 'the first stone'}"


def check_line(report: Report) -> str:
    """The board's summary of the second method."""
    proven = [o for o in report.openings if o.value in (WIN, LOSS)]
    checked = [o for o in report.openings if o.check is not None]
    if not proven:
        return "Checked by the second method: nothing to check (no class proved)."
    if not checked:
        return f"Not checked by the second method: none of its {len(proven)} proved classes (see below)."
    agree = sum(bool(o.check and o.check["agrees"]) for o in checked)
    unfinished = sum(bool(o.check and o.check["reason"].startswith("not finished")) for o in checked)
    sample = (
        "every proved class"
        if len(checked) == len(proven)
        else f"a random sample of {len(checked)} of the {len(proven)} proved classes"
    )
    line = f"Checked by the second method ({sample}): **{agree} of {len(checked)} agree**"
    return line + (f"; {unfinished} did not finish within the walk's limit." if unfinished else ".")


def root_line(report: Report, wins: list[str]) -> str:
    """What the page says of the empty board: the search from it, or what the first moves prove."""
    proved = f"a **win** for Black: {wins[0]} wins" if wins else None
    if report.root_value is None:
        return "The empty board was not searched as a whole (out of the search's reach); " + (
            f"the table below proves it {proved}." if proved else "no first move was proved either, so its value stays open here."
        )
    line = (
        f"The empty board: **{report.root_value}** for Black"
        + (f" (found {report.root_move})" if report.root_move else "")
        + f", {report.root_nodes:,} positions, {report.root_seconds:.2f} s."
    )
    if report.root_value == UNKNOWN and proved:
        line += f" The search from the empty board ran out of its budget, but the table below proves it {proved}."
    return line


def _board_order(report: Report):
    return report.game.board.index


# ----- Onyx ----------------------------------------------------------------------------------------


def stones_to_connect(state, colour: int) -> int:
    """The fewest stones `colour` (1 Black, 2 White) must still place to join its sides: a
    shortest path through the lattice where its own stones are free and every other point costs
    one stone. The opponent's stones cost one too rather than block, because a capture can empty
    them; so each placement lowers the figure by at most one, and no win can come sooner, whatever
    either side captures."""
    lattice = state.lattice
    goal = (1 | 2) if colour == 1 else (4 | 8)
    start_bit, end_bit = goal & -goal, goal & ~(goal & -goal)
    n = len(state.stones)
    cost = [n + 1] * n
    heap: list[tuple[int, int]] = []
    for cell in range(n):
        if lattice.side_bits[cell] & start_bit:
            cost[cell] = int(state.stones[cell] != colour)
            heapq.heappush(heap, (cost[cell], cell))
    while heap:
        here, cell = heapq.heappop(heap)
        if here > cost[cell]:
            continue
        if lattice.side_bits[cell] & end_bit:
            return here
        for other in lattice.board.neighbours[cell]:
            step = here + int(state.stones[other] != colour)
            if step < cost[other]:
                cost[other] = step
                heapq.heappush(heap, (step, other))
    return n + 1


def onyx_section() -> str:
    from ogames.players.solvers.onyx_tactics import MAX_DEPTH

    game = ogames.load("onyx")
    state = game.new_state()
    open_points = sum(1 for move in state.legal_moves() if move != "swap")
    black, white = stones_to_connect(state, 1), stones_to_connect(state, 2)
    return f"""## Onyx: not solved, and why

Onyx has one board only: the 12 × 12 lattice of [the rules](rules/onyx.md) (`ogames.load('onyx')` takes no size;
its one option is `pie`), {len(game.board)} points, {open_points} of them open for Black's first stone
after the eight set-up stones. There is no smaller Onyx board to solve, and this one is far out of
reach of any exhaustive search here:

- From the set-up Black needs at least **{black}** more stones to join West and East, White at least
  **{white}** to join South and North (the shortest paths through the lattice, own stones free and
  every other point one stone, the opponent's too, since a capture can empty it: `stones_to_connect`
  in the tool). So no game ends before ply
  {2 * black - 1}, and captures (which empty points again) make games longer still: the rules bound
  a game at {game.max_game_length:,} placements.
- Neither solver here proves anything about Onyx's first move. The connection solver does not
  play Onyx (its captures remove stones, which its search over a stones array that only fills
  up does not model); the Onyx tactics solver (`ogames.players.solvers.onyx_tactics`, the one the
  Onyx puzzles use, checked against the rules' own play) handles captures in full but proves
  only wins within {MAX_DEPTH} of the mover's own stones, and no first move can win within fewer
  than {black}.
- A plain exhaustive search over the real `ogames` state, the one method here that handles
  captures in full at any depth, would face a game tree {open_points} moves wide and at least
  {2 * black - 1} plies deep; and there is no tiny Onyx board to run it on without inventing rules
  the game does not have.

So the explorer shows no solver verdicts for Onyx, only the games' statistics.
"""


HEADER = """# Solved small boards

What the connection solver (`ogames.players.solvers.connection.solve`, also the `solver` player)
proves about the first move on small boards of Omny and Odd-Y, with the pie rule off, each verdict
checked again by a second method (every proved class; on Y 8 a random sample of them); and why
Onyx is not solved (the last section).
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
Odd-Y with 3 sides on the triangle is the same game, so the Y tables hold for both. On Y and Odd-Y
the search stops early at *virtual wins*: groups joined to each other and to the sides by disjoint
pairs of empty cells (the bridge, and two cells to a side), so that the opponent's stone in a pair
is answered in the same pair; the player to move loses if the opponent has one, whatever else the
board holds (`src/ogames/players/solvers/virtual_connections.py`). Since Y 8 was tried, the player
to move there also tries only the moves inside every *must-play region*: where one opponent stone
on a cell would give the opponent a virtual win, that cell and the win's pairs, since a stone
anywhere else changes none of it (every first move of Y 7 in 3.0 million positions and 133 s
instead of 40.7 million and 652 s: [must-play.md](../benchmarks/results/must-play.md); the tables
of Y 4–7 were solved before it). Omny's sunder and gyre boards, whose goal is
not a set of sides, are searched without them.

**The second method.** Each proved verdict in the column "second method" was checked again without
trusting the search: the winning side's strategy was played out against *every* defence through the
rules themselves (`ogames.players.solvers.strategy_check`). Where the winner moves, the solver is
only asked which move to play; where the loser moves, every legal move of the rules is tried; a
line counts only when the rules' own result says the winner connected. A verdict agrees when that
walk closes; "positions" there counts the distinct positions of the walked tree. On Y 7 a line may
also end in a *pairing*: the winner holds disjoint pairs of empty cells (proposed by the virtual-win
search, not trusted) such that every full board in which it has one cell of each pair and the
defender every other cell is the winner's by the rules' plain win test, all 2^k boards checked;
answering each intrusion into a pair in that pair then wins, since more stones of one's own never
undo a connection in Y. The tool checks
every proved class of a board, or a random sample where the board asks for one; the line under
each table says which. Each test run also compares the page's verdicts with plain
minimax over the rules (`winner_reference`: no pruning, no table but a memo) on every first move
of Y 4, Odd-Y 5 sides size 2 and Omny sunder 2, and runs the strategy check on one random class
of a mid-sized board (`tests/test_solved_page.py`).

The solver's results are kept in `benchmarks/results/solved-openings.json` as each class finishes,
so a long run can be stopped and resumed, and the page rewritten from them
(`tools/solve_openings.py --page`) without solving again.
"""


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", action="append", help="solve and check only the board(s) with this title (the page is not written)"
    )
    parser.add_argument(
        "--again", action="store_true", help=f"solve the boards again instead of taking what {RESULTS.relative_to(ROOT)} holds"
    )
    parser.add_argument("--no-check", action="store_true", help="leave the second method's checks out")
    parser.add_argument("--page", action="store_true", help="solve and check nothing: write the page from the stored results")
    parser.add_argument("--seed", type=int, help="seed of the checks' random sample (default: a fresh one, stored)")
    parser.add_argument("--print", action="store_true", help="print the page instead of writing docs/solved.md")
    args = parser.parse_args()
    titles = [b.title for b in BOARDS]
    for title in args.only or []:
        if title not in titles:
            parser.error(f"no board titled {title!r}; the boards are: {', '.join(titles)}")
    boards = [b for b in BOARDS if not args.only or b.title in args.only]
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    machine = f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}"

    def save() -> None:
        # Only this run's boards are written over what the file holds now: runs of other boards
        # may go on beside this one.
        on_disk = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        on_disk.update({board.title: results[board.title] for board in boards if board.title in results})
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        partial = RESULTS.with_suffix(f".{os.getpid()}.part")
        partial.write_text(json.dumps(on_disk, indent=1, sort_keys=True) + "\n")
        partial.replace(RESULTS)

    if not args.page:
        # Warm the compiled code so that the first board's times do not include loading it.
        solve(ogames.load("omny", variant="y", size=3).new_state())
        solve(ogames.load("oddy", sides=5, size=2, pie=False).new_state())
        seed = random.SystemRandom().randrange(2**32) if args.seed is None else args.seed
        for board in boards:
            print(board.title, flush=True)
            known = results.setdefault(board.title, {})
            if args.again or known.get("budget") != board.budget or known.get("options") != board.options:
                known.clear()  # solved with other settings: solve again
                known.update(budget=board.budget, options=board.options)
            known["machine"] = machine
            solve_board(board, known, save)
            if not args.no_check:
                known.setdefault("check_seed", seed)
                check_board(board, known, save, random.Random(known["check_seed"]))
    missing = [b.title for b in BOARDS if b.title not in results]
    if args.only and not args.print:
        print(f"solved {', '.join(args.only)} into {RESULTS}; run with --page to write {OUT}")
        return
    if missing:
        raise SystemExit(f"no results yet for {', '.join(missing)}: solve them first (--only TITLE)")
    page = write_page(results)
    if args.print:
        print(page)
    else:
        OUT.write_text(page)
        print(f"wrote {OUT}")


def write_page(results: dict) -> str:
    """The page, from the stored results of every board."""
    machines = sorted({results[b.title].get("machine", "?") for b in BOARDS})
    sections = [section(report_of(board, results[board.title])) for board in BOARDS]
    return HEADER.format(machine=", ".join(machines)) + "\n" + "\n".join(sections) + "\n" + onyx_section()


if __name__ == "__main__":
    main()
