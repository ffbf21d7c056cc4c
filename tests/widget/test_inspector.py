"""inspect(source): every source kind, seek / position / selected_event, the highlight, the timeline the front end
draws (runs, problems, receive times), and the traits a seek sets."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from agui_notebook import ChatWidget, load_events, ui_messages_from_events
from agui_notebook import inspect_run as inspect
from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.inspection import Inspector
from agui_notebook.widget._inspector import STATIC_REST_SECONDS, TYPE_CODES
from tests.logs.samples import CAPTURES, jsonl, known_events
from tests.support.pydantic_ai_runs import _text_only, make_agent

LOG = CAPTURES / "pydantic_ai_runs.jsonl"


def test_every_source_kind_inspects_the_same_events() -> None:
    events = known_events()
    inspectors = [inspect(source) for source in (events, jsonl(events), load_events(events))]
    assert [i.events for i in inspectors] == [events] * 3
    assert all(i.position == len(events) - 1 for i in inspectors)
    assert inspectors[0].messages == ui_message_dicts_from_events(events)


def test_a_chat_is_inspected_through_its_events() -> None:
    async def run() -> ChatWidget:
        chat = ChatWidget(lambda run_input: iter(["Hello ", "there."]))
        await chat.send_message("Hi")
        return chat

    chat = asyncio.run(run())
    insp = inspect(chat)
    assert insp.events == load_events(chat)["event"].tolist()
    assert insp.messages[-1]["parts"][-1]["text"] == "Hello there."


async def test_a_chats_runs_start_from_their_inputs_so_the_users_turns_show() -> None:
    """pydantic-ai's AG-UI adapter does not echo the run input: the user's turns are only in the chat's run
    inputs, and the inspector starts each run from its own."""
    chat = ChatWidget(make_agent(_text_only))
    await chat.send_message("Hello there")
    await chat.send_message("And again")
    insp = inspect(chat)
    roles = [(m["role"], [p.get("text") for p in m["parts"] if p["type"] == "text"]) for m in insp.messages]
    assert [r for r, _ in roles] == ["user", "assistant", "user", "assistant"]
    assert [texts for r, texts in roles if r == "user"] == [["Hello there"], ["And again"]]
    second = [i for i, e in enumerate(insp.events) if e["type"] == "RUN_STARTED"][1]
    insp.seek(second)  # the second run's first event: the conversation it was sent, and its answer begun
    assert [m["role"] for m in insp.messages] == ["user", "assistant", "user", "assistant"]
    assert insp.messages[-1]["parts"] == []
    insp.seek(second - 1)  # the first run's last event: the second question is not asked yet
    assert [m["role"] for m in insp.messages] == ["user", "assistant"]
    picked = inspect(chat, run=1)
    assert [m["role"] for m in picked.messages] == ["user", "assistant", "user", "assistant"]


def test_seek_shows_the_conversation_after_the_event() -> None:
    insp = inspect(LOG)
    events = insp.events
    for n in (0, 5, 17, 40, len(events) - 1):
        assert insp.seek(n) is insp
        assert insp.position == n
        assert insp.selected_event == events[n] == insp.event
        assert insp.messages == ui_message_dicts_from_events(events[: n + 1])
        assert len(ui_messages_from_events(insp.messages and events[: n + 1])) == len(insp.messages)
    assert insp.seek(-1).position == len(events) - 1
    with pytest.raises(IndexError, match=r"^seek\(86\): the run has 86 events \(0 to 85\)$"):
        insp.seek(86)


def test_the_front_end_writing_the_position_is_a_seek() -> None:
    insp = inspect(LOG)
    insp.position = 12  # as the scrubber sets it
    assert insp.messages == ui_message_dicts_from_events(insp.events[:13])
    insp.position = 10_000  # kept inside the run
    assert insp.position == 85


def test_the_changed_part_is_the_events() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Looking"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"a": 1}'},
        {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/n", "value": 1}]},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    insp = inspect(events)
    assert insp.seek(2).changed == [[0, 0], [0, 1]]
    assert insp.seek(4).changed == [[0, 2]]
    assert insp.event_chunk(0)["touched"][:5] == [[[0, -1]], [], [[0, 0], [0, 1]], [[0, 2]], [[0, 2]]]
    assert insp.seek(5).changed == [] and (insp.state, insp.state_paths, insp.state_event) == (
        {"n": 1},
        ["/n"],
        5,
    )
    assert insp.seek(4).state == {} and insp.state_event == -1
    assert insp.events_of_part(0, 2) == [3, 4]
    assert insp.seek(3).events_of_part(0, 2) == [3]


def test_the_timeline_marks_runs_problems_and_receive_times() -> None:
    insp = inspect(LOG)
    timeline = insp.timeline
    assert timeline["runs"] == [0, 10, 33, 51, 64, 78]
    chunk = insp.event_chunk(0)  # the event list's first chunk: this run's 86 events
    assert timeline["count"] == len(timeline["types"]) == len(chunk["times"]) == len(chunk["summaries"]) == 86
    types = [timeline["type_names"][TYPE_CODES.index(code)] for code in timeline["types"]]
    assert types == [e["type"] for e in insp.events]
    assert timeline["type_names"] == sorted(set(types))
    assert types[2] == "TEXT_MESSAGE_CONTENT" and chunk["summaries"][2] == "Hello"
    assert chunk["times"][0] == 0.0 and all(
        b >= a for a, b in zip(chunk["times"], chunk["times"][1:], strict=False)
    )
    broken = inspect([*known_events()[1:5], {"type": "RUN_FINISHED", "threadId": "t", "runId": "other"}])
    assert broken.timeline["problems"] == [
        {
            "index": 4,
            "severity": "error",
            "rule": "run-finished-while-open",
            "message": "RUN_FINISHED while still open: reasoning messages mr; reasoning spans mr",
        }
    ]


def test_an_empty_run_inspects_as_nothing() -> None:
    insp = Inspector([])
    assert (insp.position, insp.messages, insp.selected_event, insp.event) == (-1, [], None, {})


ACTIVITY_RUN = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
    {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "The days:"},
    {"type": "ACTIVITY_SNAPSHOT", "messageId": "f", "activityType": "forecast", "content": {"days": [1, 2]}},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
]


def _days(part: dict) -> object:
    import pandas as pd

    return pd.DataFrame({"day": part["data"]["days"]})


def test_parts_are_drawn_by_the_renderers_given_and_by_a_chats_own() -> None:
    insp = inspect(ACTIVITY_RUN, renderers={"data-forecast": _days})
    (entry,) = insp.rendered.values()
    assert entry["type"] == "data-forecast"
    assert entry["data"]["application/vnd.agui-notebook.table+json"]["rows"] == [[1], [2]]
    insp.seek(1)  # before the activity: nothing to draw
    assert insp.rendered == {}
    insp.seek(-1)
    assert len(insp.rendered) == 1

    async def chat_of_it() -> ChatWidget:
        chat = ChatWidget(lambda run_input: iter(ACTIVITY_RUN), renderers={"data-forecast": _days})
        chat.renderers["data-plan"] = "export function render({ part, el }) { el.textContent = 'plan'; }"
        await chat.send_message("go")
        return chat

    chat = asyncio.run(chat_of_it())
    of_chat = inspect(chat)
    assert [e["type"] for e in of_chat.rendered.values()] == ["data-forecast"]
    assert list(of_chat.frontend_renderers) == ["data-plan"]
    assert inspect(chat, renderers={}).rendered == {}


def test_a_seek_makes_no_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The inspector's seek runs with the collector off (a collection mid-seek over a big heap is a pause)."""
    from agui_notebook.widget import _inspector

    seen: list[bool] = []
    put = _inspector.Inspector._put
    monkeypatch.setattr(
        _inspector.Inspector, "_put", lambda self, n: (seen.append(gc.isenabled()), put(self, n))
    )
    insp = Inspector([{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}] * 2)
    insp.seek(0)
    assert seen and not any(seen) and gc.isenabled()


