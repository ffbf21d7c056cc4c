"""The Quick start's first command: ``scripts/demo.sh`` prints a URL that opens the quickstart notebook itself."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.chromium import chromium_browser
from tests.support.loopback import free_port

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"^\s+(http://127\.0\.0\.1:\d+/lab/tree/notebooks/quickstart\.ipynb\?token=[0-9a-f]+)$")
START_TIMEOUT = 180.0


def _start_demo(tmp_path: Path) -> tuple[subprocess.Popen[str], list[str], str]:
    """Run demo.sh with Jupyter's folders in ``tmp_path``; return it, its output so far and the URL it printed."""
    env = {
        **os.environ,
        "AGUI_DEMO_PORT": str(free_port()),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"),
    }
    process = subprocess.Popen(
        [
            "bash",
            "scripts/demo.sh",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    output: list[str] = []
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break  # the script ended
        output.append(line.rstrip("\n"))
        match = URL.match(output[-1])
        if match:
            return process, output, match[1]
    _stop(process)
    pytest.fail("demo.sh printed no quickstart URL:\n" + "\n".join(output))


def _stop(process: subprocess.Popen[str]) -> int:
    """Ctrl+C, as a user stops it; the script must take JupyterLab down with it."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    return process.returncode


def test_the_demo_url_opens_the_quickstart_notebook(tmp_path: Path, artifacts_dir: Path) -> None:
    process, output, url = _start_demo(tmp_path)
    try:
        steps = [line for line in output if re.match(r"^\[\d/3\] ", line)]
        assert [s[:5] for s in steps] == ["[1/3]", "[2/3]", "[3/3]"], output
        with chromium_browser() as browser:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.set_default_timeout(90_000)
            page.goto(url, wait_until="domcontentloaded")
            page.locator(".jp-NotebookPanel:visible .jp-Cell").first.wait_for()
            assert page.url.split("?")[0].endswith("/lab/tree/notebooks/quickstart.ipynb")
            tab = page.locator(".jp-NotebookPanel:visible")
            tab.locator(".jp-MarkdownCell h1", has_text="Quick start: a live chat").wait_for()
            page.screenshot(path=str(artifacts_dir / "demo-script-opens-quickstart.png"))
    finally:
        _stop(process)
    port = int(url.split(":")[2].split("/")[0])
    with pytest.raises(OSError):
        import urllib.request

        urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=2)
