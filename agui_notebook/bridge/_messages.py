"""Conversions between AG-UI messages, AI SDK UIMessages and OpenAI chat-completions messages.

AG-UI keeps one message per thing said (assistant text, reasoning, tool result, activity); a UIMessage keeps one
assistant turn as a list of parts. Everything AG-UI knows that a part has no field for (message ids, encrypted
values, names, metadata) rides in ``providerMetadata["ag-ui"]`` or ``metadata["ag-ui"]``, so that
``to_agui_messages(to_ui_messages(m)) == m`` for every AG-UI message type.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from ag_ui.core import Message

from agui_notebook._types import JSON
from agui_notebook.agui._compat import upgrade_inbound_message
from agui_notebook.agui._thread import _MESSAGE_LIST as _AGUI_MESSAGES
from agui_notebook.agui._thread import validated
from agui_notebook.agui._tool_outcome import DENIED_TOOL_MESSAGE_ERROR, ERROR_OUTCOMES, claimed_outcome
from agui_notebook.bridge._located import conversion_errors
from agui_notebook.wire._json import decode_json, encode_json

AGUI_KEY = "ag-ui"
"""The key under which AG-UI facts ride in UIMessage metadata and part provider metadata."""

UI_PART_ACTIVITY = "ui-part"
"""Activity type that carries a UIMessage part AG-UI has no message for (sources, files, custom parts)."""

_MEDIA_PART_BY_PREFIX = (("image/", "image"), ("audio/", "audio"), ("video/", "video"))
ASSISTANT_SIDE = frozenset({"assistant", "tool", "reasoning", "activity"})


def as_wire_message(message: Any) -> dict[str, JSON]:
    """An AG-UI message (``ag_ui.core`` model or dict) as a wire dict."""
    if isinstance(message, Mapping):
        return dict(message)
    return message.model_dump(mode="json", by_alias=True, exclude_none=True)


OWN_METADATA_KEY = "agui-notebook"
"""The key in an AG-UI message's ``metadata`` for what only agui-notebook reads back.

