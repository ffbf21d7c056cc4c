"""Expands the AG-UI ``*_CHUNK`` shorthand into START/CONTENT/END sequences, as @ag-ui/client does."""

from __future__ import annotations

from typing import Any

from ag_ui.core import ReasoningMessageChunkEvent, TextMessageChunkEvent, ToolCallChunkEvent
from pydantic import BaseModel

from agui_notebook._errors import ChunkExpansionError
from agui_notebook._shown import json_kind, shown

__all__ = ["CHUNK_TYPES", "ChunkExpander", "ChunkExpansionError"]

TEXT_CHUNK = "TEXT_MESSAGE_CHUNK"
TOOL_CHUNK = "TOOL_CALL_CHUNK"
REASONING_CHUNK = "REASONING_MESSAGE_CHUNK"
CHUNK_TYPES = frozenset({TEXT_CHUNK, TOOL_CHUNK, REASONING_CHUNK})


def _wire_fields(model: type[BaseModel]) -> frozenset[str]:
    return frozenset(field.alias or name for name, field in model.model_fields.items())


# What each chunk shape describes; anything else a chunk carries rides on the synthesized event, like the
# reference's "remainder", so that nothing is dropped silently.
_TEXT_FIELDS = _wire_fields(TextMessageChunkEvent)
_TOOL_FIELDS = _wire_fields(ToolCallChunkEvent)
_REASONING_FIELDS = _wire_fields(ReasoningMessageChunkEvent)

# Events that close only their own lane (the subagent they are attributed to, or the parent agent).
_CLOSES_OWN_LANE = frozenset(
    {
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "TOOL_CALL_RESULT",
        "STATE_SNAPSHOT",
        "STATE_DELTA",
        "CUSTOM",
        "STEP_STARTED",
        "STEP_FINISHED",
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_END",
    }
)
# Run-level events describe the whole run, so every lane closes.
_CLOSES_ALL_LANES = frozenset({"RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT"})
_CLOSES_SUBAGENT_LANE = frozenset({"SUBAGENT_FINISHED", "SUBAGENT_ERROR"})

_END_TYPE = {"text": "TEXT_MESSAGE_END", "tool": "TOOL_CALL_END", "reasoning": "REASONING_MESSAGE_END"}
_ID_KEY = {"text": "messageId", "tool": "toolCallId", "reasoning": "messageId"}
_ENTITY = {"text": "text message", "tool": "tool call", "reasoning": "reasoning message"}


class _Lane:
    """The one stream a lane is assembling from chunks."""

    __slots__ = ("fields", "kind")

    def __init__(self, kind: str, fields: dict[str, Any]) -> None:
        self.kind = kind
        self.fields = fields