# ---------------------------------------------------------------------------------------------- the static copy

GREETING = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hello <b>there</b>"},
    {"type": "TEXT_MESSAGE_END", "messageId": "m"},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
]


def _shown(captured: Any) -> list[tuple[dict[str, Any], dict[str, Any], bool]]:
    return [(o.data, o.transient or {}, o.update) for o in captured.outputs]


def test_display_shows_the_inspector_then_a_static_copy_of_where_it_stands() -> None:
    insp = inspect(GREETING, title="Greeting")
    formatter = InteractiveShell.instance().display_formatter
    with capture_output() as shown:
        formatter.format(insp)
    (widget, _, _), (copy, transient, update) = _shown(shown)
    assert set(widget) == {"application/vnd.jupyter.widget-view+json"}
    assert not update and transient["display_id"] == f"agui-notebook-static-{insp.model_id}"
    assert copy["text/plain"] == "Greeting · event 4 / 4 · RUN_FINISHED\nassistant: Hello <b>there</b>"
    assert "Hello &lt;b&gt;there&lt;/b&gt;" in copy["text/html"]  # escaped, as every copy is
    assert "A saved copy of this inspector at event 4 / 4 · RUN_FINISHED" in copy["text/html"]
    with capture_output() as sought:
        insp.seek(1)  # no event loop runs: the copy follows at once
    ((data, transient_now, update_now),) = _shown(sought)
    assert update_now and transient_now == transient
    assert data["text/plain"] == "Greeting · event 1 / 4 · TEXT_MESSAGE_START\nassistant: "


async def test_while_scrubbing_the_copy_follows_once_the_position_rests() -> None:
    insp = inspect(GREETING)
    formatter = InteractiveShell.instance().display_formatter
    with capture_output():
        formatter.format(insp)
    with capture_output() as sought:
        for n in (0, 1, 2, 3, 2):
            insp.seek(n)
        assert sought.outputs == []
        await asyncio.sleep(STATIC_REST_SECONDS + 0.2)
    ((data, _, update),) = _shown(sought)
    assert (
        update
        and data["text/plain"]
        == "the events · event 2 / 4 · TEXT_MESSAGE_CONTENT\nassistant: Hello <b>there</b>"
    )


def test_an_inspector_never_displayed_publishes_nothing() -> None:
    insp = inspect(GREETING)
    with capture_output() as published:
        insp.seek(0)
    assert published.outputs == []


async def test_a_frontend_tools_result_shows_as_the_chat_showed_it() -> None:
    """The kernel's result of a frontend tool is in the follow-up run's input, not in any event."""
    from tests.chat.test_frontend_tools import TimeModel, get_time, time_agent

    chat = ChatWidget(time_agent(TimeModel()), tools=[get_time])
    await chat.send_message("What time is it in Paris?")
    insp = inspect(chat)

    def shape(messages: list[dict[str, Any]]) -> list[Any]:
        return [
            (m["role"], [(p["type"], p.get("state"), p.get("output")) for p in m["parts"]]) for m in messages
        ]

    assert shape(insp.messages) == shape(chat.messages)
    assert ("tool-get_time", "output-available", {"tz": "Europe/Paris", "time": "12:00"}) in shape(
        insp.messages
    )[1][1]
