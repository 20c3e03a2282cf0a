"""Does each level of `mcts` beat the one below it? A tournament per adjacent pair and game.

    .venv/bin/python benchmarks/bench_levels.py --games 20 --markdown docs/levels-table.md
    .venv/bin/python benchmarks/bench_levels.py --only omega3 --low 5 --games 12

For every game of BOARDS and every pair (N, N + 1) the arena's tournament machinery
(`ogames.arena.tournament.plan` / `run`, one worker) plays a fixed number of games, seats
alternating (three-player Omega: level N + 1 against two copies of level N, every seat order in
turn), saving records under `--out` so that an interrupted run resumes where it stopped. Levels
are iteration budgets, so the results do not depend on the machine's load (only the time does).
The stone games of the proof set (`omny`, `oddy`) are played without the pie rule from random
one-stone openings, each opening once with each level first (`ogames tournament --openings`):
with the pie rule the game between two searches of these sizes turns on the first stone and the
swap, whatever the levels (docs/levels.md).

Printed per pair: the higher level's points (two players: its wins; three players: its wins, an
even share being 1/3), its score with a 95% Wilson interval, and whether the interval lies above
the even share ("yes"), or not ("not separated").
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import Any

from ogames.arena.shares import wilson
from ogames.arena.tournament import Outcome, plan, read_book, read_manifest, read_saved, run
from ogames.errors import OgamesError
from ogames.players.levels import HIGHEST, LOWEST, omiga_spec

# key: (game, options, title, highest level played on it, plies of the random openings (0: none)).
# The proof set (PROOF): the default board of Omny's default variant and of Omega (two and three
# players; on hexagon 4, three players place 3 stones a turn for about 9 turns, too short a game to
# show skill: level 6 won 34 of 102 tables with two level 5s, the even third), an Odd-Y board of 51
# cells, and Onyx. Then the small boards of the first runs, with
# the pie rule (docs/levels.md tells why the proof set has openings instead).
PROOF = ["omny", "oddy", "omega2", "omega3", "onyx"]  # Omiga's levels: benchmarks/bench_omiga_levels.py
BOARDS: dict[str, tuple[str, dict[str, Any], str, int, int]] = {
    "omny": ("omny", {"variant": "y", "size": 9}, "Omny y 9 (openings both ways)", HIGHEST, 1),
    "oddy": ("oddy", {"sides": 5, "size": 5, "pie": False}, "Odd-Y 5 sides, n = 5 (openings both ways)", HIGHEST, 1),
    "omega2": ("omega", {"players": 2, "size": 5}, "Omega 2 players, hexagon 5", HIGHEST, 0),
    "omega3": ("omega", {"players": 3, "size": 5}, "Omega 3 players, hexagon 5", HIGHEST, 0),
    # Four players take three-player Omega's ladder; measured beside the proof set, on hexagon 6:
    # on hexagon 5 each of four players has about four turns, and from 7–6 up level N + 1 won only
    # 27–29% of 384 tables against three of level N (even 25%).
    "omega4p": ("omega", {"players": 4, "size": 6}, "Omega 4 players, hexagon 6", HIGHEST, 0),
    "onyx": ("onyx", {}, "Onyx (its one board, 204 points)", HIGHEST, 0),
    # Real-time Omiga: a level is a bot spec (strategy and reaction time, `levels.omiga_spec`). Its
    # levels are measured against a scripted person and each other in bench_omiga_levels.py.
    "omiga": ("omiga", {}, "Omiga (base, 15 × 10 cards, real time)", HIGHEST, 0),
    "sunder4": ("omny", {"variant": "sunder", "size": 4, "pie": True}, "Omny sunder 4 (pie on)", HIGHEST, 0),
    "gyre4": ("omny", {"variant": "gyre", "size": 4, "pie": True}, "Omny gyre 4 (pie on)", HIGHEST, 0),
    "hexagon4": (
        "omny",
        {"variant": "custom", "shape": "hexagon", "size": 4, "stars": "all", "komi": 0.5, "pie": True},
        "Omny hexagon 4, all stars, komi 0.5 (pie on)",
        HIGHEST,
        0,
    ),
    "oddy4": ("oddy", {"sides": 5, "size": 4}, "Odd-Y 5 sides, n = 4 (pie on)", HIGHEST, 0),
    "omega4": ("omega", {"players": 2, "size": 4}, "Omega 2 players, hexagon 4", HIGHEST, 0),
    "sunder5": ("omny", {"variant": "sunder", "size": 5, "pie": True}, "Omny sunder 5 (pie on)", HIGHEST, 0),
    "oddy5pie": ("oddy", {"sides": 5, "size": 5}, "Odd-Y 5 sides, n = 5 (pie on)", HIGHEST, 0),
}
TOP_PAIRS = 9  # pairs whose higher level is at least this play --games-top games


def play_pair(key: str, low: int, games: int, out: Path, seed: int, workers: int = 1, book: Path | None = None) -> dict[str, Any]:
    """Level low + 1 against level low on one board: its points, games, even share and seconds."""
    name, options, _, _, plies = BOARDS[key]
    spec = omiga_spec if name == "omiga" else "mcts:level={}".format
    high_spec, low_spec = spec(low + 1), spec(low)
    seats = options.get("players", 2)
    entrants = [high_spec] + [low_spec] * (seats - 1)
    lines = read_book(book) if book is not None else ()
    folder = out / key / f"L{low + 1}-L{low}"
    # A pair saved with more games than asked now (the upper pairs, extended) is resumed at its
    # own count, so the commands of docs/levels.md may be run again in any order.
    games = max(games, stored_games_per_pair(folder))
    t = plan(name, options, entrants, games_per_pair=games, seed=seed, opening_plies=0 if lines else plies, book=lines)
    start = time.perf_counter()
    summary = run(t, folder, workers=workers, resume=True)
    if summary.failed:
        raise SystemExit(f"{key} L{low + 1}-L{low}: games failed: {summary.failed}")
    return {**pair_result(list(summary.outcomes.values()), seats), "seconds": time.perf_counter() - start}


def stored_games_per_pair(folder: Path) -> int:
    """The games per pair of the tournament saved in `folder` (0 if none)."""
    stored = read_manifest(folder)
    count = stored.get("games_per_pair") if isinstance(stored, dict) else None
    return count if isinstance(count, int) else 0


def points_of_higher(outcomes: list[Outcome], seats: int) -> float:
    """The higher level's points (entrant 0): its wins; at three or more seats, the tables it won."""
    if seats == 2:
        return sum(o.standing[0][0] for o in outcomes)
    return sum(o.standing[0][0] == 1.0 for o in outcomes)


