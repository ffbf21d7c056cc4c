"""End to end in JupyterLab: a chat outlives its cell and its kernel, and behaves as a good Jupyter citizen.

One notebook, driven as a person would: chat, run the chat's cell again (the conversation is there), restart the
kernel and run all cells (there), SIGKILL the kernel mid-stream and open the chat again (everything up to the last
event it wrote), New chat twice and switch back to the first thread. Ctrl+S typed in the composer saves the
notebook; ``chat.focus()`` and ``chat.blur()`` leave the conversation as it was; the keyboard focus after Approve
and after Stop is where the next action is. Screenshots go to tests/artifacts/durable-*.png.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.jupyter import (
    UI_TIMEOUT_MS,
    Lab,
    kernel_idle,
    notebook_json,
    run_cell_containing,
    saved_notebook,
    serving,
    wait_for,
)
from tests.support.chromium import chromium_browser

pytestmark = pytest.mark.e2e

CELLS = [
    """import asyncio, os
from agui_notebook import ChatWidget
from agui_notebook.demo import DemoAgent

class Agent:
    demo = DemoAgent(speed=0.05)

    async def run(self, run_input):
        text = str(run_input.messages[-1].content) if run_input.messages else ""
        if "count" in text:
            for i in range(20_000):
                yield f"{i} "
                await asyncio.sleep(0.005)
            return
        async for event in self.demo.run(run_input):
            yield event

chat = ChatWidget(Agent(), title="Durable chat", height=460)
chat""",
    'chat.focus(); chat.blur(); print(len(chat.messages), "messages,", chat.status)',
]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with serving(
        tmp_path_factory.mktemp("durable"), "jupyterlab", {"chat.ipynb": notebook_json(CELLS)}
    ) as running:
        yield running


def _dismiss_dialogs(page: Any) -> None:
    """Accept whatever JupyterLab asks (a restart to confirm, a dead kernel to acknowledge)."""
    accept = page.locator(".jp-Dialog .jp-mod-accept")
    with contextlib.suppress(Exception):
        accept.first.wait_for(state="visible", timeout=5000)
        accept.first.click()


def _user_texts(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".agui-chat [data-role=user]").all_inner_texts()]


def _active(page: Any) -> str:
    """What holds the keyboard focus: its data-agui hook, or its tag."""
    return page.evaluate("() => document.activeElement?.dataset?.agui || document.activeElement?.tagName")


def _send(page: Any, text: str) -> None:
    prompt = page.locator("[data-agui=input]")
    prompt.click()
    prompt.fill(text)
    prompt.press("Enter")


def _output_of(page: Any, source: str) -> str:
    cell = page.locator(".jp-NotebookPanel .jp-CodeCell", has_text=source).first
    return cell.locator(".jp-OutputArea-output").last.inner_text()


def _prompt(page: Any, source: str) -> str:
    cell = page.locator(".jp-NotebookPanel .jp-CodeCell", has_text=source).first
    return cell.locator(".jp-InputPrompt").inner_text().strip()


def _kernel_pid(lab: Lab) -> int:
    """The process of the notebook's kernel: the one started with its connection file."""
    (kernel,) = lab.api("/api/kernels")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            command = (entry / "cmdline").read_bytes().split(b"\0")
            if any(f"kernel-{kernel['id']}.json".encode() in part for part in command):
                return int(entry.name)
    raise AssertionError(f"no process for kernel {kernel['id']}")


def _saved_notebook(lab: Lab) -> dict[str, Any]:
    saved = saved_notebook(lab, "chat.ipynb")
    assert saved is not None, "the notebook is being written"
    return saved


def _last_saved(lab: Lab) -> str:
    """When the notebook was last saved, or "" while the file is being written."""
    saved = saved_notebook(lab, "chat.ipynb")
    return "" if saved is None else str(saved["last_modified"])


