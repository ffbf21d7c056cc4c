"""End to end: a real JupyterLab, a notebook whose cell shows a ChatWidget, driven in Chromium like a user would.

The test starts JupyterLab on 127.0.0.1 (random port and token, a temporary notebook directory and settings),
runs the cell, types a message, watches reasoning, a tool call and markdown stream in, approves the tool call and
checks the final DOM and the kernel's view of the conversation. The same conversation then runs in Jupyter
Notebook 7. Screenshots go to tests/artifacts/e2e-*.png.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
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

from tests.support.chromium import chromium_browser, require_chromium
from tests.support.demo_expectations import RESUMED_PART_TYPES

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUNDLE = ROOT / "agui_notebook" / "static" / "widget.js"
START_TIMEOUT = 120.0  # JupyterLab on a busy 2-core machine
QUICKSTART_SPEED = "0.3"
UI_TIMEOUT_MS = 90_000

NOTEBOOK_CELLS = [
    f"""import sys
sys.path.insert(0, {str(HERE)!r})
from demo_agent import demo_agent
from agui_notebook.widget._chat import ChatWidget

chat = ChatWidget(demo_agent, title="agui-notebook end-to-end", height=620)
chat""",
    """print("KERNEL", chat.status, [m["role"] for m in chat.messages],
      [p.get("state") for p in chat.messages[-1]["parts"] if p["type"].startswith("tool-")])""",
]


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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _notebook() -> dict[str, Any]:
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
        "cells": [cell(index, source) for index, source in enumerate(NOTEBOOK_CELLS)],
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _quiet_settings(settings: Path) -> None:
    """No news or update pop-ups over the notebook."""
    target = settings / "@jupyterlab" / "apputils-extension"
    target.mkdir(parents=True, exist_ok=True)
    (target / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )


def _stop(lab: Lab) -> None:
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


def _ensure_bundle() -> None:
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


def _start_server(base: Path, app: str) -> Lab:
    """Start ``python -m {app}`` (jupyterlab or notebook) on a free port of 127.0.0.1 with a fresh token."""
    notebooks = base / "notebooks"
    notebooks.mkdir()
    (notebooks / "chat.ipynb").write_text(json.dumps(_notebook(), indent=1))
    shutil.copy(ROOT / "notebooks" / "quickstart.ipynb", notebooks / "quickstart.ipynb")
    settings = base / "settings"
    if app == "jupyterlab":  # Notebook 7 shows no news pop-up (and trips over these settings: a page error)
        _quiet_settings(settings)
    port = _free_port()
    token = secrets.token_hex(16)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
        "AGUI_DEMO_SPEED": QUICKSTART_SPEED,  # the demo agent streams visibly, a few seconds a run
    }
    log = base / f"{app}.log"
    command = [
        sys.executable, "-m", app, "--no-browser", "--allow-root",
        f"--ServerApp.token={token}", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port_retries=0", f"--ServerApp.root_dir={notebooks}",
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
        _stop(running)
        raise


@contextlib.contextmanager
def _serving(tmp_path_factory: pytest.TempPathFactory, app: str) -> Iterator[Lab]:
    require_chromium()  # skip (or fail in CI) before paying for a server start
    _ensure_bundle()
    running = _start_server(tmp_path_factory.mktemp(app), app)
    try:
        yield running
    finally:
        _stop(running)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with _serving(tmp_path_factory, "jupyterlab") as running:
        yield running


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with _serving(tmp_path_factory, "notebook") as running:
        yield running


def _kernel_idle(lab: Lab) -> bool:
    sessions = lab.api("/api/sessions")
    return bool(sessions) and all(s["kernel"]["execution_state"] == "idle" for s in sessions)


def _wait_for(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.25)


def _run_cell_containing(page: Any, text: str) -> Any:
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


def _open_chat(browser: Any, lab: Lab, notebook: str, cells: list[str], height: int) -> tuple[Any, list[str]]:
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
    _wait_for(lambda: _kernel_idle(lab), START_TIMEOUT, "the notebook's kernel to be idle")
    for text in cells:
        _run_cell_containing(page, text)
    page.locator("[data-agui=input]").wait_for(state="visible")
    page.wait_for_selector(".agui-chat[data-status=ready]")
    return page, errors


DELETE_FILE_PART_TYPES = ["step-start", "reasoning", "text", "tool-delete_file", "step-start", "text"]
"""The assistant message of the demo_agent conversation once the deletion was approved."""


def _part_types(message: Any) -> list[str]:
    return message.locator("[data-part-type]").evaluate_all(
        "nodes => nodes.map(node => node.dataset.partType)"
    )


def test_chat_widget_in_jupyterlab(lab: Lab, artifacts_dir: Path) -> None:
    with chromium_browser() as browser:
        page, errors = _open_chat(browser, lab, "chat.ipynb", ["ChatWidget(demo_agent"], height=1000)
        chat = page.locator(".agui-chat")
        prompt = page.locator("[data-agui=input]")

        prompt.fill("Please delete /tmp/demo.txt")
        prompt.press("Enter")
        assistant = page.locator("[data-role=assistant]").last

        # Reasoning streams in first.
        page.wait_for_selector("[data-role=assistant] [data-part-type=reasoning][data-state=streaming]")
        chat.screenshot(path=str(artifacts_dir / "e2e-1-reasoning-streaming.png"))

        # Then the tool call, which waits for approval.
        approve = page.locator("[data-agui=approve]")
        approve.wait_for(state="visible")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        tool = assistant.locator("[data-part-type=tool-delete_file]")
        assert tool.get_attribute("data-tool-state") == "approval-requested"
        assert "/tmp/demo.txt" in tool.inner_text()
        chat.screenshot(path=str(artifacts_dir / "e2e-2-approval.png"))

        approve.click()
        # The markdown answer streams into the same assistant message.
        page.wait_for_selector("[data-role=assistant] [data-part-type=text] h2")
        page.wait_for_selector("[data-role=assistant] [data-tool-state=output-available]")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        page.wait_for_selector("[data-role=assistant] [data-part-type=text] li >> nth=1")
        chat.screenshot(path=str(artifacts_dir / "e2e-3-final.png"))

        part_types = _part_types(assistant)
        assert part_types == DELETE_FILE_PART_TYPES
        assert page.locator("[data-role=assistant]").count() == 1
        assert page.locator("[data-role=user]").count() == 1
        answer = assistant.locator("[data-part-type=text]").last
        assert answer.locator("h2").inner_text() == "Done"
        assert answer.locator("li").all_inner_texts() == ["asked you first", "then removed it"]
        assert answer.locator("code").inner_text() == "/tmp/demo.txt"
        assert assistant.locator("[data-part-type=reasoning]").get_attribute("data-state") == "done"
        assert (
            page.locator("[data-agui=approve]").count() == 0
            or not page.locator("[data-agui=approve]").is_visible()
        )

        # The kernel holds the same conversation.
        _run_cell_containing(page, "KERNEL")
        output = page.locator(".jp-NotebookPanel .jp-Cell").nth(1).locator(".jp-OutputArea-output")
        output.wait_for(state="visible")
        _wait_for(lambda: "KERNEL" in output.inner_text(), 30, "the second cell's output")
        assert output.inner_text().strip() == "KERNEL ready ['user', 'assistant'] ['output-available']"
        page.screenshot(path=str(artifacts_dir / "e2e-4-notebook.png"), full_page=True)
        assert errors == []


def test_quickstart_notebook_with_the_demo_agent(lab: Lab, artifacts_dir: Path) -> None:
    """The main job: the quickstart notebook in JupyterLab, a person chatting with the built-in demo agent."""
    with chromium_browser() as browser:
        page, errors = _open_chat(
            browser, lab, "quickstart.ipynb", ["SPEED = float", "ChatWidget(DemoAgent"], height=1100
        )
        chat = page.locator(".agui-chat")
        prompt = page.locator("[data-agui=input]")

        prompt.fill("What's the weather in Rome?")
        prompt.press("Enter")
        assistant = page.locator("[data-role=assistant]").last
        # Mid-stream: the plan, the reasoning and the tool call are in, the answer has just started.
        page.wait_for_selector("[data-role=assistant] [data-part-type=text] h2")
        # the README's picture, docs/images/widget-streaming.png
        chat.screenshot(path=str(artifacts_dir / "quickstart-1-streaming.png"))

        approve = page.locator("[data-tool-state=approval-requested] [data-agui=approve]")
        approve.wait_for(state="visible")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        chat.screenshot(path=str(artifacts_dir / "quickstart-2-approval.png"))
        approve.click()
        page.wait_for_selector(
            "[data-role=assistant] [data-part-type=tool-send_report][data-tool-state=output-available]"
        )
        page.wait_for_selector(".agui-chat[data-status=ready]")
        chat.screenshot(path=str(artifacts_dir / "quickstart-3-final.png"))

        part_types = _part_types(assistant)
        assert part_types == RESUMED_PART_TYPES
        answer = assistant.locator("[data-part-type=text]").first
        assert answer.locator("h2").inner_text() == "Weather in Rome"
        assert answer.locator("table tr").count() == 4
        assert assistant.locator("[data-part-type=file] img").count() == 1
        assert assistant.locator("[data-part-type=text]").last.inner_text().startswith("Done: the report")
        assert errors == []


def _notebook7_settings_error(error: str) -> bool:
    frames = [line for line in error.splitlines()[1:] if line.strip().startswith("at ")]
    return "(reading 'schema')" in error.splitlines()[0] and all(
        "/static/notebook/" in line or "Promise.all" in line for line in frames
    )


def test_chat_widget_in_notebook_7(notebook7: Lab, artifacts_dir: Path) -> None:
    """Jupyter Notebook 7 loads the same widget: a conversation with an approval, end to end."""
    with chromium_browser() as browser:
        page, errors = _open_chat(browser, notebook7, "chat.ipynb", ["ChatWidget(demo_agent"], height=1000)
        assert page.locator("#main-panel, .jp-NotebookPanel").count() > 0
        assert "/notebooks/" in page.url  # Notebook 7's own page, not JupyterLab
        prompt = page.locator("[data-agui=input]")
        prompt.fill("Please delete /tmp/demo.txt")
        prompt.press("Enter")
        approve = page.locator("[data-agui=approve]")
        approve.wait_for(state="visible")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        approve.click()
        page.wait_for_selector("[data-role=assistant] [data-tool-state=output-available]")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        page.wait_for_selector("[data-role=assistant] [data-part-type=text] li >> nth=1")
        assistant = page.locator("[data-role=assistant]").last
        part_types = _part_types(assistant)
        assert part_types == DELETE_FILE_PART_TYPES
        assert page.locator(".agui-chat").get_attribute("data-jp") == "yes"  # Notebook 7's theme variables
        page.locator(".agui-chat").screenshot(path=str(artifacts_dir / "e2e-notebook7.png"))
        # Notebook 7.6 throws one error of its own while it loads settings, notebook or not (its console
        # also says "Settings failed to load for @jupyterlab/application-extension:context-menu"). It
        # comes from its core bundle; anything else is ours.
        assert [e for e in errors if not _notebook7_settings_error(e)] == []
