"""scripts/setup.sh (run by start.sh and test.sh) installs only when something changed: a stamp in
.venv newer than pyproject.toml and the script means the editable install is current. Run on a
copy of the script with a stand-in Python that records what it is asked to do."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "setup.sh"
STUB = """#!/usr/bin/env bash
echo "$*" >> "$(dirname "$0")/calls.log"
if [ "$1 $2 $3" = "-m pip install" ]; then touch "$(dirname "$0")/ogames"; chmod +x "$(dirname "$0")/ogames"; fi
"""

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPT, tmp_path / "scripts" / "setup.sh")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'ogames'\n")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(STUB)
    python.chmod(0o755)
    # Everything starts an hour old, so that a later "change" is clearly newer.
    for path in (tmp_path / "pyproject.toml", tmp_path / "scripts" / "setup.sh"):
        past = path.stat().st_mtime - 3600
        os.utime(path, (past, past))
    return tmp_path


def setup(checkout: Path, *args: str, **env: str) -> list[str]:
    """Run the copied script; the pip calls it made this time."""
    log = checkout / ".venv" / "bin" / "calls.log"
    before = log.read_text().splitlines() if log.exists() else []
    subprocess.run(["bash", str(checkout / "scripts" / "setup.sh"), *args], check=True, env={**os.environ, **env})
    after = log.read_text().splitlines() if log.exists() else []
    return [call for call in after[len(before) :] if "pip install" in call]


def test_first_run_installs_and_later_runs_do_not(checkout: Path) -> None:
    assert any("-e ." in call for call in setup(checkout))
    assert (checkout / ".venv" / ".ogames-installed").exists()
    assert setup(checkout) == []
    assert setup(checkout) == []


def test_a_changed_pyproject_installs_again(checkout: Path) -> None:
    setup(checkout)
    (checkout / "pyproject.toml").write_text("[project]\nname = 'ogames'\ndependencies = ['rich']\n")
    stamp = checkout / ".venv" / ".ogames-installed"
    installed = stamp.stat().st_mtime - 100
    os.utime(stamp, (installed, installed))
    os.utime(checkout / "pyproject.toml", (installed + 50, installed + 50))  # edited after the install
    assert setup(checkout) != []
    assert setup(checkout) == []


def test_the_test_tools_are_their_own_install_and_serve_a_plain_start(checkout: Path) -> None:
    setup(checkout)
    assert any('-e .[test,openspiel,rl,ray,scale]' in call for call in setup(checkout, "test"))
    assert setup(checkout, "test") == []
    assert setup(checkout) == []


def test_a_test_install_first_also_serves_start(checkout: Path) -> None:
    setup(checkout, "test")
    assert setup(checkout) == []


def test_a_missing_command_or_a_forced_reinstall_installs(checkout: Path) -> None:
    setup(checkout)
    (checkout / ".venv" / "bin" / "ogames").unlink()
    assert setup(checkout) != []
    assert setup(checkout, OGAMES_REINSTALL="1") != []
    assert setup(checkout) == []
