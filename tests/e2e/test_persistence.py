"""End to end: a saved chat reads without its kernel, and a view whose kernel is gone says so.

In a real JupyterLab (and Notebook 7): run a chat, save, shut the kernel down, reopen the notebook and see the
conversation as the static copy (no "model not found"); run the cell again and the live widget takes its place.
A live view whose kernel was shut down says "Not connected — run the cell again" and keeps the typed text.
Screenshots go to tests/artifacts/persist-*.png.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.jupyter import (
    UI_TIMEOUT_MS,
    Lab,
    kernel_idle,
    notebook_json,
    open_chat,
    run_cell_containing,
    saved_notebook,
    serving,
    wait_for,
)
from tests.support.chromium import chromium_browser

pytestmark = pytest.mark.e2e

QUESTION = "Is 2 < 3 & kept?"
ANSWER = "You said: Is 2 < 3 & kept?"
CELLS = [
    """from agui_notebook.widget._chat import ChatWidget

def echo(run_input):
    yield "You said: "
    yield run_input.messages[-1].content

chat = ChatWidget(echo, title="Kept chat", height=360)
chat""",
]
NOT_CONNECTED = "Not connected — run the cell again"


@contextlib.contextmanager
def _serving(tmp_path_factory: pytest.TempPathFactory, app: str) -> Iterator[Lab]:
    with serving(tmp_path_factory.mktemp(app), app, {"chat.ipynb": notebook_json(CELLS)}) as running:
        yield running


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with _serving(tmp_path_factory, "jupyterlab") as running:
        yield running


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with _serving(tmp_path_factory, "notebook") as running:
        yield running


def _saved(lab: Lab) -> dict[str, Any]:
    saved = saved_notebook(lab, "chat.ipynb")
    assert saved is not None, "the notebook is being written"
    return saved["content"]


def _saved_copy(lab: Lab) -> str:
    """The static copy on disk, or "" while the file is being written."""
    saved = saved_notebook(lab, "chat.ipynb")
    return "" if saved is None else _static_copy(saved["content"])


def _static_copy(notebook: dict[str, Any]) -> str:
    """The text/html of the chat cell's static copy, as saved on disk ("" when there is none)."""
    for output in notebook["cells"][0]["outputs"]:
        html = output.get("data", {}).get("text/html", "")
        if "agui-static" in "".join(html):
            return "".join(html)
    return ""


def _chat_and_save(page: Any, lab: Lab) -> None:
    prompt = page.locator("[data-agui=input]")
    prompt.fill(QUESTION)
    prompt.press("Enter")
    page.wait_for_selector("[data-role=assistant] [data-part-type=text]")
    page.wait_for_selector(".agui-chat[data-status=ready]")
    assert page.locator(".agui-chat [data-role=assistant]").inner_text().strip().endswith(ANSWER)
    # While the widget is live, its static copy is in the page but hidden.
    assert page.locator(".agui-static").count() == 1
    assert not page.locator(".agui-static").is_visible()
    # The copy is updated before the status says the turn is over, so a save from here on keeps the answer.
    wait_for(lambda: ANSWER in (page.locator(".agui-static").text_content() or ""), 5, "the static copy")
    page.locator(".jp-NotebookPanel-toolbar [data-command='docmanager:save']").first.click()
    wait_for(lambda: "You said: Is 2 &lt; 3 &amp; kept?" in _saved_copy(lab), 30, "the save")


