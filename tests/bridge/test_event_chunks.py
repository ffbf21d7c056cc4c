"""AG-UI events to AI SDK chunks: which chunk each event becomes, and for which assistant message."""

from __future__ import annotations

from typing import Any

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
