#!/usr/bin/env bash
# Make (or reuse) the project's virtual environment in .venv and install ogames into it.
# Usage: scripts/setup.sh [extra]   (extra: "test" adds the test tools)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
if [ "${1:-}" = "test" ]; then
  .venv/bin/python -m pip install --quiet -e ".[test]"
else
  .venv/bin/python -m pip install --quiet -e .
fi
