#!/usr/bin/env bash
# Set everything up, lint, type-check and run the whole test suite with the doctests (what CI runs).
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
# Warm numba's on-disk cache once, so parallel workers do not all compile the same kernels.
.venv/bin/python -c "import ogames, ogames.rules; [ogames.load(n) for n in ogames.rules.available()]" >/dev/null 2>&1 || true
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
