"""The page title's attention cue (js/src/attention.js): "(1) Approval needed · " before the page's own title
while a chat waits for the user out of sight, counted across chats, gone (the title exactly as before) once the card
is seen, answered, cancelled, or its view is gone.

The conversations come from a real ChatWidget run by a scripted AG-UI agent, at each stage (waiting, approved,
denied, cancelled by a new message, an interrupt form waiting, answered, dismissed).

A hidden page is emulated in the page (``document.visibilityState`` and a ``visibilitychange`` event, what the
cue reads): Playwright keeps every page it drives visible. Its own DevTools session turns focus emulation on, an
override per session, so with Debian's Chromium 156 headless here neither a second page brought to the front,
``Target.activateTarget``, a minimised window, ``Page.setWebLifecycleState`` nor our own session's
``Emulation.setFocusEmulationEnabled(false)`` changes ``visibilityState`` (the same steps in Chromium driven over
raw CDP without Playwright do turn a background tab "hidden").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterator
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook.widget._chat import ChatWidget

pytestmark = pytest.mark.browser

BASE = "agui harness"  # the harness page's own title (tests/browser/conftest.py)
APPROVAL = "(1) Approval needed · " + BASE
ANSWER = "(1) Answer needed · " + BASE
LONG_TEXT = "\n\n".join(f"Paragraph {n}: what the agent found before it asked." for n in range(40))
TRIP_SCHEMA = {
    "type": "object",
    "title": "Trip details",
    "required": ["nights"],
    "properties": {"nights": {"type": "integer", "title": "Nights", "minimum": 1}},
}


def scripted_agent(ask: str) -> Any:
    """An agent whose first run ends asking (``ask``: "approval" for a tool call, "answer" for a form); every run
    after it (a resume, a new message) answers "Done."."""
    runs = 0

    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        nonlocal runs
        runs += 1
        thread, run = run_input.thread_id, f"r{runs}"
        yield {"type": "RUN_STARTED", "threadId": thread, "runId": run}
        text = LONG_TEXT if runs == 1 else "Done."
        yield {"type": "TEXT_MESSAGE_START", "messageId": f"t{runs}", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"t{runs}", "delta": text}
        yield {"type": "TEXT_MESSAGE_END", "messageId": f"t{runs}"}
        if runs > 1:
            yield {"type": "RUN_FINISHED", "threadId": thread, "runId": run}
            return
        if ask == "approval":
            yield {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "send_report"}
            yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"to": "team@example.com"}'}
            yield {"type": "TOOL_CALL_END", "toolCallId": "c1"}
            interrupt = {"id": "approve-c1", "reason": "tool_call", "toolCallId": "c1"}
        else:
            interrupt = {"id": "trip", "reason": "input_required", "responseSchema": TRIP_SCHEMA}
        outcome = {"type": "interrupt", "interrupts": [interrupt]}
        yield {"type": "RUN_FINISHED", "threadId": thread, "runId": run, "outcome": outcome}

    return agent


def stages(ask: str) -> dict[str, list[dict[str, Any]]]:
    """The conversation while it waits, and after each way the wait can end."""

    async def drive() -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}

        async def waiting() -> ChatWidget:
            chat = ChatWidget(scripted_agent(ask))
            assert await chat.send_message("Send the weather report") == "interrupt"
            out["waiting"] = chat.messages
            return chat

        if ask == "approval":
            for approved, name in [(True, "approved"), (False, "denied")]:
                chat = await waiting()
                task = chat.answer_approval("approve-c1", approved, reason=None if approved else "not now")
                assert task is not None and await task == "success"
                out[name] = chat.messages
        else:
            chat = await waiting()
            task = chat.answer_interrupt("trip", {"nights": 2})
            assert task is not None and await task == "success"
            out["answered"] = chat.messages
            chat = await waiting()
            task = chat.answer_interrupt("trip", cancel=True)
            assert task is not None and await task == "success"
            out["dismissed"] = chat.messages
        chat = await waiting()
        assert await chat.send_message("Never mind, what about Bergen?") == "success"
        out["cancelled"] = chat.messages
        return out

    # Playwright's sync API keeps an event loop on this thread: the widget runs on its own in another one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, drive()).result()


@pytest.fixture(scope="module")
def approval() -> dict[str, list[dict[str, Any]]]:
    return stages("approval")


@pytest.fixture(scope="module")
def form() -> dict[str, list[dict[str, Any]]]:
    return stages("answer")


@pytest.fixture
def page(chat: Any) -> Iterator[Any]:
    """The harness page, put back as it was after the test: visible, its own title, no views."""
    yield chat
    chat.evaluate(
        """(title) => {
            window.agui.reset();
            delete document.visibilityState;
            delete document.hidden;
            document.title = title;
        }""",
        BASE,
    )


def hide(chat: Any, hidden: bool = True) -> None:
    """The page hidden behind another tab (or shown again), as the browser reports it."""
    chat.evaluate(
        """(hidden) => {
            Object.defineProperty(document, "visibilityState", {configurable: true, get: () => hidden ? "hidden" : "visible"});
            Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )
    chat.frames()