def _reopen(browser: Any, lab: Lab, artifacts: Path, name: str) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(UI_TIMEOUT_MS)
    reset = "reset&" if lab.documents == "/lab/tree" else ""
    page.goto(f"{lab.url}{lab.documents}/chat.ipynb?{reset}token={lab.token}", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell .cm-content")
    wait_for(lambda: kernel_idle(lab), 120, "the reopened notebook's kernel to be idle")
    static = page.locator(".agui-static")
    static.wait_for(state="visible")
    page.wait_for_timeout(1500)  # the widget manager has restored (and not found) the old model by now
    assert static.is_visible()
    text = static.inner_text()
    assert QUESTION in text and ANSWER in text and "Kept chat" in text
    assert page.get_by_text("Error displaying widget").filter(visible=True).count() == 0
    assert page.get_by_text("Loading widget").filter(visible=True).count() == 0
    page.locator(".jp-NotebookPanel .jp-Cell").first.screenshot(
        path=str(artifacts / f"persist-{name}-reopened.png")
    )
    return page


def _assert_nbconvert_shows_the_chat(path: Path) -> None:
    """``jupyter nbconvert --to html`` of the notebook as JupyterLab saved it: the conversation, no script of ours."""
    done = subprocess.run(
        [sys.executable, "-m", "nbconvert", "--to", "html", "--output-dir", str(path.parent / "html"), str(path)],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    html = (path.parent / "html" / "chat.html").read_text()
    copy = html[html.index('<div class="agui-static">') :]
    assert "You said: Is 2 &lt; 3 &amp; kept?" in copy and "Kept chat" in copy
    assert "<script" not in copy[: copy.index("A saved copy of this chat")]


def _shut_down_kernel_from_the_menu(page: Any, lab: Lab) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Kernel$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Shut Down Kernel")).first.click()
    accept = page.locator(".jp-Dialog .jp-mod-accept")
    with contextlib.suppress(Exception):
        accept.wait_for(state="visible", timeout=3000)
        accept.click()
    wait_for(lambda: not lab.api("/api/kernels"), 30, "the kernel to shut down")


def test_a_saved_chat_reads_without_its_kernel_in_jupyterlab(lab: Lab, artifacts_dir: Path) -> None:
    with chromium_browser() as browser:
        page, errors = open_chat(browser, lab, "chat.ipynb", ["ChatWidget(echo"], height=900)
        _chat_and_save(page, lab)
        saved = _saved(lab)
        assert "widgets" not in saved["metadata"]  # no widget state (~180 KB) needed
        assert len(json.dumps(saved)) < 20_000
        _assert_nbconvert_shows_the_chat(lab.log.parent / "notebooks" / "chat.ipynb")

        # The kernel goes away under a live view: it says so, and what was typed stays.
        _shut_down_kernel_from_the_menu(page, lab)
        chat = page.locator(".agui-chat")
        status = page.locator("[data-agui=status]")
        wait_for(lambda: status.inner_text() == NOT_CONNECTED, 30, "the view to notice its kernel is gone")
        prompt = page.locator("[data-agui=input]")
        prompt.fill("Are you there?")
        prompt.press("Enter")
        assert prompt.input_value() == "Are you there?"
        assert chat.get_attribute("data-connection") == "lost"
        assert page.locator("[data-agui=notice]").inner_text() == "Not sent: your text is kept."
        assert status.inner_text() == NOT_CONNECTED
        assert (
            page.locator("[data-role=user]").count() == 1
        )  # nothing was appended that will never be answered
        chat.screenshot(path=str(artifacts_dir / "persist-lab-not-connected.png"))
        page.close()
        assert errors == []

        # Reopened: the conversation is there without the old kernel's widget.
        page = _reopen(browser, lab, artifacts_dir, "lab")
        # Running the cell again brings the live widget back in its place.
        run_cell_containing(page, "ChatWidget(echo")
        page.locator(".agui-chat[data-status=ready]").wait_for(state="visible")
        page.wait_for_timeout(500)
        assert page.locator(".agui-chat[data-connection=live]").count() == 1
        assert not page.locator(".agui-static").is_visible()
        page.locator(".jp-NotebookPanel .jp-Cell").first.screenshot(
            path=str(artifacts_dir / "persist-lab-rerun.png")
        )


def test_a_saved_chat_reads_without_its_kernel_in_notebook_7(notebook7: Lab, artifacts_dir: Path) -> None:
    with chromium_browser() as browser:
        page, _ = open_chat(browser, notebook7, "chat.ipynb", ["ChatWidget(echo"], height=900)
        _chat_and_save(page, notebook7)
        page.close()
        for session in notebook7.api("/api/sessions"):
            notebook7.api(f"/api/sessions/{session['id']}", method="DELETE")
        wait_for(lambda: not notebook7.api("/api/kernels"), 30, "the kernel to shut down")
        _reopen(browser, notebook7, artifacts_dir, "notebook7")
