"""Upgrades pre-1.0 AG-UI wire shapes to 1.0, like @ag-ui/client's always-on compatibility boundary.

Covers THINKING_* events (to REASONING_*), the legacy ``null`` optionals (``rawEvent``, ``result``,
``parentMessageId``, ``outcome``, media-part ``metadata`` and a few RunAgentInput fields) and legacy
``binary`` content parts inside messages (to the image/audio/video/document parts).
"""

from __future__ import annotations

import uuid
from typing import Any

__all__ = [
    "LEGACY_EVENT_TYPES",
    "UPGRADED_TYPES",
    "LegacyEventUpgrader",
    "upgrade_inbound_message",
    "upgrade_message_content",
]

LEGACY_EVENT_TYPES = frozenset(
    {
        "THINKING_START",
        "THINKING_END",
        "THINKING_TEXT_MESSAGE_START",
        "THINKING_TEXT_MESSAGE_CONTENT",
        "THINKING_TEXT_MESSAGE_END",
    }
)
# Event types the upgrader may have to touch besides the THINKING_* ones.
_TOUCHED_TYPES = frozenset(
    {
        "RUN_FINISHED",
        "SUBAGENT_FINISHED",
        "TOOL_CALL_START",
        "TOOL_CALL_CHUNK",
        "MESSAGES_SNAPSHOT",
        "RUN_STARTED",
    }
)
UPGRADED_TYPES = LEGACY_EVENT_TYPES | _TOUCHED_TYPES
"""Every event type :class:`LegacyEventUpgrader` may rewrite (besides a null ``rawEvent`` on any event)."""
_MEDIA_PART_TYPES = frozenset({"image", "audio", "video", "document"})
# Deterministic ids for the spans a THINKING_* stream leaves unnamed, so the same log always replays alike.
_THINKING_NAMESPACE = uuid.UUID("6f1d3c1e-5b8a-4c1e-9d3e-1a2b3c4d5e6f")


def _without(record: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != key}


def _omit_null(value: Any, key: str) -> Any:
    if isinstance(value, dict) and key in value and value[key] is None:
        return _without(value, key)
    return value


def _map_array(value: Any, key: str, normalize: Any) -> Any:
    if not isinstance(value, dict) or not isinstance(value.get(key), list):
        return value
    original = value[key]
    entries = [normalize(entry) for entry in original]
    if any(new is not old for new, old in zip(entries, original, strict=True)):
        return {**value, key: entries}
    return value


def _normalize_part_nulls(part: Any) -> Any:
    if isinstance(part, dict) and part.get("type") in _MEDIA_PART_TYPES:
        return _omit_null(part, "metadata")
    return part


def _normalize_message_nulls(message: Any) -> Any:
    return _map_array(message, "content", _normalize_part_nulls)


def _media_kind(mime_type: str) -> str:
    for prefix in ("image", "audio", "video"):
        if mime_type.startswith(prefix + "/"):
            return prefix
    return "document"


def _is_legacy_binary(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") == "binary" and isinstance(part.get("mimeType"), str)


def _convert_binary(part: dict[str, Any]) -> dict[str, Any]:
    mime_type = part["mimeType"]
    for source_type, key in (("data", "data"), ("url", "url")):
        value = part.get(key)
        if value:
            converted: dict[str, Any] = {
                "type": _media_kind(mime_type),
                "source": {"type": source_type, "value": value, "mimeType": mime_type},
            }
            if part.get("filename"):
                converted["metadata"] = {"filename": part["filename"]}
            return converted
    # Only an id: there is no 1.0 part for it, so it stays as it is (and fails validation later).
    return part


def _mirrors(other: Any, converted: dict[str, Any], filename: Any) -> bool:
    if not isinstance(other, dict) or other.get("type") != converted["type"]:
        return False
    source = other.get("source")
    wanted = converted["source"]
    if not isinstance(source, dict) or any(
        source.get(k, _MISSING) != wanted[k] for k in ("type", "value", "mimeType")
    ):
        return False
    if not filename:
        return True
    metadata = other.get("metadata")
    return isinstance(metadata, dict) and metadata.get("filename") == filename


_MISSING = object()


def upgrade_message_content(message: Any) -> Any:
    """Replace legacy ``binary`` parts of a message's content with 1.0 media parts (same dict if none)."""
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list) or not any(_is_legacy_binary(part) for part in content):
        return message
    upgraded = []
    for part in content:
        if _is_legacy_binary(part):
            converted = _convert_binary(part)
            # A modern copy of the same attachment already sent alongside makes the legacy one redundant.
            if converted is not part and any(_mirrors(o, converted, part.get("filename")) for o in content):
                continue
            upgraded.append(converted)
        else:
            upgraded.append(part)
    return {**message, "content": upgraded}


