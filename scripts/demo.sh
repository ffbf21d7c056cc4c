#!/usr/bin/env bash
# Installs what the demo needs into .venv (agui-notebook with its front end, and JupyterLab) and opens
# notebooks/quickstart.ipynb in JupyterLab, where the built-in offline demo agent answers in the chat widget.
# Headless-friendly: prints the URL that opens the notebook. AGUI_DEMO_PORT picks the port (default: a free one);
# extra arguments go to `jupyter lab`.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
log=.venv/demo-install.log
step() { printf '[%s] %s\n' "$1" "$2"; }

ready() {
  # The demo's packages are in .venv, this checkout is the one installed, and the bundle is newer than js/src.
  .venv/bin/python - <<'EOF' 2>/dev/null
import pathlib, sys
import agui_notebook, jupyterlab  # noqa: F401
here = pathlib.Path.cwd().resolve()
package = pathlib.Path(agui_notebook.__file__).resolve().parent
bundle = package / "static" / "widget.js"
sources = [p for p in (here / "js" / "src").rglob("*") if p.is_file()]
fresh = bundle.is_file() and all(p.stat().st_mtime <= bundle.stat().st_mtime for p in sources)
sys.exit(0 if package.parent == here and fresh else 1)
EOF
}

if [ ! -x .venv/bin/python ]; then
  step 1/3 "Creating .venv with $("$python" --version)"
  "$python" -m venv .venv
else
  step 1/3 ".venv is there"
fi
if ready; then
  step 2/3 "agui-notebook and JupyterLab are installed and the front end is built"
else
  step 2/3 "Installing agui-notebook and JupyterLab into .venv and building the front end with npm (a minute or two the first time; full log: $log)"
  started=$SECONDS
  if ! .venv/bin/python -m pip install --disable-pip-version-check -e '.[demo]' >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "The install failed; the whole log is in $log" >&2
    exit 1
  fi
  step 2/3 "Installed $(grep -c '^Collecting' "$log" || true) packages in $((SECONDS - started)) s"
fi

port=${AGUI_DEMO_PORT:-$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
token=$(.venv/bin/python -c 'import secrets; print(secrets.token_hex(16))')
notebook=lab/tree/notebooks/quickstart.ipynb
root_flag=()
if [ "$(id -u)" -eq 0 ]; then root_flag=(--allow-root); fi
step 3/3 "Starting JupyterLab on 127.0.0.1:$port (its log: .venv/demo-jupyter.log)"
.venv/bin/jupyter lab --no-browser --ip=127.0.0.1 --port="$port" --ServerApp.port_retries=0 \
  --IdentityProvider.token="$token" --ServerApp.root_dir="$PWD" --ServerApp.default_url="/$notebook" \
  "${root_flag[@]}" "$@" >.venv/demo-jupyter.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null' INT TERM EXIT
for _ in $(seq 1 240); do
  if ! kill -0 "$server" 2>/dev/null; then
    tail -n 30 .venv/demo-jupyter.log >&2
    echo "JupyterLab exited; its log is .venv/demo-jupyter.log" >&2
    exit 1
  fi
  if .venv/bin/python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/api/status?token=$token', timeout=1)" 2>/dev/null; then
    break
  fi
  sleep 0.5
done
echo
echo "Open the quickstart notebook:"
echo "    http://127.0.0.1:$port/$notebook?token=$token"
echo "Run its cells (Shift+Enter) and chat with the demo agent. Ctrl+C stops JupyterLab."
wait "$server"
