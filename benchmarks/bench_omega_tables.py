"""Three- and four-player Omega tables: one player against a field of copies of another, at equal time.

    nice -n 10 .venv/bin/python benchmarks/bench_omega_tables.py --players 3 --size 5 --think 0.05 \\
        --tables 200 --match "l10-vs-uct=mcts:level=10|uct" --match "l10-vs-l10=mcts:level=10|mcts:level=10" \\
        --out benchmarks/results/omega-tables-3p.jsonl

Each `--match NAME=HERO|FIELD` puts HERO in one seat and FIELD in every other; the hero's seat
rotates table by table (table t: seat t mod players), so every seat is played equally often. The
matches are interleaved table by table, so that the machine's load falls on each of them alike
(a before/after pair compared in one run). Every player gets the same `--think` seconds a move;
each player of a table has its own seed (table × 10 + seat). Tables are appended to `--out` as
JSON lines, and a run that is stopped resumes where it left off.

Printed per match: the hero's wins (even share 1 / players) with a 95% Wilson interval, its mean
rank (1 = first; even (players + 1) / 2) with a 95% normal interval, its wins from each seat, and the mean iterations a
move of hero and field (equal time is not equal iterations: the plain UCT runs far fewer).
Ranks follow the game's order: highest score first, among tied scores the later colour first
(the rule that names the winner).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ogames
from ogames.arena.shares import wilson
from ogames.errors import OgamesError
from ogames.players import player
from ogames.players.mcts import warm_up


def ranks(state: Any) -> list[int]:
    """Each seat's rank (1 = first) at the end of a game: by score, later colour first on a tie."""
    colours = list(state.game.colours)
    scores = state.scores
    order = sorted(colours, key=lambda c: (scores[c], colours.index(c)), reverse=True)
    by_seat = [0] * len(colours)
    for place, colour in enumerate(order, start=1):
        by_seat[state.owner[colour]] = place
    return by_seat


def play_table(
    game: Any, hero: str, field: str, seat: int, think: float, seed: int, hero_think: float | None = None
) -> dict[str, Any]:
    """One table, HERO in `seat` and FIELD elsewhere; what happened, from the hero's side. The hero
    thinks `hero_think` seconds a move if given (a ceiling: how much more time is worth), else `think`."""
    seats = len(game.colours)
    specs = [hero if s == seat else field for s in range(seats)]
    times = [(hero_think or think) if s == seat else think for s in range(seats)]
    bots = [player(spec, think=times[s], seed=seed * 10 + s) for s, spec in enumerate(specs)]
    iterations = [[0, 0] for _ in range(seats)]  # per seat: iterations summed, searches
    state = game.new_state()
    while not state.is_over:
        mover = state.mover
        state.play(bots[mover].choose(state), t=0.0)
        done = bots[mover].info().iterations
        if done:
            iterations[mover][0] += done
            iterations[mover][1] += 1
    winner = state.owner[state.winner]
    field_its = [iterations[s] for s in range(seats) if s != seat]
    return {
        "seat": seat,
        "winner": winner,
        "won": winner == seat,
        "rank": ranks(state)[seat],
        "hero_its": iterations[seat][0] / max(iterations[seat][1], 1),
        "field_its": sum(i for i, _ in field_its) / max(sum(n for _, n in field_its), 1),
    }


def summary(name: str, rows: list[dict[str, Any]], seats: int) -> str:
    """One line: wins, share and interval, mean rank and interval, iterations a move."""
    n = len(rows)
    if n == 0:
        return f"{name}: no tables"
    wins = sum(r["won"] for r in rows)
    low, high = wilson(wins, n)
    rank = [r["rank"] for r in rows]
    mean = sum(rank) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in rank) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(n)
    hero_its = sum(r["hero_its"] for r in rows) / n
    field_its = sum(r["field_its"] for r in rows) / n
    by_seat = ", ".join(
        f"{sum(r['won'] for r in rows if r['seat'] == s)}/{sum(r['seat'] == s for r in rows)}" for s in range(seats)
    )
    return (
        f"{name}: {wins}/{n} won = {wins / n:.1%} [{low:.1%}, {high:.1%}] (even {1 / seats:.1%}, twice {2 / seats:.1%}); "
        f"mean rank {mean:.2f} ± {half:.2f} (even {(seats + 1) / 2:.1f}); "
        f"won by seat {by_seat}; iterations a move: hero {hero_its:,.0f}, field {field_its:,.0f}"
    )


