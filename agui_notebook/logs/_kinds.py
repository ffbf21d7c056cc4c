"""AG-UI event types grouped by what the loader and the tables read from them."""

from __future__ import annotations

from agui_notebook.agui._intake import EVENT_TYPES

__all__ = [
    "DELTA_TYPES",
    "EVENT_TYPES",
    "FIELD_TYPES",
    "HOT_TYPES",
    "MESSAGE_END_TYPES",
    "MESSAGE_START_TYPES",
    "REASONING_DELTA_TYPES",
    "REASONING_TYPES",
    "RUN_BOUNDARY_TYPES",
    "TEXT_DELTA_TYPES",
    "TOOL_ARGS_TYPES",
]

TEXT_DELTA_TYPES = frozenset({"TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CHUNK"})
REASONING_DELTA_TYPES = frozenset({"REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_CHUNK"})
TOOL_ARGS_TYPES = frozenset({"TOOL_CALL_ARGS", "TOOL_CALL_CHUNK"})
DELTA_TYPES = TEXT_DELTA_TYPES | REASONING_DELTA_TYPES | TOOL_ARGS_TYPES
"""Events whose ``delta`` is streamed text (STATE_DELTA's is a JSON Patch, not text)."""

HOT_TYPES = frozenset({"TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_ARGS"})
"""The bulk of any log; the loader reads only their ids, ``delta`` and ``timestamp``."""

RUN_BOUNDARY_TYPES = frozenset({"RUN_STARTED", "RUN_FINISHED", "RUN_ERROR"})

MESSAGE_START_TYPES = frozenset({"TEXT_MESSAGE_START", "REASONING_MESSAGE_START", "REASONING_START"})
MESSAGE_END_TYPES = frozenset({"TEXT_MESSAGE_END", "REASONING_MESSAGE_END", "REASONING_END"})
REASONING_TYPES = frozenset(
    {
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_CHUNK",
        "REASONING_MESSAGE_END",
        "REASONING_END",
    }
)

_TOOL_CALL_ID_TYPES = frozenset(
    {"TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_CHUNK", "TOOL_CALL_RESULT"}
)

FIELD_TYPES: dict[str, frozenset[str]] = {
    "threadId": frozenset({"RUN_STARTED", "RUN_FINISHED"}),
    "runId": frozenset({"RUN_STARTED", "RUN_FINISHED"}),
    "toolCallId": _TOOL_CALL_ID_TYPES,
    "toolCallName": frozenset({"TOOL_CALL_START", "TOOL_CALL_CHUNK"}),
    "parentMessageId": frozenset({"TOOL_CALL_START", "TOOL_CALL_CHUNK"}),
    "role": frozenset(
        {"TEXT_MESSAGE_START", "TEXT_MESSAGE_CHUNK", "REASONING_MESSAGE_START", "TOOL_CALL_RESULT"}
    ),
    "stepName": frozenset({"STEP_STARTED", "STEP_FINISHED"}),
}
"""The AG-UI types that carry each sparsely read field; events of unknown types are read for every field."""
