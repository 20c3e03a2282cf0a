"""Test collection: the research adapters need optional extras (`rl`: PettingZoo and Gymnasium;
`openspiel`); without them their modules are left out of the doctest collection (their tests
skip themselves). Every test run checks at its end that no test left a process running
(tools/process_guard.py)."""

from __future__ import annotations

import importlib.util

pytest_plugins = ["process_guard", "pytester"]  # process_guard: tools/, on pytest's pythonpath

collect_ignore: list[str] = []
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("gymnasium") is None:
    collect_ignore += ["src/ogames/envs/aec.py", "src/ogames/envs/gym.py"]
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/ogames/envs/openspiel.py")

