"""Hand-built logs with exact timestamps (for known answers), the real captures, and column helpers."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pandas as pd

CAPTURES = Path(__file__).resolve().parent.parent / "fixtures" / "logs"
T0 = 1_700_000_000_000  # ms since the epoch: 2023-11-14 22:13:20 UTC


@cache
def capture_module() -> ModuleType:
    """tests/fixtures/logs/capture.py: the pydantic-ai scenarios the captures were recorded from."""
    spec = importlib.util.spec_from_file_location("logs_capture", CAPTURES / "capture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def at(ms: int, type_: str, **fields: Any) -> dict[str, Any]:
    """An event ``ms`` milliseconds after T0."""
    return {"type": type_, "timestamp": T0 + ms, **fields}


def ts(ms: int) -> pd.Timestamp:
    """The UTC time ``ms`` milliseconds after T0."""
    return pd.Timestamp(T0 + ms, unit="ms", tz="UTC")


def values(column: pd.Series) -> list:
    """A column's values with every kind of missing value as None (lists and dicts kept as they are)."""
    return [None if (not isinstance(v, (list, dict)) and pd.isna(v)) else v for v in column.astype(object)]


RUN = [
    at(0, "RUN_STARTED", threadId="t", runId="r"),
    at(10, "TEXT_MESSAGE_START", messageId="m", role="assistant"),
    at(25, "TEXT_MESSAGE_CONTENT", messageId="m", delta="Hi"),
    at(40, "TEXT_MESSAGE_END", messageId="m"),
    at(50, "RUN_FINISHED", threadId="t", runId="r"),
]
"""One short run with one text message."""


def known_events() -> list[dict[str, Any]]:
    """Four runs on one thread with every metric known by hand (see the comments for the answers).

    r1: reasoning 150-250 ms, text 500-900 and 2600-2700 ms, two overlapping tool calls, finishes at 3 s.
    r2 (parent r1): errors at 5.5 s with a tool call left without a result.
    r3: finishes with an interrupt.  r4: never finishes, its tool call pending.
    """
    return [
        at(-100, "CUSTOM", name="before-any-run", value=1),
        at(0, "RUN_STARTED", threadId="t1", runId="r1"),
        at(100, "REASONING_START", messageId="mr"),
        at(100, "REASONING_MESSAGE_START", messageId="mr", role="reasoning"),
        at(150, "REASONING_MESSAGE_CONTENT", messageId="mr", delta="Think"),
        at(250, "REASONING_MESSAGE_CONTENT", messageId="mr", delta="ing."),
        at(300, "REASONING_MESSAGE_END", messageId="mr"),
        at(300, "REASONING_ENCRYPTED_VALUE", subtype="message", entityId="mr", encryptedValue="opaque"),
        at(310, "REASONING_END", messageId="mr"),
        at(400, "TEXT_MESSAGE_START", messageId="m1", role="assistant"),
        at(500, "TEXT_MESSAGE_CONTENT", messageId="m1", delta="Hello"),
        at(520, "TEXT_MESSAGE_CONTENT", messageId="m1", delta=""),
        at(600, "TEXT_MESSAGE_CONTENT", messageId="m1", delta=" world"),
        at(900, "TEXT_MESSAGE_CONTENT", messageId="m1", delta="!"),
        at(950, "MY_CUSTOM_TYPE", payload={"kept": True}),
        at(1000, "TEXT_MESSAGE_END", messageId="m1"),
        at(1000, "TOOL_CALL_START", toolCallId="c1", toolCallName="search", parentMessageId="m1"),
        at(1100, "TOOL_CALL_ARGS", toolCallId="c1", delta='{"q":'),
        at(1300, "TOOL_CALL_ARGS", toolCallId="c1", delta=' "x"}'),
        at(1400, "TOOL_CALL_END", toolCallId="c1"),
        at(1400, "TOOL_CALL_START", toolCallId="c2", toolCallName="calc", parentMessageId="m1"),
        at(1450, "TOOL_CALL_ARGS", toolCallId="c2", delta='{"a": 1'),
        at(1500, "TOOL_CALL_END", toolCallId="c2"),
        at(2000, "TOOL_CALL_RESULT", messageId="tr2", toolCallId="c2",
           content=[{"type": "text", "text": "div"}, {"type": "text", "text": "ision"}], error="division by zero"),
        at(2400, "TOOL_CALL_RESULT", messageId="tr1", toolCallId="c1", content="found it", role="tool"),
        at(2500, "TEXT_MESSAGE_START", messageId="m2", role="assistant"),
        at(2600, "TEXT_MESSAGE_CONTENT", messageId="m2", delta="Done"),
        at(2700, "TEXT_MESSAGE_CONTENT", messageId="m2", delta="."),
        at(2700, "TEXT_MESSAGE_END", messageId="m2"),
        at(3000, "RUN_FINISHED", threadId="t1", runId="r1", usage=[
            {"model": "a", "inputTokens": 100, "outputTokens": 11, "totalTokens": 111},
            {"model": "b", "inputTokens": 20, "outputTokens": 4, "reasoningTokens": 2,
             "cachedInputTokens": 5, "totalTokens": 24},
        ]),
        at(5000, "RUN_STARTED", threadId="t1", runId="r2", parentRunId="r1"),
        at(5100, "TEXT_MESSAGE_START", messageId="m3", role="assistant"),
        at(5200, "TEXT_MESSAGE_CONTENT", messageId="m3", delta="Partial"),
        at(5300, "TOOL_CALL_START", toolCallId="c3", toolCallName="search"),
        at(5500, "RUN_ERROR", message="model overloaded", code="529"),
        at(6000, "RUN_STARTED", threadId="t1", runId="r3"),
        at(6100, "RUN_FINISHED", threadId="t1", runId="r3",
           outcome={"type": "interrupt", "interrupts": [{"id": "i1", "reason": "approval"}]}),
        at(7000, "RUN_STARTED", threadId="t1", runId="r4"),
        at(7100, "TOOL_CALL_START", toolCallId="c4", toolCallName="calc"),
        at(7200, "TOOL_CALL_END", toolCallId="c4"),
    ]  # fmt: skip


def jsonl(events: list[Any]) -> bytes:
    """JSONL bytes of dicts (one per line)."""
    return b"".join(orjson.dumps(event) + b"\n" for event in events)
