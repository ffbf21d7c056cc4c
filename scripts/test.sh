#!/usr/bin/env bash
# Sets up everything the tests need (venv, npm references, front-end bundle, Chromium) and runs them all:
# ruff, then pytest over tests/ and the notebooks (nbval). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-chromium.sh || echo "warning: Chromium could not be installed; browser tests will not run" >&2
bash scripts/setup.sh
.venv/bin/ruff check agui_notebook tests bench
# The notebooks' demo agent streams without pauses under test; nbval compares their stored outputs.
export AGUI_DEMO_SPEED=0
exec .venv/bin/python -m pytest --nbval --nbval-current-env \
  --nbval-sanitize-with notebooks/nbval_sanitize.cfg "$@"
