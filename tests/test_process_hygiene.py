"""The test run's own hygiene, tried on small pytest runs of their own (pytester, in a subprocess):
a hung test fails at its timeout and its fixtures still end the processes they started, and a
test that leaves a process running fails the run, which names and ends it (tools/process_guard.py)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import psutil
import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"


@pytest.fixture(autouse=True)
def tools_on_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The inner runs import the tools (process_groups, process_guard)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TOOLS), os.environ.get("PYTHONPATH")])))


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    pytester.makeini("[pytest]\n")  # this folder is the inner run's root: none of the project's options
    return pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider", *args, timeout=180)


def running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def end(pid: int) -> None:
    with contextlib.suppress(psutil.NoSuchProcess):
        psutil.Process(pid).kill()


def test_a_hung_test_fails_at_its_timeout_and_its_fixture_still_ends_its_process(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pathlib, time
        import pytest
        import process_groups

        @pytest.fixture
        def helper():
            process = process_groups.spawn(["sleep", "300"])
            pathlib.Path("helper.pid").write_text(str(process.pid))
            yield process
            process_groups.end(process)
            pathlib.Path("helper.ended").write_text(str(process.returncode))

        def test_hangs(helper):
            time.sleep(300)
        """
    )
    result = run(pytester, "--timeout=3", "--timeout-method=signal")
    pid = int((pytester.path / "helper.pid").read_text())
    try:
        result.assert_outcomes(failed=1)
        assert "Timeout" in result.stdout.str()
        assert (pytester.path / "helper.ended").read_text() == "-15"  # ended by its fixture, with SIGTERM
        assert not running(pid)
    finally:
        end(pid)


def test_a_process_left_running_fails_the_run_and_is_ended(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pathlib, subprocess

        def test_leaves_one_behind():
            process = subprocess.Popen(["sleep", "300"])
            pathlib.Path("left.pid").write_text(str(process.pid))

        def test_ends_its_own():
            process = subprocess.Popen(["sleep", "300"])
            process.kill()
            process.wait()
        """
    )
    result = run(pytester, "-p", "process_guard")
    pid = int((pytester.path / "left.pid").read_text())
    try:
        result.assert_outcomes(passed=2, errors=1)
        output = result.stdout.str()
        assert "left 1 process(es) running" in output and f"{pid} sleep 300" in output
        assert not running(pid)
    finally:
        end(pid)


def test_a_clean_run_passes_the_check(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import process_groups

        def test_starts_and_ends_a_group():
            process = process_groups.spawn(["bash", "-c", "sleep 300 & sleep 300 & wait"])
            process_groups.end(process, kill=True)  # as a crash would: the sleeps are orphans, then ended
            assert process.returncode == -9 and not process_groups.group_alive(process.pid)
        """
    )
    run(pytester, "-p", "process_guard").assert_outcomes(passed=1)
