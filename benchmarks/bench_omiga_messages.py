"""Bytes an Omiga table's page is sent per action: the whole view (what every page was sent before
the table was sent once, and what a page that takes no deltas still is) against the delta a page
that takes deltas gets (web/core/delta.py: the cells that changed, the moves added, the seats).

One server (in this process, on a temporary SQLite file); for each table two pages watch it side by
side in the same run, one socket without deltas and one with `?deltas=1`; the table's two people
(both seats held by the benchmark) lay cards through the JSON API, and every message each page
receives is measured as sent (its JSON text, UTF-8 bytes). Also the time from an action's request
to its answer (the server draws the view for both pages meanwhile). Timings on a loaded machine are
noisy: compare the two columns of one run, not runs.

    python benchmarks/bench_omiga_messages.py --actions 40 --out benchmarks/results/omiga-messages.md
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from ogames.web import create_app
from ogames.web.core.settings import Settings

TABLES: list[tuple[str, dict[str, Any]]] = [
    ("base 7×5 (small)", {"variant": "base", "width": 7, "height": 5}),
    ("base 15×10 (default)", {"variant": "base"}),
    ("toddler for 6, 15×10 (turns)", {"variant": "toddler", "players": 6}),
    ("base 52×52 (the biggest)", {"variant": "base", "width": 52, "height": 52}),
]
SEQ = itertools.count(1)


def received(socket: Any, version: int) -> list[int]:
    """The sizes of the views a page receives until it holds `version` (deltas are applied as the page does)."""
    sizes = []
    while True:
        text = socket.receive_text()
        message = json.loads(text)
        if message.get("type") not in ("state", "delta"):
            continue
        sizes.append(len(text.encode("utf-8")))
        if message["version"] >= version:
            return sizes


def act(client: TestClient, table_id: str, tokens: dict[str, str]) -> tuple[dict[str, Any], float] | None:
    """A legal action of some seat through the API: (its verdict, seconds to the answer); None if none is left."""
    view = client.get(f"/api/omiga/{table_id}").json()
    if view["over"]:
        return None
    seats = [view["mover"]] if view["mover"] is not None else range(len(view["seats"]))
    for seat in seats:
        if str(seat) not in tokens:
            continue
        shown = view["seats"][seat]
        spots = [f"{card['act']} {cell}" + (" turned" if turned else "")
                 for card in shown["hand"] for cell, turned in card["spots"]]
        for action in spots[:1] + shown["actions"]:
            started = time.perf_counter()
            body = {"action": action, "token": tokens[str(seat)], "seq": next(SEQ)}
            answer = client.post(f"/api/omiga/{table_id}/act", json=body)
            took = time.perf_counter() - started
            if answer.status_code == 200:
                return answer.json(), took
    return None


def measure(client: TestClient, options: dict[str, Any], actions: int) -> dict[str, Any]:
    """Play tables of these options (a new one when a game ends) until `actions` actions are measured."""
    row: dict[str, Any] = {"whole": [], "delta": [], "took": [], "tables": 0}
    while len(row["took"]) < actions:
        played = table(client, options, actions - len(row["took"]), row)
        row["tables"] += 1
        if not played:
            break
    return row


def table(client: TestClient, options: dict[str, Any], actions: int, row: dict[str, Any]) -> int:
    """One table's actions measured into `row` (its first views too, if it is the first): how many."""
    seats = 6 if options.get("players") == 6 else 2
    made = client.post("/api/omiga", json={"options": options, "seats": [{"kind": "here"}] * seats}).json()
    table_id, tokens = made["id"], made["tokens"]
    played = 0
    with client.websocket_connect(f"/ws/o/{table_id}") as plain, client.websocket_connect(f"/ws/o/{table_id}?deltas=1") as parts:
        plain.send_text(json.dumps({"type": "ready", "tokens": list(tokens.values())}))
        version = made["view"]["version"]
        row.setdefault("first_whole", received(plain, version)[0])
        row.setdefault("first_parts", received(parts, version)[0])
        deadline = time.monotonic() + 30
        while not client.get(f"/api/omiga/{table_id}").json()["started"]:  # real time: the signal
            assert time.monotonic() < deadline, "the signal never came"
            time.sleep(0.02)
        for _ in range(actions):
            done = act(client, table_id, tokens)
            if done is None:
                break
            played += 1
            row["took"].append(done[1])
            version = client.get(f"/api/omiga/{table_id}").json()["version"]
            # The action's own view (before it, a table's first action finds the views of its signal queued too).
            row["whole"].append(received(plain, version)[-1])
            row["delta"].append(received(parts, version)[-1])
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{folder}/bench.sqlite3", ai_executor="thread", omiga_countdown=0.05,
                            api_rate=1e6, api_burst=1e6)  # the benchmark asks as fast as it can
        with TestClient(create_app(settings)) as client:
            rows = [(name, measure(client, options, args.actions)) for name, options in TABLES]
    lines = ["# Bytes per action message at an Omiga table", "",
             f"`python benchmarks/bench_omiga_messages.py --actions {args.actions}` ({time.strftime('%Y-%m-%d')}; one run, "
             "both pages of a table side by side; the message is its JSON text in bytes). *Whole*: the whole view after "
             "every action, what every table page was sent before the table was sent once (and a page that takes no "
             "deltas still is); *delta*: what a page that takes deltas is sent (`?deltas=1`: the table page since). The "
             "first view is sent whole to both (the delta page's with the table in parts). *ms*: an action's request to "
             "its answer through the JSON API, p50, on a loaded 2-core machine (noisy).", "",
             "| table | actions (tables) | first view, whole → in parts | whole view per action (mean) "
             "| delta per action (mean / max) | smaller by | ms per action (p50) |",
             "|---|---|---|---|---|---|---|"]
    for name, row in rows:
        mean_whole, mean_delta = statistics.mean(row["whole"]), statistics.mean(row["delta"])
        lines.append(f"| {name} | {len(row['took'])} ({row['tables']}) | {row['first_whole']:,} → {row['first_parts']:,} "
                     f"| {mean_whole:,.0f} "
                     f"| {mean_delta:,.0f} / {max(row['delta']):,} | {mean_whole / mean_delta:.0f}× "
                     f"| {1000 * statistics.median(row['took']):.1f} |")
    lines += ["", "A delta holds the seats whole (each hand with its spots: where each card fits now), the cells whose "
              "drawing changed, the drawing of a card newly shown (a card drawn into a hand), the move added and the "
              "small fields that changed; its size hardly depends on the table's. The server still draws the whole "
              "table for every view, so the time per action grows with the table (the last column)."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
