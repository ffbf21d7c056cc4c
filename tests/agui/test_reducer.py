"""EventReducer on its own: a live stream fed event by event."""

from __future__ import annotations

from agui_notebook.agui._reducer import EventReducer
from tests.agui.apply_cases import CASES


def test_the_reducer_reads_a_live_stream_event_by_event() -> None:
    reducer = EventReducer()
    for event in CASES["text-simple"]["events"][:3]:
        reducer.feed(event)
    assert reducer.result().message_dicts == [{"id": "m1", "role": "assistant", "content": "Hel"}]
    for event in CASES["text-simple"]["events"][3:]:
        reducer.feed(event)
    assert reducer.result().message_dicts == [{"id": "m1", "role": "assistant", "content": "Hello"}]
    assert reducer.result().runs[0].outcome == "success"


def test_non_string_deltas_are_appended_as_javascript_prints_them() -> None:
    # `${content}${delta}` in the client: String(value). The case invalid-non-string-deltas compares it with node.
    reducer = EventReducer()
    reducer.feed({"type": "TEXT_MESSAGE_START", "messageId": "m1"})
    for delta in (1.0, 1e22, 1e-7, 12345678901234567890, -0.0, [1, None, [2.5]], {"a": 1}, True, None):
        reducer.feed({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": delta})
    reducer.feed(
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": "m1"}
    )
    reducer.feed({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": 2.0})
    reducer.feed({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": [3, 4.5]})
    (message,) = reducer.result().message_dicts
    assert message["content"] == "11e+221e-7123456789012345670000" + "1,,2.5[object Object]truenull"
    assert message["toolCalls"][0]["function"]["arguments"] == "23,4.5"
