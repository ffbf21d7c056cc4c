"""Validate UIMessages as the AI SDK's ``validateUIMessages`` does, plus the AI SDK's part type guards."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, overload

from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python
from typing_extensions import TypeIs

from agui_notebook._errors import OptionError, UIMessageValidationError, json_path, no_unraisable_reports
from agui_notebook._options import keyword_options
from agui_notebook._shown import shown

from ._parts import DynamicToolUIPart, MessageT, ToolUIPart, UIMessage, UIPart

__all__ = [
    "SafeValidationResult",
    "UIMessageValidationError",
    "get_tool_name",
    "is_tool_output_error_part",
    "is_tool_ui_part",
    "safe_validate_ui_messages",
    "validate_ui_messages",
]

Schema = Any
"""A pydantic model (anything with ``model_validate``), a ``TypeAdapter`` or a callable returning the value."""

ToolSchemas = Schema | tuple[Schema, Schema | None]
"""A tool's input schema, or ``(input_schema, output_schema)``."""


@dataclass(frozen=True)
class SafeValidationResult(Generic[MessageT]):
    """The outcome of ``safe_validate_ui_messages``: ``data`` when ``success``, else ``error``."""

    success: bool
    data: list[MessageT] | None = None
    error: UIMessageValidationError | None = field(default=None)


# -- JSON shapes (the zod schemas of validateUIMessages) ---------------------------------------------------------

_MISSING: Any = object()


class _Invalid(Exception):
    def __init__(self, path: list[str | int], reason: str) -> None:
        self.path = path
        self.reason = reason


def _format_path(path: Sequence[str | int]) -> str:
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text


def _is_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _check_json_value(value: Any, path: list[str | int]) -> None:
    pending = [(value, path)]
    while pending:
        node, node_path = pending.pop()
        if node is None or type(node) in (str, bool):
            continue
        if type(node) in (int, float):
            if not math.isfinite(node):
                raise _Invalid(node_path, "Invalid JSON value: numbers must be finite")
        elif isinstance(node, dict):
            for key, item in node.items():
                if type(key) is not str:
                    raise _Invalid(node_path, "Invalid JSON value: object keys must be strings")
                pending.append((item, [*node_path, key]))
        elif isinstance(node, list):
            pending.extend((item, [*node_path, index]) for index, item in enumerate(node))
        else:
            raise _Invalid(node_path, f"Invalid JSON value of type {type(node).__name__}")


def _string(value: Any, path: list[str | int]) -> Any:
    if type(value) is not str:
        raise _Invalid(path, "expected a string")
    return value


def _boolean(value: Any, path: list[str | int]) -> Any:
    if type(value) is not bool:
        raise _Invalid(path, "expected a boolean")
    return value


def _unknown(value: Any, path: list[str | int]) -> Any:
    return value


def _never(value: Any, path: list[str | int]) -> Any:
    raise _Invalid(path, "not allowed in this state")


def _enum(*options: Any) -> Callable[[Any, list[str | int]], Any]:
    def check(value: Any, path: list[str | int]) -> Any:
        if type(value) not in (str, bool) or value not in options:
            raise _Invalid(path, f"expected one of {', '.join(map(repr, options))}")
        return value

    return check


def _record_of_json(value: Any, path: list[str | int]) -> Any:
    if not isinstance(value, dict):
        raise _Invalid(path, "expected an object")
    _check_json_value(value, path)
    return value


def _provider_metadata(value: Any, path: list[str | int]) -> Any:
    if not isinstance(value, dict):
        raise _Invalid(path, "expected an object (provider name -> object)")
    for key, item in value.items():
        if not isinstance(item, dict):
            raise _Invalid([*path, key], "expected an object")
    _check_json_value(value, path)
    return value


def _provider_reference(value: Any, path: list[str | int]) -> Any:
    if not isinstance(value, dict):
        raise _Invalid(path, "expected an object (provider name -> file id)")
    for key, item in value.items():
        _string(item, [*path, key])
    return value


Shape = dict[str, tuple[Callable[[Any, list[str | int]], Any], bool]]
"""Field name -> (check, required). Keys not listed are dropped, as zod's ``z.object`` does."""


