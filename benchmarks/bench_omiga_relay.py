"""What relaying costs at an Omiga table whose two people sit on different server processes.

Starts a throwaway PostgreSQL and Redis (tools/local_services.py) and two `ogames serve`
processes, A and B. Each table is created on A (A referees it); white's page is on A, black's on
B, so black's cards are relayed through Redis (web/omiga/relay.py). The two lay cards in turn and
every action's round trip is timed, from sending it to its verdict: white's are judged where they
arrive, black's cross to A and back. `seen` is from sending a card to the other page's view
containing it.

    python benchmarks/bench_omiga_relay.py --tables 4 --cards 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import local_services


def start(url: str, redis: str, log: Path) -> tuple[subprocess.Popen, str]:
    port = local_services.free_port()
    command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(port), "--database", url, "--redis", redis]
    process = subprocess.Popen(command, stdout=log.open("a"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(base + "/", timeout=2):
                return process, base
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start: " + log.read_text()[-2000:])


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


class Page:
    def __init__(self, base: str, table_id: str, token: str):
        from websockets.sync.client import connect

        self.socket = connect(base.replace("http://", "ws://") + f"/ws/o/{table_id}", max_size=2**22).__enter__()
        self.token, self.view, self.verdicts = token, {}, {}
        self.socket.send(json.dumps({"type": "ready", "tokens": [token]}))

    def until(self, wanted: Any, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while not (self.view and wanted(self.view)):
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] == "state":
                self.view = message
            elif message["type"] == "verdict":
                self.verdicts[message["seq"]] = message
        return self.view

    def verdict(self, seq: int) -> dict[str, Any]:
        while seq not in self.verdicts:
            self._one()
        return self.verdicts.pop(seq)

    def _one(self) -> None:
        message = json.loads(self.socket.recv(timeout=20))
        if message["type"] == "state":
            self.view = message
        elif message["type"] == "verdict":
            self.verdicts[message["seq"]] = message


def action(view: dict[str, Any], seat: int) -> str:
    for card in view["seats"][seat]["hand"]:
        for cell, turned in card["spots"]:
            return f"{card['act']} {cell}" + (" turned" if turned else "")
    return "discard"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--cards", type=int, default=20, help="cards laid per table (at most; a game may end first)")
    args = parser.parse_args()
    times: dict[str, list[float]] = {"white on A (referee)": [], "black on B (relayed)": []}
    seen: list[float] = []
    with tempfile.TemporaryDirectory() as folder, local_services.postgres() as pg, local_services.redis_server() as redis:
        url = pg.new_database("relay")
        servers = [start(url, redis.url, Path(folder) / f"{name}.log") for name in "ab"]
        try:
            (_, base_a), (_, base_b) = servers
            for _ in range(args.tables):
                made = post(base_a, "/api/omiga", {"seats": [{"kind": "here"}, {"kind": "invite"}]})  # dealt by the server
                tokens = [made["tokens"]["0"], made["invitations"]["1"].split("seats=1.")[1]]
                pages = [Page(base_a, made["id"], tokens[0]), Page(base_b, made["id"], tokens[1])]
                for page in pages:
                    page.until(lambda view: view["started"])
                for n in range(args.cards):
                    seat = n % 2
                    mover, other = pages[seat], pages[1 - seat]
                    if mover.view["over"]:
                        break
                    before, sent = mover.view["count"], time.perf_counter()
                    message = {"type": "act", "action": action(mover.view, seat), "token": tokens[seat], "seq": n + 1}
                    mover.socket.send(json.dumps(message))
                    verdict = mover.verdict(n + 1)
                    times[list(times)[seat]].append(time.perf_counter() - sent)
                    if verdict["accepted"]:
                        other.until(lambda view, b=before: view["count"] > b)
                        seen.append(time.perf_counter() - sent)
                        mover.until(lambda view, b=before: view["count"] > b)
                for page in pages:
                    page.socket.close()
        finally:
            for process, _ in servers:
                process.terminate()
                process.wait(15)
    for name, values in (*times.items(), ("seen on the other page", seen)):
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(f"{name:26} n={len(values):3}  median {statistics.median(values) * 1000:6.1f} ms  p99 {p99 * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
