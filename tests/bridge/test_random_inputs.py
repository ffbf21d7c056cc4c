"""Hostile input to every public converter of bridge/: only the package's errors, each located.

Random AG-UI event sequences (objects, and JSONL/SSE bytes cut anywhere) into UIMessages and UI chunks, and
random AG-UI messages and UIMessages through the message conversions.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agui_notebook import (
    AguiNotebookError,
    EventParseError,
    MessageValidationError,
    UIMessageAssembler,
    aui_chunks_from_events,
    to_agui_messages,
    to_openai_messages,
    to_ui_messages,
    ui_chunks_from_events,
    ui_messages_from_events,
)
from tests.support.hostile import (
    MESSAGES,
    RANDOM_INPUT_SETTINGS,
    RUN_STARTED,
    VALUES,
    async_slices,
    collect_async,
    event_sequences,
    raises_only_located,
    text_form,
)
from tests.wire.streams import cuts

SETTINGS = RANDOM_INPUT_SETTINGS


def _assemble(events: list[Any]) -> None:
    assembler = UIMessageAssembler()
    for event in events:
        if isinstance(raises_only_located(lambda event=event: assembler.push(event)), AguiNotebookError):
            return  # a live view would end the run here
    raises_only_located(assembler.close)


def _every_entry_point(replay: Any) -> None:
    raises_only_located(lambda: ui_messages_from_events(replay()))
    raises_only_located(lambda: list(ui_chunks_from_events(replay())))


@SETTINGS
@given(event_sequences())
def test_event_objects(events: list[Any]) -> None:
    _every_entry_point(lambda: list(events))
    _every_entry_point(lambda: iter(list(events)))  # a one-shot iterator: no second reading to locate with
    _assemble([e for e in events if isinstance(e, dict)])


@SETTINGS
@given(event_sequences(max_size=6), st.booleans(), st.data())
def test_event_text_cut_anywhere(events: list[Any], sse: bool, data: st.DataObject) -> None:
    blob = text_form(events, sse=sse)
    pieces = data.draw(cuts(blob))
    _every_entry_point(lambda: blob)
    _every_entry_point(lambda: list(pieces))
    raises_only_located(lambda: asyncio.run(collect_async(aui_chunks_from_events(async_slices(pieces)))))


_UI_PART = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "reasoning", "tool-f", "dynamic-tool", "data-x", "file"]) | VALUES},
    optional={
        "text": VALUES,
        "state": st.sampled_from(["input-available", "output-available", "output-error"]) | VALUES,
        "toolCallId": VALUES,
        "toolName": VALUES,
        "input": VALUES,
        "output": VALUES,
        "errorText": VALUES,
        "url": VALUES,
        "mediaType": VALUES,
        "providerMetadata": VALUES,
    },
)
UI_MESSAGES = st.lists(
    st.fixed_dictionaries(
        {
            "id": st.sampled_from(["u1", "a1"]) | VALUES,
            "role": st.sampled_from(["user", "assistant", "system"]) | VALUES,
        },
        optional={"parts": st.lists(_UI_PART | VALUES, max_size=3) | VALUES, "metadata": VALUES},
    )
    | VALUES,
    max_size=3,
)


@SETTINGS
@given(MESSAGES)
def test_ag_ui_messages(messages: list[Any]) -> None:
    raises_only_located(lambda: to_ui_messages(messages))
    raises_only_located(lambda: to_openai_messages(messages))


@SETTINGS
@given(UI_MESSAGES)
def test_ui_messages(messages: list[Any]) -> None:
    raises_only_located(lambda: to_agui_messages(messages))
    raises_only_located(lambda: to_openai_messages(messages))
    raises_only_located(lambda: ui_messages_from_events([RUN_STARTED], messages=messages))
    raises_only_located(lambda: UIMessageAssembler(messages))


# -- the cases from the issue -----------------------------------------------------------------------------------

F = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}


def test_a_malformed_event_is_named_by_its_index_and_type() -> None:
    events = [RUN_STARTED, {"type": "TEXT_MESSAGE_START", "role": "assistant"}, F]
    with pytest.raises(
        EventParseError, match=r"^<events>: event 1 \(TEXT_MESSAGE_START\): messageId: Field required$"
    ) as caught:
        ui_messages_from_events(events)
    assert caught.value.index == 1
    text = b"\n".join(
        [
            b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
            b'{"type":"TOOL_CALL_START","toolCallId":["c"]}',
        ]
    )
    with pytest.raises(
        EventParseError, match=r"^<text>:2: event 1 \(TOOL_CALL_START\): toolCallId: "
    ) as caught:
        list(ui_chunks_from_events(text))
    assert (caught.value.index, caught.value.line) == (1, 2)


def test_a_message_a_conversion_cannot_take_is_named_by_its_path() -> None:
    with pytest.raises(MessageValidationError, match=r"^messages\[1\]\.toolCalls: ") as caught:
        to_ui_messages(
            [{"id": "u", "role": "user", "content": "hi"}, {"id": "a", "role": "assistant", "toolCalls": "x"}]
        )
    assert caught.value.path == "messages[1].toolCalls"
    with pytest.raises(MessageValidationError, match=r"^messages\[0\]\.parts\[0\]\.text: "):
        to_agui_messages([{"id": "u", "role": "user", "parts": [{"type": "text", "text": 5}]}])
