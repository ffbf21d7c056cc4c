"""Frontend tools in the browser: the approval card a Python function's call shows, and the result it returned.

The kernel side is a real ChatWidget on its own event loop (another thread: Playwright's sync API keeps one on
this thread); the view's Approve click goes back to it as the request the front end sends, and what the widget
then holds is rendered again.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook import frontend_tool
from agui_notebook.widget._chat import ChatWidget
from tests.widget.front_end import FrontEnd

pytestmark = pytest.mark.browser


def local_time(city: str, *, with_seconds: bool = False) -> dict[str, Any]:
    """The local time in a city."""
    return {"city": city, "time": "14:05:09" if with_seconds else "14:05", "utc_offset": "+09:00"}


def clear_cache(path: str) -> str:
    """Delete a cache folder."""
    return f"removed {path} (12 files, 3.4 MB)"


def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
    """Calls ``local_time`` and ``clear_cache``; once their results are in, answers with text."""
    ids = {"threadId": run_input.thread_id, "runId": run_input.run_id}
    yield {"type": "RUN_STARTED", **ids}
    results = {m.tool_call_id: m for m in run_input.messages if m.role == "tool"}
    if results:
        cache = results["c2"]
        done = f"I left the cache alone: {cache.content}." if cache.error else "the cache is cleared."
        yield {
            "type": "TEXT_MESSAGE_CHUNK",
            "messageId": f"m-{run_input.run_id}",
            "role": "assistant",
            "delta": f"It is **14:05** in Tokyo, and {done}",
        }
        yield {"type": "RUN_FINISHED", **ids}
        return
    yield {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Let me check."}
    calls = [("c1", "local_time", '{"city": "Tokyo"}'), ("c2", "clear_cache", '{"path": "~/.cache/tiles"}')]
    for call_id, name, args in calls:
        yield {
            "type": "TOOL_CALL_START",
            "toolCallId": call_id,
            "toolCallName": name,
            "parentMessageId": "m1",
        }
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": args}
        yield {"type": "TOOL_CALL_END", "toolCallId": call_id}
    yield {"type": "RUN_FINISHED", **ids, "outcome": {"type": "success", "pendingToolCallIds": ["c1", "c2"]}}


class Kernel:
    """A ChatWidget with the two functions, driven on an event loop of its own."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.chat: ChatWidget = self.run(self._make())
        self.view = FrontEnd(self.chat)

    async def _make(self) -> ChatWidget:
        return ChatWidget(agent, tools=[local_time, frontend_tool(clear_cache, approval=True)])

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(10)

    def send(self, text: str) -> str:
        async def go() -> str:
            return await self.chat.send_message(text)

        return self.run(go())

    def request(self, content: dict[str, Any]) -> str:
        """A request from the view, handled on the kernel's loop; the outcome of the run it started."""

        async def go() -> str:
            self.view.request(content)
            return await self.chat.task  # type: ignore[misc]

        return self.run(go())

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def kernel() -> Iterator[Kernel]:
    k = Kernel()
    yield k
    k.close()


def card(widget: Any, name: str) -> Any:
    return widget.locator(f"[data-part-type=tool-{name}]")


@pytest.mark.parametrize(("theme", "width"), [("light", 820), ("dark", 820), ("light", 360)])
def test_a_frontend_tool_asks_on_the_card_then_shows_what_python_returned(
    kernel, open_chat, artifacts_dir, theme, width
):
    assert kernel.send("What time is it in Tokyo? And clear my tile cache.") == "interrupt"
    chat = open_chat(theme, width=width, height=1100)
    widget = chat.open(messages=kernel.chat.messages, height="auto")

    # The function that needs no approval already ran: its card shows the result Python returned.
    time_card = card(widget, "local_time")
    assert time_card.get_attribute("data-tool-state") == "output-available"
    assert time_card.locator("[data-agui=tool-state]").inner_text() == "Done"
    time_card.locator("summary").click()
    assert '"utc_offset": "+09:00"' in time_card.locator(".agui-tool-output pre").inner_text()

    # The one that does waits on the approval card.
    ask = card(widget, "clear_cache")
    assert ask.get_attribute("data-tool-state") == "approval-requested"
    assert ask.locator("[data-agui=tool-state]").inner_text() == "Needs approval"
    assert (
        ask.locator(".agui-approval-text").inner_text()
        == "Approval needed: The agent wants to run clear_cache in this notebook's kernel."
    )
    assert widget.locator("[data-agui=status]").get_attribute("data-status") == "awaiting-approval"
    widget.root.screenshot(
        path=str(artifacts_dir / f"frontend-tool-approval-{theme}-{width}.png"), animations="disabled"
    )

    widget.clear_sent()
    ask.locator("[data-agui=approve]").click()
    sent = widget.sent()
    assert sent == [{"kind": "approval", "approvalId": "frontend-tool:c2", "approved": True}]
    assert kernel.request(sent[0]) == "success"

    widget.set("messages", kernel.chat.messages)
    done = card(widget, "clear_cache")
    assert done.get_attribute("data-tool-state") == "output-available"
    assert done.locator("[data-agui=tool-state]").inner_text() == "Done"
    done.locator("summary").click()
    assert done.locator(".agui-tool-output pre").inner_text() == "removed ~/.cache/tiles (12 files, 3.4 MB)"
    answer = widget.message(2)
    assert (
        answer.locator("[data-part-type=text]").inner_text()
        == "It is 14:05 in Tokyo, and the cache is cleared."
    )
    overflow = widget.root.evaluate("(e) => e.scrollWidth - e.clientWidth")
    assert overflow <= 0
    widget.root.screenshot(
        path=str(artifacts_dir / f"frontend-tool-result-{theme}-{width}.png"), animations="disabled"
    )


def test_a_denied_frontend_tool_says_denied_with_the_reason(kernel, open_chat, artifacts_dir):
    assert kernel.send("Clear my tile cache.") == "interrupt"
    chat = open_chat("light", width=820, height=900)
    widget = chat.open(messages=kernel.chat.messages, height="auto")
    ask = card(widget, "clear_cache")
    ask.locator("[data-agui=approval-reason]").fill("I still need those tiles")
    widget.clear_sent()
    ask.locator("[data-agui=deny]").click()
    sent = widget.sent()
    assert sent == [
        {
            "kind": "approval",
            "approvalId": "frontend-tool:c2",
            "approved": False,
            "reason": "I still need those tiles",
        }
    ]
    assert kernel.request(sent[0]) == "success"
    widget.set("messages", kernel.chat.messages)
    denied = card(widget, "clear_cache")
    assert denied.get_attribute("data-tool-state") == "output-denied"
    assert denied.locator("[data-agui=tool-state]").inner_text() == "Denied"
    assert denied.locator("[data-agui=denied-reason]").inner_text() == "I still need those tiles"
    answer = widget.message(2).locator("[data-part-type=text]")
    assert (
        answer.inner_text() == "It is 14:05 in Tokyo, and I left the cache alone: I still need those tiles."
    )
    widget.root.screenshot(path=str(artifacts_dir / "frontend-tool-denied-light.png"), animations="disabled")
