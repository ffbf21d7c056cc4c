"""AI SDK UI-message stream chunks read as the AG-UI events the tables understand.

A UI-message stream (``start``, ``text-delta``, ``tool-input-available``, ``finish`` ...) carries the same
information as an AG-UI run for text, reasoning, tool calls and errors, but no run/thread ids and no
timestamps: a stream becomes a run whose id is the ``start`` chunk's ``messageId`` (else ``ui-run-N``), and
its times come from the recorder. Every event made from a chunk keeps the chunk as ``rawEvent``; chunks
without an AG-UI counterpart (``data-*``, sources, files, metadata, approvals) become CUSTOM events named
after their type.

>>> converter = UIChunkConverter()
>>> [e["type"] for e in converter.feed({"type": "text-delta", "id": "t1", "delta": "Hi"})]
['RUN_STARTED', 'TEXT_MESSAGE_CONTENT']
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from agui_notebook.ui._chunk_types import is_ui_chunk_type

__all__ = ["UIChunkConverter", "is_ui_chunk_type"]


def _json_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # nested more than orjson writes, or an integer beyond 64 bits
        return json.dumps(value, default=str)


def _call_key(call_id: Any) -> Any:
    """A tool call id as a set member: itself, or (a list, an object) its JSON text."""
    return call_id if isinstance(call_id, (str, int, float, type(None))) else _json_text(call_id)


class UIChunkConverter:
    """Converts one UI-message stream, chunk by chunk, into AG-UI wire events."""

    def __init__(self) -> None:
        self._runs = 0
        self._run_id: str | None = None
        self._steps = 0
        self._started_calls: set[str] = set()
        self._ended_calls: set[str] = set()

    def feed(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        """The AG-UI events for one chunk (a ``RUN_STARTED`` first when no run is open)."""
        kind = chunk.get("type")
        if kind == "done":  # pydantic-ai's stand-in for the stream's closing `[DONE]`
            return []
        if kind == "CUSTOM":  # an AG-UI CUSTOM event among the chunks (a ChatWidget's feedback records)
            return [chunk]
        out: list[dict[str, Any]] = []
        if self._run_id is None:
            self._runs += 1
            message_id = chunk.get("messageId") if kind == "start" else None
            self._run_id = message_id if isinstance(message_id, str) else f"ui-run-{self._runs}"
            self._steps = 0
            out.append({"type": "RUN_STARTED", "runId": self._run_id, "rawEvent": chunk})
            if kind == "start":
                return out
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        events = (
            handler(self, chunk)
            if handler is not None
            else [{"type": "CUSTOM", "name": kind, "value": chunk}]
        )
        for event in events:
            event["rawEvent"] = chunk
        return out + events

    # -- run and steps -----------------------------------------------------------------------------------------

    def _start(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        # A second `start` inside an open run only re-announces the message.
        return [{"type": "CUSTOM", "name": "start", "value": chunk}]

    def _end_run(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        event["runId"] = self._run_id
        self._run_id = None
        return [event]

    def _finish(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return self._end_run({"type": "RUN_FINISHED"})

    def _abort(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return self._end_run({"type": "RUN_FINISHED", "outcome": {"type": "cancelled"}})

    def _error(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        self._run_id = None
        return [{"type": "RUN_ERROR", "message": str(chunk.get("errorText", ""))}]

    def _start_step(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        self._steps += 1
        return [{"type": "STEP_STARTED", "stepName": f"step-{self._steps}"}]

    def _finish_step(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "STEP_FINISHED", "stepName": f"step-{self._steps}"}]

    # -- text and reasoning ------------------------------------------------------------------------------------

    def _text_start(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "TEXT_MESSAGE_START", "messageId": chunk.get("id"), "role": "assistant"}]

    def _text_delta(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": chunk.get("id"), "delta": chunk.get("delta", "")}
        ]

    def _text_end(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "TEXT_MESSAGE_END", "messageId": chunk.get("id")}]

    def _reasoning_start(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "REASONING_MESSAGE_START", "messageId": chunk.get("id"), "role": "reasoning"}]

    def _reasoning_delta(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        delta = chunk.get("delta", "")
        return [{"type": "REASONING_MESSAGE_CONTENT", "messageId": chunk.get("id"), "delta": delta}]

    def _reasoning_end(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "REASONING_MESSAGE_END", "messageId": chunk.get("id")}]

    # -- tools -------------------------------------------------------------------------------------------------

    def _call_start(self, call_id: Any, name: Any) -> dict[str, Any]:
        self._started_calls.add(_call_key(call_id))
        return {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": name}

    def _input_start(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return [self._call_start(chunk.get("toolCallId"), chunk.get("toolName"))]

    def _input_delta(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        delta = chunk.get("inputTextDelta", "")
        return [{"type": "TOOL_CALL_ARGS", "toolCallId": chunk.get("toolCallId"), "delta": delta}]

    def _input_complete(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        call_id = chunk.get("toolCallId")
        events = []
        if _call_key(call_id) not in self._started_calls:
            events.append(self._call_start(call_id, chunk.get("toolName")))
            events.append(
                {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": _json_text(chunk.get("input"))}
            )
        if _call_key(call_id) not in self._ended_calls:
            self._ended_calls.add(_call_key(call_id))
            events.append({"type": "TOOL_CALL_END", "toolCallId": call_id})
        return events

    def _result(self, call_id: Any, content: Any, error: str | None = None) -> dict[str, Any]:
        event = {"type": "TOOL_CALL_RESULT", "messageId": f"{call_id}-result", "toolCallId": call_id}
        event["content"] = _json_text(content)
        event["role"] = "tool"
        if error is not None:
            event["error"] = error
        return event

    def _input_error(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        error = str(chunk.get("errorText", ""))
        return [*self._input_complete(chunk), self._result(chunk.get("toolCallId"), error, error)]

    def _output(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        if chunk.get("preliminary"):
            return [{"type": "CUSTOM", "name": "tool-output-preliminary", "value": chunk}]
        return [self._result(chunk.get("toolCallId"), chunk.get("output"))]

    def _output_error(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        error = str(chunk.get("errorText", ""))
        return [self._result(chunk.get("toolCallId"), error, error)]

    def _output_denied(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return [self._result(chunk.get("toolCallId"), "denied", "denied")]


_HANDLERS = {
    "start": UIChunkConverter._start,
    "finish": UIChunkConverter._finish,
    "abort": UIChunkConverter._abort,
    "error": UIChunkConverter._error,
    "start-step": UIChunkConverter._start_step,
    "finish-step": UIChunkConverter._finish_step,
    "text-start": UIChunkConverter._text_start,
    "text-delta": UIChunkConverter._text_delta,
    "text-end": UIChunkConverter._text_end,
    "reasoning-start": UIChunkConverter._reasoning_start,
    "reasoning-delta": UIChunkConverter._reasoning_delta,
    "reasoning-end": UIChunkConverter._reasoning_end,
    "tool-input-start": UIChunkConverter._input_start,
    "tool-input-delta": UIChunkConverter._input_delta,
    "tool-input-available": UIChunkConverter._input_complete,
    "tool-input-error": UIChunkConverter._input_error,
    "tool-output-available": UIChunkConverter._output,
    "tool-output-error": UIChunkConverter._output_error,
    "tool-output-denied": UIChunkConverter._output_denied,
}
