"""AG-UI event types grouped by what the loader and the tables read from them: every family, once.

>>> sorted(RUN_END_TYPES)
['RUN_ERROR', 'RUN_FINISHED']
>>> MESSAGE_END_TYPES <= MESSAGE_TYPES and TOOL_CALL_START_TYPES <= TOOL_CALL_TYPES
True
"""

from __future__ import annotations

from agui_notebook.agui._intake import EVENT_TYPES
from agui_notebook.chat._records import FEEDBACK_EVENT_NAME

__all__ = [
    "CHUNK_ID_KEYS",
    "CONTENT_TYPES",
    "DELTA_TYPES",
    "EVENT_TYPES",
    "FEEDBACK_EVENT_NAME",
    "FIELD_TYPES",
    "HOT_TYPES",
    "MESSAGE_END_TYPES",
    "MESSAGE_START_TYPES",
    "MESSAGE_TYPES",
    "REASONING_DELTA_TYPES",
    "REASONING_TYPES",
    "REQUIRED_IDS",
    "RUN_BOUNDARY_TYPES",
    "RUN_END_TYPES",
    "RUN_START_TYPES",
    "SNAPSHOT_MESSAGE_TYPES",
    "TEXT_DELTA_TYPES",
    "TEXT_MESSAGE_TYPES",
    "TOOL_ARGS_TYPES",
    "TOOL_CALL_CHUNK_TYPES",
    "TOOL_CALL_START_TYPES",
    "TOOL_CALL_TYPES",
]

TEXT_DELTA_TYPES = frozenset({"TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CHUNK"})
REASONING_DELTA_TYPES = frozenset({"REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_CHUNK"})
TOOL_ARGS_TYPES = frozenset({"TOOL_CALL_ARGS", "TOOL_CALL_CHUNK"})
DELTA_TYPES = TEXT_DELTA_TYPES | REASONING_DELTA_TYPES | TOOL_ARGS_TYPES
"""Events whose ``delta`` is streamed text (STATE_DELTA's is a JSON Patch, not text)."""

HOT_TYPES = frozenset({"TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_ARGS"})
"""The bulk of any log; the loader reads only their ids, ``delta`` and ``timestamp``."""

CONTENT_TYPES = frozenset({"TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_ARGS"})
"""Events that must carry a text ``delta`` (the *_CHUNK ones may leave it out)."""

RUN_START_TYPES = frozenset({"RUN_STARTED"})
"""The event that starts a run (a client-side log's carries the run's ``input``)."""
RUN_END_TYPES = frozenset({"RUN_FINISHED", "RUN_ERROR"})
"""Events that end a run; the last one of a run gives its status, error and usage."""
RUN_BOUNDARY_TYPES = RUN_START_TYPES | RUN_END_TYPES

TEXT_MESSAGE_TYPES = frozenset(
    {"TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TEXT_MESSAGE_CHUNK"}
)
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
MESSAGE_TYPES = TEXT_MESSAGE_TYPES | REASONING_TYPES
"""Events of a text or reasoning message (what ``messages_df`` rows are made of)."""

TOOL_CALL_START_TYPES = frozenset({"TOOL_CALL_START", "TOOL_CALL_CHUNK"})
"""Events that can open a tool call: they carry its ``toolCallName`` and ``parentMessageId``."""
TOOL_CALL_CHUNK_TYPES = frozenset({"TOOL_CALL_CHUNK"})
"""A tool call streamed in chunks: it has no TOOL_CALL_END (AG-UI closes it at the next event of another kind)."""
TOOL_CALL_TYPES = frozenset(
    {"TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_CHUNK", "TOOL_CALL_RESULT"}
)
"""Events of a tool call, each with its ``toolCallId`` (what ``tool_calls_df`` rows are made of)."""

SNAPSHOT_MESSAGE_TYPES = frozenset({"MESSAGES_SNAPSHOT"})
"""The event that carries the whole conversation: ``tool_calls_df`` reads the tool calls and results that some
producers send only there."""

REQUIRED_IDS: dict[str, frozenset[str]] = {
    "messageId": MESSAGE_TYPES,
    "toolCallId": TOOL_CALL_TYPES,
}
"""The events the tables group by each id: one without it (a chunk's filled in from the one before) is
reported as odd."""

CHUNK_ID_KEYS: dict[str, str] = {
    "TEXT_MESSAGE_CHUNK": "messageId",
    "REASONING_MESSAGE_CHUNK": "messageId",
    "TOOL_CALL_CHUNK": "toolCallId",
}
"""The *_CHUNK types and their id: a chunk without one continues the previous chunk's message or tool call."""

FIELD_TYPES: dict[str, frozenset[str]] = {
    "threadId": frozenset({"RUN_STARTED", "RUN_FINISHED"}),
    "runId": frozenset({"RUN_STARTED", "RUN_FINISHED"}),
    "toolCallId": TOOL_CALL_TYPES,
    "toolCallName": TOOL_CALL_START_TYPES,
    "parentMessageId": TOOL_CALL_START_TYPES | {"SUBAGENT_STARTED"},
    "role": frozenset(
        {"TEXT_MESSAGE_START", "TEXT_MESSAGE_CHUNK", "REASONING_MESSAGE_START", "TOOL_CALL_RESULT"}
    ),
    "stepName": frozenset({"STEP_STARTED", "STEP_FINISHED"}),
}
"""The AG-UI types that carry each sparsely read field; events of unknown types are read for every field."""
