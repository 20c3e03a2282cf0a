"""Do the others gang up on the leader in three- and four-player Omega? (issue 22, item 5, "find why")

    nice -n 10 .venv/bin/python benchmarks/bench_omega_ganging.py --players 3 --size 5 --think 0.02 \\
        --tables 100 --match "l10-vs-cuct=mcts:level=10|mcts:rave=off,reuse=off,expand=1" \\
        --match "l10-vs-l10=mcts:level=10|mcts:level=10" --out benchmarks/results/omega-tables/ganging-3p.jsonl

Tables are played as `bench_omega_tables.py` plays them (the hero's seat rotating, the matches
interleaved, the same seconds a move for everyone), and every stone is logged: who placed it, whose
colour it is, and what it did to the colours' owners other than its placer (a turn places one stone
of every colour, so two stones of three are placed for someone else):

- **harm**: the change it made to that colour's log score (growing one of its groups raises it,
  joining two of them lowers it: 3 × 3 = 9 becomes 7; a stone on its own changes nothing), and
  whether it was a **join** (it lowered that score), and whether a join was open to it (an empty
  cell touching two of that colour's groups: the leader has more groups to join);
- **taken**: whether it was put on an empty cell next to a group of another seat's colour (a cell
  that group can no longer grow into), counted for each such seat.

Printed per match, for stones placed for or next to a seat other than the placer: the mean change
to the hero's and to the field's colours by the field's placers, and to the leader's and to the
others' colours by everyone (the leader: the seat whose colour would win if the game ended before
the stone, by the rule that names the winner; none in the opening, while all scores are 1). If the
others gang up on the leader, the leader's colour gets more joins and fewer gifts than the others',
and its groups lose more room. Each mean comes with its 95% interval.
"""

from __future__ import annotations

import math
from typing import Any

from bench_omega_tables import parse_matches, play_matches, prepared, ranks, table_arguments
from ogames.players import player
from ogames.players.mcts import warm_up


def leader(state: Any) -> int:
    """The seat whose colour would win now (highest score, later colour on a tie); -1 while every
    score is the same (the opening), when nobody leads."""
    colours = list(state.game.colours)
    scores = state.scores
    if len(set(scores.values())) == 1:
        return -1
    best = max(colours, key=lambda c: (scores[c], colours.index(c)))
    return int(state.owner[best])


def could_join(state: Any, colour: str) -> bool:
    """Whether an empty cell touches two of the colour's groups (a stone there would join them)."""
    board = state.game.board
    group_of = {label: number for number, group in enumerate(state.groups(colour)) for label in group}
    for index, label in enumerate(board.labels):
        if state.stone_at(label) is None:
            near = {group_of[board.labels[n]] for n in board.neighbours[index] if board.labels[n] in group_of}
            if len(near) >= 2:
                return True
    return False


def play_logged(game: Any, hero: str, field: str, seat: int, think: float, seed: int) -> dict[str, Any]:
    """One table, HERO in `seat`, FIELD elsewhere; its winner, the hero's rank and every stone as
    [placer, owner of its colour, change to that colour's log score, leader before it, seats whose
    groups it touched, ply, whether a join of that colour's groups was open]."""
    seats = len(game.colours)
    bots = [player(hero if s == seat else field, think=think, seed=seed * 10 + s) for s in range(seats)]
    board = game.board
    state = game.new_state()
    stones: list[list[Any]] = []
    while not state.is_over:
        placer, colour = state.mover, state.to_move
        before = state.scores[colour]
        ahead = leader(state)
        open_join = placer != state.owner[colour] and could_join(state, colour)
        move = bots[placer].choose(state)
        near = (state.stone_at(board.labels[n]) for n in board.neighbours[board.index(move)])
        touched = sorted({int(state.owner[c]) for c in near if c is not None and c != colour})
        state.play(move, t=0.0)
        change = math.log(state.scores[colour]) - math.log(before)
        stones.append([placer, int(state.owner[colour]), round(change, 4), ahead, touched, len(stones), open_join])
    winner = int(state.owner[state.winner])
    return {"seat": seat, "winner": winner, "won": winner == seat, "rank": ranks(state)[seat], "stones": stones}


