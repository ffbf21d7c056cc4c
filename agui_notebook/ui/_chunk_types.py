"""The chunk types of the AI SDK UI-message stream, and what a stream item's ``type`` names.

A stream may carry AI SDK chunks (``text-delta``) or AG-UI events (``TEXT_MESSAGE_CONTENT``); the ``type``
string alone tells which.

>>> classify_type("text-delta"), classify_type("data-weather"), classify_type("TEXT_MESSAGE_CONTENT")
('chunk', 'chunk', 'event')
"""

from __future__ import annotations

from typing import Any, Literal

__all__ = ["UI_CHUNK_TYPES", "TypeKind", "classify_type", "is_ui_chunk_type"]

TypeKind = Literal["event", "chunk"]
"""What a ``type`` names: an AG-UI event or an AI SDK UI-message chunk."""

UI_CHUNK_TYPES = frozenset(
    {
        "start",
        "finish",
        "abort",
        "error",
        "start-step",
        "finish-step",
        "reset-step",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "reasoning-file",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-available",
        "tool-input-error",
        "tool-output-available",
        "tool-output-error",
        "tool-output-denied",
        "tool-approval-request",
        "tool-approval-response",
        "source-url",
        "source-document",
        "file",
        "message-metadata",
        "custom",
        "steering-message",
        "done",
    }
)
"""The chunk types of the AI SDK UI-message stream (``data-*`` chunks besides)."""


def is_ui_chunk_type(chunk_type: Any) -> bool:
    """Whether ``chunk_type`` names an AI SDK UI-message chunk rather than an AG-UI event.

    >>> is_ui_chunk_type("tool-input-delta"), is_ui_chunk_type("data-plan"), is_ui_chunk_type("RUN_STARTED")
    (True, True, False)
    """
    return isinstance(chunk_type, str) and (chunk_type in UI_CHUNK_TYPES or chunk_type.startswith("data-"))


def classify_type(item_type: str) -> TypeKind:
    """Tell whether a stream item's ``type`` names an AG-UI event (1.0 or legacy) or an AI SDK chunk.

    The AI SDK's chunk types are listed here (:data:`UI_CHUNK_TYPES`, ``data-*``); every other name goes by its
    spelling: AG-UI types are UPPER_SNAKE (every 1.0 and legacy one: tests/ui/test_chunk_types.py checks them
    all), AI SDK types lower-kebab. So the AG-UI side needs no list here (the ui room does not import agui). An
    unknown upper-case name is an event, so the event checks report it as an unknown event type (and drop it,
    as @ag-ui/client does); an unknown lower-case name is a chunk, which the chunk reducer ignores, as the AI
    SDK does.

    >>> classify_type("THINKING_START"), classify_type("NOT_AN_AG_UI_EVENT"), classify_type("future-chunk")
    ('event', 'event', 'chunk')
    """
    if is_ui_chunk_type(item_type):
        return "chunk"
    return "event" if item_type[:1].isupper() else "chunk"
