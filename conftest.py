"""Test collection: the research adapters need optional extras (`rl`: PettingZoo and Gymnasium;
`openspiel`); without them their modules are left out of the doctest collection (their tests
skip themselves). Every test run checks at its end that no test left a process running
(tools/process_guard.py); hypothesis's settings profiles are chosen here (docs/testing.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

pytest_plugins = ["process_guard", "pytester"]  # process_guard: tools/, on pytest's pythonpath

collect_ignore: list[str] = []
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("gymnasium") is None:
    collect_ignore += ["src/ogames/envs/aec.py", "src/ogames/envs/gym.py"]
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/ogames/envs/openspiel.py")

# Hypothesis (docs/testing.md). Property tests check behaviour, never speed: no deadline, and no
# health check that a busy machine's slowness trips. A developer's run keeps the examples that
# failed in the checkout's .hypothesis/ (ignored by git) and tries them first next time, until
# the code is right; CI (hypothesis's "ci" profile: chosen when $CI is set, and by .ci/run) reads
# and writes no saved examples and derandomizes, so its verdict depends on the code alone.
_PATIENT = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
_EXAMPLES = DirectoryBasedExampleDatabase(str(Path(__file__).parent / ".hypothesis" / "examples"))
settings.register_profile("default", settings.get_profile("default"), database=_EXAMPLES, **_PATIENT)
settings.register_profile("ci", settings.get_profile("ci"), **_PATIENT)