def upgrade_inbound_message(message: Any) -> Any:
    """A message arriving in an event, in its 1.0 form: legacy media-part nulls dropped, binary parts upgraded."""
    return upgrade_message_content(_normalize_message_nulls(message))


def _normalize_run_input(run_input: Any) -> Any:
    normalized = _omit_null(run_input, "forwardedProps")
    normalized = _map_array(normalized, "tools", lambda tool: _omit_null(tool, "parameters"))
    normalized = _map_array(normalized, "resume", lambda entry: _omit_null(entry, "payload"))
    return _map_array(normalized, "messages", _normalize_message_nulls)


class LegacyEventUpgrader:
    """Rewrites one stream's pre-1.0 wire events into their 1.0 form; 1.0 events come back unchanged.

    Stateful because a THINKING_* continuation names no id: it continues the span its opener started.

    >>> upgrader = LegacyEventUpgrader()
    >>> upgrader.upgrade({"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "hm"})["type"]
    'REASONING_MESSAGE_CONTENT'
    """

    __slots__ = ("_count", "_message_id", "_reasoning_id")

    def __init__(self) -> None:
        self._reasoning_id: str | None = None
        self._message_id: str | None = None
        self._count = 0

    def _mint(self) -> str:
        self._count += 1
        return str(uuid.uuid5(_THINKING_NAMESPACE, str(self._count)))

    def needs_upgrade(self, event: dict[str, Any]) -> bool:
        """Cheap test: whether ``upgrade`` could change this event."""
        event_type = event.get("type")
        return (
            event_type in _TOUCHED_TYPES
            or event_type in LEGACY_EVENT_TYPES
            or ("rawEvent" in event and event["rawEvent"] is None)
        )

    def upgrade(self, event: dict[str, Any]) -> dict[str, Any]:
        """Return the 1.0 form of ``event`` (the same dict when nothing changes)."""
        if "rawEvent" in event and event["rawEvent"] is None:
            event = _without(event, "rawEvent")
        event_type = event.get("type")
        if (
            event_type in ("RUN_FINISHED", "SUBAGENT_FINISHED")
            and "result" in event
            and event["result"] is None
        ):
            event = _without(event, "result")
        if event_type == "THINKING_START":
            self._reasoning_id = self._mint()
            rest = {k: v for k, v in event.items() if k != "title"}
            return {**rest, "type": "REASONING_START", "messageId": self._reasoning_id}
        if event_type == "THINKING_TEXT_MESSAGE_START":
            self._message_id = self._mint()
            return {
                **event,
                "type": "REASONING_MESSAGE_START",
                "messageId": self._message_id,
                "role": "reasoning",
            }
        if event_type == "THINKING_TEXT_MESSAGE_CONTENT":
            message_id = self._message_id if self._message_id is not None else self._mint()
            return {**event, "type": "REASONING_MESSAGE_CONTENT", "messageId": message_id}
        if event_type == "THINKING_TEXT_MESSAGE_END":
            message_id = self._message_id if self._message_id is not None else self._mint()
            self._message_id = None
            return {**event, "type": "REASONING_MESSAGE_END", "messageId": message_id}
        if event_type == "THINKING_END":
            reasoning_id = self._reasoning_id if self._reasoning_id is not None else self._mint()
            self._reasoning_id = None
            return {**event, "type": "REASONING_END", "messageId": reasoning_id}
        if event_type in ("TOOL_CALL_START", "TOOL_CALL_CHUNK"):
            return _omit_null(event, "parentMessageId")
        if event_type == "RUN_FINISHED":
            return _omit_null(event, "outcome")
        if event_type == "MESSAGES_SNAPSHOT":
            messages = event.get("messages")
            if not isinstance(messages, list):
                return event
            upgraded = [upgrade_inbound_message(m) for m in messages]
            if any(new is not old for new, old in zip(upgraded, messages, strict=True)):
                return {**event, "messages": upgraded}
            return event
        if event_type == "RUN_STARTED":
            run_input = event.get("input")
            normalized = _normalize_run_input(run_input)
            if isinstance(normalized, dict) and isinstance(normalized.get("messages"), list):
                messages = normalized["messages"]
                upgraded = [upgrade_message_content(m) for m in messages]
                if any(new is not old for new, old in zip(upgraded, messages, strict=True)):
                    normalized = {**normalized, "messages": upgraded}
            if normalized is not run_input:
                return {**event, "input": normalized}
            return event
        return event
