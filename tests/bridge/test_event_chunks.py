"""AG-UI events to AI SDK chunks: which chunk each event becomes, and for which assistant message."""

from __future__ import annotations

import math
from typing import Any

import pytest

from agui_notebook import AguiNotebookError, JsonValueError, ui_chunks_from_events, ui_messages_from_events
from agui_notebook.bridge._event_chunks import RoutedChunk, WholeMessage, iter_routed

RUN = [{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}]
END = [{"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}]


def chunks(events: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(r.message_id, r.chunk) for r in iter_routed(iter(events)) if isinstance(r, RoutedChunk)]


def test_a_run_is_one_answer_with_a_step_around_its_text_and_tool_call():
    routed = chunks(
        [
            *RUN,
            {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi"},
            {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": "m1"},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"a": 1}'},
            {"type": "TOOL_CALL_END", "toolCallId": "c1"},
            {"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "c1", "content": "ok"},
            *END,
        ]
    )
    assert {message_id for message_id, _ in routed} == {"r"}  # the answer is named after its run
    assert [chunk["type"] for _, chunk in routed] == [
        "start",
        "start-step",
        "text-start",
        "text-delta",
        "text-end",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-available",
        "tool-output-available",
        "finish-step",
        "finish",
    ]
    by_type = {chunk["type"]: chunk for _, chunk in routed}
    assert by_type["start"]["messageMetadata"] == {"ag-ui": {"threadId": "t", "runId": "r"}}
    assert by_type["text-delta"] == {"type": "text-delta", "id": "m1", "delta": "Hi"}
    assert by_type["tool-input-available"]["input"] == {"a": 1}
    assert by_type["tool-output-available"]["output"] == "ok"
    assert by_type["tool-output-available"]["providerMetadata"] == {"ag-ui": {"messageId": "t1"}}


def test_a_user_message_is_a_whole_message_not_a_chunk():
    routed = list(
        iter_routed(
            iter(
                [
                    *RUN,
                    {"type": "TEXT_MESSAGE_START", "messageId": "u1", "role": "user"},
                    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "u1", "delta": "hello"},
                    {"type": "TEXT_MESSAGE_END", "messageId": "u1"},
                    *END,
                ]
            )
        )
    )
    whole = [r for r in routed if isinstance(r, WholeMessage)]
    assert [w.message["role"] for w in whole] == ["user"]
    assert not any(isinstance(r, RoutedChunk) and r.chunk["type"].startswith("text-") for r in routed)


def test_a_split_emoji_is_one_character_in_the_chunks():
    routed = chunks(
        [
            *RUN,
            {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "\ud83d"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "\ude00!"},
            {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
            *END,
        ]
    )
    text = "".join(chunk["delta"] for _, chunk in routed if chunk["type"] == "text-delta")
    assert text.encode("utf-16", "surrogatepass").decode("utf-16") == "\U0001f600!"


# -- a tool result's content is checked where it enters --------------------------------------------------------


def _with_result(content: Any) -> list[dict[str, Any]]:
    return [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c", "messageId": "m", "content": content},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]


@pytest.mark.parametrize("convert", [lambda e: list(ui_chunks_from_events(e)), ui_messages_from_events])
def test_a_result_content_with_no_json_form_is_blamed_on_its_event_once(convert: Any) -> None:
    # The result waits for the next event (an outcome claim may follow): it was blamed on event 4
    # (RUN_FINISHED), and ui_messages_from_events said so twice ("cannot be processed (EventParseError: ...").
    with pytest.raises(JsonValueError) as caught:
        convert(_with_result(b"raw bytes"))
    assert str(caught.value) == "<events>: event 3 (TOOL_CALL_RESULT) .content: a <class 'bytes'> is not JSON"
    assert caught.value.path == ".content"


def test_content_that_is_not_json_is_caught_where_it_enters() -> None:
    # {(1, 2): nan} used to pass into the chunks as if it were JSON, to fail far from its cause.
    events = _with_result([{"type": "text", "text": "x", "score": math.nan}])
    with pytest.raises(
        JsonValueError, match=r"^<events>: event 3 \(TOOL_CALL_RESULT\) \.content\[0\]\.score: NaN"
    ):
        list(ui_chunks_from_events(events))
    with pytest.raises(AguiNotebookError, match=r"^<events>: event 3 \(TOOL_CALL_RESULT\)"):
        list(ui_chunks_from_events(_with_result({(1, 2): math.nan})))


def test_a_result_read_from_json_text_passes_infinities_included() -> None:
    # 1e400 is how JSON.parse reads it: infinite, and JSON as our readers give it.
    chunks = list(ui_chunks_from_events(_with_result('{"big": 1e400}')))
    assert [c["output"] for c in chunks if c["type"] == "tool-output-available"] == [{"big": math.inf}]
