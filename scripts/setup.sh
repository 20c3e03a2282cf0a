#!/usr/bin/env bash
# Make (or reuse) the project's virtual environment in .venv and install ogames into it.
# Usage: scripts/setup.sh [extra]   (extra: "test" adds the test tools and the openspiel, rl, ray and scale extras)
# The install is editable, so code changes need no reinstall: pip runs only when the environment
# is new, pyproject.toml (dependencies, entry points) or this script changed since the last
# successful install (a stamp file in .venv records it), or OGAMES_REINSTALL=1 is set.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRA=${1:-}
STAMP=".venv/.ogames-installed${EXTRA:+-$EXTRA}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# Whether an install recorded by a stamp is still current.
current() {
  [ -f "$1" ] && [ "$1" -nt pyproject.toml ] && [ "$1" -nt scripts/setup.sh ]
}
if [ "${OGAMES_REINSTALL:-0}" != "1" ] && [ -x .venv/bin/ogames ]; then
  # An install with the test tools serves a plain start as well.
  if current "$STAMP" || { [ -z "$EXTRA" ] && current .venv/.ogames-installed-test; }; then
    exit 0
  fi
fi
.venv/bin/python -m pip install --quiet --upgrade pip
if [ "$EXTRA" = "test" ]; then
  # The tests also check our Game of Y against OpenSpiel's move by move and run the research
  # adapters (OpenSpiel, PettingZoo, Gymnasium), tournaments on a local Ray instance, and the
  # multi-worker test's PostgreSQL and Redis drivers, so they install those optional extras too
  # (never needed to play).
  .venv/bin/python -m pip install --quiet -e ".[test,openspiel,rl,ray,scale]"
else
  .venv/bin/python -m pip install --quiet -e .
fi
touch "$STAMP"