def test_a_chat_outlives_its_cell_and_its_kernel(lab: Lab, artifacts_dir: Path) -> None:
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(UI_TIMEOUT_MS)
        page.goto(f"{lab.url}/lab/tree/chat.ipynb?reset&token={lab.token}", wait_until="domcontentloaded")
        page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell .cm-content")
        wait_for(lambda: kernel_idle(lab), 120, "the kernel to be idle")
        run_cell_containing(page, "chat = ChatWidget(")
        page.wait_for_selector(".agui-chat[data-status=ready]")

        # Chat; approve the report with the mouse: the focus goes back to the composer.
        _send(page, "What's the weather in Paris?")
        page.locator("[data-agui=approve]:visible").wait_for(state="visible")
        page.locator("[data-agui=approve]:visible").click()
        assert _active(page) == "input"  # no other card waits: the composer has the focus
        answer = page.locator(".agui-chat [data-role=assistant]").last
        wait_for(lambda: "Done: the report is on its way" in answer.inner_text(), 60, "the resumed answer")
        page.wait_for_selector(".agui-chat[data-status=ready]")

        # chat.focus() and chat.blur() (ipywidgets') leave the conversation alone.
        run_cell_containing(page, "chat.focus()")
        wait_for(lambda: "messages," in _output_of(page, "chat.focus()"), 30, "focus/blur")
        assert _output_of(page, "chat.focus()").strip() == "2 messages, ready"
        assert _user_texts(page) == ["What's the weather in Paris?"]

        # Ctrl+S typed in the composer saves the notebook.
        before = _last_saved(lab)
        page.locator("[data-agui=input]").click()
        page.keyboard.press("Control+s")
        wait_for(lambda: _last_saved(lab) not in ("", before), 30, "Ctrl+S to save the notebook")
        saved = "".join(
            "".join(o.get("data", {}).get("text/html", ""))
            for o in _saved_notebook(lab)["content"]["cells"][0]["outputs"]
        )
        assert "Weather in Paris" in saved and "agui-notebook/" not in saved

        # Run the chat's cell again: the same conversation, live.
        run_cell_containing(page, "chat = ChatWidget(")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        wait_for(
            lambda: _user_texts(page) == ["What's the weather in Paris?"],
            30,
            "the conversation after a re-run",
        )
        page.locator(".jp-NotebookPanel .jp-Cell").first.screenshot(
            path=str(artifacts_dir / "durable-rerun.png")
        )

        # Stop a long answer: the focus goes to the composer.
        _send(page, "count slowly")
        page.wait_for_selector(".agui-chat[data-status=streaming]")
        page.locator("[data-agui=stop]").click()
        page.wait_for_selector(".agui-chat[data-status=ready]")
        assert _active(page) == "input"

        # Restart the kernel and run all cells: the conversation is there.
        page.locator("[data-command='notebook:restart-run-all']").first.click()
        _dismiss_dialogs(page)
        wait_for(
            lambda: _prompt(page, "chat = ChatWidget(") == "[1]:",
            120,
            "the chat's cell run first after the restart",
        )
        wait_for(lambda: _prompt(page, "chat.focus()") == "[2]:", 120, "every cell run after the restart")
        page.wait_for_selector(".agui-chat[data-connection=live][data-status=ready]")
        # The new view shows the conversation once the snapshot it asked for arrives (after its traits).
        wait_for(
            lambda: _user_texts(page) == ["What's the weather in Paris?", "count slowly"],
            30,
            "the conversation after the restart",
        )

        # SIGKILL the kernel mid-stream, then open the chat again: everything it had written is there.
        pid = _kernel_pid(lab)
        _send(page, "count to the end")
        answer = page.locator(".agui-chat [data-role=assistant]").last
        wait_for(lambda: " 200 " in answer.inner_text(), 60, "the stream to be well under way")
        os.kill(pid, signal.SIGKILL)
        _dismiss_dialogs(page)  # "The kernel appears to have died. It will restart automatically."
        wait_for(lambda: kernel_idle(lab), 120, "the restarted kernel")
        run_cell_containing(page, "chat = ChatWidget(")
        page.wait_for_selector(".agui-chat[data-connection=live][data-status=ready]")
        wait_for(lambda: len(_user_texts(page)) == 3, 30, "the conversation after the kill")
        shown = page.locator(".agui-chat [data-role=assistant]").last.inner_text()
        assert " 200 " in shown  # the deltas written before the kill
        page.locator(".jp-NotebookPanel .jp-Cell").first.screenshot(
            path=str(artifacts_dir / "durable-killed.png")
        )

        # New chat twice, then back to the first thread through the menu.
        page.locator("[data-agui=new-chat]").click()
        wait_for(lambda: _user_texts(page) == [], 30, "a new chat")
        _send(page, "What's the weather in Oslo?")
        page.locator("[data-agui=approve]:visible").wait_for(state="visible")
        page.locator("[data-agui=thread-menu]").click()
        page.locator("[data-agui=thread-new]").click()
        wait_for(lambda: _user_texts(page) == [], 30, "a second new chat")
        page.locator("[data-agui=thread-menu]").click()
        rows = page.locator("[data-agui=thread]")
        wait_for(lambda: rows.count() == 3, 30, "three threads in the menu")
        page.screenshot(path=str(artifacts_dir / "durable-threads.png"))
        rows.filter(has_text="What's the weather in Paris?").locator("[data-agui=thread-open]").click()
        wait_for(lambda: len(_user_texts(page)) == 3, 30, "the first thread again")
        assert _user_texts(page)[0] == "What's the weather in Paris?"
        assert errors == []