def mean_interval(values: list[float]) -> str:
    """The mean with a 95% normal interval, and how many."""
    n = len(values)
    if n == 0:
        return "–"
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
    return f"{mean:+.4f} ± {1.96 * sd / math.sqrt(n):.4f} (n={n:,})"


def share_interval(hits: int, n: int) -> str:
    """The share with a 95% normal interval, and of how many."""
    if n == 0:
        return "–"
    p = hits / n
    return f"{p:.1%} ± {1.96 * math.sqrt(p * (1 - p) / n):.1%} (n={n:,})"


def summary(name: str, rows: list[dict[str, Any]], seats: int) -> list[str]:
    """The match's lines: the hero's wins, then the harm and the room taken, by whom to whom."""
    to_hero: list[float] = []
    to_other_field: list[float] = []
    to_leader: list[float] = []
    to_others: list[float] = []
    open_leader: list[float] = []  # the same, where a join of that colour's groups was open
    open_others: list[float] = []
    room = {key: [0, 0] for key in ("hero", "field", "leader", "rest")}  # stones next to its groups, stones

    def count(key: str, hit: bool) -> None:
        room[key][0] += hit
        room[key][1] += 1

    for row in rows:
        hero = row["seat"]
        for placer, owner, change, ahead, touched, _ply, open_join in row["stones"]:
            if owner != placer:  # a stone placed for another seat: harm or gift
                if placer != hero:
                    (to_hero if owner == hero else to_other_field).append(change)
                if ahead >= 0:
                    (to_leader if owner == ahead else to_others).append(change)
                    if open_join:  # could it have joined that colour's groups? then did it
                        (open_leader if owner == ahead else open_others).append(change)
            # Room: for each seat other than the placer, whether this stone was put next to its groups.
            for victim in range(seats):
                if victim == placer:
                    continue
                hit = victim in touched
                if placer != hero:
                    count("hero" if victim == hero else "field", hit)
                if ahead >= 0:
                    count("leader" if victim == ahead else "rest", hit)
    def joins(changes: list[float]) -> str:  # the stones that lowered the colour's score: a join of its groups
        return share_interval(sum(change < 0 for change in changes), len(changes))

    wins = sum(r["won"] for r in rows)
    return [
        f"{name}: {len(rows)} tables, the hero won {wins} ({wins / max(len(rows), 1):.1%}; even {1 / seats:.1%})",
        f"  log-score change a stone placed for another seat, by the field's placers: to the hero {mean_interval(to_hero)}, "
        f"to the other field seat(s) {mean_interval(to_other_field)}",
        f"  by everyone: to the leader {mean_interval(to_leader)}, to the others {mean_interval(to_others)}",
        f"  of them joins (lowering the score), by the field's placers: to the hero {joins(to_hero)}, "
        f"to the field {joins(to_other_field)}; by everyone: to the leader {joins(to_leader)}, to the others {joins(to_others)}",
        f"  where a join was open, by everyone: to the leader {joins(open_leader)}, to the others {joins(open_others)}",
        f"  stones next to a seat's groups, by the field's placers: the hero's {share_interval(*room['hero'])}, "
        f"the field's {share_interval(*room['field'])}",
        f"  by everyone: the leader's {share_interval(*room['leader'])}, the others' {share_interval(*room['rest'])}",
    ]


def main() -> None:
    parser = table_arguments(__doc__, think=0.02, tables=100)
    args = parser.parse_args()
    matches = parse_matches(parser, args.match)
    game, done = prepared(parser, args, matches)
    seats = len(game.colours)
    if not args.report:
        warm_up(game.new_state())
        play_matches(
            matches, done, args.out, range(args.tables),
            lambda hero, field, table: play_logged(game, hero, field, table % seats, args.think, table),
            lambda name, rows: summary(name, rows, seats)[:1],
        )
    print(f"RESULT omega players={args.players} size={args.size} think={args.think} s")
    for name, (hero, field) in matches.items():
        print(f"  {hero} against {seats - 1} × {field}")
        for line in summary(name, done[name], seats):
            print("  " + line)


if __name__ == "__main__":
    main()
