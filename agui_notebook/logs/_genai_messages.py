"""The GenAI semantic conventions' message shape (``gen_ai.input.messages``, ``gen_ai.output.messages``,
``gen_ai.system_instructions``), written by the export and read by the import.

A message is ``{"role", "parts", "finish_reason"?}``; a part is ``{"type": "text", "content"}``,
``{"type": "reasoning", "content"}``, ``{"type": "tool_call", "id", "name", "arguments"}`` or
``{"type": "tool_call_response", "id", "response"}``. Read back, pydantic-ai's spellings count too
(``thinking`` for reasoning, ``result`` for a response), and a tool call becomes its arguments' JSON text.

>>> output_parts('[{"role": "assistant", "parts": [{"type": "text", "content": "Hi"},'
...              ' {"type": "tool_call", "id": "c1", "name": "f", "arguments": {"x": 1}}]}]')
[('text', 'Hi'), ('tool_call', 'c1', 'f', '{"x":1}')]
"""

from __future__ import annotations

from typing import Any, TypeAlias

import orjson

from agui_notebook.wire._json import JSONDecodeError, decode_json

__all__ = [
    "FINISH_ERROR",
    "FINISH_STOP",
    "FINISH_TOOL_CALL",
    "OutputPart",
    "agui_input_messages",
    "agui_messages",
    "message",
    "output_parts",
    "reasoning_part",
    "text_part",
    "tool_call_part",
    "tool_response_part",
]

FINISH_STOP = "stop"
FINISH_TOOL_CALL = "tool_call"
FINISH_ERROR = "error"

_TEXT = "text"
_REASONING = ("reasoning", "thinking")  # the conventions' spelling, then pydantic-ai's
_TOOL_CALL = "tool_call"
_TOOL_RESPONSE = "tool_call_response"

OutputPart: TypeAlias = "tuple[str, ...]"
"""A part read back: ``("text", text)``, ``("reasoning", text)`` or ``("tool_call", id, name, arguments)``
(``id`` and ``name`` may be ``""`` when the part has none)."""


def _json_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return str(value)


def _json_value(text: str) -> Any:
    """The value a JSON text holds, else the text itself (arguments a model streamed broken)."""
    try:
        return decode_json(text)
    except (JSONDecodeError, RecursionError):
        return text


# --- writing ----------------------------------------------------------------------------------------------------


def text_part(text: str) -> dict[str, Any]:
    return {"type": _TEXT, "content": text}


def reasoning_part(text: str) -> dict[str, Any]:
    return {"type": _REASONING[0], "content": text}


def tool_call_part(call_id: str, name: str | None, arguments: Any) -> dict[str, Any]:
    """A tool call part; ``arguments`` as the parsed JSON value (a text that is not JSON stays text; None:
    none known)."""
    part: dict[str, Any] = {"type": _TOOL_CALL, "id": call_id}
    if name is not None:
        part["name"] = name
    if arguments is not None:
        part["arguments"] = _json_value(arguments) if isinstance(arguments, str) else arguments
    return part


def tool_response_part(call_id: str, response: Any) -> dict[str, Any]:
    return {"type": _TOOL_RESPONSE, "id": call_id, "response": response}


def message(role: str, parts: list[dict[str, Any]], finish_reason: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"role": role, "parts": parts}
    if finish_reason is not None:
        out["finish_reason"] = finish_reason
    return out


def _content_parts(content: Any) -> list[dict[str, Any]]:
    """An AG-UI message's ``content`` (a text, or a list of input parts) as GenAI parts."""
    if isinstance(content, str):
        return [text_part(content)] if content else []
    parts = []
    for item in content if isinstance(content, list) else ():
        if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str):
            parts.append(text_part(item["text"]))
        elif isinstance(item, dict) and isinstance(item.get("type"), str):
            parts.append({"type": item["type"]})  # an image, a file: its kind, not its bytes
    return parts


