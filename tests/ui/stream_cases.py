"""UI message streams for the differential tests, and the AI SDK's ``readUIMessageStream`` reading of them.

The reducer's tests and ``read_ui_message_stream``'s compare against the same reference run, made once.
"""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path
from typing import Any

from agui_notebook.ui._chunk_source import iter_ui_chunks
from tests.support.node import run_node_reference
from tests.ui.pydantic_ai_streams import SCENARIOS, capture_sse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ui_streams"
# Streams whose explicit nulls in optional fields the models leave out (the AI SDK's validation rejects them).
NULLS_IN_OPTIONAL_FIELDS = {"odd_values"}


def fixture_streams() -> dict[str, list[dict[str, Any]]]:
    """Every saved stream by name: the JSONL and SSE captures, and each case of malformed.json."""
    streams = {path.stem: list(iter_ui_chunks(path.read_text())) for path in sorted(FIXTURES.glob("*.jsonl"))}
    streams |= {path.stem: list(iter_ui_chunks(path.read_bytes())) for path in sorted(FIXTURES.glob("*.sse"))}
    for case in json.loads((FIXTURES / "malformed.json").read_text()):
        streams[f"malformed: {case['name']}"] = case["chunks"]
    return streams


RESUMED = {
    "id": "msg-r",
    "role": "assistant",
    "parts": [
        {"type": "step-start"},
        {"type": "text", "text": "Before", "state": "done"},
        {
            "type": "tool-search",
            "toolCallId": "c9",
            "state": "input-streaming",
            "input": {"q": "pa"},
            "rawInput": '{"q": "pa',
        },
        {
            "type": "dynamic-tool",
            "toolName": "mcp",
            "toolCallId": "d9",
            "state": "input-streaming",
            "rawInput": "[1",
        },
        {"type": "data-x", "id": "dx", "data": 1},
    ],
    "metadata": {"a": 1},
}
RESUME_CHUNKS = [
    {"type": "start", "messageId": "msg-r", "messageMetadata": {"b": 2}},
    {"type": "tool-input-delta", "toolCallId": "c9", "inputTextDelta": 'ris"}'},
    {"type": "tool-input-delta", "toolCallId": "d9", "inputTextDelta": ", 2]"},
    {"type": "data-x", "id": "dx", "data": 2},
    {"type": "tool-input-available", "toolCallId": "c9", "toolName": "search", "input": {"q": "paris"}},
    {"type": "finish"},
]


def _cases(streams: dict[str, list[dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    cases = [(name, {"chunks": chunks}) for name, chunks in streams.items()]
    for name in ("tools_static", "approvals", "interleaved", "pydantic_ai_tools"):
        chunks = streams[name]
        cases += [(f"{name}[:{n}]", {"chunks": chunks[:n]}) for n in range(len(chunks))]
    cases.append(("resumed", {"chunks": RESUME_CHUNKS, "message": RESUMED}))
    cases.append(
        (
            "user message given",
            {"chunks": streams["text_basic"][1:], "message": {"id": "u", "role": "user", "parts": []}},
        )
    )
    for name in ("interleaved", "malformed: text-delta unknown id", "pydantic_ai_error"):
        cases.append((f"{name} (terminate)", {"chunks": streams[name], "terminateOnError": True}))
    return cases


@functools.cache
def reference_cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``(name, spec, what readUIMessageStream gave)`` for every case; node runs once per session."""
    streams = fixture_streams()
    for scenario in SCENARIOS:  # live runs of the real producer too, not only the saved captures
        streams[f"live pydantic-ai {scenario}"] = list(iter_ui_chunks(asyncio.run(capture_sse(scenario))))
    cases = _cases(streams)
    expected = run_node_reference("ai_read_stream.mjs", {"streams": [spec for _, spec in cases]})
    return [(name, spec, reference) for (name, spec), reference in zip(cases, expected, strict=True)]


def reference_errors(result: dict[str, Any]) -> list[tuple[str, int]]:
    """The errors readUIMessageStream reported, as ``(kind, chunk index)``: ``"chunk"`` or ``"malformed"``."""
    # JavaScript `Error`s come from `error` chunks; everything else is a malformed stream.
    return [("chunk" if e["name"] == "Error" else "malformed", e["chunkIndex"]) for e in result["errors"]]
