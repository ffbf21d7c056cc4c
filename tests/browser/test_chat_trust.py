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


def demo_conversation(
    *, answer: bool | None, reason: str | None = None, then: str | None = None
) -> list[dict[str, Any]]:
    """The demo's conversation after ``send_report`` was asked for and, unless ``answer`` is None, answered;
    ``then`` is a message sent next (while the approval still waits, when ``answer`` is None)."""

    async def drive() -> list[dict[str, Any]]:
        chat = ChatWidget(DemoAgent(speed=0))
        assert await chat.send_message("Weather in Oslo?") == "interrupt"
        if answer is not None:
            asked = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-send_report")
            assert await chat.answer_approval(asked["approval"]["id"], answer, reason=reason) == "success"
        if then is not None:
            await chat.send_message(then)
        return chat.messages

    # Playwright's sync API keeps an event loop on this thread: the widget runs on its own in another one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, drive()).result()


def patch(seq: int, *ops: list) -> dict:
    return {"kind": "patch", "seq": seq, "ops": list(ops)}


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


def in_view(widget: Any, selector: str) -> bool:
    """Whether the element is wholly inside the message list's visible area."""
    return widget.root.evaluate(
        """(root, selector) => {
            const list = root.querySelector("[data-agui=messages]").getBoundingClientRect();
            const el = root.querySelector(selector).getBoundingClientRect();
            return el.top >= list.top - 1 && el.bottom <= list.bottom + 1;
        }""",
        selector,
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_pending_approval_is_scrolled_into_view_and_the_status_says_so(open_chat, artifacts_dir, theme):
    messages = demo_conversation(answer=None)
    asking = messages[1]["parts"]
    index = next(i for i, p in enumerate(asking) if p["type"] == "tool-send_report")
    before = [messages[0], {**messages[1], "parts": asking[:index]}]
    chat = open_chat(theme, width=820, height=900)
    widget = chat.open(messages=before, height=420)
    widget.deliver(patch(1, ["status", "streaming", ""]))
    # The user scrolled up to read while the agent worked: new output no longer pulls the list down.
    widget.locator("[data-agui=messages]").evaluate(
        "(e) => { e.scrollTop = 0; e.dispatchEvent(new Event('scroll')); }"
    )
    chat.frames()
    assert widget.locator("[data-agui=status]").inner_text() == "Answering…"
    widget.deliver(patch(2, ["p", 1, index, asking[index]], ["status", "ready", ""]))
    card = "[data-part-type=tool-send_report]"
    assert widget.locator(card).get_attribute("data-tool-state") == "approval-requested"
    assert in_view(widget, f"{card} [data-agui=approve]")
    status = widget.locator("[data-agui=status]")
    assert status.inner_text() == "Waiting for your approval"
    assert status.get_attribute("data-status") == "awaiting-approval"
    widget.root.screenshot(path=str(artifacts_dir / f"trust-pending-{theme}.png"), animations="disabled")

    # The user scrolled up again to reread the answer, then answers (a click, as a keyboard user's Enter would
    # be, without the browser scrolling the list first).
    widget.locator("[data-agui=messages]").evaluate(
        "(e) => { e.scrollTop = 0; e.dispatchEvent(new Event('scroll')); }"
    )
    chat.frames()
    widget.locator(f"{card} [data-agui=deny]").evaluate("(button) => button.click()")
    assert widget.sent()[-1]["kind"] == "approval"
    approval = {**asking[index]["approval"], "approved": False}
    answered = {**asking[index], "state": "approval-responded", "approval": approval}
    widget.deliver(patch(3, ["p", 1, index, answered], ["status", "submitted", ""]))
    assert status.inner_text() == "Waiting for the agent…"
    # The answer that follows the approval streams in view.
    reply = {
        "type": "text",
        "text": "No problem.\n\n" + "I did not send anything. " * 40,
        "state": "streaming",
    }
    widget.deliver(patch(4, ["p", 1, index + 1, reply], ["status", "streaming", ""]))
    at_bottom = widget.locator("[data-agui=messages]").evaluate(
        "(e) => e.scrollHeight - e.scrollTop - e.clientHeight < 2"
    )
    assert at_bottom


def test_after_a_new_message_the_old_approval_reads_cancelled_with_no_buttons(open_chat, artifacts_dir):
    messages = demo_conversation(answer=None, then="And in Bergen?")
    card_part = next(p for p in messages[1]["parts"] if p["type"] == "tool-send_report")
    assert card_part["state"] == "output-denied"
    chat = open_chat("light", width=820, height=1600)
    widget = chat.open(messages=messages, height="auto")
    card = widget.message(1).locator("[data-part-type=tool-send_report]")
    assert card.locator("[data-agui=tool-state]").inner_text() == "Cancelled"
    assert card.get_attribute("data-ended") == "cancelled"
    card.locator("summary").click()
    assert card.locator("[data-agui=approve]").is_hidden()
    assert card.locator("[data-agui=deny]").is_hidden()
    assert (
        card.locator(".agui-approval-text").inner_text()
        == "Cancelled: a new message was sent before this was answered."
    )
    # The demo answers the new question and asks again: only the new answer's card waits for the user.
    assert widget.locator("[data-agui=status]").inner_text() == "Waiting for your approval"
    assert widget.message(3).locator("[data-tool-state=approval-requested] [data-agui=approve]").is_visible()
    card.screenshot(path=str(artifacts_dir / "trust-cancelled-light.png"), animations="disabled")


def stopped_conversation() -> list[dict[str, Any]]:
    """A real run stopped mid-table and mid-tool-arguments."""

    async def agent(run_input: Any) -> Any:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}
        yield {
            "type": "TEXT_MESSAGE_CONTENT",
            "messageId": "m",
            "delta": "| City | Temp |\n| --- | --- |\n| Oslo | 21",
        }
        yield {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "search", "parentMessageId": "m"}
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"q": "par'}
        await asyncio.sleep(30)

    async def drive() -> list[dict[str, Any]]:
        chat = ChatWidget(agent)
        task = chat.send_message("go")
        while len(chat.events) < 5:
            await asyncio.sleep(0.005)
        chat.stop()
        assert await task == "cancelled"
        return chat.messages

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, drive()).result()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_after_stop_nothing_looks_busy(open_chat, artifacts_dir, theme):
    chat = open_chat(theme, width=820, height=900)
    widget = chat.open(messages=stopped_conversation(), height="auto")
    message = widget.message(1)
    text = message.locator("[data-part-type=text]")
    assert text.get_attribute("data-state") == "done"
    assert text.locator("table td").all_inner_texts() == ["Oslo", "21"]  # whole markdown, not raw pipes
    assert message.locator(".agui-md-live").count() == 0  # no streaming cursor
    card = message.locator("[data-part-type=tool-search]")
    assert card.locator("[data-agui=tool-state]").inner_text() == "Stopped"
    assert card.locator("[data-agui=tool-state]").get_attribute("data-tone") == "muted"
    assert card.get_attribute("data-ended") == "stopped"
    assert card.evaluate("(e) => e.open") is False
    card.locator("summary").click()
    assert card.locator("[data-agui=tool-error]").inner_text() == "Stopped before its arguments were complete"
    assert card.locator(".agui-tool-input").get_attribute("data-streaming") == "false"
    widget.root.screenshot(path=str(artifacts_dir / f"trust-stopped-{theme}.png"), animations="disabled")


