"""Omiga's computer levels 1–10: against a scripted person, and each against its neighbours.

    nice -n 10 .venv/bin/python benchmarks/bench_omiga_levels.py --games 200
    .venv/bin/python benchmarks/bench_omiga_levels.py --report            # the tables of the saved games
    .venv/bin/python benchmarks/bench_omiga_levels.py --games 40 --ladder 10=rollout:reaction=0.7   # try a spec

The levels are for people, so each is played against the scripted person of
`ogames.players.omiga.person` (a reaction time drawn per action between 0.4 and 1.5 s, lays a
fitting card — a win when it holds one — and discards a hand with none) and against `steady`,
the player of issue 19 that lays a fitting card every 0.6 s; then level N + 1 against level N.

Every game is simulated on the clock the bots meet on the site (`arena.realtime_match.play_game`):
a player looks at the table, decides, and its action arrives its reaction time later, when the
referee judges it against the table as it is then; the site's bots do the same
(`web.omiga.live._run_bot`: decide on the table they looked at, act `delay` seconds after looking),
so the simulation is what a person meets there, without the wall clock or the machine's load.

Game n of every pair deals from seed `--seed` + n, and the first player of the pair lays White in
even games and Black in odd ones. Each game is one JSON line of `--out` (gzipped: .gz), keyed by
the two players' specs and the seed, so a run resumes where it stopped (the file is saved every
25 games), and a spec changed in `players/levels.py` is played afresh (its old games stay in the
file, unused).
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import ogames
from ogames.arena.realtime_match import play_game
from ogames.arena.shares import wilson
from ogames.players.levels import HIGHEST, LOWEST, OMIGA_LEVELS
from ogames.players.omiga.bots import Bot
from ogames.players.omiga.person import Person
from ogames.rules.omiga.realtime import RealtimeState

OUT = Path(__file__).resolve().parent / "results" / "omiga-levels.jsonl.gz"
SAVE_EVERY = 25  # games between saves: an interrupted run loses at most these
PEOPLE: dict[str, Person] = {
    "person": Person(),  # 0.4–1.5 s an action: wins, half the time blocks, mostly climbs
    "steady": Person(fastest=0.6, slowest=0.6, blocks=0.0, climbs=0.0),  # any fitting card every 0.6 s
}
MAX_TIME = 900.0  # simulated seconds before a game counts as unfinished


def make(spec: str) -> Person | Bot:
    """A scripted person by name (PEOPLE), else a bot by player spec."""
    return PEOPLE[spec] if spec in PEOPLE else Bot.make(spec)


def play(a: str, b: str, seed: int, first_white: bool) -> dict[str, Any]:
    """One game of player A against player B on the deal of `seed`: who won, when, and when each first laid a card."""
    state = ogames.load("omiga", seed=seed).new_state()
    assert isinstance(state, RealtimeState)
    a_colour = "white" if first_white else "black"
    players = {actor: make(a) if actor == a_colour else make(b) for actor in state.actors}
    play_game(state, players, seed, MAX_TIME)
    result = state.result
    if result is None:
        winner = "unfinished"
    elif result.winner == "draw":
        winner = "draw"
    else:
        winner = "a" if result.winner == a_colour else "b"

    def first_card(colour: str) -> float | None:
        return next((e["t"] for e in state.history if e["by"] == colour and e["move"].startswith("place")), None)

    b_colour = "black" if first_white else "white"
    return {
        "a": a, "b": b, "seed": seed, "a_colour": a_colour, "winner": winner, "end": round(state.clock, 3),
        "a_first": first_card(a_colour), "b_first": first_card(b_colour), "actions": len(state.history),
    }


def matchups(ladder: dict[int, str], people: Iterable[str] = tuple(PEOPLE)) -> list[tuple[str, str, str]]:
    """(title, player A, player B): each person against every level, then each level against the one below."""
    pairs = [(f"{who} – {level}", who, ladder[level]) for who in people for level in range(LOWEST, HIGHEST + 1)]
    pairs += [(f"{level + 1} – {level}", ladder[level + 1], ladder[level]) for level in range(LOWEST, HIGHEST)]
    return pairs


def read(path: Path) -> dict[tuple[str, str, int], dict[str, Any]]:
    """The saved games by (A, B, seed) (gzipped when the name ends in .gz)."""
    games: dict[tuple[str, str, int], dict[str, Any]] = {}
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    game = json.loads(line)
                    games[game["a"], game["b"], game["seed"]] = game
    return games


def write(path: Path, games: dict[tuple[str, str, int], dict[str, Any]]) -> None:
    """Save every game, one JSON line each, replacing the file at once (an interrupted write leaves the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(game) + "\n" for game in games.values()).encode("utf-8")
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(gzip.compress(text, mtime=0) if path.suffix == ".gz" else text)
    partial.replace(path)