def pairwise_of_higher(outcomes: list[Outcome]) -> float:
    """How often the higher level (entrant 0) finished above each other player at its table, ties
    half, averaged over the games (0.5 is even at any number of seats; with two it is the score)."""
    total = 0.0
    for o in outcomes:
        mine = [points if i == 0 else 1.0 - points for i, j, points in o.pairwise if 0 in (i, j)]
        total += sum(mine) / len(mine)
    return total / len(outcomes)


def pair_result(outcomes: list[Outcome], seats: int) -> dict[str, Any]:
    """A pair's points of the higher level, games, even share and pairwise score."""
    return {
        "points": points_of_higher(outcomes, seats),
        "games": len(outcomes),
        "even": 1 / seats,
        "pairwise": pairwise_of_higher(outcomes),
        "seconds": 0.0,
    }


def read_pair(folder: Path) -> dict[str, Any] | None:
    """A pair's result from the records saved in its folder (None if there is none), read only:
    nothing is played or written (a run may be adding games to it)."""
    saved = read_saved(folder)
    if saved is None or not saved[1]:
        return None
    t, outcomes = saved
    return pair_result(list(outcomes.values()), len(t.entrants))


def row(key: str, low: int, result: dict[str, Any]) -> str:
    """One line of the markdown table."""
    lo, hi = wilson(result["points"], result["games"])
    share = result["points"] / result["games"]
    verdict = "yes" if lo > result["even"] else "not separated"
    points = f"{result['points']:g}/{result['games']}"
    interval = f"{lo:.0%} – {hi:.0%}"
    return (
        f"| {BOARDS[key][2]} | {low + 1} vs {low} | {points} | {share:.0%} | {interval} | {result['even']:.0%} | {verdict} "
        f"| {result['pairwise']:.3f} |"
    )


HEADER = (
    "| game | levels | points of the higher | score | 95% interval | even | above even? | pairwise (even 0.5) |\n"
    "|---|---|---:|---:|---|---:|---|---:|"
)


POOLED_HEADER = (
    "| levels | boards (two players) | points of the higher | score | 95% interval | above even? |\n|---|---:|---:|---:|---|---|"
)


def pooled_row(low: int, results: list[dict[str, Any]]) -> str:
    """One pair's games on every two-player board taken together."""
    points = sum(r["points"] for r in results)
    games = sum(r["games"] for r in results)
    lo, hi = wilson(points, games)
    verdict = "yes" if lo > 0.5 else "not separated"
    interval = f"{lo:.0%} – {hi:.0%}"
    return f"| {low + 1} vs {low} | {len(results)} | {points:g}/{games} | {points / games:.0%} | {interval} | {verdict} |"


