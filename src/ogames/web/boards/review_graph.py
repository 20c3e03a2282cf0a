"""A stored review as the site shows it: the win-chance graph (SVG, drawn here) and each move's
mark, better move and line in the page's language (GET /api/games/ID/review).

The graph has a point per position, from the start to the last move: with two players one line,
the first seat's chance (the other's is its mirror), over a band at 50%; with three or four, a line
per seat. A move marked inaccuracy, mistake or blunder has a dot of its mark's colour on its
mover's line (lichess's colours and symbols: ?! ? ??). Every position has a column the page
clicks to step the board there (`data-ply`), titled with its move and mark.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from ogames.web import i18n
from ogames.web.core.names import move_words

WIDTH, HEIGHT, PAD = 600.0, 220.0, 8.0
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", "good": ""}
MARK_COLOURS = {"inaccuracy": "#4a9fd8", "mistake": "#e69f00", "blunder": "#d03b2a"}
SEAT_COLOURS = {"black": "#22252a", "white": "#8c8c86", "red": "#c8412f", "blue": "#2f62b5", "green": "#2f8f4e",
                "yellow": "#c9a400"}


def seat_colours(review: dict[str, Any]) -> list[str]:
    """The colour each seat played (its first move's; else the record's seats), seat by seat."""
    players: list[str] = list(review.get("players") or [])
    found: dict[int, str] = {}
    for move in review["moves"]:
        found.setdefault(int(move["seat"]), str(move["colour"]))
    by_name = {name: colour for colour, name in (review.get("seats") or {}).items()}
    return [found.get(seat) or by_name.get(name, "") for seat, name in enumerate(players)]


def _points(review: dict[str, Any]) -> list[list[float]]:
    """Every seat's chance at each position (the start, then after each move); NaN where unknown."""
    seats = len(review.get("players") or [])
    rows = [list(review.get("start") or [])] + [list(move.get("chances") or []) for move in review["moves"]]
    return [[float(row[seat]) if seat < len(row) else math.nan for row in rows] for seat in range(seats)]


def graph_svg(review: dict[str, Any], language: str = i18n.DEFAULT) -> str:
    """The win-chance graph of a review (a `Review.to_json()`), its words in `language`."""
    t = i18n.words(language)
    moves = review["moves"]
    count = max(len(moves), 1)
    colours = seat_colours(review)
    lines = _points(review)
    shown_seats = [0] if len(lines) == 2 else list(range(len(lines)))

    def x(ply: int) -> float:
        return PAD + ply * (WIDTH - 2 * PAD) / count

    def y(chance: float) -> float:
        return PAD + (1.0 - chance) * (HEIGHT - 2 * PAD)

    parts = [f'<svg class="review-graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" '
             f'role="img" aria-label="{escape(t["review_graph"])}">',
             f'<rect class="review-back" x="0" y="0" width="{WIDTH:g}" height="{HEIGHT:g}" fill="#f4f3ee"/>',
             f'<line class="review-even" x1="{PAD:g}" x2="{WIDTH - PAD:g}" y1="{y(0.5):.1f}" y2="{y(0.5):.1f}" '
             'stroke="#b9b6ab" stroke-dasharray="4 3"/>']
    for seat in shown_seats:
        colour = colours[seat] if seat < len(colours) else ""
        label = t["win_chance"].format(colour=t.get("c_" + colour, colour))
        known = [(x(ply), y(chance)) for ply, chance in enumerate(lines[seat]) if not math.isnan(chance)]
        if not known:
            continue
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in known)
        parts.append(f'<polyline class="review-line" data-seat="{seat}" points="{path}" fill="none" '
                     f'stroke="{SEAT_COLOURS.get(colour, "#555")}" stroke-width="2"><title>{escape(label)}</title></polyline>')
    for move in moves:
        mark = move.get("mark")
        if mark not in MARK_COLOURS:
            continue
        ply, seat = int(move["ply"]), int(move["seat"])
        chance = lines[seat][ply] if seat < len(lines) and ply < len(lines[seat]) else math.nan
        if math.isnan(chance):
            continue
        parts.append(f'<circle class="review-mark mark-{mark}" data-ply="{ply}" cx="{x(ply):.1f}" cy="{y(chance):.1f}" '
                     f'r="4" fill="{MARK_COLOURS[mark]}" stroke="#fff" stroke-width="1"/>')
    half = (WIDTH - 2 * PAD) / count / 2
    for ply in range(len(moves) + 1):
        if ply == 0:
            title = t["replay_start"]
        else:
            move = moves[ply - 1]
            title = f'{ply}. {move_words(move["move"], language)}{SYMBOLS.get(move.get("mark") or "", "")}'
        left = max(0.0, x(ply) - half)
        parts.append(f'<rect class="review-hit" data-ply="{ply}" x="{left:.1f}" y="0" width="{min(WIDTH - left, 2 * half):.1f}" '
                     f'height="{HEIGHT:g}" fill="transparent"><title>{escape(title)}</title></rect>')
    parts.append(f'<line class="review-cursor" x1="{x(0):.1f}" x2="{x(0):.1f}" y1="0" y2="{HEIGHT:g}" stroke="#555" '
                 'stroke-width="1" pointer-events="none"/>')
    parts.append("</svg>")
    return "".join(parts)


def review_view(review: dict[str, Any], language: str = i18n.DEFAULT) -> dict[str, Any]:
    """What the review page is sent of a ready review: the graph, the x of each position on it
    (`steps`, in the graph's units, for the page's cursor), and each move's mark, its symbol, the
    better move and its line, the chances and the proof, its moves worded in `language`."""
    count = max(len(review["moves"]), 1)
    moves = []
    for move in review["moves"]:
        mark = move.get("mark")
        moves.append({
            "ply": move["ply"], "seat": move["seat"], "colour": move["colour"], "move": move["move"],
            "move_text": move_words(move["move"], language), "mark": mark, "symbol": SYMBOLS.get(mark or "", ""),
            "before": move.get("before"), "after": move.get("after"), "loss": move.get("loss"), "proven": move.get("proven"),
            "best": move.get("best"), "best_text": None if move.get("best") is None else move_words(move["best"], language),
            "line": list(move.get("line") or []), "line_text": [move_words(step, language) for step in move.get("line") or []],
        })
    return {
        "game": review["game"], "winner": review.get("winner"), "budget": review.get("budget"), "prove": review.get("prove"),
        "graph": graph_svg(review, language), "width": WIDTH,
        "steps": [round(PAD + ply * (WIDTH - 2 * PAD) / count, 1) for ply in range(len(review["moves"]) + 1)],
        "moves": moves,
    }


__all__ = ["MARK_COLOURS", "SYMBOLS", "graph_svg", "review_view", "seat_colours"]
