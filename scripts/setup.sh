#!/usr/bin/env bash
# Sets up a development environment in .venv: Python deps, the npm references and the bundled front end.
# Idempotent: re-running only installs what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
# `pip install -e` runs npm install + the esbuild bundle through hatch-jupyter-builder.
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
# The reference implementations (ai, @ag-ui/client) used by differential tests are npm dev dependencies.
(cd js && npm install --no-audit --no-fund --loglevel=error)
