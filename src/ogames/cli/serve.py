"""`ogames serve`: run the web server (FastAPI on uvicorn) and say where to open it."""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from ogames.web.core.settings import (
    DATABASE_ENV,
    REDIS_ENV,
    SQLITE_SHARED_ENV,
    SUPERVISED_ENV,
    default_database_url,
    default_redis_url,
    default_sqlite_shared,
)

WS_MAX_BYTES = 65536  # the server refuses larger WebSocket frames; the app refuses messages over its own limit

app = typer.Typer(add_completion=False)


def address(host: str, port: int) -> str:
    """The address a person opens for a host and port (a wildcard host is shown as loopback)."""
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    try:
        if ipaddress.ip_address(shown).version == 6:
            shown = f"[{shown}]"
    except ValueError:
        pass
    return f"http://{shown}:{port}/"


def _hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    if url.startswith(("redis://", "rediss://", "unix://")):
        scheme, _, rest = url.partition("://")
        return f"{scheme}://{rest.rsplit('@', 1)[-1]}"
    try:
        parsed = make_url(url)
        return url if parsed.password is None else parsed.render_as_string(hide_password=True)
    except Exception:
        return "(the given database URL)"


@app.callback(invoke_without_command=True)
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (127.0.0.1: this computer only)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(help=f"SQLAlchemy URL of the games database (default: ${DATABASE_ENV}, else a SQLite file)"),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(help=f"Redis URL that keeps several server processes in step (default: ${REDIS_ENV}, else none)"),
    ] = None,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="server processes on this port (more than 1 needs --redis and a shared database)")
    ] = 1,
    share_sqlite: Annotated[
        bool,
        typer.Option(
            "--share-sqlite",
            help=f"let other programs read the SQLite file while serving (an online backup); a file made unwritable "
            f"underneath may then crash the server (default: ${SQLITE_SHARED_ENV}, else the server holds it alone)",
        ),
    ] = False,
) -> None:
    """Start the web server: play every board game in the browser, on one screen or against the computer."""
    import uvicorn

    from ogames.web import create_app
    from ogames.web.core.settings import Settings, default_lease

    url = database or default_database_url()
    redis_url = redis or default_redis_url()
    console = Console(highlight=False, soft_wrap=True)  # each message on one line
    shared = share_sqlite or default_sqlite_shared()
    problem = _database_problem(url, shared)
    if problem:
        console.print(f"[red]error:[/] cannot use the database {escape(_hide_password(url))}: {escape(problem)}")
        raise typer.Exit(1)
    try:
        default_lease()  # read by every server process: a bad value is told here, once, not as a crash
    except ValueError as exc:
        console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(1) from None
    if workers > 1 and not redis_url:
        console.print("[red]error:[/] several workers need --redis URL (or $OGAMES_REDIS_URL) to see each other's moves")
        raise typer.Exit(1)
    if workers > 1 and url.startswith("sqlite"):
        why = "a SQLite file is held by one process"
        console.print(f"[red]error:[/] several workers need a database server (--database postgresql://…): {why}")
        raise typer.Exit(1)
    problem = _redis_problem(redis_url) if redis_url else None
    if problem:
        console.print(f"[red]error:[/] cannot use Redis at {escape(_hide_password(redis_url or ''))}: {escape(problem)}")
        raise typer.Exit(1)
    problem = _port_problem(host, port)
    if problem:
        console.print(f"[red]error:[/] {escape(problem)}")
        raise typer.Exit(1)
    try:  # the settings the environment gives ($OGAMES_…), checked before anything starts
        settings = Settings(database_url=url, redis_url=redis_url, sqlite_shared=shared)
    except ValueError as exc:
        console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(1) from None
    together = f" · {workers} workers in step through Redis" if workers > 1 else (" · in step through Redis" if redis_url else "")
    console.print(f"[bold]ogames[/] web server · games stored in {escape(_hide_password(url))}{together}")
    console.print(f"open [bold]{escape(address(host, port))}[/] in a browser (Ctrl+C stops the server)")
    common: dict[str, Any] = {"host": host, "port": port, "ws_max_size": WS_MAX_BYTES, "log_level": "info"}
    common["server_header"] = False
    if workers == 1:
        uvicorn.run(create_app(settings), **common)
        return
    # uvicorn's workers each import the app afresh: they read their settings from the environment.
    os.environ[DATABASE_ENV] = url
    os.environ[REDIS_ENV] = redis_url or ""
    os.environ[SUPERVISED_ENV] = "1"  # each server process ends with uvicorn's supervisor, even a killed one
    uvicorn.run("ogames.web.app:create_app", factory=True, workers=workers, **common)


def _redis_problem(url: str) -> str | None:
    """Why Redis cannot be used (no driver, not answering), or None: one line before starting."""
    try:
        import redis
    except ImportError:
        return "a Redis URL needs the redis driver: pip install 'ogames[scale]'"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # any connection error: one line for the person
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    return None


def _database_problem(url: str, shared: bool = False) -> str | None:
    """Why the games database cannot be opened, brought up to date and written, or None: checked
    before the server starts, so a bad URL, a missing folder, a read-only or locked file is one
    line, not a startup traceback."""
    from ogames.web.core.store import Store
    from ogames.web.core.store_faults import StorageError

    try:
        Store(url, shared=shared).close()
    except ModuleNotFoundError as exc:
        return f"its driver {exc.name or ''} is not installed (PostgreSQL: pip install 'ogames[scale]')"
    except StorageError as exc:
        if exc.kind == "busy":
            return f"another program is using it (another ogames server?): {exc.detail}"
        return str(exc)
    except Exception as exc:  # any driver's error: the person needs its message, not its trace
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    return None


def _port_problem(host: str, port: int) -> str | None:
    """Why the server cannot listen on a host and port (most often: another program listens
    there), or None. Tried as uvicorn binds (address reuse on, IPv6 sockets IPv6 only), so that a
    busy port is told in one line before the address is printed."""
    try:
        addresses = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"cannot listen on {host}: {exc.strerror}"
    for family, kind, protocol, _, address in addresses:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return f"port {port} on {host} is in use (another server?): choose another with --port"
                return f"cannot listen on {host} port {port}: {exc.strerror}"
    return None
