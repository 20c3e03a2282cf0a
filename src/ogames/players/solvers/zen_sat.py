"""The zen completion question as a SAT formula (python-sat), decided by CaDiCaL.

Variables:
- `design[cell, d]`: the cell holds design d of its colour; `turned[cell]`: the card lies turned;
- `printed[cell, slot, value]` / `side[cell, slot, value]`: what the card has on one side as printed
  and as it lies — `left`/`right` hue (A, B), `top`/`bottom` seam (/, \\, ^, v).
Clauses:
- every cell holds at least one design (several true ones only use up more designs and clash on
  the printed sides, so the formula is satisfiable exactly when a layout exists);
- a design fixes the printed sides; each side shows at most one value; a side as it lies is the
  printed one, or, turned, the opposite printed side turned over (^ becomes v); turning off forbids turned;
- each design is used at most once per colour (a sequential-counter cardinality encoding);
- neighbours fit: the right hue of a card is the left hue of its right neighbour, the top seam of a
  card is the bottom seam of the card above (a side's value implies the neighbour's).
A design variable per cell plus one "turned" bit (rather than one variable per face) keeps the
formula small; CaDiCaL settles every form of the project, and 36-card blocks, in about a second.
No symmetry breaking is needed at these sizes. The answer is checked either way: a model is
decoded into a witness that `solver.check_witness` re-checks cell by cell; "unsatisfiable" comes
with the solver's refutation on request, which `check_rup_proof` re-checks by unit propagation,
and the tests compare both answers with brute force on small instances.
"""

from __future__ import annotations

from collections.abc import Mapping

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from ogames.rules.omiga.cards import HUES, CardSet, Face

Cell = tuple[int, int]
SEAMS = ("/", "\\", "^", "v")
SOLVER_NAME = "cadical153"
# A seam turned over, taken from the card rules themselves (^ becomes v, diagonals stay).
_TURN = {seam: Face("A", "A", "/", seam).turned().top for seam in SEAMS}
_SLOTS = {"left": HUES, "right": HUES, "top": SEAMS, "bottom": SEAMS}
# For each side as it lies on a turned card: which printed side it comes from, and how its value changes.
_TURNED_FROM = {
    "left": ("right", {h: h for h in HUES}),
    "right": ("left", {h: h for h in HUES}),
    "top": ("bottom", {s: _TURN[s] for s in SEAMS}),
    "bottom": ("top", {s: _TURN[s] for s in SEAMS}),
}


class Formula:
    """The clauses for one form and card set, with the variable map needed to decode a model."""

    def __init__(self, cells: Mapping[Cell, str], cards: CardSet):
        self.cells = dict(cells)
        self.cards = cards
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self._build()

    def _var(self, key: tuple[object, ...]) -> int:
        """The variable numbered for `key` (python-sat has no type hints: its ids are ints)."""
        number: int = self.pool.id(key)
        return number

    def design(self, cell: Cell, d: int) -> int:
        """The variable 'cell holds design d'."""
        return self._var(("d", cell, d))

    def turned(self, cell: Cell) -> int:
        """The variable 'the card on cell is turned 180°'."""
        return self._var(("t", cell))

    def printed(self, cell: Cell, slot: str, value: str) -> int:
        """The variable 'the card on cell has value on side slot as printed'."""
        return self._var(("p", cell, slot, value))

    def side(self, cell: Cell, slot: str, value: str) -> int:
        """The variable 'the card on cell shows value on side slot as it lies'."""
        return self._var(("s", cell, slot, value))

    def _build(self) -> None:
        add = self.clauses.append
        for cell in self.cells:
            add([self.design(cell, d) for d in range(len(self.cards))])
            for d, face in enumerate(self.cards.designs):
                for slot in _SLOTS:
                    add([-self.design(cell, d), self.printed(cell, slot, getattr(face, slot))])
            t = self.turned(cell)
            if not self.cards.turning:
                add([-t])
            for slot, choices in _SLOTS.items():
                for i, a in enumerate(choices):
                    for b in choices[i + 1 :]:
                        add([-self.printed(cell, slot, a), -self.printed(cell, slot, b)])
                        add([-self.side(cell, slot, a), -self.side(cell, slot, b)])
                # As it lies: the printed side when not turned, the opposite printed side turned over when turned.
                other, flip = _TURNED_FROM[slot]
                for value in choices:
                    lies, straight = self.side(cell, slot, value), self.printed(cell, slot, value)
                    over = self.printed(cell, other, flip[value])
                    add([t, -straight, lies])
                    add([t, straight, -lies])
                    add([-t, -over, lies])
                    add([-t, over, -lies])
        for colour in set(self.cells.values()):
            mine = [c for c, col in self.cells.items() if col == colour]
            for d in range(len(self.cards)):
                lits = [self.design(c, d) for c in mine]
                if len(lits) > 1:
                    self.clauses.extend(CardEnc.atmost(lits, bound=1, vpool=self.pool, encoding=EncType.seqcounter).clauses)
        for col, row in self.cells:
            right, above = (col + 1, row), (col, row + 1)
            if right in self.cells:
                for hue in HUES:
                    add([-self.side((col, row), "right", hue), self.side(right, "left", hue)])
            if above in self.cells:
                for seam in SEAMS:
                    add([-self.side((col, row), "top", seam), self.side(above, "bottom", seam)])

    def decode(self, model: list[int]) -> dict[Cell, tuple[int, Face]]:
        """One (design, face) per cell from a satisfying assignment (the first true design)."""
        true = {v for v in model if v > 0}
        out: dict[Cell, tuple[int, Face]] = {}
        for cell in self.cells:
            d = next(d for d in range(len(self.cards)) if self.design(cell, d) in true)
            face = self.cards.designs[d]
            out[cell] = (d, face.turned() if self.turned(cell) in true else face)
        return out


