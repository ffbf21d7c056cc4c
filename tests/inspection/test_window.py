"""The conversation window the inspector's page holds: after any sequence of seeks and scrolls (and a page that
missed an update, or came back after a reconnect), what the page holds is exactly the conversation after the
selected event, cut to its window; each update sends only what differs from what the page holds."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agui_notebook.inspection import Inspector
from agui_notebook.inspection._timeline import EventTimeline
from agui_notebook.inspection._window import ConversationWindow, window_layout
from tests.inspection.test_timeline import LOGS, events_of
from tests.support.big_runs import turns_log
from tests.support.inspector_page import PageWindow

SOURCES = [*LOGS, "single", "multi"]


@cache
def timeline_of(source: Any) -> EventTimeline:
    if source == "single":
        return EventTimeline(turns_log(1_200, runs=False), every=64)
    if source == "multi":
        return EventTimeline(turns_log(1_200, runs=True), every=64)
    return EventTimeline(events_of(source), every=16)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_page_holds_the_conversation_after_the_event_cut_to_its_window(data: st.DataObject) -> None:
    timeline = timeline_of(data.draw(st.sampled_from(SOURCES)))
    budget = data.draw(st.sampled_from((1, 3, 8, 40)))
    kernel, page = ConversationWindow(parts=budget), PageWindow()
    n = -1
    for _ in range(data.draw(st.integers(1, 12))):
        action = data.draw(st.sampled_from(("seek", "seek", "step", "scroll", "lost")))
        if action == "seek":
            n = data.draw(st.integers(-1, len(timeline) - 1))
        elif action == "step":
            n = min(n + 1, len(timeline) - 1)
        messages = timeline.messages_after(n)
        focus = (
            (data.draw(st.integers(-1, len(messages))), data.draw(st.integers(-1, 50)))
            if action == "scroll"
            else (timeline.touched[n][0] if n >= 0 and timeline.touched[n] else (len(messages) - 1, -1))
        )
        update = kernel.update(messages, focus)
        if action == "lost":
            continue  # the page never got it: the next update does not build on what it holds
        if not page.apply(update):
            assert update["base"] is not None and update["base"] != page.version
            kernel.forget()  # the page asks for the whole window
            assert page.apply(kernel.update(messages, focus))
        assert page.messages() == page.expected(messages)
        assert page.count == len(messages)
        shown = sum(max(len(m["parts"]), 1) for m in page.messages())
        assert shown <= max(budget, 1) or page.slots == 1
        if messages:
            at = min(max(focus[0], 0), len(messages) - 1)
            assert at in page.held  # the focus is in the window


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_window_as_big_as_the_conversation_is_the_conversation(data: st.DataObject) -> None:
    timeline = timeline_of(data.draw(st.sampled_from(SOURCES)))
    kernel, page = ConversationWindow(parts=1_000_000), PageWindow()
    for n in data.draw(st.lists(st.integers(-1, len(timeline) - 1), min_size=1, max_size=6)):
        assert page.apply(kernel.update(timeline.messages_after(n), (0, 0)))
        assert page.messages() == timeline.messages_after(n)


def test_a_step_sends_the_part_it_changed_not_the_conversation() -> None:
    events = turns_log(3_000, runs=False)  # one run: one message of many parts
    timeline = EventTimeline(events, every=64)
    kernel, page = ConversationWindow(), PageWindow()
    n = next(i for i in range(2_000, 3_000) if events[i]["type"] == "TEXT_MESSAGE_CONTENT")
    assert page.apply(kernel.update(timeline.messages_after(n - 1), timeline.touched[n - 1][0]))
    update = kernel.update(timeline.messages_after(n), timeline.touched[n][0])
    (op,) = update["messages"]
    part = timeline.touched[n][0][1]
    assert [j + page.held[0]["from"] for j, _ in op["parts"]] == [part] and "head" not in op
    assert page.apply(update) and page.messages() == page.expected(timeline.messages_after(n))


def test_window_layout_takes_the_focus_then_both_sides() -> None:
    parts = [{"parts": [{}] * n} for n in (2, 0, 5, 2, 2)]
    # The focus message, then earlier and later ones in turn (a message without parts counts one), the last cut.
    assert window_layout(parts, (2, 4), budget=9) == [(0, 1, 2), (1, 0, 0), (2, 0, 5), (3, 0, 2)]
    # A message longer than the window: the focus in the middle, near its end fewer parts (room for more).
    assert window_layout(parts, (2, -1), budget=3) == [(1, 0, 0), (2, 3, 5)]
    assert window_layout(parts, (2, 1), budget=3) == [(2, 0, 3)]
    # The page's window of the focus message stays while the focus is in it.
    assert window_layout(parts, (2, 2), budget=3, kept={2: 0}) == [(2, 0, 3)]
    assert window_layout(parts, (2, 3), budget=3, kept={2: 0}) == [(2, 2, 5)]
    assert window_layout([], (0, 0)) == []


class Comm:
    """What an Inspector sends its page, as JSON."""

    def __init__(self, insp: Inspector) -> None:
        self.sent: list[dict[str, Any]] = []
        insp.send = lambda content, buffers=None: self.sent.append(json.loads(json.dumps(content)))  # type: ignore[method-assign]

    def conversation(self) -> list[dict[str, Any]]:
        found = [m for m in self.sent if m.get("kind") == "conversation"]
        self.sent.clear()
        return found


def test_a_page_that_reconnects_asks_for_the_whole_window_and_gets_it() -> None:
    events = turns_log(12_000, runs=True)  # some 200 messages: more than a window
    insp = Inspector(events)
    comm = Comm(insp)
    first = PageWindow()
    insp.seek(11_000)
    (update,) = comm.conversation()
    assert update["base"] is not None  # built on what the page had before: this new page cannot take it
    assert not first.apply(update)
    insp._on_page_message(insp, {"kind": "window", "version": first.version, "focus": None}, [])
    (whole,) = comm.conversation()
    assert whole["base"] is None and first.apply(whole)
    assert first.messages() == first.expected(insp.messages)
    insp.seek(11_001)
    (step,) = comm.conversation()
    assert step["base"] == first.version and first.apply(step)
    assert first.messages() == first.expected(insp.messages)
    # Scrolled to the top of its window, the page asks for the window around an earlier message.
    insp._on_page_message(
        insp, {"kind": "window", "version": first.version, "focus": [first.first - 1, -1]}, []
    )
    (earlier,) = comm.conversation()
    assert whole["first"] > 0 and first.apply(earlier) and min(first.held) < whole["first"]
    assert first.messages() == first.expected(insp.messages)


def test_the_page_gets_the_event_list_in_chunks_and_searches_in_the_kernel() -> None:
    events = turns_log(2_000, runs=True)
    insp = Inspector(events)
    comm = Comm(insp)
    insp._on_page_message(insp, {"kind": "events", "start": 600}, [])
    (chunk,) = comm.sent
    assert chunk["start"] == 512 and len(chunk["summaries"]) == 256
    assert chunk["touched"][700 - 512] == [list(p) for p in insp.timeline_index.touched[700]]
    comm.sent.clear()
    insp._on_page_message(insp, {"kind": "search", "needle": "LOOKUP", "type": "", "id": 3}, [])
    (found,) = comm.sent
    assert found["id"] == 3 and found["indexes"] == [i for i, e in enumerate(events) if e.get("toolCallName")]
    comm.sent.clear()
    insp.seek(100)
    insp._on_page_message(insp, {"kind": "part-events", "message": 1, "part": 1}, [])
    assert comm.sent[-1]["indexes"] == insp.timeline_index.events_of_part(1, 1, upto=100)
