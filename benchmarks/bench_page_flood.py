"""What one address flooding the site's pages does to everyone else, with the pages' rate limit
(web/core/guard.py, `Settings.page_rate` and `page_burst`) and, side by side in the same run, with
it lifted (`$OGAMES_PAGES_PER_CLIENT`, as a load test lifts it): `ogames serve` on a fresh SQLite
file each time, a quiet spell, then `--connections` connections asking for one page (`--page`,
repeatable) as fast as it is answered while another visitor's `GET /api/health` is timed every
0.2 s (the API has its own limit, which the probe stays far below).

    .venv/bin/python benchmarks/bench_page_flood.py --page /explore --page "/puzzles?page=5" \\
        --connections 32 --out benchmarks/results/page-flood.md
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import aiohttp

from bench_web_load import free_port, tool  # (beside this file)
from ogames.web.core.settings import PAGES_ENV

PROBES = 25  # the other visitor's requests in each spell


async def flood(base: str, page: str, stop: asyncio.Event, answers: dict[int, int]) -> None:
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            async with session.get(base + page) as response:
                await response.read()
                answers[response.status] = answers.get(response.status, 0) + 1


async def probe(base: str) -> list[float]:
    seconds = []
    async with aiohttp.ClientSession() as session:
        for _ in range(PROBES):
            start = time.perf_counter()
            async with session.get(base + "/api/health") as response:
                await response.read()
            seconds.append(time.perf_counter() - start)
            await asyncio.sleep(0.2)
    return seconds


async def spell(base: str, page: str, connections: int) -> dict[str, object]:
    quiet = await probe(base)
    stop, answers = asyncio.Event(), {}
    tasks = [asyncio.create_task(flood(base, page, stop, answers)) for _ in range(connections)]
    await asyncio.sleep(1.0)
    start = time.perf_counter()
    loud = await probe(base)
    stop.set()
    await asyncio.gather(*tasks)
    return {"quiet": statistics.median(quiet), "flooded": statistics.median(loud), "worst": max(loud),
            "answers": dict(sorted(answers.items())), "seconds": time.perf_counter() - start}


def served(limit_lifted: bool, page: str, connections: int) -> dict[str, object]:
    groups = tool("process_groups")
    env = dict(os.environ)
    if limit_lifted:
        env[PAGES_ENV] = str(10**6)
    else:
        env.pop(PAGES_ENV, None)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        command = [sys.executable, "-m", "ogames.cli.app", "serve", "--port", str(port),
                   "--database", f"sqlite:///{folder}/flood.sqlite3"]
        with log.open("w") as output:
            process = groups.spawn(command, stdout=output, stderr=output, env=env)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 90
            while True:
                try:
                    with urllib.request.urlopen(base + "/api/health", timeout=2):
                        break
                except OSError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise SystemExit("the server did not start: " + log.read_text()[-2000:]) from None
                    time.sleep(0.2)
            return asyncio.run(spell(base, page, connections))
        finally:
            groups.end(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", action="append", help="a page the flood asks for (repeatable; /explore if none)")
    parser.add_argument("--connections", type=int, default=32, help="the flooding connections (at least 1)")
    parser.add_argument("--out", type=Path, help="also write the table (Markdown) to this file")
    args = parser.parse_args()
    pages = args.page or ["/explore"]
    if args.connections < 1 or not all(page.startswith("/") and not page.startswith(("/api/", "/static/")) for page in pages):
        parser.error("--connections must be at least 1 and --page a page's path (not /api/ nor /static/)")
    if args.out is not None and not args.out.parent.is_dir():
        parser.error(f"--out: no folder {args.out.parent}")
    rows = ["| page flooded | the pages' limit | flood answers (status: count) | another visitor's /api/health, quiet "
            "| flooded (median) | flooded (worst) |", "|---|---|---|---:|---:|---:|"]
    for page in pages:
        for lifted in (True, False):
            found = served(lifted, page, args.connections)
            name = "lifted (before)" if lifted else "on (20 a second, bursts of 200)"
            rows.append(f"| `{page}` | {name} | {found['answers']} in {found['seconds']:.1f} s "
                        f"| {1000 * found['quiet']:.1f} ms | {1000 * found['flooded']:.1f} ms | {1000 * found['worst']:.1f} ms |")
    table = "\n".join(rows)
    print(table)
    if args.out is not None:
        head = (f"# One address flooding a page with {args.connections} connections\n\n"
                "`benchmarks/bench_page_flood.py` (both servers in one run, one after the other).\n\n")
        args.out.write_text(head + table + "\n")


if __name__ == "__main__":
    main()