def _object(value: Any, shape: Shape, path: list[str | int]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Invalid(path, "expected an object")
    result: dict[str, Any] = {}
    for key, (check, required) in shape.items():
        item = value.get(key, _MISSING)
        if item is _MISSING:
            if required:  # zod 4: even z.unknown() keys must be present
                raise _Invalid([*path, key], "required")
            continue
        result[key] = check(item, [*path, key])
    return result


def _nonnegative_int(value: Any, path: list[str | int]) -> Any:
    if not _is_number(value) or value != int(value) or value < 0:
        raise _Invalid(path, "expected a non-negative integer")
    return value


def _shape_check(shape: Shape) -> Callable[[Any, list[str | int]], Any]:
    return lambda value, path: _object(value, shape, path)


_SOURCE_URL: Shape = {
    "type": (_enum("source"), True),
    "sourceType": (_enum("url"), True),
    "id": (_string, True),
    "url": (_string, True),
    "title": (_string, False),
    "providerMetadata": (_provider_metadata, False),
}
_SOURCE_DOCUMENT: Shape = {
    "type": (_enum("source"), True),
    "sourceType": (_enum("document"), True),
    "id": (_string, True),
    "mediaType": (_string, True),
    "title": (_string, True),
    "filename": (_string, False),
    "providerMetadata": (_provider_metadata, False),
}


def _citation_source(value: Any, path: list[str | int]) -> Any:
    source_type = value.get("sourceType") if isinstance(value, dict) else None
    if source_type == "url":
        return _object(value, _SOURCE_URL, path)
    if source_type == "document":
        return _object(value, _SOURCE_DOCUMENT, path)
    raise _Invalid([*path, "sourceType"], "expected 'url' or 'document'")


_CITATION: Shape = {
    "source": (_citation_source, True),
    "startIndex": (_nonnegative_int, False),
    "endIndex": (_nonnegative_int, False),
    "citedText": (_string, False),
}


def _array_of(check: Callable[[Any, list[str | int]], Any]) -> Callable[[Any, list[str | int]], Any]:
    def check_array(value: Any, path: list[str | int]) -> Any:
        if not isinstance(value, list):
            raise _Invalid(path, "expected an array")
        return [check(item, [*path, index]) for index, item in enumerate(value)]

    return check_array


_PROVIDER_METADATA = (_provider_metadata, False)
_TEXT: Shape = {
    "type": (_unknown, True),
    "text": (_string, True),
    "citations": (_array_of(_shape_check(_CITATION)), False),
    "state": (_enum("streaming", "done"), False),
    "providerMetadata": _PROVIDER_METADATA,
}
_FILE: Shape = {
    "type": (_unknown, True),
    "mediaType": (_string, True),
    "filename": (_string, False),
    "url": (_string, True),
    "providerReference": (_provider_reference, False),
    "providerMetadata": _PROVIDER_METADATA,
}
_STEERING_TEXT: Shape = {
    "type": (_unknown, True),
    "text": (_string, True),
    "providerMetadata": _PROVIDER_METADATA,
}


def _steering_part(value: Any, path: list[str | int]) -> Any:
    part_type = value.get("type") if isinstance(value, dict) else None
    if part_type == "text":
        return _object(value, _STEERING_TEXT, path)
    if part_type == "file":
        return _object(value, _FILE, path)
    raise _Invalid([*path, "type"], "expected 'text' or 'file'")


_STATIC_PARTS: dict[str, Shape] = {
    "text": _TEXT,
    "reasoning": {
        "type": (_unknown, True),
        "id": (_string, False),
        "text": (_string, True),
        "state": (_enum("streaming", "done"), False),
        "providerMetadata": _PROVIDER_METADATA,
    },
    "custom": {"type": (_unknown, True), "kind": (_string, True), "providerMetadata": _PROVIDER_METADATA},
    "source-url": {
        "type": (_unknown, True),
        "sourceId": (_string, True),
        "url": (_string, True),
        "title": (_string, False),
        "providerMetadata": _PROVIDER_METADATA,
    },
    "source-document": {
        "type": (_unknown, True),
        "sourceId": (_string, True),
        "mediaType": (_string, True),
        "title": (_string, True),
        "filename": (_string, False),
        "providerMetadata": _PROVIDER_METADATA,
    },
    "file": _FILE,
    "reasoning-file": {
        "type": (_unknown, True),
        "mediaType": (_string, True),
        "url": (_string, True),
        "providerMetadata": _PROVIDER_METADATA,
    },
    "steering-message": {
        "type": (_unknown, True),
        "id": (_string, True),
        "parts": (_array_of(_steering_part), True),
    },
    "step-start": {"type": (_unknown, True)},
}
_DATA_PART: Shape = {"type": (_unknown, True), "id": (_string, False), "data": (_unknown, True)}

_APPROVAL_REQUESTED: Shape = {
    "id": (_string, True),
    "approved": (_never, False),
    "descriptor": (_unknown, False),
    "requestReason": (_string, False),
    "reason": (_never, False),
    "isAutomatic": (_boolean, False),
    "signature": (_string, False),
    "inputSchemaInput": (_unknown, False),
}
_APPROVAL_RESPONDED: Shape = {**_APPROVAL_REQUESTED, "approved": (_boolean, True), "reason": (_string, False)}
_APPROVAL_GRANTED: Shape = {**_APPROVAL_RESPONDED, "approved": (_enum(True), True)}
_APPROVAL_DENIED: Shape = {**_APPROVAL_RESPONDED, "approved": (_enum(False), True)}

_TOOL_COMMON: Shape = {
    "type": (_unknown, True),
    "toolCallId": (_string, True),
    "title": (_string, False),
    "toolMetadata": (_record_of_json, False),
    "state": (_unknown, True),
    "providerExecuted": (_boolean, False),
    "callProviderMetadata": _PROVIDER_METADATA,
}
_NO_OUTPUT: Shape = {"output": (_never, False), "errorText": (_never, False)}
_TOOL_STATES: dict[str, Shape] = {
    "input-streaming": {
        **_TOOL_COMMON,
        "input": (_unknown, False),
        "rawInput": (_string, False),
        "inputEncoding": (_enum("json", "text"), False),
        **_NO_OUTPUT,
        "approval": (_never, False),
    },
    "input-available": {**_TOOL_COMMON, "input": (_unknown, True), **_NO_OUTPUT, "approval": (_never, False)},
    "approval-requested": {
        **_TOOL_COMMON,
        "input": (_unknown, True),
        **_NO_OUTPUT,
        "approval": (_shape_check(_APPROVAL_REQUESTED), True),
    },
    "approval-responded": {
        **_TOOL_COMMON,
        "input": (_unknown, True),
        **_NO_OUTPUT,
        "approval": (_shape_check(_APPROVAL_RESPONDED), True),
    },
    "output-available": {
        **_TOOL_COMMON,
        "input": (_unknown, True),
        "output": (_unknown, True),
        "errorText": (_never, False),
        "resultProviderMetadata": _PROVIDER_METADATA,
        "preliminary": (_boolean, False),
        "approval": (_shape_check(_APPROVAL_GRANTED), False),
    },
    "output-error": {
        **_TOOL_COMMON,
        "input": (_unknown, False),
        "rawInput": (_unknown, False),
        "output": (_never, False),
        "errorText": (_string, True),
        "resultProviderMetadata": _PROVIDER_METADATA,
        "approval": (_shape_check(_APPROVAL_GRANTED), False),
    },
    "output-denied": {
        **_TOOL_COMMON,
        "input": (_unknown, True),
        **_NO_OUTPUT,
        "approval": (_shape_check(_APPROVAL_DENIED), True),
    },
}
_DYNAMIC_STATES: dict[str, Shape] = {
    state: {"type": (_unknown, True), "dynamic": (_enum(False), False), "toolName": (_string, True), **shape}
    for state, shape in _TOOL_STATES.items()
}
_ROLES = _enum("system", "user", "assistant")


def _by_state(value: Any, shapes: dict[str, Shape], path: list[str | int]) -> dict[str, Any]:
    state = value.get("state")
    shape = shapes.get(state) if type(state) is str else None
    if shape is None:
        raise _Invalid([*path, "state"], f"expected one of {', '.join(map(repr, shapes))}")
    return _object(value, shape, path)


def _part(value: Any, path: list[str | int]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Invalid(path, "expected an object")
    part_type = value.get("type")
    if type(part_type) is str:
        if part_type.startswith("data-"):
            return _object(value, _DATA_PART, path)
        if part_type.startswith("tool-"):
            return _by_state(value, _TOOL_STATES, path)
        if part_type == "dynamic-tool":
            return _by_state(value, _DYNAMIC_STATES, path)
        shape = _STATIC_PARTS.get(part_type)
        if shape is not None:
            return _object(value, shape, path)
    raise _Invalid(
        [*path, "type"],
        'Invalid UI message part type. Expected a known part type (for example "text" or "dynamic-tool") '
        'or a type starting with "data-" or "tool-".',
    )


def _message(value: Any, path: list[str | int]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Invalid(path, "expected an object")
    message: dict[str, Any] = {"id": _string(value.get("id", _MISSING), [*path, "id"])}
    message["role"] = _ROLES(value.get("role", _MISSING), [*path, "role"])
    if "metadata" in value:
        message["metadata"] = value["metadata"]
    parts = value.get("parts", _MISSING)
    if not isinstance(parts, list):
        raise _Invalid([*path, "parts"], "expected an array")
    message["parts"] = [_part(part, [*path, "parts", index]) for index, part in enumerate(parts)]
    if message["role"] != "assistant" and not parts:
        raise _Invalid([*path, "parts"], "Message must contain at least one part")
    return message


# -- user schemas -----------------------------------------------------------------------------------------------


def _apply_schema(schema: Schema, value: Any, path: list[str | int]) -> Any:
    try:
        if hasattr(schema, "model_validate"):
            return schema.model_validate(value)
        if hasattr(schema, "validate_python"):
            return schema.validate_python(value)
        if callable(schema):
            return schema(value)
    except Exception as error:  # any failure of a user's schema is a validation failure, as in the AI SDK
        raise _Invalid(path, f"does not match the schema: {error}") from error
    raise OptionError(f"{shown(schema)} is not a schema (a pydantic model, a TypeAdapter or a callable)")


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return to_jsonable_python(value)


def _as_dynamic(part: dict[str, Any]) -> dict[str, Any]:
    dynamic = {key: value for key, value in part.items() if key != "type"}
    dynamic["type"] = "dynamic-tool"
    dynamic["toolName"] = part["type"][5:]
    dynamic["dynamic"] = False
    return dynamic


def _validate_tool_part(
    part: dict[str, Any], tools: Mapping[str, ToolSchemas], path: list[str | int]
) -> dict[str, Any]:
    tool_name = part["type"][5:]
    state = part["state"]
    terminal = state in ("output-available", "output-error", "output-denied")
    tool = tools.get(tool_name)
    if tool is None:
        if terminal:
            return _as_dynamic(part)  # history of a tool that is gone stays loadable, as an untyped call
        raise _Invalid([*path, "input"], f"No tool schema found for tool part {tool_name}")
    input_schema, output_schema = tool if isinstance(tool, tuple) else (tool, None)
    approval = part.get("approval")
    has_schema_input = False
    to_validate = part.get("input")
    if isinstance(approval, dict) and "inputSchemaInput" in approval:
        has_schema_input = True  # the approval recorded the input as the schema saw it: validate that
        to_validate = approval["inputSchemaInput"]
    convert = False
    if state != "input-streaming" and (state != "output-error" or has_schema_input or "input" in part):
        try:
            validated = _apply_schema(input_schema, to_validate, [*path, "input"])
            if has_schema_input and _jsonable(validated) != part.get("input"):
                raise _Invalid(
                    [*path, "input"],
                    "Tool input does not match the output reconstructed from inputSchemaInput.",
                )
        except _Invalid:
            # Failed calls and empty terminal inputs stay loadable, but not as the current static tool type.
            if state == "output-error" or (state == "output-available" and part.get("input") == {}):
                convert = True
            else:
                raise
    if state == "output-available" and output_schema is not None:
        _apply_schema(output_schema, part.get("output"), [*path, "output"])
    return _as_dynamic(part) if convert else part


def _validate(
    messages: Any,
    metadata_schema: Schema | None,
    data_schemas: Mapping[str, Schema] | None,
    tools: Mapping[str, ToolSchemas] | None,
) -> list[dict[str, Any]]:
    if messages is None:
        raise _Invalid(["messages"], "messages parameter must be provided")
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise _Invalid(["messages"], "expected a list of messages")
    items = [m.model_dump(mode="json") if isinstance(m, BaseModel) else m for m in messages]
    validated = [_message(message, ["messages", index]) for index, message in enumerate(items)]
    if not validated:
        raise _Invalid(["messages"], "Messages array must not be empty")
    if metadata_schema is not None:
        for index, message in enumerate(validated):
            message["metadata"] = _apply_schema(
                metadata_schema, message.get("metadata"), ["messages", index, "metadata"]
            )
    if data_schemas is None and tools is None:
        return validated
    for message_index, message in enumerate(validated):
        parts = message["parts"]
        for part_index, part in enumerate(parts):
            path: list[str | int] = ["messages", message_index, "parts", part_index]
            part_type = part["type"]
            if data_schemas is not None and part_type.startswith("data-"):
                schema = data_schemas.get(part_type[5:])
                if schema is None:
                    raise _Invalid([*path, "data"], f"No data schema found for data part {part_type[5:]}")
                part["data"] = _apply_schema(schema, part.get("data"), [*path, "data"])
            if tools is not None and part_type.startswith("tool-"):
                parts[part_index] = _validate_tool_part(part, tools, path)
    return validated


@keyword_options
def safe_validate_ui_messages(
    messages: Any,
    *,
    metadata_schema: Schema | None = None,
    data_schemas: Mapping[str, Schema] | None = None,
    tools: Mapping[str, ToolSchemas] | None = None,
    # A TypeVar's default type (PEP 696) is what this means; mypy does not read a default class as one.
    message_type: type[MessageT] = UIMessage,  # type: ignore[assignment]
) -> SafeValidationResult[MessageT]:
    """Like ``validate_ui_messages``, but returns ``SafeValidationResult(success, data, error)``, never raises.

    >>> result = safe_validate_ui_messages([])
    >>> result.success, str(result.error)
    (False, 'messages: Messages array must not be empty')
    """
    try:
        data = validate_ui_messages(
            messages,
            metadata_schema=metadata_schema,
            data_schemas=data_schemas,
            tools=tools,
            message_type=message_type,
        )
    except UIMessageValidationError as error:
        return SafeValidationResult(success=False, error=error)
    return SafeValidationResult(success=True, data=data)


@keyword_options
def validate_ui_messages(
    messages: Any,
    *,
    metadata_schema: Schema | None = None,
    data_schemas: Mapping[str, Schema] | None = None,
    tools: Mapping[str, ToolSchemas] | None = None,
    # A TypeVar's default type (PEP 696) is what this means; mypy does not read a default class as one.
    message_type: type[MessageT] = UIMessage,  # type: ignore[assignment]
) -> list[MessageT]:
    """Check UIMessages (dicts or models) as the AI SDK's ``validateUIMessages``; return them as models.

    The list must not be empty; each message and part must have the AI SDK shape (unknown keys are dropped,
    unknown part types are errors). Given schemas, metadata, ``data-{name}`` parts (by name) and ``tool-{name}``
    inputs and outputs (by tool name) must match them; a schema is a pydantic model, a ``TypeAdapter`` or a
    callable. ``tools`` maps a name to an input schema or ``(input_schema, output_schema)``. Finished calls of
    tools not in ``tools``, and failed calls whose input no longer matches, become ``dynamic-tool`` parts.
    Raises ``UIMessageValidationError`` naming the first problem's path.

    >>> messages = validate_ui_messages([{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Hi"}]}])
    >>> messages[0].parts[0].text
    'Hi'
    >>> validate_ui_messages([{"id": "u1", "role": "user", "parts": [{"type": "text"}]}])
    Traceback (most recent call last):
    ...
    agui_notebook.UIMessageValidationError: messages[0].parts[0].text: required
    """
    try:
        validated = _validate(messages, metadata_schema, data_schemas, tools)
    except _Invalid as error:
        raise UIMessageValidationError(_format_path(error.path), error.reason) from None
    except RecursionError:
        raise UIMessageValidationError("messages", "a value is nested too deeply") from None
    return [model_of(message_type, m, f"messages[{i}]") for i, m in enumerate(validated)]


def model_of(model: Any, value: Any, path: str) -> Any:
    """``model.model_validate(value)`` (or a ``TypeAdapter``'s ``validate_python``), a failure raised as
    :class:`UIMessageValidationError` naming the JSON path of the bad value below ``path``.

    >>> model_of(UIMessage, {"id": "a", "role": "assistant", "parts": [{"type": "text", "text": 5}]}, "message")
    Traceback (most recent call last):
    ...
    agui_notebook.UIMessageValidationError: message.parts[0].text: Input should be a valid string
    """
    if not (hasattr(model, "model_validate") or hasattr(model, "validate_python")):
        raise OptionError(f"message_type= must be a UIMessage model, not {shown(model)}")
    validate = model.model_validate if hasattr(model, "model_validate") else model.validate_python
    try:
        with no_unraisable_reports():
            return validate(value)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise UIMessageValidationError(json_path(path, value, error["loc"]), error["msg"]) from None
    except RecursionError:
        raise UIMessageValidationError(path, "a value is nested too deeply") from None


# -- type guards -------------------------------------------------------------------------------------------------


def _type_of(part: Any) -> Any:
    return part.get("type") if isinstance(part, dict) else getattr(part, "type", None)


@overload
def is_tool_ui_part(part: UIPart) -> TypeIs[ToolUIPart[Any, Any] | DynamicToolUIPart]: ...
@overload
def is_tool_ui_part(part: Mapping[str, Any]) -> bool: ...
def is_tool_ui_part(part: Any) -> bool:
    """Whether ``part`` (a model or a dict) is a tool call, static (``tool-*``) or dynamic."""
    part_type = _type_of(part)
    return type(part_type) is str and (part_type.startswith("tool-") or part_type == "dynamic-tool")


@overload
def is_tool_output_error_part(part: UIPart) -> TypeIs[ToolUIPart[Any, Any] | DynamicToolUIPart]: ...
@overload
def is_tool_output_error_part(part: Mapping[str, Any]) -> bool: ...
def is_tool_output_error_part(part: Any) -> bool:
    """Whether ``part`` is a tool call (static or dynamic) that failed: state ``output-error``.

    The AI SDK calls this ``isToolOutputErrorUIPart``.

    >>> is_tool_output_error_part({"type": "dynamic-tool", "toolName": "x", "toolCallId": "c",
    ...                            "state": "output-error", "errorText": "boom"})
    True
    """
    if not is_tool_ui_part(part):
        return False
    state = part.get("state") if isinstance(part, dict) else getattr(part, "state", None)
    return state == "output-error"


def get_tool_name(part: ToolUIPart[Any, Any] | DynamicToolUIPart | Mapping[str, Any]) -> str:
    """The tool's name for a static (``tool-{name}``) or dynamic tool part, model or dict.

    >>> get_tool_name({"type": "tool-get_weather", "toolCallId": "c", "state": "input-available", "input": {}})
    'get_weather'
    """
    part_type = _type_of(part)
    if part_type == "dynamic-tool":
        # A "dynamic-tool" part: a dict, or a DynamicToolUIPart (mypy cannot narrow a union by a field's value).
        name = part.get("toolName") if isinstance(part, dict) else part.tool_name  # type: ignore[union-attr]
        if type(name) is not str:
            raise UIMessageValidationError("part.toolName", "a dynamic tool part needs a string toolName")
        return name
    if type(part_type) is not str:
        raise UIMessageValidationError("part.type", "expected a string")
    return part_type.split("-", 1)[1] if "-" in part_type else ""