def failed_then_retried() -> tuple[dict[str, Any], dict[str, Any]]:
    """The traits of a real widget after a run that raised ConnectionError, and after the Retry it was sent."""
    from tests.widget.front_end import FrontEnd

    traits = ("messages", "status", "error", "error_details")
    runs = 0

    def flaky(run_input: Any) -> Any:
        nonlocal runs
        runs += 1
        yield "Working on it"
        if runs == 1:
            raise ConnectionError("model endpoint unreachable")
        yield "... done"

    async def drive() -> tuple[dict[str, Any], dict[str, Any]]:
        chat = ChatWidget(flaky)
        view = FrontEnd(chat)
        assert await chat.send_message("go") == "error"
        failed = {name: getattr(chat, name) for name in traits}
        view.request({"kind": "regenerate"})  # what Retry sends
        assert await chat.task == "success"
        return failed, {name: getattr(chat, name) for name in traits}

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, drive()).result()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_failure_shows_once_without_the_class_name_twice_with_retry_and_a_traceback(
    open_chat, artifacts_dir, theme
):
    failed, retried = failed_then_retried()
    chat = open_chat(theme, width=820, height=900)
    widget = chat.open(**failed, height=420)
    errors = widget.locator("[data-agui=error], [data-agui=message-error]")
    visible = [errors.nth(i) for i in range(errors.count()) if errors.nth(i).is_visible()]
    assert len(visible) == 1
    assert (
        widget.locator("[data-agui=error-text]").first.inner_text()
        == "ConnectionError: model endpoint unreachable"
    )
    details = widget.locator("[data-agui=error-details]")
    assert details.is_visible() and details.get_attribute("open") is None
    retry = widget.locator("[data-agui=retry]")
    assert retry.is_visible()
    widget.root.screenshot(path=str(artifacts_dir / f"trust-error-{theme}.png"), animations="disabled")
    retry.click()
    assert widget.sent()[-1] == {"kind": "regenerate"}
    for name, value in retried.items():
        widget.set(name, value)
    assert not widget.locator("[data-agui=error]").is_visible()
    assert [m["role"] for m in retried["messages"]] == ["user", "assistant"]  # the failed answer was replaced
    assert widget.message(1).locator("[data-part-type=text]").inner_text() == "Working on it... done"


def test_a_refused_request_has_no_retry(chat):
    widget = chat.open(
        messages=[{"id": "u", "role": "user", "parts": [{"type": "text", "text": "hi"}]}],
        error="KeyError: \"approval 'a' was cancelled: a new message was sent before it\"",
    )
    assert widget.locator("[data-agui=error]").is_visible()
    assert widget.locator("[data-agui=retry]").is_hidden()


def test_a_failed_run_at_360_px(open_chat, artifacts_dir):
    failed, _ = failed_then_retried()
    chat = open_chat("light", width=400, height=700)
    widget = chat.open(**failed, height=420, width="360px")
    assert widget.locator("[data-agui=retry]").is_visible()
    widget.root.screenshot(path=str(artifacts_dir / "trust-error-360.png"), animations="disabled")