def sat_solve(
    cells: Mapping[Cell, str], cards: CardSet, conflicts: int | None = None, proof: bool = False
) -> tuple[bool | None, dict[Cell, tuple[int, Face]], int, list[str]]:
    """Decide a form: (True, witness, …) if a layout exists, (False, {}, …) if none, (None, {}, …) out of budget.

    The third item is the number of conflicts used; the fourth, when `proof` is asked for and the answer
    is "none", the solver's DRUP/DRAT proof lines, checkable against `Formula(cells, cards).clauses`."""
    formula = Formula(cells, cards)
    with Solver(name=SOLVER_NAME, bootstrap_with=formula.clauses, with_proof=proof) as solver:
        if conflicts is None:
            answer = solver.solve()
        else:
            solver.conf_budget(conflicts)
            answer = solver.solve_limited()
        used = int(solver.accum_stats().get("conflicts", 0))
        if answer:
            return True, formula.decode(solver.get_model()), used, []
        lines = list(solver.get_proof() or []) if proof and answer is False else []
        return answer, {}, used, lines


def check_rup_proof(clauses: list[list[int]], proof: list[str]) -> str | None:
    """What is wrong with a refutation, or None if every lemma follows by unit propagation (RUP) and the
    empty clause is derived. Deletions are ignored: keeping clauses that are implied anyway is sound.
    Plain Python and slow: meant for small instances, independently of the solver."""
    known = [list(c) for c in clauses]
    for number, line in enumerate(proof, 1):
        words = line.split()
        if not words or words[0] == "d":
            continue
        lemma = [int(w) for w in words]
        if lemma[-1] != 0:
            return f"proof line {number} does not end in 0: {line!r}"
        lemma = lemma[:-1]
        if not _propagation_conflict(known, [-lit for lit in lemma]):
            return f"proof line {number} ({line!r}) does not follow by unit propagation"
        if not lemma:
            return None
        known.append(lemma)
    return "the proof never derives the empty clause"


def _propagation_conflict(clauses: list[list[int]], assumptions: list[int]) -> bool:
    """Whether unit propagation from the assumptions over the clauses reaches a conflict."""
    value: dict[int, bool] = {}
    for lit in assumptions:
        if value.get(abs(lit), lit > 0) != (lit > 0):
            return True
        value[abs(lit)] = lit > 0
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            open_lit = 0  # no literal is 0: the one open literal, once count is 1
            count = 0
            for lit in clause:
                v = value.get(abs(lit))
                if v is None:
                    open_lit, count = lit, count + 1
                    if count > 1:
                        break
                elif v == (lit > 0):
                    break
            else:
                if count == 0:
                    return True
                value[abs(open_lit)] = open_lit > 0
                changed = True
    return False
