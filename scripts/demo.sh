#!/usr/bin/env bash
# Sets up .venv (Python deps, front-end bundle) and opens notebooks/quickstart.ipynb in JupyterLab, where the
# built-in offline demo agent answers in the chat widget. Headless-friendly: prints the URL to open.
# Extra arguments go to `jupyter lab` (e.g. --port 8899).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo
echo "Starting JupyterLab on notebooks/quickstart.ipynb; open the http://127.0.0.1:... URL printed below."
echo
root_flag=()
if [ "$(id -u)" -eq 0 ]; then root_flag=(--allow-root); fi
exec .venv/bin/jupyter lab notebooks/quickstart.ipynb --no-browser --ip=127.0.0.1 --ServerApp.root_dir="$PWD" \
  "${root_flag[@]}" "$@"
