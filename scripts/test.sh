#!/usr/bin/env bash
# Set everything up, lint, type-check and run the whole test suite with the doctests (what CI runs).
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
# Compile every kernel once into numba's on-disk cache (rules, search, Omiga's bots), so that the
# parallel test processes and the servers they start load them instead of all compiling at once.
.venv/bin/python tools/warm_kernels.py || echo "warming the kernels failed: the tests will say why"
# The code stays lint-clean (ruff) and type-clean (mypy); settings for both are in
# pyproject.toml. A lint or type failure fails the run.
.venv/bin/ruff check .
.venv/bin/mypy
status=0
# The tests, the docstring examples of src/ogames and the README's example (pyproject.toml: testpaths, --doctest-modules).
.venv/bin/python -m pytest -n 2 "$@" || status=$?
# pytest exits 5 when it collected no tests: not a failure of the project.
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests"
  status=0
fi
exit "$status"
