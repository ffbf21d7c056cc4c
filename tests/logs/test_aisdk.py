"""AI SDK UI-message chunks read as AG-UI events."""

from __future__ import annotations

from agui_notebook.logs._aisdk import UIChunkConverter, is_ui_chunk_type
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import CAPTURES


def convert(chunks: list[dict]) -> list[dict]:
    converter = UIChunkConverter()
    out = []
    for chunk in chunks:
        out += [{k: v for k, v in e.items() if k != "rawEvent"} for e in converter.feed(chunk)]
    return out


def test_a_stream_becomes_a_run() -> None:
    chunks = [
        {"type": "start", "messageId": "msg-1"},
        {"type": "start-step"},
        {"type": "reasoning-start", "id": "r"},
        {"type": "reasoning-delta", "id": "r", "delta": "hm"},
        {"type": "reasoning-end", "id": "r"},
        {"type": "tool-input-start", "toolCallId": "c", "toolName": "f"},
        {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"a":1}'},
        {"type": "tool-input-available", "toolCallId": "c", "toolName": "f", "input": {"a": 1}},
        {"type": "tool-output-error", "toolCallId": "c", "errorText": "nope"},
        {"type": "finish-step"},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "ok"},
        {"type": "text-end", "id": "t"},
        {"type": "data-weather", "data": {"x": 1}},
        {"type": "finish"},
        {"type": "done"},
    ]
    assert convert(chunks) == [
        {"type": "RUN_STARTED", "runId": "msg-1"},
        {"type": "STEP_STARTED", "stepName": "step-1"},
        {"type": "REASONING_MESSAGE_START", "messageId": "r", "role": "reasoning"},
        {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r", "delta": "hm"},
        {"type": "REASONING_MESSAGE_END", "messageId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"a":1}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {
            "type": "TOOL_CALL_RESULT",
            "messageId": "c-result",
            "toolCallId": "c",
            "content": "nope",
            "role": "tool",
            "error": "nope",
        },
        {"type": "STEP_FINISHED", "stepName": "step-1"},
        {"type": "TEXT_MESSAGE_START", "messageId": "t", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "t", "delta": "ok"},
        {"type": "TEXT_MESSAGE_END", "messageId": "t"},
        {"type": "CUSTOM", "name": "data-weather", "value": {"type": "data-weather", "data": {"x": 1}}},
        {"type": "RUN_FINISHED", "runId": "msg-1"},
    ]


def test_input_available_without_streaming_and_errors() -> None:
    chunks = [
        {"type": "tool-input-available", "toolCallId": "c", "toolName": "f", "input": {"a": 1}},
        {"type": "tool-output-available", "toolCallId": "c", "output": {"ok": True}},
        {"type": "error", "errorText": "overloaded"},
        {"type": "text-delta", "id": "t", "delta": "again"},
        {"type": "abort"},
    ]
    assert convert(chunks) == [
        {"type": "RUN_STARTED", "runId": "ui-run-1"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"a":1}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {
            "type": "TOOL_CALL_RESULT",
            "messageId": "c-result",
            "toolCallId": "c",
            "content": '{"ok":true}',
            "role": "tool",
        },
        {"type": "RUN_ERROR", "message": "overloaded"},
        {"type": "RUN_STARTED", "runId": "ui-run-2"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "t", "delta": "again"},
        {"type": "RUN_FINISHED", "outcome": {"type": "cancelled"}, "runId": "ui-run-2"},
    ]


def test_chunk_types() -> None:
    assert is_ui_chunk_type("text-delta") and is_ui_chunk_type("data-anything")
    assert not is_ui_chunk_type("TEXT_MESSAGE_CONTENT") and not is_ui_chunk_type(None)


def test_recorded_ui_stream_loads_into_the_tables() -> None:
    base = 1_700_000_000_000_000_000
    chunks = [
        {"type": "start"},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "Hel"},
        {"type": "text-delta", "id": "t", "delta": "lo"},
        {"type": "text-end", "id": "t"},
        {"type": "tool-input-available", "toolCallId": "c", "toolName": "f", "input": {}},
        {"type": "tool-output-available", "toolCallId": "c", "output": "done"},
        {"type": "finish"},
    ]
    records = [{"received_ns": base + i * 100_000_000, "event": c} for i, c in enumerate(chunks)]
    df = load_events(records)
    runs = runs_df(df)
    assert runs[["run_id", "status", "text_chars", "text_chunks", "tool_calls"]].astype(
        str
    ).values.tolist() == [["ui-run-1", "success", "5", "2", "1"]]
    assert runs["ttft_s"].tolist() == [0.2] and runs["duration_s"].tolist() == [0.7]
    assert messages_df(df)["text"].tolist() == ["Hello"]
    calls = tool_calls_df(df)
    assert calls[["status", "result"]].astype(str).values.tolist() == [["ok", "done"]]
    assert calls["latency_s"].tolist() == [0.1]


def test_every_event_made_from_a_ui_chunk_keeps_the_chunk() -> None:
    ui = load_events(CAPTURES / "pydantic_ai_ui_stream.jsonl")
    assert ui["event"].iloc[3]["rawEvent"]["type"] == "reasoning-delta"
