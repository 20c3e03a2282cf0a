"""The web server's settings: where games are stored and how the computer players run.

Every setting has a default that needs nothing installed or started (SQLite in the user's data
folder); `OGAMES_DATABASE_URL` (any SQLAlchemy URL) overrides the database, and
`OGAMES_REDIS_URL` lets several server processes on one database play together (web/core/bus.py).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

DATABASE_ENV = "OGAMES_DATABASE_URL"
REDIS_ENV = "OGAMES_REDIS_URL"
LEASE_ENV = "OGAMES_BUS_LEASE"
SQLITE_SHARED_ENV = "OGAMES_SQLITE_SHARED"
# Set by `ogames serve --workers N` for its server processes: each exits when uvicorn's supervisor is gone.
SUPERVISED_ENV = "OGAMES_SUPERVISED"
SECRET_ENV = "OGAMES_SECRET_KEY"
SECURE_COOKIES_ENV = "OGAMES_SECURE_COOKIES"
CLAIM_GRACE_ENV = "OGAMES_CLAIM_GRACE"
SWEEP_ENV = "OGAMES_SWEEP_SECONDS"
PUZZLES_ENV = "OGAMES_PUZZLES"
SOCKETS_ENV = "OGAMES_SOCKETS_PER_CLIENT"
GUEST_BAN_ENV = "OGAMES_GUEST_BAN_HOURS"
SIGNUPS_ENV = "OGAMES_SIGNUPS_PER_HOUR"
PAGES_ENV = "OGAMES_PAGES_PER_CLIENT"


def default_database_path() -> Path:
    """Where the SQLite file lives when no URL is given: `$XDG_DATA_HOME/ogames/ogames.sqlite3`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ogames" / "ogames.sqlite3"


def default_database_url() -> str:
    """`OGAMES_DATABASE_URL` if set, else the SQLite file in the user's data folder."""
    url = os.environ.get(DATABASE_ENV, "").strip()
    return url or f"sqlite:///{default_database_path()}"


def default_redis_url() -> str | None:
    """`OGAMES_REDIS_URL` if set (several processes in step through Redis), else None (one process)."""
    return os.environ.get(REDIS_ENV, "").strip() or None


