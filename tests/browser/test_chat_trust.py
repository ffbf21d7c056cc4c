"""What the widget tells the user is true: denied and cancelled approvals, pending approvals in view, stop, errors.

The conversations come from the real ChatWidget driven by the offline demo agent, so the browser renders exactly
what the kernel would send.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest

from agui_notebook.demo import DemoAgent
from agui_notebook.widget._chat import ChatWidget

pytestmark = pytest.mark.browser


def demo_conversation(*, answer: bool | None, reason: str | None = None) -> list[dict[str, Any]]:
    """The demo's conversation after ``send_report`` was asked for and, unless ``answer`` is None, answered."""

    async def drive() -> list[dict[str, Any]]:
        chat = ChatWidget(DemoAgent(speed=0))
        assert await chat.send("Weather in Oslo?") == "interrupt"
        if answer is not None:
            asked = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-send_report")
            assert await chat.answer_approval(asked["approval"]["id"], answer, reason=reason) == "success"
        return chat.messages

    # Playwright's sync API keeps an event loop on this thread: the widget runs on its own in another one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, drive()).result()


def report_card(widget: Any) -> Any:
    return widget.locator("[data-part-type=tool-send_report]")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_denied_call_says_denied_and_shows_its_reason_on_the_closed_card(open_chat, artifacts_dir, theme):
    chat = open_chat(theme, width=820, height=1400)
    widget = chat.open(
        messages=demo_conversation(answer=False, reason="not to the whole team"), height="auto"
    )
    card = report_card(widget)
    assert card.get_attribute("data-tool-state") == "output-denied"
    assert card.evaluate("(e) => e.open") is False
    badge = card.locator("[data-agui=tool-state]")
    assert badge.inner_text() == "Denied"
    assert badge.get_attribute("data-tone") == "denied"
    reason = card.locator("[data-agui=denied-reason]")
    assert reason.is_visible()
    assert reason.inner_text() == "not to the whole team"
    card.scroll_into_view_if_needed()
    card.screenshot(path=str(artifacts_dir / f"trust-denied-{theme}.png"), animations="disabled")


def test_a_denied_call_at_360_px(open_chat, artifacts_dir):
    chat = open_chat("light", width=400, height=1600)
    widget = chat.open(
        messages=demo_conversation(answer=False, reason="not to the whole team"), height="auto", width="360px"
    )
    card = report_card(widget)
    assert card.locator("[data-agui=denied-reason]").is_visible()
    assert card.locator("[data-agui=tool-state]").is_visible()
    card.screenshot(path=str(artifacts_dir / "trust-denied-360.png"), animations="disabled")
