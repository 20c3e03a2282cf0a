"""A tournament's Elo table on disk: `elo.json` (ratings, intervals, pairwise tallies), `elo.csv`
and `elo.png` (Elo with its 95% interval per entrant, drawn with matplotlib's Agg backend)."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

from ogames.arena.elo import EloTable
from ogames.arena.tournament import Summary, write_atomic

CSV_FIELDS = ("rank", "name", "games", "points", "pairwise_games", "score", "elo", "low", "high")


def table_json(summary: Summary) -> dict:
    """The table with the tournament it rates (game, options, games saved)."""
    t = summary.tournament
    return {
        "game": t.game,
        "options": t.settled,
        "games": len(summary.outcomes),
        "scheduled": len(t.pairings),
        "unfinished": summary.unfinished,
        **summary.table.to_json(),
    }


def table_csv(table: EloTable) -> str:
    """One line per entrant, best first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for rank, r in enumerate(table.ranked(), 1):
        figures = [_num(r.score, 4), _num(r.elo, 1), _num(r.low, 1), _num(r.high, 1)]
        writer.writerow([rank, r.name, r.games, f"{r.points:g}", r.meetings, *figures])
    return out.getvalue()


def _num(value: float, digits: int) -> str:
    return f"{value:.{digits}f}" if math.isfinite(value) else ""


def plot(table: EloTable, path: Path, title: str) -> None:
    """Elo with 95% error bars, best at the top."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    ranked = [r for r in reversed(table.ranked())]
    figure = Figure(figsize=(8, 1.2 + 0.5 * len(ranked)), dpi=120, layout="constrained")
    ax = figure.add_subplot()
    y = list(range(len(ranked)))
    elo = [r.elo for r in ranked]
    low = [r.elo - r.low if math.isfinite(r.low) else 0.0 for r in ranked]
    high = [r.high - r.elo if math.isfinite(r.high) else 0.0 for r in ranked]
    ax.errorbar(elo, y, xerr=[low, high], fmt="o", color="#1f5fa8", ecolor="#7a9cc6", elinewidth=2, capsize=4)
    ax.axvline(0.0, color="#999999", linewidth=0.8, linestyle="--")
    ax.set_yticks(y, [f"{r.name}  ({r.points:g}/{r.meetings})" for r in ranked])
    ax.set_xlabel("Elo (mean 0), 95% interval")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax.margins(y=0.5 / max(1, len(ranked)))
    figure.savefig(path)


def write_reports(summary: Summary, folder: str | Path) -> dict[str, Path]:
    """Write elo.json, elo.csv and elo.png into the folder; their paths by kind."""
    folder = Path(folder)
    paths = {"json": folder / "elo.json", "csv": folder / "elo.csv", "png": folder / "elo.png"}
    write_atomic(paths["json"], json.dumps(table_json(summary), indent=2, ensure_ascii=False) + "\n")
    write_atomic(paths["csv"], table_csv(summary.table))
    t = summary.tournament
    shown = ", ".join(f"{k}={v}" for k, v in t.settled.items() if v is not None)
    title = f"{t.game} {shown}\n{len(summary.outcomes)} games · {summary.table.method}"
    plot(summary.table, paths["png"], title)
    return paths