def agui_input_messages(messages: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """AG-UI messages (a ``RunAgentInput``'s) as GenAI input messages, and the parts of their system and
    developer messages as the system instructions."""
    inputs: list[dict[str, Any]] = []
    system: list[dict[str, Any]] = []
    for item in messages if isinstance(messages, list) else ():
        if not isinstance(item, dict):
            continue
        role = item.get("role")
        if role in ("system", "developer"):
            system.extend(_content_parts(item.get("content")))
        elif role == "user":
            inputs.append(message("user", _content_parts(item.get("content"))))
        elif role == "assistant":
            parts = _content_parts(item.get("content"))
            for call in item.get("toolCalls") or ():
                function = call.get("function") if isinstance(call, dict) else None
                if isinstance(function, dict) and isinstance(call.get("id"), str):
                    name = function.get("name")
                    parts.append(
                        tool_call_part(
                            call["id"], name if isinstance(name, str) else None, function.get("arguments")
                        )
                    )
            inputs.append(message("assistant", parts))
        elif role == "tool" and isinstance(item.get("toolCallId"), str):
            content = item.get("content")
            inputs.append(message("tool", [tool_response_part(item["toolCallId"], content)]))
    return inputs, system


# --- reading ----------------------------------------------------------------------------------------------------


def _messages(value: Any) -> list[Any]:
    if isinstance(value, str):
        try:
            value = decode_json(value)
        except (JSONDecodeError, RecursionError):
            return []
    return value if isinstance(value, list) else []


def output_parts(value: Any) -> list[OutputPart]:
    """The text, reasoning and tool call parts of ``gen_ai.output.messages`` (its JSON text, or the list), in
    order; other parts and anything malformed are left out."""
    found: list[OutputPart] = []
    for item in _messages(value):
        parts = item.get("parts") if isinstance(item, dict) else None
        for part in parts if isinstance(parts, list) else ():
            kind = part.get("type") if isinstance(part, dict) else None
            if kind == _TEXT or kind in _REASONING:
                content = part.get("content")
                if isinstance(content, str):
                    found.append((_TEXT if kind == _TEXT else _REASONING[0], content))
            elif kind == _TOOL_CALL:
                call_id, name = part.get("id"), part.get("name")
                found.append(
                    (
                        _TOOL_CALL,
                        call_id if isinstance(call_id, str) else "",
                        name if isinstance(name, str) else "",
                        "" if part.get("arguments") is None else _json_text(part["arguments"]),
                    )
                )
    return found


def _texts(parts: list[Any]) -> list[str]:
    return [
        part["content"]
        for part in parts
        if isinstance(part, dict) and part.get("type") == _TEXT and isinstance(part.get("content"), str)
    ]


def agui_messages(messages: Any, system: Any, prefix: str) -> list[dict[str, Any]]:
    """GenAI input messages (and system instructions) as AG-UI messages, ids ``<prefix>-<n>``: a run input
    read back. Text parts join into a message's content, tool calls become ``toolCalls``, each tool call
    response (under ``tool`` or, as pydantic-ai writes them, ``user``) a tool message; other parts are left out.

    >>> agui_messages('[{"role": "user", "parts": [{"type": "text", "content": "Hi"}]}]', None, "s")
    [{'id': 's-0', 'role': 'user', 'content': 'Hi'}]
    """
    out: list[dict[str, Any]] = [
        {"id": f"{prefix}-system-{i}", "role": "system", "content": text}
        for i, text in enumerate(_texts(_messages(system)))
    ]
    for i, item in enumerate(_messages(messages)):
        if not isinstance(item, dict) or not isinstance(item.get("parts"), list):
            continue
        role, parts, message_id = item.get("role"), item["parts"], f"{prefix}-{i}"
        text = "".join(_texts(parts))
        if role in ("system", "developer", "user") and text:
            out.append({"id": message_id, "role": role, "content": text})
        elif role == "assistant":
            calls = [
                {
                    "id": part["id"],
                    "type": "function",
                    "function": {
                        "name": part.get("name") if isinstance(part.get("name"), str) else "",
                        "arguments": "" if part.get("arguments") is None else _json_text(part["arguments"]),
                    },
                }
                for part in parts
                if isinstance(part, dict)
                and part.get("type") == _TOOL_CALL
                and isinstance(part.get("id"), str)
                and part["id"]
            ]
            message: dict[str, Any] = {"id": message_id, "role": "assistant", "content": text}
            if calls:
                message["toolCalls"] = calls
            out.append(message)
        for j, part in enumerate(parts):
            if (
                isinstance(part, dict)
                and part.get("type") == _TOOL_RESPONSE
                and isinstance(part.get("id"), str)
            ):
                response = part.get("response", part.get("result"))
                out.append(
                    {
                        "id": f"{message_id}-{j}",
                        "role": "tool",
                        "toolCallId": part["id"],
                        "content": "" if response is None else _json_text(response),
                    }
                )
    return out