def title_becomes(chat: Any, expected: str) -> str:
    """The page title once it is ``expected`` (the cue follows the intersection observer, a frame or two late),
    or whatever it is after 60 frames."""
    return chat.evaluate(
        """(expected) => new Promise((resolve) => {
            const look = (left) => document.title === expected || left === 0
                ? resolve(document.title)
                : requestAnimationFrame(() => look(left - 1));
            look(60);
        })""",
        expected,
    )


def title_stays(chat: Any) -> str:
    """The page title after a few frames (long enough for the observer to report)."""
    chat.frames(6)
    return chat.evaluate("() => document.title")


def scroll_list(widget: Any, where: str) -> None:
    """Scroll the message list to its "top" (the card out of view) or its "bottom"."""
    widget.locator("[data-agui=messages]").evaluate(
        "(e, where) => { e.scrollTop = where === 'top' ? 0 : e.scrollHeight; e.dispatchEvent(new Event('scroll')); }",
        where,
    )
    widget.chat.frames()


def waiting_chat(page: Any, messages: list[dict[str, Any]]) -> Any:
    widget = page.open(messages=messages, height=420)
    assert widget.locator("[data-agui=status]").inner_text() in {
        "Waiting for your approval",
        "Waiting for your answer",
    }
    assert title_stays(page) == BASE  # the card is in view on a visible page: no cue
    return widget


def test_a_hidden_page_gets_the_prefix_until_it_is_shown_again(page, approval):
    waiting_chat(page, approval["waiting"])
    hide(page)
    assert title_becomes(page, APPROVAL) == APPROVAL
    hide(page, False)
    assert title_becomes(page, BASE) == BASE


def test_an_interrupt_form_waiting_on_a_hidden_page_asks_for_an_answer(page, form):
    widget = waiting_chat(page, form["waiting"])
    assert widget.locator("[data-part-type=data-interrupt]").get_attribute("data-status") == "open"
    hide(page)
    assert title_becomes(page, ANSWER) == ANSWER
    hide(page, False)
    assert title_becomes(page, BASE) == BASE


def test_a_card_scrolled_out_of_the_message_list_gets_the_prefix_until_it_is_back(page, approval):
    widget = waiting_chat(page, approval["waiting"])
    scroll_list(widget, "top")
    assert title_becomes(page, APPROVAL) == APPROVAL
    scroll_list(widget, "bottom")
    assert title_becomes(page, BASE) == BASE


def test_a_widget_scrolled_off_the_page_gets_the_prefix_until_it_is_back(page, approval):
    page.evaluate(
        "() => document.getElementById('root').append(Object.assign(document.createElement('div'), {style: 'height: 3000px'}))"
    )
    widget = page.open(messages=approval["waiting"], height=420)
    widget.root.scroll_into_view_if_needed()
    assert title_stays(page) == BASE
    page.evaluate("() => window.scrollTo(0, 0)")
    assert title_becomes(page, APPROVAL) == APPROVAL
    widget.locator("[data-agui=approve]").scroll_into_view_if_needed()
    assert title_becomes(page, BASE) == BASE


