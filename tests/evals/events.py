"""Small event logs the evals tests score: runs with and without tools, text, JSON answers and feedback."""

from __future__ import annotations

import json
from typing import Any

from agui_notebook.chat._records import feedback_event


def run(
    run_id: str, text: str, *, tool: str | None = None, args: Any = None, thread: str = "t"
) -> list[dict[str, Any]]:
    """One AG-UI run: an optional tool call (with a result), then an assistant message streaming ``text``."""
    events: list[dict[str, Any]] = [{"type": "RUN_STARTED", "threadId": thread, "runId": run_id}]
    if tool is not None:
        call = f"c-{run_id}"
        events += [
            {"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": tool},
            {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": json.dumps(args or {})},
            {"type": "TOOL_CALL_END", "toolCallId": call},
            {
                "type": "TOOL_CALL_RESULT",
                "messageId": f"res-{run_id}",
                "toolCallId": call,
                "content": "sunny",
            },
        ]
    if text:
        events.append(
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": f"m-{run_id}", "role": "assistant", "delta": text}
        )
    events.append({"type": "RUN_FINISHED", "threadId": thread, "runId": run_id})
    return events


def rated(run_id: str, rating: str | None) -> dict[str, Any]:
    """A chat's feedback record rating the answer of run ``run_id`` (its message ``m-<run_id>``)."""
    return feedback_event(f"m-{run_id}", rating, at="2026-12-01T12:00:00.000Z", message_ids=[f"m-{run_id}"])


WEATHER = [
    *run("r1", "Sunny in Paris.", tool="get_weather", args={"city": "Paris"}),
    *run("r2", "I don't know.", tool=None),
    *run("r3", '{"city": "Oslo", "sky": "snow"}', tool="get_weather", args={"city": "Oslo"}),
]
"""Three runs: a tool call and Paris; no tool, no answer; a tool call and a JSON answer."""
