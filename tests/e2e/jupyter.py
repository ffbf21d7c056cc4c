"""A real Jupyter server for the end-to-end tests, and driving a notebook in it as a person would."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.chromium import require_chromium
from tests.support.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "agui_notebook" / "static" / "widget.js"
START_TIMEOUT = 120.0  # JupyterLab on a busy 2-core machine
UI_TIMEOUT_MS = 90_000


@dataclass
class Lab:
    """A running Jupyter server: JupyterLab, or Notebook 7 (``documents`` is where a notebook opens)."""

    url: str
    token: str
    process: subprocess.Popen[bytes]
    log: Path
    documents: str = "/lab/tree"

    def api(self, path: str, method: str = "GET") -> Any:
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None


def notebook_json(cells: list[str]) -> dict[str, Any]:
    """A notebook of code cells holding ``cells``, for the Python 3 kernel."""

    def cell(index: int, source: str) -> dict[str, Any]:
        return {
            "cell_type": "code",
            "execution_count": None,
            "id": f"cell-{index}",
            "metadata": {},
            "outputs": [],
            "source": source,
        }

    return {
        "cells": [cell(index, source) for index, source in enumerate(cells)],
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def quiet_settings(settings: Path) -> None:
    """No news or update pop-ups over the notebook."""
    target = settings / "@jupyterlab" / "apputils-extension"
    target.mkdir(parents=True, exist_ok=True)
    (target / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )


def stop_server(lab: Lab) -> None:
    """Shut the server (and its kernels) down through the API, then make sure its process group is gone."""
    if lab.process.poll() is None:
        with contextlib.suppress(urllib.error.URLError, OSError):
            lab.api("/api/shutdown", method="POST")
        try:
            lab.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(lab.process.pid, signal.SIGTERM)
            try:
                lab.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(lab.process.pid, signal.SIGKILL)
                lab.process.wait(timeout=10)


def ensure_bundle() -> None:
    """Build the front end when it is missing or older than its sources (what the notebook will load)."""
    sources = [p for p in (ROOT / "js" / "src").rglob("*") if p.is_file()]
    if BUNDLE.is_file() and all(p.stat().st_mtime <= BUNDLE.stat().st_mtime for p in sources):
        return
    npm = shutil.which("npm")
    if npm is None or not (ROOT / "js" / "node_modules").is_dir():
        pytest.fail(f"{BUNDLE} is missing or stale and npm/js/node_modules are not there to build it")
    built = subprocess.run(
        [npm, "run", "build"], cwd=ROOT / "js", capture_output=True, text=True, check=False
    )
    if built.returncode != 0:
        pytest.fail(f"npm run build failed:\n{built.stdout}\n{built.stderr}")


def start_server(
    base: Path,
    app: str,
    notebooks: dict[str, dict[str, Any]],
    *,
    python: Path = Path(sys.executable),
    env: dict[str, str] | None = None,
) -> Lab:
    """Start ``python -m {app}`` (jupyterlab or notebook) on a free port of 127.0.0.1 with a fresh token.

    ``notebooks`` (name to notebook JSON) are written to its root folder. The server runs with ``env`` if given
    (else this process's environment with the checkout importable), and Jupyter's folders inside ``base``.
    """
    root = base / "notebooks"
    root.mkdir(parents=True)
    for name, notebook in notebooks.items():
        (root / name).write_text(json.dumps(notebook, indent=1))
    settings = base / "settings"
    if app == "jupyterlab":  # Notebook 7 shows no news pop-up (and trips over these settings: a page error)
        quiet_settings(settings)
    port = free_port()
    token = secrets.token_hex(16)
    if env is None:
        env = {
            **os.environ,
            "PATH": f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
        }
    env = {
        **env,
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        "JUPYTER_DATA_DIR": str(base / "data"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
    }
    log = base / f"{app}.log"
    command = [
        str(python), "-m", app, "--no-browser", "--allow-root",
        f"--ServerApp.token={token}", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port_retries=0", f"--ServerApp.root_dir={root}",
    ]  # fmt: skip
    if app == "jupyterlab":
        command += ["--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    running = Lab(
        url=f"http://127.0.0.1:{port}",
        token=token,
        process=process,
        log=log,
        documents="/lab/tree" if app == "jupyterlab" else "/notebooks",
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"{app} exited ({process.returncode}):\n{log.read_text()[-4000:]}")
            try:
                running.api("/api/status")
                return running
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"{app} did not answer within {START_TIMEOUT:.0f} s:\n{log.read_text()[-4000:]}"
                    )
                time.sleep(0.5)
    except BaseException:
        stop_server(running)
        raise


def saved_notebook(lab: Lab, name: str) -> dict[str, Any] | None:
    """The notebook ``name`` as the server has it (its contents model), or None while JupyterLab is writing it
    (the server answers 400 then)."""
    try:
        saved: dict[str, Any] = lab.api(f"/api/contents/{name}?content=1")
    except urllib.error.HTTPError:
        return None
    return saved


def kernel_idle(lab: Lab) -> bool:
    sessions = lab.api("/api/sessions")
    return bool(sessions) and all(s["kernel"]["execution_state"] == "idle" for s in sessions)


def wait_for(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.25)


def run_cell_containing(page: Any, text: str) -> Any:
    """Run the code cell holding ``text`` and wait until the kernel has executed it (its prompt shows a number).

    A click can land before the freshly opened notebook takes keyboard input; the run is then tried again.
    """
    cell = page.locator(".jp-NotebookPanel .jp-CodeCell", has_text=text).first
    prompt = cell.locator(".jp-InputPrompt")
    for _ in range(3):
        cell.locator(".cm-content").click()
        page.keyboard.press("Shift+Enter")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if any(ch.isdigit() for ch in prompt.inner_text()):
                return cell
            time.sleep(0.25)
    raise AssertionError(f"the cell holding {text!r} did not run")


def open_chat(browser: Any, lab: Lab, notebook: str, cells: list[str], height: int) -> tuple[Any, list[str]]:
    """Open ``notebook`` in JupyterLab, run the cells holding ``cells`` and wait for a ready chat widget.

    Returns the page and the list that collects the page's script errors.
    """
    page = browser.new_page(viewport={"width": 1280, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{error}\n{error.stack}"))
    page.set_default_timeout(UI_TIMEOUT_MS)
    reset = "reset&" if lab.documents == "/lab/tree" else ""
    page.goto(f"{lab.url}{lab.documents}/{notebook}?{reset}token={lab.token}", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell .cm-content")
    wait_for(lambda: kernel_idle(lab), START_TIMEOUT, "the notebook's kernel to be idle")
    for text in cells:
        run_cell_containing(page, text)
    page.locator("[data-agui=input]").wait_for(state="visible")
    page.wait_for_selector(".agui-chat[data-status=ready]")
    return page, errors


@contextlib.contextmanager
def serving(
    base: Path, app: str, notebooks: dict[str, dict[str, Any]], *, env: dict[str, str] | None = None
) -> Iterator[Lab]:
    """A server for a test module: Chromium and the bundle are checked first (a skip, or a failure in CI, before
    paying for a start), and the server is stopped after."""
    require_chromium()
    ensure_bundle()
    running = start_server(base, app, notebooks, env=env)
    try:
        yield running
    finally:
        stop_server(running)


def notebook7_settings_error(error: str) -> bool:
    """Notebook 7's own page error on start (its settings schema read before it loads), not ours."""
    frames = [line for line in error.splitlines()[1:] if line.strip().startswith("at ")]
    return "(reading 'schema')" in error.splitlines()[0] and all(
        "/static/notebook/" in line or "Promise.all" in line for line in frames
    )
