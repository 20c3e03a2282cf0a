"""How far can the review's win chance be trusted? Its calibration against self-play outcomes.

    nice -n 10 .venv/bin/python benchmarks/bench_review_calibration.py            # 200 games, writes the results
    nice -n 10 .venv/bin/python benchmarks/bench_review_calibration.py --players 3  # Omega with 3 players (or 4)
    .venv/bin/python benchmarks/bench_review_calibration.py --games 12 --dry       # a quick look, nothing written

Self-play at the review's budget (`mcts:iterations=BUDGET`, the arena's self-play: one player in
every seat, records saved under `--folder` so that an interrupted run resumes), on small boards so
that it fits a shared machine: Omny (Y, size 6) and Odd-Y (5 sides, size 4) without the pie rule
from random one-stone openings (with the pie rule these games turn on the first stone and the
swap), two-player Omega on hexagon 4 and Onyx (its one board; fewer games: about 70 moves each).
Each game is then reviewed at the same budget without the solver's proofs, so that every figure
is the search's raw win chance, and every position before the end gives one point per seat: (raw
chance, 1 if that seat won, else 0).

The fit: the points binned by raw chance (BINS equal bins), each bin's observed frequency, made
monotone by isotonic regression weighted by the bins' counts (scipy), kept as the points (bin's
mean raw chance, fitted frequency) in `src/ogames/teach/calibration.json`. The marks' thresholds
come from the same games: every self-play move's loss of calibrated win chance as the review
measures it, and a mark is a loss that this very player (the review's own search) makes rarely —
an inaccuracy at its 90th percentile, a mistake at its 97.5th, a blunder at its 99.5th — with
floors of 0.05, 0.10 and 0.20 so that noise alone never marks a move.

With `--players 3` or `4` only Omega is played, with that many players on hexagon 4 (every game
`--games`, each position one point per seat, a seat's share of wins being about 1/players): its
curve and thresholds are fitted alike and kept under `"players"` in the data, beside the
two-player ones, which that run leaves as they are (and a two-player run keeps the others').

Written: the calibration data, `docs/images/review-calibration.svg` (expected against observed
per bin, with 95% Wilson intervals; `review-calibration-omega-N.svg` for N players) and
`benchmarks/results/review-calibration.md` (the table; one section per player count of Omega).
Points of one game are not independent (one game's positions share its outcome): the intervals
are narrower than they should be; the game count is the honest sample size.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt
import numpy as np
from scipy.optimize import isotonic_regression

from ogames.arena import tournament as arena
from ogames.arena.shares import wilson
from ogames.records import load_file, replay
from ogames.teach.calibration import IDENTITY, Calibration
from ogames.teach.review import DEFAULT_BUDGET, review

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "ogames" / "teach" / "calibration.json"
SVG = ROOT / "docs" / "images" / "review-calibration.svg"
TABLE = ROOT / "benchmarks" / "results" / "review-calibration.md"
BINS = 10
COLOURS = ("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad")
PERCENTILES = {"inaccuracy": (90.0, 0.05), "mistake": (97.5, 0.10), "blunder": (99.5, 0.20)}
# (game, options, share of the games, random opening plies)
BOARDS: list[tuple[str, dict[str, Any], float, int]] = [
    ("omny", {"variant": "y", "size": 6, "pie": False}, 0.35, 1),
    ("oddy", {"sides": 5, "size": 4, "pie": False}, 0.30, 1),
    ("omega", {"players": 2, "size": 4}, 0.25, 0),
    ("onyx", {}, 0.10, 0),
]


@dataclass
class Points:
    """One game's points (or all games' together, `merged`)."""

    raw: list[float] = field(default_factory=list)
    won: list[float] = field(default_factory=list)
    moves: list[tuple[float, float]] = field(default_factory=list)  # each move's raw (before, after) for its mover
    games: int = 0
    budget: int = DEFAULT_BUDGET


def merged(parts: list[Points]) -> Points:
    whole = Points(budget=parts[0].budget)
    for part in parts:
        whole.raw += part.raw
        whole.won += part.won
        whole.moves += part.moves
        whole.games += part.games
    return whole


def selfplay(game: str, options: dict[str, Any], games: int, budget: int, folder: Path, seed: int, opening: int) -> list[Path]:
    """Play (or resume) the self-play games and return their record files."""
    seats = int(options.get("players", 2))
    t = arena.plan(game, options, [f"mcts:iterations={budget}"] * seats, games_per_pair=games, seed=seed,
                   opening_plies=opening)
    t.purpose = "selfplay"
    started = time.perf_counter()
    arena.run(t, folder, workers=1, resume=(folder / "tournament.json").exists())
    print(f"  {game} {options}: {games} games played in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return sorted((folder / arena.GAMES).glob("*.json"))


def collect(paths: list[Path], budget: int, into: Points) -> None:
    """Review every game raw (no proofs, no calibration) and add its points; each game's points are
    kept in the folder's `points-BUDGET.json` as it is reviewed, so that a folder already (or
    partly) reviewed at this budget is read back and only the new games are reviewed."""
    if not paths:
        return
    cache = paths[0].parent.parent / f"points-{budget}.json"
    saved = json.loads(cache.read_text()) if cache.exists() else {}
    if "raw" in saved:  # the whole folder's points at once, as this bench first kept them
        if saved["games"] == len(paths):
            into.raw += saved["raw"]
            into.won += saved["won"]
            into.moves += [(a, b) for a, b in saved["moves"]]
            into.games += saved["games"]
            return
        saved = {}
    per_game: dict[str, Any] = saved.get("per_game", {})
    for path in paths:
        if path.name not in per_game:
            per_game[path.name] = game_points(path, budget)
            cache.write_text(json.dumps({"per_game": per_game}))
        part = per_game[path.name]
        into.raw += part["raw"]
        into.won += part["won"]
        into.moves += [(a, b) for a, b in part["moves"]]
        into.games += 1


def game_points(path: Path, budget: int) -> dict[str, list[Any]]:
    """One game's points: every position before the end, one per seat (raw chance, 1 if that seat
    won), and each move's raw (before, after) for its mover."""
    record = load_file(path)
    final = replay(record)
    result = review(record, budget=budget, prove=0, calibrated=IDENTITY)
    rewards = final.rewards()
    moves = []
    for move in result.moves:
        assert move.before is not None and move.after is not None
        moves.append((move.before, move.after))
    raw, won = [], []
    # Every position before the end: the start and after each move but the last.
    for chances in [result.start] + [move.chances for move in result.moves[:-1]]:
        for seat, chance in enumerate(chances):
            raw.append(chance)
            won.append(rewards[seat])
    return {"raw": raw, "won": won, "moves": moves}


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int
    mean_raw: float
    observed: float
    fitted: float


