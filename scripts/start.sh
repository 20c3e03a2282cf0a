#!/usr/bin/env bash
# Set everything up and start the main job (for now: terminal play; any ogames arguments pass on).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "$#" -eq 0 ]; then
  set -- play omny --variant y --size 7 --white mcts
fi
exec .venv/bin/ogames "$@"
