"""How `ray_runner.connect` reads --ray, against a stand-in for the ray module (no Ray instance is
started: the real one is exercised by test_arena_ray.py): auto joins a running cluster or starts
one here, local always starts one, a connection made before is reused and left open, and Ray's
native warnings stay off the terminal while connecting."""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace

import pytest

from ogames.arena import ray_runner


class FakeRay:
    """Records ray.init calls; `running` says whether "auto" finds a cluster."""

    def __init__(self, running: bool, initialized: bool = False):
        self.running = running
        self.initialized = initialized
        self.calls: list[dict] = []
        self.shut_down = False
        self.exceptions = SimpleNamespace(RayError=RuntimeError)

    def is_initialized(self) -> bool:
        return self.initialized

    def init(self, address=None, **settings) -> None:
        self.calls.append({"address": address, **settings})
        if address == "auto" and not self.running:
            raise ConnectionError("Could not find any running Ray instance.")
        self.initialized = True

    def cluster_resources(self) -> dict:
        return {"CPU": 8.0 if self.running else float(self.calls[-1].get("num_cpus") or 2)}

    def shutdown(self) -> None:
        self.shut_down = True
        self.initialized = False


@pytest.fixture
def fake(monkeypatch):
    def install(**kwargs) -> FakeRay:
        made = FakeRay(**kwargs)
        monkeypatch.setitem(sys.modules, "ray", made)
        return made

    return install


def test_auto_joins_a_running_cluster_and_leaves_it_running(fake):
    ray = fake(running=True)
    with ray_runner.connect("auto", cpus=3) as cluster:
        assert cluster.describe() == "Ray (the running cluster, 8 CPUs)"
    assert [c["address"] for c in ray.calls] == ["auto"] and "num_cpus" not in ray.calls[0]
    assert not ray.shut_down


def test_auto_without_a_cluster_starts_one_here_and_stops_it(fake):
    ray = fake(running=False)
    with ray_runner.connect("auto", cpus=3) as cluster:
        assert cluster.started_here and cluster.describe() == "Ray (a local instance, 3 CPUs)"
    assert [c["address"] for c in ray.calls] == ["auto", "local"] and ray.calls[1]["num_cpus"] == 3
    assert ray.shut_down


def test_local_always_starts_a_new_instance(fake):
    ray = fake(running=True)
    with ray_runner.connect("local") as cluster:
        assert cluster.started_here
    assert [c["address"] for c in ray.calls] == ["local"] and ray.calls[0]["include_dashboard"] is False
    assert ray.shut_down


def test_a_connection_made_before_is_used_and_left_open(fake):
    ray = fake(running=True, initialized=True)
    with ray_runner.connect("auto") as cluster:
        assert cluster.reused and cluster.describe() == "Ray (connected already, 8 CPUs)"
    assert ray.calls == [] and not ray.shut_down


def test_a_failing_init_is_one_line(fake):
    ray = fake(running=False)

    def broken(address=None, **settings):
        raise RuntimeError("Ray's own words\nand a second line")

    ray.init = broken
    with pytest.raises(ray_runner.RayUnavailable, match=r"^could not connect to a Ray cluster at local \(Ray's own words\)"):
        with ray_runner.connect("local"):
            pass


def test_native_warnings_stay_off_the_terminal_while_connecting(capfd):
    with ray_runner._native_stderr_silenced():
        os.write(2, b"gcs_client.cc:210: Failed to get cluster ID\n")
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"