def test_chats_waiting_out_of_sight_count_together(page, approval, form):
    first = waiting_chat(page, approval["waiting"])
    second = page.open(messages=approval["waiting"], height=420)
    third = page.open(messages=form["waiting"], height=420)
    hide(page)
    assert title_becomes(page, "(3) Input needed · " + BASE) == "(3) Input needed · " + BASE
    third.set("messages", form["answered"])
    assert title_becomes(page, "(2) Approval needed · " + BASE) == "(2) Approval needed · " + BASE
    # A second view of the first chat is still one chat.
    page.mount(first.model)
    assert title_stays(page) == "(2) Approval needed · " + BASE
    second.set("messages", approval["approved"])
    assert title_becomes(page, APPROVAL) == APPROVAL
    first.set("messages", approval["denied"])
    assert title_becomes(page, BASE) == BASE


@pytest.mark.parametrize("stage", ["approved", "denied", "cancelled"])
def test_an_approval_answered_or_cancelled_removes_the_prefix(page, approval, stage):
    widget = waiting_chat(page, approval["waiting"])
    hide(page)
    assert title_becomes(page, APPROVAL) == APPROVAL
    widget.set("messages", approval[stage])
    card = widget.message(1).locator("[data-part-type=tool-send_report]")
    badge = {"approved": "Approved", "denied": "Denied", "cancelled": "Cancelled"}[stage]
    assert card.locator("[data-agui=tool-state]").inner_text() == badge
    assert title_becomes(page, BASE) == BASE


@pytest.mark.parametrize("stage", ["answered", "dismissed", "cancelled"])
def test_an_interrupt_answered_or_dismissed_removes_the_prefix(page, form, stage):
    widget = waiting_chat(page, form["waiting"])
    hide(page)
    assert title_becomes(page, ANSWER) == ANSWER
    widget.set("messages", form[stage])
    assert widget.message(1).locator("[data-part-type=data-interrupt]").get_attribute("data-status") != "open"
    assert title_becomes(page, BASE) == BASE


def test_a_destroyed_view_leaves_no_prefix(page, approval):
    widget = waiting_chat(page, approval["waiting"])
    hide(page)
    assert title_becomes(page, APPROVAL) == APPROVAL
    page.evaluate("(v) => window.agui.unmount(v)", widget.view)
    assert title_becomes(page, BASE) == BASE


def test_a_lost_kernel_leaves_no_prefix(page, approval):
    widget = waiting_chat(page, approval["waiting"])
    hide(page)
    assert title_becomes(page, APPROVAL) == APPROVAL
    # A kernel restart: ipywidgets marks the view disconnected and says so to the model.
    page.evaluate(
        """([v, m]) => {
            window.agui.host(v).classList.add("jupyter-widgets-disconnected");
            window.agui.model(m).emit("comm_live_update");
        }""",
        [widget.view, widget.model],
    )
    assert title_becomes(page, BASE) == BASE


def test_a_title_the_page_sets_while_waiting_keeps_exactly_one_prefix(page, approval):
    waiting_chat(page, approval["waiting"])
    hide(page)
    assert title_becomes(page, APPROVAL) == APPROVAL
    # Jupyter names the current tab in the title when it changes.
    page.evaluate("() => { document.title = 'report.ipynb - JupyterLab'; }")
    expected = "(1) Approval needed · report.ipynb - JupyterLab"
    assert title_becomes(page, expected) == expected
    # A page that rewrites the title from itself (prefix included) does not get a second one.
    page.evaluate("() => { document.title = document.title + ''; }")
    assert title_stays(page) == expected
    page.evaluate("() => { document.title = '(1) Approval needed · ' + document.title; }")
    assert title_becomes(page, expected) == expected
    hide(page, False)
    assert title_becomes(page, "report.ipynb - JupyterLab") == "report.ipynb - JupyterLab"
