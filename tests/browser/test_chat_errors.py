"""Failed runs and run warnings in the browser: one visible error with a details view, warnings under the answer.

The traits come from a real ChatWidget run (in a thread with its own event loop, as Playwright's sync API holds
the main thread's), captured the way the kernel sends them, then rendered by the built front end.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook.widget._chat import ChatWidget
from tests.widget.front_end import FrontEnd

pytestmark = pytest.mark.browser

TRAITS = ("messages", "status", "error", "error_details", "warnings")


def run_chat(agent: Callable[[RunAgentInput], Any], *texts: str) -> list[dict[str, Any]]:
    """The widget's traits after each of ``texts`` was sent (one dict per run)."""

    async def runs() -> list[dict[str, Any]]:
        chat = ChatWidget(agent)
        FrontEnd(chat)
        states = []
        for text in texts:
            await chat.send_message(text)
            states.append({name: getattr(chat, name) for name in TRAITS})
        return states

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, runs()).result()


def flaky_agent() -> Callable[[RunAgentInput], Iterator[str]]:
    runs = 0

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        nonlocal runs
        runs += 1
        yield "partial answer"
        if runs == 1:
            raise RuntimeError("model endpoint unreachable")

    return agent


def visible_errors(widget: Any) -> list[str]:
    """The texts of the error banner and the messages' error lines that are on screen."""
    errors = widget.locator("[data-agui=error], [data-agui=message-error]")
    shown = [errors.nth(i) for i in range(errors.count()) if errors.nth(i).is_visible()]
    return [
        (e.locator("[data-agui=error-text]") if e.get_attribute("data-agui") == "error" else e).inner_text()
        for e in shown
    ]


def test_a_failed_run_shows_one_error_with_its_traceback_behind_details(chat: Any) -> None:
    failed, recovered = run_chat(flaky_agent(), "go", "again")
    assert failed["error"] == "RuntimeError: model endpoint unreachable"
    widget = chat.open(**failed)
    assert visible_errors(widget) == ["RuntimeError: model endpoint unreachable"]
    assert widget.locator("[data-agui=status]").inner_text() == "Error"
    assert "partial answer" in widget.message(1).inner_text()
    details = widget.locator("[data-agui=error-details]")
    assert details.is_visible() and details.get_attribute("open") is None
    trace = details.locator("pre")
    assert not trace.is_visible()
    details.locator("summary").click()
    assert trace.is_visible()
    assert trace.text_content() == failed["error_details"]
    assert trace.text_content().startswith("Traceback (most recent call last):")
    assert trace.text_content().rstrip().endswith("RuntimeError: model endpoint unreachable")

    for name in TRAITS:  # the next run succeeds: the banner goes, the failed answer keeps its own error
        widget.set(name, recovered[name])
    assert not widget.locator("[data-agui=error]").is_visible()
    assert not details.is_visible()
    assert visible_errors(widget) == ["RuntimeError: model endpoint unreachable"]  # the code not said twice
    assert not widget.message(3).locator("[data-agui=message-error]").is_visible()


def test_an_error_that_arrives_live_is_shown_once(chat: Any) -> None:
    failed = run_chat(flaky_agent(), "go")[0]
    widget = chat.open(messages=failed["messages"][:1], status="streaming")  # mounted mid-run
    widget.deliver(
        {
            "kind": "snapshot",
            "seq": 1,
            "messages": failed["messages"],
            "status": "error",
            "error": failed["error"],
        }
    )
    widget.set("error_details", failed["error_details"])
    assert visible_errors(widget) == [failed["error"]]
    assert widget.locator("[data-agui=error-details]").is_visible()


def test_run_warnings_show_under_the_answer(chat: Any) -> None:
    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "TEXT_MESSAGE_STRAT", "messageId": "m", "role": "assistant"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_input.run_id}

    run = run_chat(agent, "hi")[0]
    assert run["status"] == "ready" and run["error"] == ""
    widget = chat.open(**run)
    warning = widget.locator("[data-agui=run-warning]")
    assert warning.count() == 1 and warning.is_visible()
    assert (
        warning.inner_text()
        == "event 1 (TEXT_MESSAGE_STRAT): unknown event type 'TEXT_MESSAGE_STRAT'; the event is ignored"
    )
    assert visible_errors(widget) == []
    # The warnings follow the last message, also when more messages arrive.
    order = (
        "(list) => [...list.children].flatMap((e) => e.classList.contains('agui-message-group') ? [...e.children] : [e])"
        ".filter((e) => !e.hidden).map((e) => e.dataset.agui ?? e.dataset.role)"
    )
    assert widget.locator("[data-agui=messages]").evaluate(order) == ["user", "assistant", "run-warnings"]
    widget.deliver(
        {
            "kind": "patch",
            "seq": 1,
            "ops": [["m", 2, {"id": "u2", "role": "user", "parts": [{"type": "text", "text": "more"}]}]],
        }
    )
    assert widget.locator("[data-agui=messages]").evaluate(order) == [
        "user",
        "assistant",
        "user",
        "run-warnings",
    ]
    widget.set("warnings", [])
    assert not widget.locator("[data-agui=run-warnings]").is_visible()
    widget.set("warnings", ["<img src=x onerror=alert(1)> chunk 3 (text-dleta): unknown chunk type"])
    assert warning.inner_text() == "<img src=x onerror=alert(1)> chunk 3 (text-dleta): unknown chunk type"
    assert widget.locator("[data-agui=run-warnings] img").count() == 0
