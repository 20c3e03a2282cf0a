"""Write the golden games in tests/golden/: `python tools/make_golden.py` (after a deliberate rule change).

For every conformance case, one seeded random game: its record and the number of legal moves
before every ply (like chess perft files). tests/conformance/test_golden.py replays them, so a
change in any rule shows as a diff of these files.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from tool_cli import Parser

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conformance.cases import CASE_IDS, make  # noqa: E402


def golden_game(case: str) -> dict:
    """One seeded random game of a case, with its legal-move counts per ply."""
    state = make(case).new_state(["ann", "bob", "cat", "dan", "eve", "fay"][: make(case).seat_count])
    rng = random.Random(f"golden:{case}")
    counts, played = [], []
    while not state.is_over:
        moves = state.legal_moves()
        counts.append(len(moves))
        played.append(rng.choice(moves))
        state.play(played[-1], t=float(len(played)))
    return {"case": case, "moves": played, "legal_move_counts": counts, "record": state.record()}


def dump(golden: dict) -> str:
    """One top-level key a line, so that a changed rule shows as a readable diff."""
    lines = [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in golden.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    """Write one file per case."""
    Parser(description=__doc__.splitlines()[0]).parse_args()  # no options: a stray one is refused, --help helps
    folder = ROOT / "tests" / "golden"
    folder.mkdir(exist_ok=True)
    for case in CASE_IDS:
        path = folder / f"{case}.json"
        path.write_text(dump(golden_game(case)), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