def main() -> None:
    """Play the interleaved matches and print their summaries."""
    parser = table_arguments(__doc__, think=0.05, tables=200)
    parser.add_argument("--pie", action="store_true", help="play with the pie rule (later seats may take an earlier colour)")
    parser.add_argument("--hero-think", type=float, default=None, help="the hero's seconds a move (default: --think)")
    parser.add_argument("--first", type=int, default=0, help="number of the first table (its seeds; for a second run beside one)")
    args = parser.parse_args()
    # Bad input is refused with the usage line, before a table is played or written.
    matches = parse_matches(parser, args.match)
    game, done = prepared(parser, args, matches, pie=args.pie, hero_think=args.hero_think)
    seats = len(game.colours)
    if not args.report:
        warm_up(game.new_state())
        play_matches(
            matches, done, args.out, range(args.first, args.first + args.tables),
            lambda hero, field, table: play_table(game, hero, field, table % seats, args.think, table, args.hero_think),
            lambda name, rows: [summary(name, rows, seats)],
        )
    hero_think = "" if args.hero_think is None else f", the hero {args.hero_think} s"
    pie = " pie=on" if args.pie else ""
    print(f"RESULT omega players={args.players} size={args.size}{pie} think={args.think} s{hero_think}")
    for name, (hero, field) in matches.items():
        print(f"  {hero} against {seats - 1} × {field}")
        print("  " + summary(name, done[name], seats))


def table_arguments(description: str | None, think: float, tables: int) -> argparse.ArgumentParser:
    """The arguments every Omega table benchmark takes (players, size, think, tables, match, out,
    report), with its own defaults for the seconds a move and the tables a match."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--think", type=float, default=think)
    parser.add_argument("--tables", type=int, default=tables, help="tables per match")
    parser.add_argument("--match", action="append", required=True, help="NAME=HERO|FIELD")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--report", action="store_true", help="only summarise the tables stored in --out")
    return parser


def prepared(
    parser: argparse.ArgumentParser, args: Any, matches: dict[str, tuple[str, str]], pie: bool = False,
    hero_think: float | None = None,
) -> tuple[Any, dict[str, list[dict[str, Any]]]]:
    """The game and the tables stored in `--out`; a bad option, player or file refused with the
    usage line before anything is played or written."""
    try:
        game = ogames.load("omega", players=args.players, size=args.size, pie=pie)
        for hero, field in matches.values():
            player(hero, think=hero_think or args.think)
            player(field, think=args.think)
        done = stored(args.out, matches)
        if not args.report:
            args.out.open("a").close()  # a folder that cannot hold it is refused now, not after warming up
    except (OgamesError, OSError, ValueError, KeyError, TypeError) as exc:
        parser.error(str(exc))
    return game, done


def parse_matches(parser: argparse.ArgumentParser, texts: list[str]) -> dict[str, tuple[str, str]]:
    """The `--match NAME=HERO|FIELD` arguments as {name: (hero, field)}; the usage line if one is not."""
    matches: dict[str, tuple[str, str]] = {}
    for text in texts:
        name, _, pair = text.partition("=")
        hero, bar, field = pair.partition("|")
        if not name or not bar:
            parser.error(f"--match {text!r}: NAME=HERO|FIELD is needed")
        matches[name] = (hero, field)
    return matches


def stored(out: Path, matches: dict[str, tuple[str, str]]) -> dict[str, list[dict[str, Any]]]:
    """The tables of each match stored in `out` by an earlier run (none if it does not exist yet)."""
    done: dict[str, list[dict[str, Any]]] = {name: [] for name in matches}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            if row["match"] in done:
                done[row["match"]].append(row)
    return done


def play_matches(
    matches: dict[str, tuple[str, str]], done: dict[str, list[dict[str, Any]]], out: Path, tables: range,
    play: Callable[[str, str, int], dict[str, Any]], report: Callable[[str, list[dict[str, Any]]], list[str]],
) -> None:
    """Play the tables not stored yet (`play(hero, field, table)`), interleaving the matches,
    appending each to `out`, and print `report`'s lines for every match each ten tables."""
    start = time.perf_counter()
    with out.open("a") as stream:
        for table in tables:
            for name, (hero, field) in matches.items():
                if any(r["table"] == table for r in done[name]):
                    continue
                row = {"match": name, "table": table, **play(hero, field, table)}
                done[name].append(row)
                stream.write(json.dumps(row) + "\n")
                stream.flush()
            if table % 10 == 9:
                print(f"after table {table}, {time.perf_counter() - start:.0f} s", flush=True)
                for name in matches:
                    for line in report(name, done[name]):
                        print("  " + line, flush=True)


if __name__ == "__main__":
    main()
