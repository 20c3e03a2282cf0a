"""--ray mistakes get one clear line and start nothing: a malformed address, an address where no
cluster answers, and Ray not installed at all (these need no Ray instance, so none is started)."""

from __future__ import annotations

import socket
import sys

import pytest
from typer.testing import CliRunner

from ogames.arena import ray_runner
from ogames.cli.app import app
from ogames.errors import BadOption

PLAY = ["omny", "--variant", "y", "--size", "4", "--players", "random", "random:seed=1", "--games-per-pair", "2"]


def tournament(*extra: str, out) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["tournament", *PLAY, *extra, "--out", str(out)])
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stderr


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("address", ["nowhere", "host:", "a b:1", "10.0.0.1:99999", "http://x:1"])
def test_a_malformed_address_is_refused_before_anything_starts(address, tmp_path):
    with pytest.raises(BadOption, match="use auto, local, HOST:PORT or ray://HOST:PORT"):
        ray_runner.parse_address(address)
    code, stderr = tournament("--ray", address, out=tmp_path / "t")
    assert code == 2 and "use auto, local, HOST:PORT" in stderr and not (tmp_path / "t").exists()


def test_an_address_where_nobody_answers_is_one_line(tmp_path):
    pytest.importorskip("ray")
    port = free_port()
    code, stderr = tournament("--ray", f"127.0.0.1:{port}", out=tmp_path / "t")
    assert code == 1 and f"no Ray cluster answers at 127.0.0.1:{port}" in stderr and "ray start --head" in stderr
    assert len(stderr.strip().splitlines()) <= 2 and not (tmp_path / "t").exists()
    import ray

    assert not ray.is_initialized()


@pytest.mark.parametrize("command", ["tournament", "selfplay"])
def test_without_ray_installed_the_option_says_how_to_get_it(command, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets when Ray is not installed
    if command == "tournament":
        code, stderr = tournament("--ray", "auto", out=tmp_path / "t")
    else:
        args = ["selfplay", "oddy", "--size", "3", "--player", "random", "--games", "1", "--ray", "auto"]
        result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "t")])
        code, stderr = result.exit_code, result.stderr
        assert "Traceback" not in result.stdout + stderr
    assert code == 1 and 'pip install "ogames[ray]"' in stderr and not (tmp_path / "t").exists()


def test_the_local_runner_needs_no_ray(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    code, stderr = tournament("--workers", "1", out=tmp_path / "t")
    assert code == 0, stderr