def fit(points: Points) -> tuple[list[Bin], Calibration]:
    """The binned, isotonic curve of one game's points (thresholds left at 0: `thresholds`)."""
    raw, won = np.array(points.raw), np.array(points.won)
    edges = np.linspace(0.0, 1.0, BINS + 1)
    index = np.clip(np.digitize(raw, edges[1:-1]), 0, BINS - 1)
    kept = [b for b in range(BINS) if (index == b).any()]
    counts = np.array([(index == b).sum() for b in kept], dtype=float)
    means = np.array([raw[index == b].mean() for b in kept])
    observed = np.array([won[index == b].mean() for b in kept])
    fitted = isotonic_regression(observed, weights=counts).x
    bins = [Bin(edges[b], edges[b + 1], int(n), float(m), float(o), float(f))
            for b, n, m, o, f in zip(kept, counts, means, observed, fitted, strict=True)]
    curve = tuple((round(b.mean_raw, 4), round(b.fitted, 4)) for b in bins)
    return bins, Calibration(curve, 0.0, 0.0, 0.0, points.budget, points.games)


def thresholds(fitted: dict[str, tuple[Points, Calibration]]) -> dict[str, float]:
    """The marks' thresholds from every game's self-play losses, each through its game's curve."""
    losses = np.concatenate([calibrated_losses(points, cal) for points, cal in fitted.values()])
    return {name: max(floor, float(np.percentile(losses, q))) for name, (q, floor) in PERCENTILES.items()}


def calibrated_losses(points: Points, cal: Calibration) -> Any:
    """Every self-play move's loss of its mover's calibrated win chance, as the review marks it."""
    return np.array([max(0.0, cal(before) - cal(after)) for before, after in points.moves])


