"""Can a zen form be completed at all? An exact search over distinct cards and their faces.

The question ignores the order of drawing: is there a way to give every cell of the form a card
of the cell's colour — each design at most once per colour — and a face (as printed, or turned
180° when the card set allows it) so that every pair of orthogonal neighbours fits?

The answer is proved either way:
- "impossible" by a counting lemma (a colour asks for more cells than a deck has designs) or by
  the SAT solver finding the formula of `sat.py` unsatisfiable (with `proof=True` it also returns
  the refutation, which `sat.check_rup_proof` re-checks by unit propagation on its own);
- "possible" with a witness: a face and a design for every cell, which `check_witness` re-checks
  against the fit rules cell by cell.
`search_solve` is the older exact depth-first search (most-constrained cell first, forward
checking), kept as an independent second opinion for the tests; it runs out of budget on large
forms such as a 2 × 18 one-colour block, which the SAT solver settles in a fraction of a second.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ogames.players.solvers.zen_sat import sat_solve
from ogames.rules.omiga.cards import STANDARD, CardSet, Face, fits_above, fits_beside
from ogames.wording import say

Cell = tuple[int, int]


@dataclass
class Verdict:
    """The solver's answer: status "possible", "impossible" or "unknown" (out of budget), with why."""

    status: str
    reason: str
    nodes: int = 0  # search nodes (search_solve) or SAT conflicts (solve)
    witness: dict[Cell, tuple[int, Face]] = field(default_factory=dict)
    proof: list[str] = field(default_factory=list)  # the SAT refutation, when asked for

    @property
    def proved(self) -> bool:
        """Whether the status is a proof (not "unknown")."""
        return self.status in ("possible", "impossible")


FOUND = say("zen-found", "a fitting layout was found")


def counting_lemma(cells: Mapping[Cell, str], cards: CardSet = STANDARD) -> str | None:
    """Why the form cannot be completed by counting alone, or None: each colour's deck holds each
    design once, so a colour cannot fill more cells than there are designs."""
    for colour in ("white", "black"):
        wanted = sum(1 for c in cells.values() if c == colour)
        if wanted > len(cards):
            return say("zen-count", "{wanted} {colour} cells but a {colour} deck holds only {n} different cards", wanted=wanted,
                       colour=colour, n=len(cards))
    return None


class _Search:
    def __init__(self, cells: Mapping[Cell, str], cards: CardSet, budget: int):
        self.cards = cards
        self.order = sorted(cells)
        self.index = {cell: i for i, cell in enumerate(self.order)}
        self.colour = [cells[cell] for cell in self.order]
        # Every (design, face) option once; faces identical under turning appear once.
        self.options = [(d, face) for d in range(len(cards)) for face in cards.faces(d)]

        def at(col: int, row: int) -> int:
            return self.index.get((col, row), -1)

        # Neighbours as indices: left, right, below, above (−1 where the form has no cell).
        self.left = [at(c - 1, r) for c, r in self.order]
        self.right = [at(c + 1, r) for c, r in self.order]
        self.below = [at(c, r - 1) for c, r in self.order]
        self.above = [at(c, r + 1) for c, r in self.order]
        self.faces: list[Face | None] = [None] * len(self.order)
        self.designs: list[int] = [-1] * len(self.order)
        self.used = {"white": 0, "black": 0}
        self.nodes = 0
        self.budget = budget
        self.out_of_budget = False

    def candidates(self, i: int) -> list[tuple[int, Face]]:
        """(design, face) options that fit every placed neighbour of cell i and are still unused."""
        used = self.used[self.colour[i]]
        lf = self.faces[self.left[i]] if self.left[i] >= 0 else None
        rf = self.faces[self.right[i]] if self.right[i] >= 0 else None
        bf = self.faces[self.below[i]] if self.below[i] >= 0 else None
        af = self.faces[self.above[i]] if self.above[i] >= 0 else None
        out = []
        for design, face in self.options:
            if used >> design & 1:
                continue
            if lf is not None and lf.right != face.left:
                continue
            if rf is not None and face.right != rf.left:
                continue
            if bf is not None and bf.top != face.bottom:
                continue
            if af is not None and face.top != af.bottom:
                continue
            out.append((design, face))
        return out

    def neighbours(self, i: int) -> tuple[int, ...]:
        return tuple(j for j in (self.left[i], self.right[i], self.below[i], self.above[i]) if j >= 0)

    def run(self) -> bool:
        """Depth-first search; True when every cell holds a card."""
        open_cells = [i for i in range(len(self.order)) if self.faces[i] is None]
        if not open_cells:
            return True
        self.nodes += 1
        if self.nodes > self.budget:
            self.out_of_budget = True
            return False
        # Most constrained open cell first; ties go to cells touching placed ones (more propagation).
        best, best_options = -1, None
        for i in open_cells:
            options = self.candidates(i)
            if best_options is None or len(options) < len(best_options):
                best, best_options = i, options
                if not options:
                    return False
        assert best_options is not None
        colour = self.colour[best]
        for design, face in best_options:
            self.faces[best], self.designs[best] = face, design
            self.used[colour] |= 1 << design
            if all(self.faces[j] is not None or self.candidates(j) for j in self.neighbours(best)) and self.run():
                return True
            self.used[colour] &= ~(1 << design)
            self.faces[best], self.designs[best] = None, -1
            if self.out_of_budget:
                return False
        return False


