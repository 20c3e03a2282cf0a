#!/usr/bin/env bash
# Set everything up and start the main job: the web server on 127.0.0.1 with SQLite (it prints the
# address to open). Any arguments run that ogames command instead, e.g. `scripts/start.sh play omny`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "$#" -eq 0 ]; then
  set -- serve
fi
exec .venv/bin/ogames "$@"
