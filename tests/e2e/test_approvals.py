"""End to end in JupyterLab: approvals tell the truth. A denial reads "Denied" with its reason; an approval left
waiting when the user asks something new is cancelled, and no Approve button is left that would do nothing.

Screenshots go to tests/artifacts/e2e-approvals-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.jupyter import (
    Lab,
    notebook_json,
    open_chat,
    run_cell_containing,
    serving,
    wait_for,
)
from tests.support.chromium import chromium_browser

pytestmark = pytest.mark.e2e

CELLS = [
    """from agui_notebook.demo import DemoAgent
from agui_notebook.widget._chat import ChatWidget

chat = ChatWidget(DemoAgent(speed=0.05), title="approvals", height=560)
chat""",
    """print("KERNEL", json.dumps([[p.get("state"), (p.get("approval") or {}).get("reason"),
      (p.get("callProviderMetadata") or {}).get("ag-ui", {}).get("ended")]
      for m in chat.messages for p in m["parts"] if p["type"] == "tool-send_report"]))""",
]
CELLS[1] = "import json\n" + CELLS[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    notebooks = {"approvals.ipynb": notebook_json(CELLS)}
    with serving(tmp_path_factory.mktemp("approvals"), "jupyterlab", notebooks) as running:
        yield running


def kernel_report(page: Any) -> list[list[Any]]:
    """What the kernel holds for the send_report calls: [state, approval reason, ended] each."""
    run_cell_containing(page, "KERNEL")
    output = page.locator(".jp-NotebookPanel .jp-Cell").nth(1).locator(".jp-OutputArea-output")
    output.wait_for(state="visible")
    wait_for(lambda: "KERNEL" in output.inner_text(), 30, "the report cell's output")
    return json.loads(output.inner_text().strip().removeprefix("KERNEL"))


def ask(page: Any, text: str) -> None:
    prompt = page.locator("[data-agui=input]")
    prompt.fill(text)
    prompt.press("Enter")


def test_deny_and_a_stale_approval_in_jupyterlab(lab: Lab, artifacts_dir: Path) -> None:
    with chromium_browser() as browser:
        page, errors = open_chat(browser, lab, "approvals.ipynb", ["ChatWidget(DemoAgent"], height=1000)
        chat = page.locator(".agui-chat")

        # Deny with a reason: the card says Denied and shows the reason while closed.
        ask(page, "Weather in Oslo?")
        asking = page.locator("[data-tool-state=approval-requested]")
        asking.locator("[data-agui=approve]").wait_for(state="visible")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        assert page.locator("[data-agui=status]").inner_text() == "Waiting for your approval"
        asking.locator("[data-agui=approval-reason]").fill("not to the whole team")
        asking.locator("[data-agui=deny]").click()
        denied = page.locator("[data-part-type=tool-send_report][data-tool-state=output-denied]")
        denied.wait_for(state="visible")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        assert denied.locator("[data-agui=tool-state]").inner_text() == "Denied"
        assert denied.locator("[data-agui=denied-reason]").inner_text() == "not to the whole team"
        chat.screenshot(path=str(artifacts_dir / "e2e-approvals-1-denied.png"))
        assert kernel_report(page) == [["output-denied", "not to the whole team", None]]

        # Leave the next approval waiting and ask something else: it is cancelled, no live button is left.
        ask(page, "Weather in Rome?")
        page.locator("[data-tool-state=approval-requested] [data-agui=approve]").wait_for(state="visible")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        ask(page, "Never mind. Weather in Bergen?")
        cancelled = page.locator("[data-part-type=tool-send_report][data-ended=cancelled]")
        cancelled.wait_for(state="visible")
        wait_for(
            lambda: (
                page.locator(".agui-chat[data-status=ready]").count() == 1
                and page.locator("[data-role=assistant]").count() == 3
            ),
            60,
            "the answer to the new question",
        )
        assert cancelled.locator("[data-agui=tool-state]").inner_text() == "Cancelled"
        assert cancelled.locator("[data-agui=approve]:visible").count() == 0
        # The demo answers the new question, and asks again for the new report: only that card has buttons.
        answer = page.locator("[data-role=assistant]").last
        assert "Bergen" in answer.locator("[data-part-type=text] h2").first.inner_text()
        assert page.locator("[data-agui=approve]:visible").count() == 1
        assert answer.locator("[data-tool-state=approval-requested] [data-agui=approve]").is_visible()
        assert page.locator("[data-agui=status]").inner_text() == "Waiting for your approval"
        chat.screenshot(path=str(artifacts_dir / "e2e-approvals-2-cancelled.png"))
        assert kernel_report(page) == [
            ["output-denied", "not to the whole team", None],
            ["output-denied", None, "cancelled"],
            ["approval-requested", None, None],
        ]

        # The approval waits out of sight (another tab in front): the page title says so, and stops once seen.
        titled = page.evaluate("() => document.title")
        assert not titled.startswith("(")
        page.keyboard.press("Control+Shift+L")  # a Launcher tab in front of the notebook
        wait_for(
            lambda: page.evaluate("() => document.title").startswith("(1) Approval needed · "),
            30,
            "the attention cue in the page title",
        )
        behind = page.evaluate("() => document.title")
        assert (
            behind.count("Approval needed") == 1 and behind != f"(1) Approval needed · {titled}"
        )  # Jupyter's new one
        page.locator(".lm-TabBar-tab", has_text="approvals.ipynb").first.click()
        wait_for(lambda: page.evaluate("() => document.title") == titled, 30, "Jupyter's own title back")
        assert errors == []