def solve(cells: Mapping[Cell, str], cards: CardSet = STANDARD, conflicts: int | None = None, proof: bool = False) -> Verdict:
    """Decide whether a form (cell → colour) can be completed with one deck of each colour (counting, then SAT)."""
    reason = counting_lemma(cells, cards)
    if reason:
        return Verdict("impossible", reason)
    answer, witness, used, refutation = sat_solve(cells, cards, conflicts, proof)
    if answer:
        problem = check_witness(cells, witness, cards)
        if problem:  # pragma: no cover - a wrong model would be a bug in the encoding
            raise AssertionError(problem)
        return Verdict("possible", FOUND, used, witness)
    if answer is None:
        return Verdict("unknown", say("zen-sat-budget", "no answer within {n} SAT conflicts", n=conflicts), used)
    refuted = say("zen-sat-refuted", "SAT solver: the fit and one-card-per-design clauses are unsatisfiable")
    return Verdict("impossible", refuted, used, proof=refutation)


def search_solve(cells: Mapping[Cell, str], cards: CardSet = STANDARD, budget: int = 200_000) -> Verdict:
    """The same question by exact depth-first search (a second opinion; may run out of budget)."""
    reason = counting_lemma(cells, cards)
    if reason:
        return Verdict("impossible", reason)
    search = _Search(cells, cards, budget)
    if search.run():
        witness = {cell: (search.designs[i], search.faces[i]) for i, cell in enumerate(search.order)}
        problem = check_witness(cells, witness, cards)  # type: ignore[arg-type]
        if problem:  # pragma: no cover - the search only builds fitting layouts
            raise AssertionError(problem)
        return Verdict("possible", FOUND, search.nodes, witness)  # type: ignore[arg-type]
    if search.out_of_budget:
        return Verdict("unknown", say("zen-search-budget", "no answer within {n} search nodes", n=budget), search.nodes)
    return Verdict("impossible", say("zen-exhausted", "exhaustive search: no fitting layout exists"), search.nodes)


def check_witness(cells: Mapping[Cell, str], witness: Mapping[Cell, tuple[int, Face]], cards: CardSet = STANDARD) -> str | None:
    """What is wrong with a claimed completion, or None: every cell covered by a distinct card of its
    colour, laid in one of the card's faces, fitting its right and upper neighbours."""
    if set(witness) != set(cells):
        return "the witness does not cover exactly the form's cells"
    seen: set[tuple[str, int]] = set()
    for cell, (design, face) in witness.items():
        key = (cells[cell], design)
        if key in seen:
            return f"{cells[cell]} design {design} is used twice"
        seen.add(key)
        if face not in cards.faces(design):
            return f"cell {cell}: {face.code} is not a face of design {design}"
        col, row = cell
        right, above = (col + 1, row), (col, row + 1)
        if right in witness and not fits_beside(face, witness[right][1]):
            return f"cells {cell} and {right} do not fit side by side"
        if above in witness and not fits_above(face, witness[above][1]):
            return f"cells {cell} and {above} do not fit one above the other"
    return None
