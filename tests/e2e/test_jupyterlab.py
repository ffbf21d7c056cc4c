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
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.jupyter import (
    ROOT,
    Lab,
    notebook7_settings_error,
    notebook_json,
    open_chat,
    run_cell_containing,
    serving,
    wait_for,
)
from tests.support.chromium import chromium_browser
from tests.support.demo_expectations import RESUMED_PART_TYPES

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent
QUICKSTART_SPEED = "0.3"

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


@contextlib.contextmanager
def _serving(tmp_path_factory: pytest.TempPathFactory, app: str) -> Iterator[Lab]:
    notebooks = {
        "chat.ipynb": notebook_json(NOTEBOOK_CELLS),
        "quickstart.ipynb": json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text()),
    }
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
        "AGUI_DEMO_SPEED": QUICKSTART_SPEED,  # the demo agent streams visibly, a few seconds a run
    }
    with serving(tmp_path_factory.mktemp(app), app, notebooks, env=env) as running:
        yield running


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with _serving(tmp_path_factory, "jupyterlab") as running:
        yield running


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with _serving(tmp_path_factory, "notebook") as running:
        yield running


DELETE_FILE_PART_TYPES = ["step-start", "reasoning", "text", "tool-delete_file", "step-start", "text"]
"""The assistant message of the demo_agent conversation once the deletion was approved."""


def _part_types(message: Any) -> list[str]:
    return message.locator("[data-part-type]").evaluate_all(
        "nodes => nodes.map(node => node.dataset.partType)"
    )


def test_chat_widget_in_jupyterlab(lab: Lab, artifacts_dir: Path) -> None:
    with chromium_browser() as browser:
        page, errors = open_chat(browser, lab, "chat.ipynb", ["ChatWidget(demo_agent"], height=1000)
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
        run_cell_containing(page, "KERNEL")
        output = page.locator(".jp-NotebookPanel .jp-Cell").nth(1).locator(".jp-OutputArea-output")
        output.wait_for(state="visible")
        wait_for(lambda: "KERNEL" in output.inner_text(), 30, "the second cell's output")
        assert output.inner_text().strip() == "KERNEL ready ['user', 'assistant'] ['output-available']"
        page.screenshot(path=str(artifacts_dir / "e2e-4-notebook.png"), full_page=True)
        assert errors == []


def test_quickstart_notebook_with_the_demo_agent(lab: Lab, artifacts_dir: Path) -> None:
    """The main job: the quickstart notebook in JupyterLab, a person chatting with the built-in demo agent."""
    with chromium_browser() as browser:
        page, errors = open_chat(
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


def test_chat_widget_in_notebook_7(notebook7: Lab, artifacts_dir: Path) -> None:
    """Jupyter Notebook 7 loads the same widget: a conversation with an approval, end to end."""
    with chromium_browser() as browser:
        page, errors = open_chat(browser, notebook7, "chat.ipynb", ["ChatWidget(demo_agent"], height=1000)
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
        assert [e for e in errors if not notebook7_settings_error(e)] == []