def default_sqlite_shared() -> bool:
    """Whether `OGAMES_SQLITE_SHARED` asks for a SQLite file other programs may open while serving."""
    return os.environ.get(SQLITE_SHARED_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def default_secret() -> str | None:
    """`OGAMES_SECRET_KEY` if set (the key that signs sessions), else None: the database keeps one."""
    return os.environ.get(SECRET_ENV, "").strip() or None


def from_env(name: str, default: str = "") -> str:
    """An environment variable's value, stripped (`default` if unset or empty)."""
    return os.environ.get(name, "").strip() or default


def default_secure_cookies() -> bool:
    """Whether `OGAMES_SECURE_COOKIES` says the site is served over https (cookies marked Secure)."""
    return os.environ.get(SECURE_COOKIES_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def positive_env(name: str, default: float, unit: str = "seconds") -> float:
    """An environment variable's number of seconds (or other `unit`) if set (a positive number), else `default`."""
    text = os.environ.get(name, "").strip()
    try:
        seconds = float(text or default)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise ValueError(f"{name} must be a positive number of {unit}, not {text!r}")
    return seconds


def whole_env(name: str, default: int) -> int:
    """An environment variable's whole number if set (at least 1), else `default`."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not {text!r}")
    return int(text)


def default_lease() -> float:
    """`OGAMES_BUS_LEASE` seconds if set (a positive number), else 10."""
    return positive_env(LEASE_ENV, 10.0)


# The longest the server waits for the database (a lock another client holds, or its turn on a
# SQLite file) before answering "busy" (503): a move is stored in milliseconds.
DEFAULT_BUSY_SECONDS = 2.0

# The longest a board game's computer searches for one move, in seconds, whatever its level: the
# levels are iteration budgets (web/core/computer.py), reached well before this on small boards.
AI_TIME_CAP = 10.0


@dataclass(frozen=True)
class Settings:
    """What `create_app` needs. Tests make their own (a temporary SQLite file, short thinking)."""

    database_url: str = field(default_factory=default_database_url)
    # Redis for several server processes on one database (None: this process is alone), and how
    # long a process's claim on a computer's move or on refereeing an Omiga table lasts unless it
    # renews it (if it dies, another process takes the move or the table over after this).
    redis_url: str | None = field(default_factory=default_redis_url)
    bus_lease_seconds: float = field(default_factory=default_lease)
    # The longest a request waits for the database before it is answered "busy" (503).
    database_busy_seconds: float = DEFAULT_BUSY_SECONDS
    # A SQLite file is held by the server alone (web/core/store.py `make_engine` says why); shared, other
    # programs may read it while the server runs, at the price of a crash if it turns unwritable.
    sqlite_shared: bool = field(default_factory=default_sqlite_shared)
    # How the computer thinks: "process" (worker processes: the server never waits on them) or
    # "thread" (worker threads in the server process, for tests that must not spawn processes).
    # `ai_workers` play the board games' computer moves, each game's at the one that keeps its search
    # (web/core/move_workers.py); Omiga's bots and analyses have workers of their own
    # (web/core/workers.py), so that they never delay a move.
    ai_executor: str = "process"
    ai_workers: int = 1
    # The most seconds the computer searches for one move at any level; tests shorten it.
    ai_time_cap: float = AI_TIME_CAP
    # Live games kept in memory (the least recently used idle ones are dropped and rebuilt on demand).
    max_live_games: int = 500
    # The longest WebSocket message and HTTP request body accepted, in bytes.
    max_message_bytes: int = 4096
    max_body_bytes: int = 65536
    # Load the rules' compiled kernels before serving (see web/core/warm.py); tests may skip it.
    warm_rules: bool = True
    # The largest game record accepted for the replay page (an upload, or a record sent back to
    # draw one of its positions).
    max_record_bytes: int = 524288
    # Analysis (web/boards/analysis.py): the longest search a page may ask for; the workers searching
    # analyses at once; what one client (an address) may ask — seconds of search a minute, and
    # analyses running or waiting at once —; and how many may wait for a worker in all.
    max_analysis_seconds: float = 10.0
    analysis_workers: int = 1
    analysis_quota: float = 30.0
    analysis_per_client: int = 2
    analysis_waiting: int = 4
    # Hints for learners (web/boards/learner_hints.py): how many a casual game of one person against
    # the computer offers, and how long the computer searches for each (within the analysis quota).
    hints_per_game: int = 3
    hint_seconds: float = 2.0
    # The computer's review of a finished board game (web/boards/game_review.py): search iterations
    # and connection-solver positions per position of the game (`ogames.teach.review`).
    review_budget: int = 2000
    review_prove: int = 20_000
    # The puzzles' JSON-lines file (web/puzzles/): `OGAMES_PUZZLES` if set, else the shipped set ("").
    puzzles_path: str = field(default_factory=lambda: os.environ.get(PUZZLES_ENV, "").strip())
    # Seconds from "every person is at an Omiga table" to the signal that starts real-time play.
    omiga_countdown: float = 3.0
    # Ending games no one plays on (web/boards/endings.py, sweeper.py): the seconds a person's page
    # must have been closed before the others may claim the win in a live game, and the seconds
    # between the sweeps that end the correspondence games whose player ran out of days (a game
    # ends at most this long after its deadline).
    claim_grace: float = field(default_factory=lambda: positive_env(CLAIM_GRACE_ENV, 60.0))
    sweep_seconds: float = field(default_factory=lambda: positive_env(SWEEP_ENV, 30.0))
    # The garbage collector (web/core/collector.py): what survives a full collection is frozen out of
    # the next (shorter pauses of every game's moves), and given back to it every this many seconds
    # (the longest cyclic garbage among long-lived objects waits to be freed); 0: CPython's own policy.
    gc_unfreeze_seconds: float = 900.0
    # Rate limits (web/limits.py): WebSocket messages per connection — `ws_rate` a second, bursts
    # of `ws_burst`, the connection closed after `ws_strikes` refusals in a row — and JSON API
    # requests per client address (`api_burst` in any `api_burst / api_rate` seconds, counted in
    # Redis when `redis_url` is set). A person clicks a few times a second at most.
    ws_rate: float = 10.0
    ws_burst: float = 30.0
    ws_strikes: int = 20
    api_rate: float = 20.0
    api_burst: float = 100.0
    # Pages (every HTTP route but the API's and the static files) per client address: a person
    # opens a few a second at most; a flood from one address would slow every other visitor
    # (benchmarks/results/page-flood.md).
    # ($OGAMES_PAGES_PER_CLIENT sets the burst: a load test from one address raises it.)
    page_rate: float = 20.0
    page_burst: float = field(default_factory=lambda: float(whole_env(PAGES_ENV, 200)))
    # WebSockets one client address may hold open at once in a process (web/core/socket_cap.py;
    # $OGAMES_SOCKETS_PER_CLIENT: a load test from one address raises it).
    sockets_per_client: int = field(default_factory=lambda: whole_env(SOCKETS_ENV, 64))
    # What one visitor may say in the games' chats: `chat_burst` messages in any `chat_burst /
    # chat_rate` seconds (web/chat/routes.py), whatever the game and the server process.
    chat_rate: float = 0.5
    chat_burst: float = 5.0
    # What one visitor may post in the lobby (web/lobby/lobby.py): `seek_burst` seeks and challenges
    # in any `seek_burst / seek_rate` seconds, whatever the server process (cancelled ones count too).
    seek_rate: float = 0.2
    seek_burst: float = 10.0
    # How long an operator's ban of a guest also refuses every guest from the client addresses it
    # chatted from (web/chat/records.py; $OGAMES_GUEST_BAN_HOURS): a guest clearing its cookies is
    # a new guest at the same address. Accounts from there are never refused.
    guest_ban_hours: float = field(default_factory=lambda: positive_env(GUEST_BAN_ENV, 24.0, "hours"))
    # Identity (web/accounts/): the key signing session and CSRF cookies (None: one the database
    # keeps, made by the first server), whether cookies are marked Secure (the site is served over
    # https, as behind a reverse proxy with TLS), and the log-in's guard against guessing: a name
    # is locked after `login_failures` wrong passwords within `login_window` seconds (until the
    # oldest leaves the window), and one address may try `login_attempts` log-ins in that time.
    secret_key: str | None = field(default_factory=default_secret)
    secure_cookies: bool = field(default_factory=default_secure_cookies)
    login_failures: int = 5
    login_attempts: int = 30
    login_window: int = 900
    # Sign-ups one address may try in an hour (each hashes a password; $OGAMES_SIGNUPS_PER_HOUR:
    # a load test signing up its players from one address raises it, a club behind one address too).
    signups_per_hour: int = field(default_factory=lambda: whole_env(SIGNUPS_ENV, 20))
    # Notifications by e-mail (web/notify/, docs/deploy.md): the SMTP server the mails go through
    # (no host: no mails, and the account page offers none), its port, log-in, the sender's
    # address, `tls` "none", "starttls" or "tls", and the site's address the mails' links start with.
    smtp_host: str = field(default_factory=lambda: from_env("OGAMES_SMTP_HOST"))
    smtp_port: int = field(default_factory=lambda: int(from_env("OGAMES_SMTP_PORT", "587")))
    smtp_user: str = field(default_factory=lambda: from_env("OGAMES_SMTP_USER"))
    smtp_password: str = field(default_factory=lambda: from_env("OGAMES_SMTP_PASSWORD"))
    smtp_from: str = field(default_factory=lambda: from_env("OGAMES_SMTP_FROM", "ogames@localhost"))
    smtp_tls: str = field(default_factory=lambda: from_env("OGAMES_SMTP_TLS", "starttls"))
    site_url: str = field(default_factory=lambda: from_env("OGAMES_SITE_URL", "http://127.0.0.1:8000"))
    # Web Push: whether a subscription's endpoint may be plain http or a local address (tests' fake
    # push service only; a real one is always https on the Internet).
    push_local_endpoints: bool = False

    def __post_init__(self) -> None:
        if self.ai_executor not in ("process", "thread"):
            raise ValueError(f"ai_executor must be 'process' or 'thread', not {self.ai_executor!r}")
        if not self.ai_time_cap > 0:
            raise ValueError("ai_time_cap must be a positive number of seconds")
        if not 0 < self.database_busy_seconds < math.inf:
            raise ValueError("database_busy_seconds must be a positive number of seconds")
        if not self.bus_lease_seconds > 0:
            raise ValueError("bus_lease_seconds must be a positive number of seconds")
        if not (0 < self.claim_grace < math.inf and 0 < self.sweep_seconds < math.inf):
            raise ValueError("claim_grace and sweep_seconds must be positive numbers of seconds")
        if not 0 <= self.gc_unfreeze_seconds < math.inf:
            raise ValueError("gc_unfreeze_seconds must be 0 (off) or a positive number of seconds")
        if self.ai_workers < 1 or self.analysis_workers < 1:
            raise ValueError("ai_workers and analysis_workers must be at least 1")
        if not self.analysis_quota >= self.max_analysis_seconds:
            raise ValueError("analysis_quota must allow the longest analysis (max_analysis_seconds) at least")
        if self.hints_per_game < 0 or not self.hint_seconds > 0:
            raise ValueError("hints_per_game must not be negative and hint_seconds must be positive")
        if self.review_budget < 1 or self.review_prove < 0:
            raise ValueError("review_budget must be at least 1 and review_prove not negative")
        if self.analysis_per_client < 1 or self.analysis_waiting < 0:
            raise ValueError("analysis_per_client must be at least 1 and analysis_waiting not negative")
        if min(self.ws_rate, self.ws_burst, self.api_rate, self.api_burst, self.page_rate, self.page_burst,
               self.seek_rate, self.seek_burst) <= 0 \
                or self.ws_strikes < 0 or self.sockets_per_client < 1:
            raise ValueError("rate limits must be positive")
        if not 0 < self.guest_ban_hours < math.inf:
            raise ValueError("guest_ban_hours must be a positive number of hours")
        if self.smtp_tls not in ("none", "starttls", "tls"):
            raise ValueError(f"smtp_tls must be 'none', 'starttls' or 'tls', not {self.smtp_tls!r}")
        if min(self.login_failures, self.login_attempts, self.login_window, self.signups_per_hour) < 1:
            raise ValueError("login_failures, login_attempts, login_window and signups_per_hour must be at least 1")
