"""Agents for the widget tests: one streaming AG-UI events, one AI SDK chunks, with the answers they build."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ag_ui.core import RunAgentInput


def agui_agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
    """A sync generator of AG-UI events: reasoning, a tool call with its result, markdown text, state."""
    yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": "run-a"}
    yield {"type": "REASONING_START", "messageId": "r1"}
    yield {"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning"}
    yield {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "Think"}
    yield {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "ing."}
    yield {"type": "REASONING_MESSAGE_END", "messageId": "r1"}
    yield {"type": "REASONING_END", "messageId": "r1"}
    yield {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "add", "parentMessageId": "m1"}
    yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"a": 1,'}
    yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": ' "b": 2}'}
    yield {"type": "TOOL_CALL_END", "toolCallId": "c1"}
    yield {"type": "TOOL_CALL_RESULT", "messageId": "tr1", "toolCallId": "c1", "content": "3"}
    yield {"type": "TEXT_MESSAGE_START", "messageId": "m2", "role": "assistant"}
    yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "The sum is "}
    yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "**3**."}
    yield {"type": "TEXT_MESSAGE_END", "messageId": "m2"}
    yield {"type": "STATE_SNAPSHOT", "snapshot": {"total": 3}}
    yield {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/count", "value": 1}]}
    yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": "run-a"}


AGUI_ANSWER = {
    "id": "run-a",
    "role": "assistant",
    "parts": [
        {"type": "step-start"},
        {
            "type": "reasoning",
            "id": "r1",
            "text": "Thinking.",
            "providerMetadata": {"ag-ui": {"messageId": "r1"}},
            "state": "done",
        },
        {
            "type": "tool-add",
            "toolCallId": "c1",
            "state": "output-available",
            "callProviderMetadata": {"ag-ui": {"parentMessageId": "m1"}},
            "input": {"a": 1, "b": 2},
            "output": "3",
            "resultProviderMetadata": {"ag-ui": {"messageId": "tr1"}},
        },
        {"type": "step-start"},
        {
            "type": "text",
            "text": "The sum is **3**.",
            "providerMetadata": {"ag-ui": {"messageId": "m2"}},
            "state": "done",
        },
    ],
    "metadata": {"ag-ui": {"threadId": "thread-1", "runId": "run-a"}},
}


def chunk_agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
    """A sync generator of AI SDK UI-message chunks."""
    yield {"type": "start", "messageId": "msg-1"}
    yield {"type": "start-step"}
    yield {"type": "reasoning-start", "id": "r"}
    yield {"type": "reasoning-delta", "id": "r", "delta": "Hm."}
    yield {"type": "reasoning-end", "id": "r"}
    yield {"type": "tool-input-start", "toolCallId": "c1", "toolName": "add"}
    yield {"type": "tool-input-delta", "toolCallId": "c1", "inputTextDelta": '{"a": 1}'}
    yield {"type": "tool-input-available", "toolCallId": "c1", "toolName": "add", "input": {"a": 1}}
    yield {"type": "tool-output-available", "toolCallId": "c1", "output": 1}
    yield {"type": "text-start", "id": "t"}
    yield {"type": "text-delta", "id": "t", "delta": "One."}
    yield {"type": "text-end", "id": "t"}
    yield {"type": "finish-step"}
    yield {"type": "finish", "finishReason": "stop"}


CHUNK_ANSWER = {
    "id": "msg-1",
    "role": "assistant",
    "parts": [
        {"type": "step-start"},
        {"type": "reasoning", "id": "r", "text": "Hm.", "state": "done"},
        {"type": "tool-add", "toolCallId": "c1", "state": "output-available", "input": {"a": 1}, "output": 1},
        {"type": "text", "text": "One.", "state": "done"},
    ],
}


def streamed(chat: Any) -> list[dict[str, Any]]:
    """The events and chunks the agents streamed into ``chat``, without the chat's own records."""
    from agui_notebook.chat._records import record_kind

    return [r["event"] for r in chat.events if record_kind(r["event"]) is None]