def run(pairs: list[tuple[str, str, str]], games: int, seed: int, path: Path) -> Iterator[tuple[str, float]]:
    """Play the games of each pair missing from `path`, saving every SAVE_EVERY games and after each pair;
    yields (title, seconds) per pair."""
    saved = read(path)
    for title, a, b in pairs:
        start, fresh = time.perf_counter(), 0
        for n in range(games):
            if (a, b, seed + n) not in saved:
                saved[a, b, seed + n] = play(a, b, seed + n, first_white=n % 2 == 0)
                fresh += 1
                if fresh % SAVE_EVERY == 0:
                    write(path, saved)
        if fresh:
            write(path, saved)
        yield title, time.perf_counter() - start


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Wins of A (draws half), games, the 95% interval, and B's wins before A laid a card."""
    points = sum(1.0 if g["winner"] == "a" else 0.5 if g["winner"] in ("draw", "unfinished") else 0.0 for g in games)
    early = sum(1 for g in games if g["winner"] == "b" and g["a_first"] is None)
    ends = sorted(g["end"] for g in games)
    return {
        "games": len(games), "points": points, "interval": wilson(points, len(games)), "early": early,
        "median_end": ends[len(ends) // 2] if ends else 0.0,
    }


def collect(pairs: list[tuple[str, str, str]], games: int, seed: int, path: Path) -> dict[str, dict[str, Any]]:
    """Each pair's summary over its first `games` saved games (fewer if fewer are saved)."""
    saved = read(path)
    out = {}
    for title, a, b in pairs:
        played = [saved[a, b, seed + n] for n in range(games) if (a, b, seed + n) in saved]
        if played:
            out[title] = summary(played)
    return out


def percent(share: float, digits: int = 0) -> str:
    """A share as a percentage, e.g. `99.5%` (digits 1) or `97%`; no `.0`."""
    return f"{100 * share:.{digits}f}".removesuffix(".0") + "%"


def person_table(ladder: dict[int, str], results: dict[str, dict[str, Any]]) -> str:
    """Markdown: each level's spec and how the scripted people fare against it."""
    lines = [
        "| level | bot | person wins | 95% interval | level won before the person's first card | median game | "
        "steady 0.6 s wins | 95% interval |",
        "|---:|---|---:|---|---:|---:|---:|---|",
    ]
    for level in range(LOWEST, HIGHEST + 1):
        person, steady = results.get(f"person – {level}"), results.get(f"steady – {level}")
        cells = [str(level), f"`{ladder[level]}`"]
        for result, extra in ((person, True), (steady, False)):
            if result is None:
                cells += ["–", "–"] + (["–", "–"] if extra else [])
                continue
            lo, hi = result["interval"]
            cells += [f"{percent(result['points'] / result['games'], 1)} of {result['games']}", f"{percent(lo)} – {percent(hi)}"]
            if extra:
                cells += [f"{result['early']} of {result['games']}", f"{result['median_end']:.1f} s"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def neighbour_table(results: dict[str, dict[str, Any]]) -> str:
    """Markdown: each level against the one below."""
    lines = ["| levels | higher level wins | 95% interval | above even? |", "|---|---:|---|---|"]
    for level in range(LOWEST, HIGHEST):
        result = results.get(f"{level + 1} – {level}")
        if result is None:
            continue
        lo, hi = result["interval"]
        share = result["points"] / result["games"]
        verdict = "yes" if lo > 0.5 else "more often than not" if share > 0.5 else "no"
        games = result["games"]
        lines.append(f"| {level + 1} – {level} | {percent(share, 1)} of {games} | {percent(lo)} – {percent(hi)} | {verdict} |")
    return "\n".join(lines)


def ladder_with(overrides: list[str]) -> dict[int, str]:
    """The ladder of players/levels.py with `N=spec` overrides (to try specs before writing them there)."""
    ladder = dict(OMIGA_LEVELS)
    for text in overrides:
        level, _, spec = text.partition("=")
        Bot.make(spec)  # a bad spec fails here, before any game
        ladder[int(level)] = spec
    return ladder


def main() -> None:
    """Play the missing games, then print the two tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per pair")
    parser.add_argument("--seed", type=int, default=1, help="the deal of the first game of every pair")
    parser.add_argument("--out", type=Path, default=OUT, help="the games, one JSON line each (resumable)")
    parser.add_argument("--ladder", nargs="*", default=[], metavar="N=SPEC", help="try another spec for a level")
    parser.add_argument("--only", choices=["people", "neighbours"], help="play only these pairs")
    parser.add_argument("--report", action="store_true", help="play nothing: the tables of the saved games")
    args = parser.parse_args()
    ladder = ladder_with(args.ladder)
    pairs = matchups(ladder)
    if args.only:
        pairs = [p for p in pairs if (p[1] in PEOPLE) == (args.only == "people")]
    if not args.report:
        for title, seconds in run(pairs, args.games, args.seed, args.out):
            result = collect([p for p in pairs if p[0] == title], args.games, args.seed, args.out)[title]
            share = result["points"] / result["games"]
            print(f"{title:34s} {share:6.1%} of {result['games']}  early {result['early']:3d}  ({seconds:.0f} s)", flush=True)
    results = collect(pairs, args.games, args.seed, args.out)
    print("\nThe scripted people against each level (their share of the games; draws count half):\n")
    print(person_table(ladder, results))
    print("\nEach level against the one below:\n")
    print(neighbour_table(results))


if __name__ == "__main__":
    main()
