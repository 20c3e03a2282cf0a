"""What identity costs a request (web/accounts/): the same page and the same JSON view asked for
by a guest (a signed cookie, no database read) and by a logged-in account (its log-in checked in
the database on every request), side by side in one run, in process; and a log-in's time for a
known name with a wrong password and for a name nobody has (both one argon2id check).

    python benchmarks/bench_identity.py                   # 300 rounds of each request
    python benchmarks/bench_identity.py --rounds 1000 --out benchmarks/results/identity.md
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from ogames.web import Settings, create_app

ORIGIN = {"origin": "http://testserver"}


def token(client: TestClient) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/account").text)
    assert found
    return found.group(1)


def timed(client: TestClient, path: str) -> float:
    started = time.perf_counter()
    answer = client.get(path)
    elapsed = time.perf_counter() - started
    assert answer.status_code == 200
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    settings = Settings(database_url=f"sqlite:///{folder / 'b.sqlite3'}", ai_executor="thread", warm_rules=False,
                        api_rate=1e6, api_burst=1e6, login_failures=1000, login_attempts=1000)
    with TestClient(create_app(settings)) as guest:
        account = TestClient(guest.app)
        account.post("/signup", data={"csrftoken": token(account), "name": "Bench", "password": "bench password",
                                      "again": "bench password"}, headers=ORIGIN)
        assert "Bench" in account.get("/account").text
        game = guest.post("/api/games", json={"game": "omny", "options": {"variant": "y", "size": 5}}).json()["id"]
        lines = [f"# Identity's cost per request ({args.rounds} rounds, in process, one loaded 2-core machine: noisy)", "",
                 "| request | guest median ms | account median ms | difference |", "|---|---|---|---|"]
        for path in ("/", f"/api/games/{game}", "/account"):
            times: dict[str, list[float]] = {"guest": [], "account": []}
            for _ in range(args.rounds):  # interleaved: both see the same machine
                times["guest"].append(timed(guest, path))
                times["account"].append(timed(account, path))
            g, a = (statistics.median(times[who]) * 1000 for who in ("guest", "account"))
            lines.append(f"| GET {path.replace(game, 'ID')} | {g:.2f} | {a:.2f} | {a - g:+.2f} |")
        logins: dict[str, list[float]] = {"known name, wrong password": [], "unknown name": []}
        for n in range(10):
            for label, name in (("known name, wrong password", "Bench"), ("unknown name", f"Nobody{n}")):
                client = TestClient(guest.app)
                form = {"csrftoken": token(client), "name": name, "password": "not it at all"}
                started = time.perf_counter()
                assert client.post("/login", data=form, headers=ORIGIN).status_code == 401
                logins[label].append(time.perf_counter() - started)
        lines += ["", "| log-in | median ms |", "|---|---|"]
        lines += [f"| {label} | {statistics.median(values) * 1000:.0f} |" for label, values in logins.items()]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