def plot(fitted: dict[str, list[Bin]], games: int, budget: int, path: Path, what: str = "") -> None:
    fig, ax = plt.subplots(figsize=(5.6, 5.6))
    ax.plot([0, 1], [0, 1], color="#999999", linestyle="--", linewidth=1, label="perfect calibration")
    for (name, bins), colour, marker in zip(fitted.items(), COLOURS, "osD^v", strict=False):
        observed = [b.observed for b in bins]
        low = [max(0.0, o - wilson(o * b.count, b.count)[0]) for o, b in zip(observed, bins, strict=True)]
        high = [max(0.0, wilson(o * b.count, b.count)[1] - o) for o, b in zip(observed, bins, strict=True)]
        ax.errorbar([b.mean_raw for b in bins], observed, yerr=[low, high], fmt=marker, color=colour, capsize=2,
                    markersize=4, label=f"{name}: observed (95% Wilson)")
        ax.plot([b.mean_raw for b in bins], [b.fitted for b in bins], color=colour, linewidth=1, alpha=0.8)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("the search's raw win chance (mean per bin)")
    ax.set_ylabel("observed share of wins")
    ax.set_title(f"{what or 'Review calibration'}: {games} self-play games, {budget} iterations", fontsize=10)
    ax.legend(loc="upper left", fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def table(fitted: dict[str, tuple[Points, list[Bin], Calibration]], marks: dict[str, float], boards: list[str],
          seconds: float, title: str = "# Review calibration", svg: Path = SVG) -> str:
    whole = merged([points for points, _, _ in fitted.values()])
    sub = "#" if title.startswith("## ") else ""  # a section of the table: its headings one level down
    lines = [
        title,
        "",
        f"Written by `benchmarks/bench_review_calibration.py`: {whole.games} self-play games of "
        f"`mcts:iterations={whole.budget}` ({'; '.join(boards)}), each reviewed at the same budget without proofs; "
        f"{len(whole.raw):,} points (every position before the end, one per seat). {seconds:.0f} s for this run on a "
        "shared, loaded machine (times indicative only; games and reviews saved under --folder are read back, not redone). "
        f"The plot: docs/images/{svg.name}.",
        "",
    ]
    for name, (points, bins, cal) in fitted.items():
        raw, won = np.array(points.raw), np.array(points.won)
        brier_raw = float(np.mean((raw - won) ** 2))
        brier_cal = float(np.mean((np.array([cal(x) for x in raw]) - won) ** 2))
        lines += [
            f"{sub}## {name}: {points.games} games, {len(raw):,} points",
            "",
            "| raw win chance | points | mean raw | observed | 95% Wilson | isotonic fit |",
            "|---|---:|---:|---:|---|---:|",
        ]
        for b in bins:
            lo, hi = wilson(b.observed * b.count, b.count)
            lines.append(f"| {b.low:.1f}–{b.high:.1f} | {b.count:,} | {b.mean_raw:.3f} | {b.observed:.3f} | "
                         f"{lo:.3f}–{hi:.3f} | {b.fitted:.3f} |")
        lines += ["", f"Brier score: raw {brier_raw:.4f}, calibrated {brier_cal:.4f} (in-sample).", ""]
    losses = np.concatenate([calibrated_losses(points, cal) for points, _, cal in fitted.values()])
    lines += [
        f"{sub}## The marks' thresholds",
        "",
        "Loss of the mover's calibrated win chance, from the losses of the "
        f"{len(losses):,} self-play moves as the review measured them (median {np.median(losses):.3f}, "
        f"90th percentile {np.percentile(losses, 90):.3f}, 99th {np.percentile(losses, 99):.3f}; moves the review "
        "finds best are marked good whatever their loss):",
        "",
        "| mark | percentile of self-play losses | floor | threshold |",
        "|---|---:|---:|---:|",
    ]
    for name, (q, floor) in PERCENTILES.items():
        lines.append(f"| {name} | {q} | {floor} | {marks[name]:.3f} |")
    lines += ["", "Points of one game share its outcome, so the intervals are narrower than an independent sample's.", ""]
    return "\n".join(lines)


def data_text(data: dict[str, Any]) -> str:
    """The calibration's JSON, one curve a line (the other player counts' too)."""

    def curves(named: dict[str, Any], indent: str) -> str:
        return ",\n".join(f"{indent}{json.dumps(name)}: {json.dumps(points)}" for name, points in named.items())

    head = {key: value for key, value in data.items() if key not in ("curves", "players")}
    body = ",\n".join(f" {json.dumps(key)}: {json.dumps(value)}" for key, value in head.items())
    text = f"{{\n{body},\n \"curves\": {{\n{curves(data['curves'], '  ')}\n }}"
    if data.get("players"):
        counts = []
        for count, part in sorted(data["players"].items()):
            inner = ",\n".join(f"   {json.dumps(key)}: {json.dumps(value)}" for key, value in part.items() if key != "curves")
            named = curves(part["curves"], "    ")
            counts.append(f"  {json.dumps(count)}: {{\n{inner},\n   \"curves\": {{\n{named}\n   }}\n  }}")
        text += ",\n \"players\": {\n" + ",\n".join(counts) + "\n }"
    return text + "\n}\n"


PLAYERS_HEADING = "## Omega with {} players"


def sections_of(text: str) -> tuple[str, dict[int, str]]:
    """The table's two-player part and its sections of Omega with more players, by player count."""
    start = PLAYERS_HEADING.split("{")[0]
    head, *parts = text.split("\n" + start)
    return head.rstrip("\n"), {int(part.split(" ", 1)[0]): start + part.rstrip("\n") for part in parts}


def with_section(text: str, count: int, section: str) -> str:
    """The table `text` with its section of Omega with `count` players replaced by `section` (or
    added; the sections in order of their player count)."""
    head, sections = sections_of(text)
    sections[count] = section.rstrip("\n")
    return "\n\n".join([head] + [sections[n] for n in sorted(sections)]) + "\n"


Fitted = dict[str, tuple[Points, list[Bin], Calibration]]


def run(boards: list[tuple[str, dict[str, Any], float, int]], args: argparse.Namespace) -> tuple[Fitted, list[str]]:
    """Play (or resume) and review every board's games; each game's points, bins and curve, and the
    boards' names for the table."""
    found: Fitted = {}
    names = []
    for game, options, share, opening in boards:
        games = max(2, round(args.games * share / 2) * 2)
        names.append(f"{games} {game} {', '.join(f'{k}={v}' for k, v in options.items())}")
        folder = args.folder / f"{game}-{'-'.join(f'{k}{v}' for k, v in options.items())}-{args.budget}"
        paths = selfplay(game, options, games, args.budget, folder, args.seed, opening)
        points = Points(budget=args.budget)
        collect(paths, args.budget, points)
        print(f"  reviewed; {len(points.raw):,} points", file=sys.stderr)
        bins, cal = fit(points)
        found[game] = (points, bins, cal)
    return found, names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                        help="2: every game's two-player curve; 3 or 4: Omega's with that many players")
    parser.add_argument("--folder", type=Path, default=Path("/tmp/ogames-review-calibration"))
    parser.add_argument("--dry", action="store_true", help="print the table, write nothing")
    args = parser.parse_args()
    started = time.perf_counter()
    count = args.players
    boards = BOARDS if count == 2 else [("omega", {"players": count, "size": 4}, 1.0, 0)]
    found, names = run(boards, args)
    marks = thresholds({name: (points, cal) for name, (points, _, cal) in found.items()})
    svg = SVG if count == 2 else SVG.with_name(f"review-calibration-omega-{count}.svg")
    title = "# Review calibration" if count == 2 else PLAYERS_HEADING.format(count)
    text = table(found, marks, names, time.perf_counter() - started, title, svg)
    print(text)
    if args.dry:
        return
    old = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {}
    old_table = TABLE.read_text(encoding="utf-8") if TABLE.exists() else ""
    games = sum(points.games for points, _, _ in found.values())
    curves = {name: [list(p) for p in cal.points] for name, (_, _, cal) in found.items()}
    rounded = {name: round(value, 4) for name, value in marks.items()}
    if count == 2:
        data = {
            "note": "written by benchmarks/bench_review_calibration.py (docs/review.md): isotonic fits of self-play outcomes",
            "budget": args.budget, "games": games, "thresholds": rounded, "curves": curves,
            "players": old.get("players", {}),
        }
        for n, section in sections_of(old_table)[1].items():
            text = with_section(text, n, section)
    else:
        if old.get("budget") != args.budget:
            sys.exit(f"the shipped two-player curves were measured at {old.get('budget')} iterations, not {args.budget}")
        data = dict(old)
        data["players"] = {**old.get("players", {}), str(count): {"games": games, "thresholds": rounded, "curves": curves}}
        text = with_section(old_table, count, text)
    DATA.write_text(data_text(data), encoding="utf-8")
    plot({name: bins for name, (_, bins, _) in found.items()}, games, args.budget, svg,
         "" if count == 2 else f"Omega with {count} players")
    TABLE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