GAME_HEADER = (
    "| game | levels | boards | points of the higher | score | 95% interval | even | above even? |\n"
    "|---|---|---:|---:|---:|---|---:|---|"
)


def game_of(key: str) -> str:
    """The game a board belongs to, for the per-game table (Omega by its number of players)."""
    name, options, *_ = BOARDS[key]
    titles = {"omny": "Omny", "oddy": "Odd-Y", "onyx": "Onyx", "omiga": "Omiga"}
    return titles.get(name) or f"Omega, {options.get('players', 2)} players"


def game_rows(results: dict[tuple[str, int], dict[str, Any]]) -> list[str]:
    """Each pair on each game, its boards' games taken together (a game may be played on
    several boards: Omny sunder 4 and 5, …)."""
    grouped: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for (key, low), result in results.items():
        grouped.setdefault((game_of(key), low), []).append(result)
    lines = []
    for (game, low), group in sorted(grouped.items()):
        points, games, even = sum(r["points"] for r in group), sum(r["games"] for r in group), group[0]["even"]
        lo, hi = wilson(points, games)
        verdict = "yes" if lo > even else "not separated"
        lines.append(
            f"| {game} | {low + 1} vs {low} | {len(group)} | {points:g}/{games} | {points / games:.0%} | {lo:.0%} – {hi:.0%} "
            f"| {even:.0%} | {verdict} |"
        )
    return lines


def main() -> None:
    """Play every pair and print (and optionally write) the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--games", type=int, default=20, help="games per pair (three players: rounded up to a multiple of 6; four: of 24)"
    )
    parser.add_argument("--games-top", type=int, default=10, help="games per pair of the costly pairs 8–9 and 9–10")
    parser.add_argument("--only", nargs="*", choices=list(BOARDS), help="boards (default: the proof set)")
    parser.add_argument("--low", type=int, default=LOWEST, help="lowest level of the pairs")
    parser.add_argument("--high", type=int, default=HIGHEST, help="highest level of the pairs")
    parser.add_argument("--out", type=Path, default=Path("tournaments/levels"), help="folder of the records (resumable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    parser.add_argument("--workers", type=int, default=1, help="games at once (processes)")
    parser.add_argument("--book", type=Path, help="openings from this book instead of the board's own (one board)")
    parser.add_argument("--report", action="store_true", help="play nothing: the tables of the games saved under --out")
    args = parser.parse_args()
    # Refused with the usage line before anything is printed or played.
    for name in ("games", "games_top", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, not {getattr(args, name)}")
    if not LOWEST <= args.low < args.high <= HIGHEST:
        parser.error(f"--low and --high: {LOWEST} ≤ low < high ≤ {HIGHEST}, not {args.low} and {args.high}")
    rows: list[tuple[int, int, str]] = []
    pooled: dict[int, list[dict[str, Any]]] = {}
    played: dict[tuple[str, int], dict[str, Any]] = {}
    print(HEADER, flush=True)
    # Cheap pairs on every board first, so that a short run still covers every game.
    for low in range(args.low, args.high):
        for key in args.only or PROOF:
            if low + 1 > BOARDS[key][3]:
                continue
            seats = BOARDS[key][1].get("players", 2)
            games = args.games if low + 1 < TOP_PAIRS else args.games_top
            games = 2 * math.ceil(games / 2) if seats == 2 else 6 * math.ceil(games / 6)
            if args.report:
                saved = read_pair(args.out / key / f"L{low + 1}-L{low}")
                if saved is None:
                    continue
                result = played[key, low] = saved
            else:
                result = played[key, low] = play_pair(key, low, games, args.out, args.seed, args.workers, args.book)
            line = row(key, low, result)
            rows.append((list(BOARDS).index(key), low, line))
            if seats == 2:
                pooled.setdefault(low, []).append(result)
            print(f"{line}  ({result['seconds']:.0f} s)", flush=True)
            if args.markdown:  # by board, then by level, rewritten after every pair
                table = [HEADER] + [text for *_, text in sorted(rows)] + ["", POOLED_HEADER]
                table += [pooled_row(low, results) for low, results in sorted(pooled.items())]
                table += ["", GAME_HEADER, *game_rows(played)]
                args.markdown.write_text("\n".join(table) + "\n", encoding="utf-8")
    for low, results in sorted(pooled.items()):
        print(pooled_row(low, results))
    print("\nEach game, its boards together:\n" + GAME_HEADER)
    for line in game_rows(played):
        print(line)


if __name__ == "__main__":
    try:
        main()
    except OgamesError as error:  # a folder of another run, an unreadable manifest: said, not a traceback
        raise SystemExit(f"bench_levels: {error}") from None