class ChunkExpander:
    """Turns ``*_CHUNK`` wire events into START/CONTENT/END events; other events pass through.

    One pending stream per lane, a lane being the subagent a chunk is attributed to (``None`` for the parent
    agent). Explicit events close their own lane; run-level events and MESSAGES_SNAPSHOT close every lane.
    Like the reference, the end of the input closes nothing.

    >>> expander = ChunkExpander()
    >>> [e["type"] for e in expander.feed({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "Hi"})]
    ['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT']
    >>> [e["type"] for e in expander.feed({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"})]
    ['TEXT_MESSAGE_END', 'RUN_FINISHED']
    """

    __slots__ = ("_lanes",)

    def __init__(self) -> None:
        self._lanes: dict[str | None, _Lane] = {}

    @property
    def has_open_streams(self) -> bool:
        """Whether some chunk stream is still being assembled (so every event must go through ``feed``)."""
        return bool(self._lanes)

    def reset(self) -> None:
        """Forget every open stream."""
        self._lanes.clear()

    def feed(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """Expand one wire event into the events it stands for (itself, for a non-chunk event)."""
        event_type = event.get("type")
        if event_type == TEXT_CHUNK:
            return self._text(event)
        if event_type == TOOL_CHUNK:
            return self._tool(event)
        if event_type == REASONING_CHUNK:
            return self._reasoning(event)
        if not self._lanes:
            return [event]
        if event_type in _CLOSES_OWN_LANE:
            closing = self._close(event.get("subagentRunId"))
        elif event_type in _CLOSES_ALL_LANES:
            closing = self._close_all()
        elif event_type in _CLOSES_SUBAGENT_LANE:
            owner = event.get("subagentRunId")
            closing = self._close(owner) if owner is not None else []
        else:
            return [event]
        if closing:
            closing.append(event)
            return closing
        return [event]

    # -- lanes ---------------------------------------------------------------------------------------------

    def _close(self, owner: str | None) -> list[dict[str, Any]]:
        if isinstance(owner, (dict, list)):
            return []  # no lane has it: an object is never the key of another (JavaScript's Map)
        lane = self._lanes.pop(owner, None)
        if lane is None:
            return []
        fields = lane.fields
        end: dict[str, Any] = {"type": _END_TYPE[lane.kind], _ID_KEY[lane.kind]: fields[_ID_KEY[lane.kind]]}
        if "subagentRunId" in fields:
            end["subagentRunId"] = fields["subagentRunId"]
        return [end]

    def _close_all(self) -> list[dict[str, Any]]:
        closed: list[dict[str, Any]] = []
        for owner in list(self._lanes):
            closed.extend(self._close(owner))
        return closed

    def _resolve_lane(self, kind: str, entity_id: str | None, tag: str | None, chunk_type: str) -> str | None:
        lanes = self._lanes
        if entity_id is not None:
            for owner, lane in lanes.items():
                if lane.kind == kind and lane.fields[_ID_KEY[kind]] == entity_id:
                    if tag is not None and tag != owner:
                        holder = "(the parent agent)" if owner is None else owner
                        raise ChunkExpansionError(
                            f"cannot continue {_ENTITY[kind]} {shown(entity_id)}: chunk subagentRunId {shown(tag)} "
                            f"does not match the open stream's subagent {shown(holder)}"
                        )
                    return owner
            return tag
        if tag is not None:
            return tag
        parent = lanes.get(None)
        if parent is not None and parent.kind == kind:
            return None
        candidates = [owner for owner, lane in lanes.items() if lane.kind == kind]
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            raise ChunkExpansionError(
                f"ambiguous {chunk_type}: it carries neither a {_ID_KEY[kind]} nor a subagentRunId, but "
                f"{len(candidates)} lanes have an open {_ENTITY[kind]}"
            )
        return None

    # -- the three chunk kinds --------------------------------------------------------------------------------

    def _text(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return self._expand(
            chunk,
            kind="text",
            chunk_type=TEXT_CHUNK,
            described=_TEXT_FIELDS,
            agreement=("role", "name"),
            content_type="TEXT_MESSAGE_CONTENT",
        )

    def _tool(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return self._expand(
            chunk,
            kind="tool",
            chunk_type=TOOL_CHUNK,
            described=_TOOL_FIELDS,
            agreement=("toolCallName", "parentMessageId"),
            content_type="TOOL_CALL_ARGS",
        )

    def _reasoning(self, chunk: dict[str, Any]) -> list[dict[str, Any]]:
        return self._expand(
            chunk,
            kind="reasoning",
            chunk_type=REASONING_CHUNK,
            described=_REASONING_FIELDS,
            agreement=(),
            content_type="REASONING_MESSAGE_CONTENT",
        )

    def _expand(
        self,
        chunk: dict[str, Any],
        *,
        kind: str,
        chunk_type: str,
        described: frozenset[str],
        agreement: tuple[str, ...],
        content_type: str,
    ) -> list[dict[str, Any]]:
        id_key = _ID_KEY[kind]
        entity_id = chunk.get(id_key)
        tag = chunk.get("subagentRunId")
        if isinstance(tag, (dict, list)):
            raise ChunkExpansionError(f"subagentRunId must be a string, not {json_kind(tag)}")
        remainder = None
        for key in chunk:
            if key not in described:
                if remainder is None:
                    remainder = {}
                remainder[key] = chunk[key]
        lane_key = self._resolve_lane(kind, entity_id, tag, chunk_type)
        lane = self._lanes.get(lane_key)
        result: list[dict[str, Any]] = []
        metadata = chunk.get("metadata")

        if lane is not None and lane.kind == kind and (entity_id is None or entity_id == lane.fields[id_key]):
            fields = lane.fields
            for name in agreement:
                incoming = chunk.get(name)
                if incoming is not None and incoming != fields.get(name):
                    established = fields.get(name)
                    was = "(absent)" if established is None else shown(established)
                    raise ChunkExpansionError(
                        f"cannot continue {_ENTITY[kind]} {shown(fields[id_key])}: chunk {name} {shown(incoming)} "
                        f"does not match the open stream's {name} {was}"
                    )
        else:
            result.extend(self._close(lane_key))
            if entity_id is None:
                raise ChunkExpansionError(f"first {chunk_type} must have a {id_key}")
            start: dict[str, Any]
            if kind == "text":
                role = chunk.get("role")
                fields = {"messageId": entity_id, "role": "assistant" if role is None else role}
                start = {"type": "TEXT_MESSAGE_START", "messageId": entity_id, "role": fields["role"]}
                speaker = chunk.get("name")
                if speaker is not None:
                    fields["name"] = speaker
                    start["name"] = speaker
            elif kind == "tool":
                tool_name = chunk.get("toolCallName")
                if tool_name is None:
                    raise ChunkExpansionError(f"first {chunk_type} must have a toolCallName")
                fields = {"toolCallId": entity_id, "toolCallName": tool_name}
                start = {"type": "TOOL_CALL_START", "toolCallId": entity_id, "toolCallName": tool_name}
                parent = chunk.get("parentMessageId")
                if parent is not None:
                    fields["parentMessageId"] = parent
                    start["parentMessageId"] = parent
            else:
                fields = {"messageId": entity_id}
                start = {"type": "REASONING_MESSAGE_START", "messageId": entity_id, "role": "reasoning"}
            if tag is not None:
                fields["subagentRunId"] = tag
                start["subagentRunId"] = tag
            if metadata is not None:
                start["metadata"] = metadata
            self._lanes[lane_key] = _Lane(kind, fields)
            result.append(start)

        delta = chunk.get("delta")
        raw_event = chunk.get("rawEvent")
        carried = False
        if delta is not None or raw_event is not None or (not result and (metadata is not None or remainder)):
            content: dict[str, Any] = dict(remainder) if remainder else {}
            content["type"] = content_type
            content[id_key] = fields[id_key]
            content["delta"] = "" if delta is None else delta
            owner = tag if tag is not None else fields.get("subagentRunId")
            if owner is not None:
                content["subagentRunId"] = owner
            if metadata is not None:
                content["metadata"] = metadata
            if raw_event is not None:
                content["rawEvent"] = raw_event
            result.append(content)
            carried = True
        if remainder and not carried and result:
            last = result[-1]
            result[-1] = {**remainder, **last}
        return result