As ``@ag-ui/client`` keeps its own facts under ``metadata["@ag-ui/client"]``. Today it holds one fact:
``outputType``, the JSON type of a tool's output when the tool message's text alone would not give it back.
"""

_OUTPUT_TYPES = {bool: "boolean", int: "number", float: "number", type(None): "null", str: "string"}


def tool_output_from_content(content: JSON) -> JSON:
    """The UI output of an AG-UI tool result: JSON objects/arrays parsed, other text kept as a string.

    >>> tool_output_from_content('{"temp": 21}')
    {'temp': 21}
    >>> tool_output_from_content("12:00")
    '12:00'
    """
    if isinstance(content, str) and content.lstrip()[:1] in ("{", "["):
        try:
            return decode_json(content)
        except orjson.JSONDecodeError:
            return content
    return content


def tool_content_from_output(output: JSON) -> tuple[JSON, str | None]:
    """The AG-UI text of a tool output and the ``outputType`` that reading it back needs (None when it needs none).

    The text is what pydantic-ai's AG-UI adapter sends for the same return: a string verbatim, ``None`` as empty
    text, anything else as JSON.

    >>> tool_content_from_output(["a", "b"]), tool_content_from_output(42), tool_content_from_output("[1]")
    (('["a","b"]', None), ('42', 'number'), ('[1]', 'string'))
    """
    if isinstance(output, str):
        return output, ("string" if tool_output_from_content(output) is not output else None)
    if output is None:
        return "", "null"
    content = encode_json(output)
    return content, _OUTPUT_TYPES.get(type(output))


def _typed_output(content: str, output_type: Any) -> tuple[bool, JSON]:
    """``content`` read as a value of JSON type ``output_type``; ``(False, None)`` when it is not one."""
    if output_type == "string":
        return True, content
    if output_type == "null":
        return content in ("", "null"), None
    if output_type in ("number", "boolean"):
        try:
            value = decode_json(content)
        except orjson.JSONDecodeError:
            return False, None
        if _OUTPUT_TYPES.get(type(value)) == output_type:
            return True, value
    return False, None


def tool_result_fields(content: JSON, metadata: JSON = None) -> tuple[JSON, dict[str, JSON]]:
    """The UI output of a tool message (or TOOL_CALL_RESULT) and what its ``resultProviderMetadata`` keeps.

    The kept facts (``content``: the exact text when writing the output again would not reproduce it;
    ``contentParts``: the content was a list of AG-UI parts; ``metadata``: the message's metadata) make
    :func:`tool_message_content` give the message back exactly.

    >>> tool_result_fields('["a", "b"]')
    (['a', 'b'], {'content': '["a", "b"]'})
    >>> tool_result_fields("42", {"agui-notebook": {"outputType": "number"}})
    (42, {})
    """
    kept: dict[str, JSON] = {}
    if isinstance(content, list):
        output: JSON = content
        kept["contentParts"] = True
    else:
        ours = metadata.get(OWN_METADATA_KEY) if type(metadata) is dict else None
        typed = False
        if type(ours) is dict and isinstance(content, str):
            typed, output = _typed_output(content, ours.get("outputType"))
        if not typed:
            output = tool_output_from_content(content)
        again, output_type = tool_content_from_output(output)
        if again != content:
            kept["content"] = content
        if typed and ours == {"outputType": output_type}:
            # Our own fact, rebuilt from the output on the way back: not the user's metadata.
            metadata = {k: v for k, v in metadata.items() if k != OWN_METADATA_KEY}
            if not metadata:
                metadata = None
    if metadata is not None:
        kept["metadata"] = metadata
    return output, kept


def tool_message_content(output: JSON, kept: dict[str, JSON]) -> tuple[JSON, JSON]:
    """The ``content`` and ``metadata`` of the AG-UI tool message for a UI tool output (see :func:`tool_result_fields`).

    >>> tool_message_content(42, {})
    ('42', {'agui-notebook': {'outputType': 'number'}})
    >>> tool_message_content([1, 2], {})
    ('[1,2]', None)
    """
    metadata = kept.get("metadata")
    if kept.get("contentParts") and isinstance(output, list):
        return output, metadata
    content, output_type = tool_content_from_output(output)
    if isinstance(kept.get("content"), str):
        content = kept["content"]
    elif output_type is not None and not (type(metadata) is dict and OWN_METADATA_KEY in metadata):
        ours = {OWN_METADATA_KEY: {"outputType": output_type}}
        metadata = {**metadata, **ours} if type(metadata) is dict else ours
    return content, metadata


def _agui_meta(message: dict[str, JSON], *keys: str) -> dict[str, JSON]:
    return {key: message[key] for key in keys if message.get(key) is not None}


_COMMON_FIELDS = frozenset({"id", "role", "content", "name", "encryptedValue", "metadata", "subagentRunId"})
_MESSAGE_FIELDS: dict[Any, frozenset[str]] = {
    "user": _COMMON_FIELDS,
    "system": _COMMON_FIELDS,
    "developer": _COMMON_FIELDS,
    "assistant": _COMMON_FIELDS | {"toolCalls"},
    "reasoning": _COMMON_FIELDS - {"name"},
    "tool": (_COMMON_FIELDS - {"name"}) | {"toolCallId", "error"},
    "activity": frozenset({"id", "role", "activityType", "content", "metadata", "subagentRunId"}),
}
_TOOL_CALL_FIELDS = frozenset({"id", "type", "function", "encryptedValue", "metadata"})
FIELDS_KEY = "fields"
"""Key under ``"ag-ui"`` for the fields of a message or tool call that AG-UI does not define (``encryptedContent``,
the AG-UI docs' name on messages, or a producer's own): ``ag_ui.core`` and ``@ag-ui/client`` keep them, so do we."""


def _with_unknown_fields(
    meta: dict[str, JSON], source: dict[str, JSON], known: frozenset[str]
) -> dict[str, JSON]:
    """``meta`` with the fields of ``source`` outside ``known`` under :data:`FIELDS_KEY` (when there are any)."""
    unknown = {key: value for key, value in source.items() if key not in known}
    if unknown:
        meta[FIELDS_KEY] = unknown
    return meta


def _message_fields(message: dict[str, JSON]) -> dict[str, JSON]:
    return _with_unknown_fields({}, message, _MESSAGE_FIELDS.get(message.get("role"), _COMMON_FIELDS))


def _restore_fields(target: dict[str, JSON], meta: dict[str, JSON]) -> None:
    unknown = meta.get(FIELDS_KEY)
    if type(unknown) is dict:
        for key, value in unknown.items():
            target.setdefault(key, value)


# ---------------------------------------------------------------------------------------------- ui-part carrier
def _ui_part_from_activity(message: dict[str, JSON]) -> dict[str, JSON]:
    """The part a ``ui-part`` activity carries, with the activity's id kept in its provider metadata."""
    part = dict(message.get("content") or {})
    metadata = dict(part.get("providerMetadata") or {})
    metadata[AGUI_KEY] = {**(metadata.get(AGUI_KEY) or {}), "messageId": message["id"]}
    part["providerMetadata"] = metadata
    return part


def _ui_part_to_activity(part: dict[str, JSON], fresh_id: Any) -> dict[str, JSON]:
    """The ``ui-part`` activity for a part AG-UI has no message for (inverse of :func:`_ui_part_from_activity`)."""
    content = dict(part)
    metadata = dict(content.get("providerMetadata") or {})
    ours = dict(metadata.get(AGUI_KEY) or {})
    message_id = ours.pop("messageId", None) or fresh_id()
    if ours:
        metadata[AGUI_KEY] = ours
    else:
        metadata.pop(AGUI_KEY, None)
    if metadata:
        content["providerMetadata"] = metadata
    else:
        content.pop("providerMetadata", None)
    return {"id": message_id, "role": "activity", "activityType": UI_PART_ACTIVITY, "content": content}


# ---------------------------------------------------------------------------------------------- AG-UI -> UI
_MEDIA_PARTS = frozenset({"image", "audio", "video", "document"})
UNKNOWN_PROVIDER = "unknown"
"""The ``providerReference`` key of an AG-UI file handle that names no provider."""


def _content_part_to_ui(part: dict[str, JSON]) -> dict[str, JSON]:
    kind = part.get("type")
    if kind not in _MEDIA_PARTS and kind != "text":
        # A part no 1.0 part holds (a legacy ``binary`` part with only an id): a file part that carries it whole.
        mime = part.get("mimeType")
        return {
            "type": "file",
            "mediaType": mime if isinstance(mime, str) else "application/octet-stream",
            "url": "",
            "providerMetadata": {AGUI_KEY: {"part": part}},
        }
    if kind == "text":
        ui: dict[str, JSON] = {"type": "text", "text": part.get("text", "")}
        extra = _agui_meta(part, "id", "metadata")
        if extra:
            ui["providerMetadata"] = {AGUI_KEY: extra}
        return ui
    source = part.get("source") or {}
    mime = source.get("mimeType") or "application/octet-stream"
    source_type = source.get("type")
    ui = {"type": "file", "mediaType": mime}
    extra = {"partType": kind, "sourceType": source_type}
    extra.update(_agui_meta(part, "id", "metadata"))
    if source_type == "data":
        ui["url"] = f"data:{mime};base64,{source.get('value', '')}"
    elif source_type == "file":
        # A handle only its provider can resolve: the AI SDK's providerReference, with no URL (as its uploadFile).
        ui["url"] = ""
        provider = source.get("provider")
        ui["providerReference"] = {
            provider if isinstance(provider, str) else UNKNOWN_PROVIDER: source.get("value", "")
        }
        if not isinstance(provider, str):
            extra["noProvider"] = True
    else:
        ui["url"] = source.get("value", "")
    if source_type in ("url", "file") and source.get("mimeType") is None:
        extra["noMimeType"] = True
    if source.get("provider") is not None and source_type != "file":
        extra["provider"] = source["provider"]
    metadata = part.get("metadata")
    if isinstance(metadata, dict) and isinstance(metadata.get("filename"), str):
        ui["filename"] = metadata["filename"]
    ui["providerMetadata"] = {AGUI_KEY: extra}
    return ui


def _message_metadata(message: dict[str, JSON], **extra: JSON) -> dict[str, JSON] | None:
    info = _agui_meta(message, "name", "encryptedValue", "metadata", "subagentRunId")
    info.update(_message_fields(message))
    info.update(extra)
    return {AGUI_KEY: info} if info else None


def _user_or_system_to_ui(message: dict[str, JSON]) -> dict[str, JSON]:
    role = message["role"]
    content = message.get("content")
    if isinstance(content, list):
        parts = [_content_part_to_ui(part) for part in content]
        extra: dict[str, JSON] = {} if role != "user" else {"contentList": True}
    else:
        parts = [{"type": "text", "text": content or ""}]
        extra = {}
    if role == "developer":
        extra["role"] = "developer"
    ui: dict[str, JSON] = {
        "id": message["id"],
        "role": "system" if role == "developer" else role,
        "parts": parts,
    }
    metadata = _message_metadata(message, **extra)
    if metadata is not None:
        ui["metadata"] = metadata
    return ui


def _assistant_group_to_ui(group: list[dict[str, JSON]]) -> dict[str, JSON]:
    """One assistant UIMessage from consecutive assistant, reasoning, tool and activity messages."""
    parts: list[dict[str, JSON]] = [{"type": "step-start"}]
    tool_parts: dict[str, dict[str, JSON]] = {}
    after_results = False
    first_id = next((m["id"] for m in group if m["role"] == "assistant"), group[0]["id"])
    for message in group:
        role = message["role"]
        if role in ("assistant", "reasoning") and after_results:
            parts.append({"type": "step-start"})
            after_results = False
        if role == "reasoning":
            meta = {"messageId": message["id"]}
            meta.update(_agui_meta(message, "encryptedValue", "metadata", "subagentRunId"))
            meta.update(_message_fields(message))
            parts.append(
                {
                    "type": "reasoning",
                    "text": message.get("content", ""),
                    "state": "done",
                    "providerMetadata": {AGUI_KEY: meta},
                }
            )
        elif role == "assistant":
            facts = _agui_meta(message, "name", "encryptedValue", "metadata", "subagentRunId")
            facts.update(_message_fields(message))
            meta = {"messageId": message["id"], **facts}
            calls = message.get("toolCalls")
            content = message.get("content")
            if content is not None or not calls:
                if content is None:
                    meta["noContent"] = True
                if calls is not None and not calls:
                    meta["emptyToolCalls"] = True
                parts.append(
                    {
                        "type": "text",
                        "text": content or "",
                        "state": "done",
                        "providerMetadata": {AGUI_KEY: meta},
                    }
                )
                meta = {"parentMessageId": message["id"]}
            else:
                # No text part to carry the message's own facts: the first call does, apart from its own.
                meta = {"parentMessageId": message["id"]}
                if facts:
                    meta["message"] = facts
            for call in calls or ():
                call_meta = dict(meta)
                call_meta.update(_agui_meta(call, "encryptedValue", "metadata"))
                _with_unknown_fields(call_meta, call, _TOOL_CALL_FIELDS)
                arguments = call["function"].get("arguments", "")
                try:
                    tool_input = decode_json(arguments) if arguments.strip() else {}
                    if encode_json(tool_input) != arguments and arguments.strip():
                        call_meta["arguments"] = arguments
                except orjson.JSONDecodeError:
                    tool_input = arguments
                    call_meta["arguments"] = arguments
                if not arguments.strip():
                    call_meta["arguments"] = arguments
                part = {
                    "type": f"tool-{call['function']['name']}",
                    "toolCallId": call["id"],
                    "state": "input-available",
                    "input": tool_input,
                    "callProviderMetadata": {AGUI_KEY: call_meta},
                }
                tool_parts[call["id"]] = part
                parts.append(part)
                meta = {"parentMessageId": meta["parentMessageId"]}
        elif role == "tool":
            result_meta = {"messageId": message["id"]}
            result_meta.update(_agui_meta(message, "encryptedValue", "metadata", "subagentRunId"))
            result_meta.update(_message_fields(message))
            answered = tool_parts.get(message.get("toolCallId", ""))
            if answered is None:
                answered = {
                    "type": "dynamic-tool",
                    "toolName": "unknown",
                    "toolCallId": message.get("toolCallId", ""),
                    "input": None,
                }
                parts.append(answered)
            part = answered
            content = message.get("content")
            claimed = claimed_outcome(message.get("encryptedValue"))
            if message.get("error") is not None:
                part["state"] = "output-error"
                part["errorText"] = message["error"]
                result_meta["content"] = content
            elif claimed in ERROR_OUTCOMES:
                # pydantic-ai's outcome claim, read as the event stream's assembler reads it (_flush_result).
                part["state"] = "output-error"
                part["errorText"] = content if isinstance(content, str) else encode_json(content)
            else:
                part["state"] = "output-available"
                result_meta.pop("metadata", None)
                part["output"], kept = tool_result_fields(content, message.get("metadata"))
                result_meta.update(kept)
            part["resultProviderMetadata"] = {AGUI_KEY: result_meta}
            after_results = True
        elif role == "activity":
            if message.get("activityType") == UI_PART_ACTIVITY:
                parts.append(_ui_part_from_activity(message))
                continue
            part = {
                "type": f"data-{message['activityType']}",
                "id": message["id"],
                "data": message.get("content", {}),
            }
            extra = _agui_meta(message, "metadata", "subagentRunId")
            extra.update(_message_fields(message))
            if extra:
                part["providerMetadata"] = {AGUI_KEY: extra}
            parts.append(part)
    return {"id": first_id, "role": "assistant", "parts": parts}


@conversion_errors("agui")
def to_ui_messages(messages: Iterable[Any]) -> list[dict[str, JSON]]:
    """Convert AG-UI messages to UIMessage dicts (AI SDK JSON): one assistant UIMessage per assistant turn.

    >>> to_ui_messages([{"id": "u1", "role": "user", "content": "hi"}])
    [{'id': 'u1', 'role': 'user', 'parts': [{'type': 'text', 'text': 'hi'}]}]
    """
    # Legacy ``binary`` parts become 1.0 media parts first, as @ag-ui/client's compatibility boundary does.
    wire = [upgrade_inbound_message(as_wire_message(raw)) for raw in messages]
    return [
        _assistant_group_to_ui(group)
        if group[0].get("role") in ASSISTANT_SIDE
        else _user_or_system_to_ui(group[0])
        for group in turn_groups(wire)
    ]


def turn_groups(messages: list[dict[str, JSON]]) -> list[list[dict[str, JSON]]]:
    """AG-UI wire messages grouped as UIMessages show them: an assistant turn's messages together, others alone.

    >>> [[m["id"] for m in g] for g in turn_groups([
    ...     {"id": "u1", "role": "user"}, {"id": "a1", "role": "assistant"}, {"id": "t1", "role": "tool"},
    ...     {"id": "a2", "role": "assistant"}, {"id": "u2", "role": "user"},
    ... ])]
    [['u1'], ['a1', 't1', 'a2'], ['u2']]
    """
    groups: list[list[dict[str, JSON]]] = []
    turn: list[dict[str, JSON]] | None = None
    for message in messages:
        if message.get("role") in ASSISTANT_SIDE:
            if turn is None:
                turn = []
                groups.append(turn)
            turn.append(message)
        else:
            turn = None
            groups.append([message])
    return groups


# ---------------------------------------------------------------------------------------------- UI -> AG-UI
def _file_part_to_agui(part: dict[str, JSON]) -> dict[str, JSON]:
    meta = (part.get("providerMetadata") or {}).get(AGUI_KEY) or {}
    if type(meta.get("part")) is dict:
        return dict(meta["part"])
    mime = part.get("mediaType") or "application/octet-stream"
    url = part.get("url", "")
    kind = meta.get("partType")
    if kind is None:
        kind = next((name for prefix, name in _MEDIA_PART_BY_PREFIX if mime.startswith(prefix)), "document")
    source_type = meta.get("sourceType")
    if source_type is None:
        source_type = "data" if url.startswith("data:") and ";base64," in url else "url"
    reference = part.get("providerReference")
    if type(reference) is dict and reference and meta.get("sourceType") in (None, "file"):
        # A provider's handle (the AI SDK's providerReference takes precedence over the url, as in the AI SDK).
        provider, handle = next(iter(reference.items()))
        source: dict[str, JSON] = {"type": "file", "value": handle}
        if not meta.get("noMimeType"):
            source["mimeType"] = mime
        if not meta.get("noProvider"):
            source["provider"] = provider
    elif source_type == "data":
        value = url.split(",", 1)[1] if "," in url else url
        source = {"type": "data", "value": value, "mimeType": mime}
    else:
        source = {"type": source_type, "value": url}
        if not meta.get("noMimeType"):
            source["mimeType"] = mime
        if meta.get("provider") is not None:
            source["provider"] = meta["provider"]
    result: dict[str, JSON] = {"type": kind, "source": source}
    result.update(_agui_meta(meta, "id", "metadata"))
    if part.get("filename") and not (
        isinstance(meta.get("metadata"), dict) and "filename" in meta["metadata"]
    ):
        result["metadata"] = {**(result.get("metadata") or {}), "filename": part["filename"]}
    return result


def _user_or_system_to_agui(ui: Mapping[str, JSON]) -> dict[str, JSON]:
    info = (ui.get("metadata") or {}).get(AGUI_KEY) or {}
    role = info.get("role", ui["role"])
    parts = ui.get("parts") or []
    message: dict[str, JSON] = {"id": ui["id"], "role": role}
    simple = all(p.get("type") == "text" and not p.get("providerMetadata") for p in parts) and len(parts) <= 1
    if role == "user" and (info.get("contentList") or not simple):
        content: list[dict[str, JSON]] = []
        for part in parts:
            if part.get("type") == "text":
                text_part: dict[str, JSON] = {"type": "text", "text": part.get("text", "")}
                text_part.update(
                    _agui_meta((part.get("providerMetadata") or {}).get(AGUI_KEY) or {}, "id", "metadata")
                )
                content.append(text_part)
            elif part.get("type") == "file":
                content.append(_file_part_to_agui(part))
        message["content"] = content
    else:
        message["content"] = "".join(p.get("text", "") for p in parts if p.get("type") == "text")
    message.update(_agui_meta(info, "name", "encryptedValue", "metadata", "subagentRunId"))
    _restore_fields(message, info)
    return message


def _assistant_to_agui(ui: Mapping[str, JSON]) -> list[dict[str, JSON]]:
    out: list[dict[str, JSON]] = []
    by_id: dict[str, dict[str, JSON]] = {}
    results: list[tuple[str, dict[str, JSON]]] = []  # (owning assistant id, tool message)
    counter = 0

    def fresh_id() -> str:
        nonlocal counter
        counter += 1
        return f"{ui['id']}-{counter}"

    def flush_results() -> None:
        for owner_id, tool_message in results:
            index = next(i for i, m in enumerate(out) if m.get("id") == owner_id) + 1
            while index < len(out) and out[index].get("role") == "tool":
                index += 1
            out.insert(index, tool_message)
        results.clear()

    for part in ui.get("parts") or ():
        kind = part.get("type", "")
        if kind == "step-start":
            flush_results()
            continue
        if kind == "text":
            meta = (part.get("providerMetadata") or {}).get(AGUI_KEY) or {}
            message = {"id": meta.get("messageId") or fresh_id(), "role": "assistant"}
            if not meta.get("noContent"):
                message["content"] = part.get("text", "")
            message.update(_agui_meta(meta, "name", "encryptedValue", "metadata", "subagentRunId"))
            _restore_fields(message, meta)
            if meta.get("emptyToolCalls"):
                message["toolCalls"] = []
            out.append(message)
            by_id[message["id"]] = message
        elif kind == "reasoning":
            meta = (part.get("providerMetadata") or {}).get(AGUI_KEY) or {}
            message = {
                "id": meta.get("messageId") or fresh_id(),
                "role": "reasoning",
                "content": part.get("text", ""),
            }
            message.update(_agui_meta(meta, "encryptedValue", "metadata", "subagentRunId"))
            _restore_fields(message, meta)
            out.append(message)
        elif kind.startswith("tool-") or kind == "dynamic-tool":
            meta = (part.get("callProviderMetadata") or {}).get(AGUI_KEY) or {}
            name = part.get("toolName") if kind == "dynamic-tool" else kind[5:]
            owner_id = meta.get("parentMessageId")
            owner = by_id.get(owner_id) if owner_id else None
            # A result the stream showed without its call (a dynamic tool named "unknown") has no call to hold.
            orphan = kind == "dynamic-tool" and name == "unknown" and part.get("input") is None
            if owner is None and not orphan:
                if owner_id is None and out and out[-1].get("role") == "assistant":
                    owner = out[-1]
                else:
                    owner = {"id": owner_id or fresh_id(), "role": "assistant"}
                    message_facts = meta.get("message")
                    facts: dict[str, JSON] = message_facts if type(message_facts) is dict else meta
                    owner.update(_agui_meta(facts, "name", "encryptedValue", "metadata", "subagentRunId"))
                    if meta.get("messageEncryptedValue") is not None:
                        owner["encryptedValue"] = meta["messageEncryptedValue"]
                    if facts is not meta:
                        _restore_fields(owner, facts)
                    out.append(owner)
                    by_id[owner["id"]] = owner
            state = part.get("state")
            if owner is not None and not orphan:
                if "arguments" in meta:
                    arguments = meta["arguments"]
                else:
                    tool_input = part.get("input")
                    arguments = tool_input if isinstance(tool_input, str) else encode_json(tool_input)
                call: dict[str, JSON] = {
                    "id": part["toolCallId"],
                    "type": "function",
                    "function": {"name": name, "arguments": arguments},
                }
                call.update(_agui_meta(meta, "encryptedValue", "metadata"))
                _restore_fields(call, meta)
                owner.setdefault("toolCalls", []).append(call)
            if state in ("output-available", "output-error", "output-denied"):
                result_meta = (part.get("resultProviderMetadata") or {}).get(AGUI_KEY) or {}
                tool_message: dict[str, JSON] = {
                    "id": result_meta.get("messageId") or fresh_id(),
                    "role": "tool",
                }
                metadata = result_meta.get("metadata")
                if state == "output-available":
                    tool_message["content"], metadata = tool_message_content(part.get("output"), result_meta)
                elif state == "output-error":
                    tool_message["content"] = result_meta.get("content", part.get("errorText", ""))
                    tool_message["error"] = part.get("errorText", "")
                else:
                    # The denial's reason, when the user gave one, is what the agent reads (as the AI SDK does).
                    approval = part.get("approval")
                    reason = approval.get("reason") if type(approval) is dict else None
                    tool_message["content"] = reason if type(reason) is str and reason else "Tool call denied"
                    tool_message["error"] = DENIED_TOOL_MESSAGE_ERROR
                tool_message["toolCallId"] = part["toolCallId"]
                tool_message.update(_agui_meta(result_meta, "encryptedValue", "subagentRunId"))
                if metadata is not None:
                    tool_message["metadata"] = metadata
                _restore_fields(tool_message, result_meta)
                if owner is None:
                    # No call to follow: the result keeps its place among the messages.
                    flush_results()
                    out.append(tool_message)
                else:
                    results.append((owner["id"], tool_message))
        elif kind.startswith("data-"):
            meta = (part.get("providerMetadata") or {}).get(AGUI_KEY) or {}
            data = part.get("data")
            message = {
                "id": part.get("id") or fresh_id(),
                "role": "activity",
                "activityType": kind[5:],
                "content": data if isinstance(data, dict) else {"value": data},
            }
            message.update(_agui_meta(meta, "metadata", "subagentRunId"))
            _restore_fields(message, meta)
            out.append(message)
        else:
            out.append(_ui_part_to_activity(part, fresh_id))
    flush_results()
    return out


def to_agui_messages_wire(ui_messages: Iterable[Any]) -> list[dict[str, JSON]]:
    """Like :func:`to_agui_messages`, returning wire dicts (no model construction)."""
    out: list[dict[str, JSON]] = []
    for raw in ui_messages:
        ui = raw if isinstance(raw, Mapping) else raw.model_dump(mode="json")
        if ui.get("role") == "assistant":
            out.extend(_assistant_to_agui(ui))
        else:
            out.append(_user_or_system_to_agui(ui))
    return out


@conversion_errors("ui")
def to_agui_messages(ui_messages: Iterable[Any]) -> list[Message]:
    """Convert UIMessages (dicts or models) to AG-UI ``Message`` models, the inverse of :func:`to_ui_messages`.

    >>> [m.role for m in to_agui_messages([{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}])]
    ['user']
    """
    return validated(_AGUI_MESSAGES, to_agui_messages_wire(ui_messages), "messages")


# ---------------------------------------------------------------------------------------------- -> OpenAI
OPENAI_PROVIDER = "openai"


def _openai_user_content(content: JSON) -> JSON:
    """Chat-completions user content: text, ``image_url``, ``input_audio`` and ``file`` parts.

    A ``file`` part takes a file's bytes or URL in ``file_data`` and only an uploaded file's id in ``file_id``: an
    AG-UI file handle whose provider is OpenAI or unnamed. Another provider's handle is dropped, as the AG-UI spec
    tells a peer that cannot use a handle to do.
    """
    if isinstance(content, str):
        return content
    parts: list[dict[str, JSON]] = []
    for part in content:
        kind = part.get("type")
        if kind == "text":
            parts.append({"type": "text", "text": part.get("text", "")})
            continue
        if kind == "binary":  # a legacy part with only an id (see agui/_compat.py): an uploaded file's id
            if isinstance(part.get("id"), str):
                parts.append({"type": "file", "file": {"file_id": part["id"]}})
            continue
        source = part.get("source") or {}
        source_type = source.get("type")
        mime = source.get("mimeType") or "application/octet-stream"
        file: dict[str, JSON]
        if source_type == "file":
            if source.get("provider") not in (None, OPENAI_PROVIDER):
                continue
            file = {"file_id": source.get("value", "")}
        else:
            url = (
                f"data:{mime};base64,{source.get('value', '')}"
                if source_type == "data"
                else source.get("value", "")
            )
            if kind == "image":
                parts.append({"type": "image_url", "image_url": {"url": url}})
                continue
            if kind == "audio" and source_type == "data":
                audio_format = mime.split("/", 1)[1].replace("mpeg", "mp3").replace("x-wav", "wav")
                parts.append(
                    {
                        "type": "input_audio",
                        "input_audio": {"data": source.get("value", ""), "format": audio_format},
                    }
                )
                continue
            file = {"file_data": url}
        metadata = part.get("metadata")
        if isinstance(metadata, dict) and metadata.get("filename"):
            file["filename"] = metadata["filename"]
        parts.append({"type": "file", "file": file})
    return parts


def _tool_content_text(content: JSON) -> str:
    """Chat-completions tool text: the text itself, text parts joined, anything else as JSON."""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(type(p) is dict and p.get("type") == "text" for p in content):
        return "\n".join(str(p.get("text", "")) for p in content)
    return "" if content is None else encode_json(content)


@conversion_errors("either")
def to_openai_messages(messages: Iterable[Any]) -> list[dict[str, JSON]]:
    """Convert AG-UI messages or UIMessages to OpenAI chat-completions messages.

    Reasoning and activity messages have no chat-completions form and are left out.

    >>> to_openai_messages([{"id": "u1", "role": "user", "content": "hi"}])
    [{'role': 'user', 'content': 'hi'}]
    """
    items = list(messages)
    wire = [m if isinstance(m, Mapping) else None for m in items]
    if (items and all(w is not None and "parts" in w for w in wire)) or (
        items and hasattr(items[0], "parts")
    ):
        agui = to_agui_messages_wire(items)
    else:
        agui = [upgrade_inbound_message(as_wire_message(m)) for m in items]
    out: list[dict[str, JSON]] = []
    for message in agui:
        role = message.get("role")
        if role in ("system", "developer"):
            out.append({"role": role, "content": message.get("content", "")})
        elif role == "user":
            entry: dict[str, JSON] = {
                "role": "user",
                "content": _openai_user_content(message.get("content", "")),
            }
            if message.get("name"):
                entry["name"] = message["name"]
            out.append(entry)
        elif role == "assistant":
            entry = {"role": "assistant", "content": message.get("content")}
            calls = message.get("toolCalls")
            if calls:
                entry["tool_calls"] = [
                    {
                        "id": call["id"],
                        "type": "function",
                        "function": {
                            "name": call["function"]["name"],
                            "arguments": call["function"]["arguments"],
                        },
                    }
                    for call in calls
                ]
            if message.get("name"):
                entry["name"] = message["name"]
            out.append(entry)
        elif role == "tool":
            content = message.get("content", "")
            text = _tool_content_text(content)
            if message.get("error") and not text:
                text = message["error"]
            out.append({"role": "tool", "tool_call_id": message.get("toolCallId", ""), "content": text})
    return out


def data_url(data: bytes, media_type: str) -> str:
    """A base64 ``data:`` URL for ``data``.

    >>> data_url(b"hi", "text/plain")
    'data:text/plain;base64,aGk='
    """
    return f"data:{media_type};base64,{base64.b64encode(data).decode()}"
