"""OpenTelemetry traces read as the AG-UI events the tables understand: ``load_events`` of spans.

The spans come as OTLP/JSON (one export per line, as the OTLP file exporter and the collector write them, or one
document) or in memory (the SDK's ``ReadableSpan``, decoded export objects). Three conventions are read: the
GenAI semantic conventions (which pydantic-ai's ``Agent(instrument=True)`` and ``export_otel`` follow),
pydantic-ai's instrumentation format 2, and OpenInference.

A run is an agent span (``invoke_agent``, pydantic-ai's ``agent run``, OpenInference ``AGENT``); a model or tool
span belongs to the nearest agent span above it, else to the topmost span above it, which then stands for the
run. Each run becomes these events, in time order::

    agent span          RUN_STARTED (its start) .. RUN_FINISHED or RUN_ERROR (its end), usage and model
    model span          STEP_STARTED (start); its output: TEXT_MESSAGE_*, REASONING_*, TOOL_CALL_START/ARGS
                        (no time); STEP_FINISHED (end)
    tool span           TOOL_CALL_END (its start: the tool began to run), TOOL_CALL_RESULT (its end)

A trace has no time for a streamed piece, so messages and arguments carry none (each message is one delta):
``ttft_s``, the inter-chunk latencies, the message durations and the argument streaming times are missing, not
guessed. The times are the spans' nanoseconds (the ``received_ns`` of each timed event). docs/otel.md has the
whole mapping.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from agui_notebook._errors import internal_failure
from agui_notebook._shown import json_kind, shown
from agui_notebook.wire._json import JSONDecodeError, decode_json, json_error_text
from agui_notebook.wire._reader import BOM

from . import _otel_names as names
from ._genai_messages import (
    OutputPart,
    agui_messages,
    output_parts,
    text_part,
    tool_call_part,
    tool_response_part,
)
from ._read import NO_TIME, Batch, Problems, made_batch
from ._span_input import RESOURCE_SPANS, is_span

__all__ = ["span_batches"]

_MAX_NANOS = 2**63
_MAX_DEPTH = 64
_UNREADABLE = object()
_STATUS_ERROR = (2, "STATUS_CODE_ERROR")
_DIGITS = re.compile(r"-?[0-9]+")
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})+")


@dataclass(slots=True)
class _Span:
    """One span, whatever it was read from."""

    trace: str
    id: str
    parent: str | None
    name: str
    start: int | None
    end: int | None
    attributes: dict[str, Any]
    failed: bool
    status: str | None  # the status description
    exception: str | None  # the last exception event's message
    line: int
    kind: str = ""  # agent, model, tool or ""


# --- reading: OTLP/JSON --------------------------------------------------------------------------------------


def _id_hex(value: Any) -> str | None:
    """A trace or span id as lowercase hex: OTLP/JSON writes hex, protobuf's own JSON mapping base64."""
    if not isinstance(value, str) or not value:
        return None
    if _HEX.fullmatch(value):
        return value.lower()
    try:
        return base64.b64decode(value, validate=True).hex() or None
    except (binascii.Error, ValueError):
        return None


def _nanos(value: Any, field: str) -> int | str | None:
    """A ``*UnixNano`` field as int nanoseconds (None when absent), or why it is not one."""
    if value is None:
        return None
    if (isinstance(value, str) and _DIGITS.fullmatch(value)) or (
        isinstance(value, float) and math.isfinite(value) and value.is_integer()
    ):
        value = int(value)
    if type(value) is not int:
        return f"{field} is {json_kind(value)}, not a number of nanoseconds"
    if not 0 <= value < _MAX_NANOS:
        return f"{field} is out of range ({value})"
    return value


def _any_value(value: Any, depth: int = 0) -> Any:
    """An OTLP ``AnyValue`` as a Python value; ``_UNREADABLE`` for a shape the encoding does not have."""
    if type(value) is not dict or len(value) > 1 or depth > _MAX_DEPTH:
        return _UNREADABLE
    if not value:
        return None
    ((kind, inner),) = value.items()
    if kind in ("stringValue", "bytesValue"):
        return inner if isinstance(inner, str) else _UNREADABLE
    if kind == "boolValue":
        return inner if isinstance(inner, bool) else _UNREADABLE
    if kind == "intValue":
        if isinstance(inner, str) and _DIGITS.fullmatch(inner) and len(inner) <= 20:
            return int(inner)
        return inner if type(inner) is int else _UNREADABLE
    if kind == "doubleValue":
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return float(inner)
        return _UNREADABLE
    items = inner.get("values", []) if type(inner) is dict else None
    if kind == "arrayValue" and type(items) is list:
        values = [_any_value(item, depth + 1) for item in items]
        return _UNREADABLE if any(v is _UNREADABLE for v in values) else values
    if kind == "kvlistValue" and type(items) is list:
        pairs = _key_values(items, depth + 1)
        return pairs if isinstance(pairs, dict) else _UNREADABLE
    return _UNREADABLE


def _key_values(items: Any, depth: int = 0) -> dict[str, Any] | str:
    """OTLP ``KeyValue`` objects as a dict (a value of unknown shape left out), or why they are not any."""
    if items is None:
        return {}
    if type(items) is not list:
        return f"attributes are {json_kind(items)}, not a list"
    found: dict[str, Any] = {}
    for i, item in enumerate(items):
        if type(item) is not dict or not isinstance(item.get("key"), str):
            return f"attributes[{i}] is not a key and a value"
        value = _any_value(item.get("value"), depth)
        if value is not _UNREADABLE:
            found[item["key"]] = value
    return found


def _exception_message(events: Any, read: Any) -> str | None:
    """The message of the last exception event among a span's events (``read`` gives an event's name and
    attributes)."""
    message = None
    for event in events if isinstance(events, (list, tuple)) else ():
        name, attributes = read(event)
        if name == names.EXCEPTION_EVENT and isinstance(attributes, dict):
            text = attributes.get(names.EXCEPTION_MESSAGE)
            if isinstance(text, str):
                message = text
    return message


def _otlp_event(event: Any) -> tuple[Any, Any]:
    if type(event) is not dict:
        return None, None
    return event.get("name"), _key_values(event.get("attributes"))


def _otlp_span(raw: Any, line: int) -> _Span | str:
    """One span of an OTLP/JSON export, or why it is not one."""
    if type(raw) is not dict:
        return f"expected a span object, got {json_kind(raw)}"
    trace, span_id, parent = (_id_hex(raw.get(key)) for key in ("traceId", "spanId", "parentSpanId"))
    for field, found in (("traceId", trace), ("spanId", span_id)):
        if found is None:
            value = raw.get(field)
            return f"{field} is {'missing' if value is None else shown(value)}, not a hex or base64 id"
    if parent is None and raw.get("parentSpanId") not in (None, ""):
        return f"parentSpanId is {shown(raw.get('parentSpanId'))}, not a hex or base64 id"
    start = _nanos(raw.get("startTimeUnixNano"), "startTimeUnixNano")
    end = _nanos(raw.get("endTimeUnixNano"), "endTimeUnixNano")
    attributes = _key_values(raw.get("attributes"))
    status = raw.get("status") or {}
    if isinstance(start, str):
        return start
    if isinstance(end, str):
        return end
    if isinstance(attributes, str):
        return attributes
    if type(status) is not dict:
        return f"status is {json_kind(status)}, not an object"
    message, name = status.get("message"), raw.get("name", "")
    return _Span(
        trace=trace,  # type: ignore[arg-type]  # checked above
        id=span_id,  # type: ignore[arg-type]
        parent=parent,
        name=name if isinstance(name, str) else "",
        start=start,
        end=end,
        attributes=attributes,
        failed=status.get("code") in _STATUS_ERROR,
        status=message if isinstance(message, str) and message else None,
        exception=_exception_message(raw.get("events"), _otlp_event),
        line=line,
    )


def _export_spans(name: str, line: int, document: Any, problems: Problems, out: list[_Span]) -> None:
    """The spans of one OTLP/JSON export (``ExportTraceServiceRequest``), each bad one reported where it is."""
    if type(document) is not dict or type(document.get(RESOURCE_SPANS)) is not list:
        problems.add(name, line, f"expected an OTLP export object with a {RESOURCE_SPANS} list")
        return
    for i, resource in enumerate(document[RESOURCE_SPANS]):
        scopes = resource.get("scopeSpans", []) if type(resource) is dict else None
        if type(scopes) is not list:
            problems.add(name, line, f"{RESOURCE_SPANS}[{i}]: expected an object with a scopeSpans list")
            continue
        for j, scope in enumerate(scopes):
            spans = scope.get("spans", []) if type(scope) is dict else None
            if type(spans) is not list:
                problems.add(name, line, f"{RESOURCE_SPANS}[{i}].scopeSpans[{j}]: expected a spans list")
                continue
            for k, raw in enumerate(spans):
                span = _otlp_span(raw, line)
                if isinstance(span, str):
                    problems.add(name, line, f"{RESOURCE_SPANS}[{i}].scopeSpans[{j}].spans[{k}]: {span}")
                else:
                    out.append(span)


def _otlp_spans(name: str, data: bytes, problems: Problems) -> list[_Span]:
    """The spans of an OTLP/JSON text: one document, or one export per line."""
    text = data[len(BOM) :] if data.startswith(BOM) else data
    out: list[_Span] = []
    try:
        documents = [(1, decode_json(text))]
    except (JSONDecodeError, RecursionError):
        documents = []
        for number, raw in enumerate(text.split(b"\n"), 1):
            if not raw.strip():
                continue
            try:
                documents.append((number, decode_json(raw)))
            except JSONDecodeError as exc:
                problems.add(name, number, json_error_text(exc), raw[:200])
            except RecursionError:
                problems.add(name, number, "the export is nested too deeply", raw[:200])
    for line, document in documents:
        _export_spans(name, line, document, problems, out)
    return out


# --- reading: in-memory spans --------------------------------------------------------------------------------


def _readable_event(event: Any) -> tuple[Any, Any]:
    attributes = getattr(event, "attributes", None)
    return getattr(event, "name", None), dict(attributes) if attributes is not None else None


def _readable_span(item: Any, position: int) -> _Span | str:
    """An SDK ``ReadableSpan`` (or anything shaped like one), or why it is not one."""
    context, parent = item.get_span_context(), getattr(item, "parent", None)
    trace, span_id = getattr(context, "trace_id", None), getattr(context, "span_id", None)
    if type(trace) is not int or type(span_id) is not int:
        return "the span has no trace and span id"
    parent_id = getattr(parent, "span_id", None)
    start = _nanos(getattr(item, "start_time", None), "start_time")
    end = _nanos(getattr(item, "end_time", None), "end_time")
    if isinstance(start, str):
        return start
    if isinstance(end, str):
        return end
    attributes = getattr(item, "attributes", None)
    try:
        attributes = dict(attributes) if attributes is not None else {}
    except (TypeError, ValueError):
        return f"the span's attributes are {type(attributes).__name__}, not a mapping"
    status = getattr(item, "status", None)
    code = getattr(getattr(status, "status_code", None), "name", None)
    description = getattr(status, "description", None)
    name = getattr(item, "name", "")
    return _Span(
        trace=f"{trace:032x}",
        id=f"{span_id:016x}",
        parent=f"{parent_id:016x}" if type(parent_id) is int else None,
        name=name if isinstance(name, str) else "",
        start=start,
        end=end,
        attributes=attributes,
        failed=code == "ERROR",
        status=description if isinstance(description, str) and description else None,
        exception=_exception_message(getattr(item, "events", None), _readable_event),
        line=position,
    )


def _item_spans(name: str, items: list[Any], problems: Problems) -> list[_Span]:
    out: list[_Span] = []
    for position, item in enumerate(items, 1):
        if is_span(item):
            try:
                span = _readable_span(item, position)
            except Exception as exc:  # a span-like object of someone else's that fails when read
                span = f"the span cannot be read ({internal_failure(exc)})"
            if isinstance(span, str):
                problems.add(name, position, f"span {position}: {span}")
            else:
                out.append(span)
        elif type(item) is dict:
            _export_spans(name, position, item, problems, out)
        else:
            problems.add(
                name, position, f"expected a span or an OTLP export object, got {type(item).__name__}"
            )
    return out


# --- attribute values ------------------------------------------------------------------------------------------


def _text(attributes: dict[str, Any], *keys: str) -> str | None:
    """The first of ``keys`` that holds a non-empty string."""
    for key in keys:
        value = attributes.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _count(attributes: dict[str, Any], key: str) -> int | None:
    value = attributes.get(key)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    return value if type(value) is int and 0 <= value < _MAX_NANOS else None


def _json_text(value: Any) -> str | None:
    """An attribute holding a JSON value (its text, or the value itself) as JSON text."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value, default=str).decode()
    except TypeError:
        return str(value)


# --- the spans of one source as events -----------------------------------------------------------------------


def _kind(span: _Span) -> str:
    attributes = span.attributes
    operation = attributes.get(names.OPERATION)
    openinference = attributes.get(names.OI_KIND)
    if operation in names.AGENT_OPERATIONS or openinference == names.OI_AGENT:
        return "agent"
    if span.name == names.PYDANTIC_AI_V2["agent_span"]:
        return "agent"
    if operation in names.MODEL_OPERATIONS or openinference == names.OI_LLM:
        return "model"
    if operation in names.TOOL_OPERATIONS or openinference == names.OI_TOOL:
        return "tool"
    if span.name == names.PYDANTIC_AI_V2["tool_span"]:
        return "tool"
    return ""


class _Trees:
    """The spans of one source by id, and each span's ancestors."""

    def __init__(self, spans: list[_Span]) -> None:
        self.by_id: dict[tuple[str, str], _Span] = {}
        for span in spans:
            self.by_id.setdefault((span.trace, span.id), span)

    def ancestors(self, span: _Span) -> Iterator[_Span]:
        seen = {span.id}
        parent = span.parent
        while parent is not None and parent not in seen:
            seen.add(parent)
            found = self.by_id.get((span.trace, parent))
            if found is None:
                return
            yield found
            parent = found.parent

    def owner(self, span: _Span) -> _Span:
        """The agent span above ``span`` (not itself), else the topmost span above it (itself at the top)."""
        top = span
        for ancestor in self.ancestors(span):
            if ancestor.kind == "agent":
                return ancestor
            top = ancestor
        return top


@dataclass(slots=True)
class _Run:
    span: _Span
    parent: _Span | None
    models: list[_Span]
    tools: list[_Span]


def _model_name(attributes: dict[str, Any]) -> str | None:
    return _text(
        attributes,
        names.RESPONSE_MODEL,
        names.REQUEST_MODEL,
        names.OI.LLM_RESPONSE_MODEL_NAME,
        names.OI.LLM_MODEL_NAME,
        names.PYDANTIC_AI_V2["model"],
    )


_OI_USAGE = {
    "inputTokens": names.OI.LLM_TOKEN_COUNT_PROMPT,
    "outputTokens": names.OI.LLM_TOKEN_COUNT_COMPLETION,
    "reasoningTokens": names.OI.LLM_TOKEN_COUNT_COMPLETION_DETAILS_REASONING,
    "cachedInputTokens": names.OI.LLM_TOKEN_COUNT_PROMPT_DETAILS_CACHE_READ,
    "totalTokens": names.OI.LLM_TOKEN_COUNT_TOTAL,
}


def _counts(attributes: dict[str, Any], *tables: dict[str, str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table in tables:
        for key, attribute in table.items():
            value = _count(attributes, attribute)
            if value is not None and key not in counts:
                counts[key] = value
    return counts


def _usage(run: _Run) -> list[dict[str, Any]]:
    """The run's AG-UI ``usage`` entries: one per model span that reports tokens, else the agent span's own."""
    entries = []
    for span in run.models:
        entry: dict[str, Any] = {}
        model, provider = (
            _model_name(span.attributes),
            _text(span.attributes, names.PROVIDER, names.OI.LLM_PROVIDER),
        )
        if model is not None:
            entry["model"] = model
        if provider is not None:
            entry["provider"] = provider
        entry.update(_counts(span.attributes, names.USAGE, _OI_USAGE))
        if entry:
            entries.append(entry)
    if any(len(set(e) - {"model", "provider"}) for e in entries):
        return entries
    attributes = run.span.attributes
    counts = _counts(attributes, names.USAGE, names.AGGREGATED_USAGE, _OI_USAGE)
    listed = attributes.get(names.USAGE_MODELS)
    models = [m for m in listed if isinstance(m, str)] if isinstance(listed, (list, tuple)) else []
    model = _model_name(attributes)
    if not models and model is not None:
        models = [model]
    if not counts:
        return entries or [{"model": m} for m in models]
    provider = _text(attributes, names.PROVIDER)
    if len(models) == 1:
        counts = {"model": models[0], **counts}  # type: ignore[dict-item]
        models = []
    if provider is not None:
        counts = {"provider": provider, **counts}  # type: ignore[dict-item]
    return [counts, *({"model": m} for m in models)]


def _oi_messages(attributes: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    """OpenInference's flattened ``<prefix>.<i>.message.*`` attributes (``llm.input_messages``,
    ``llm.output_messages``) as messages of the GenAI conventions' shape (``_genai_messages`` reads them)."""
    messages: list[dict[str, Any]] = []
    i = 0
    while any(key.startswith(f"{prefix}.{i}.") for key in attributes):
        base = f"{prefix}.{i}."
        role = attributes.get(base + names.OI_MESSAGE.MESSAGE_ROLE)
        content = attributes.get(base + names.OI_MESSAGE.MESSAGE_CONTENT)
        answered = attributes.get(base + names.OI_MESSAGE.MESSAGE_TOOL_CALL_ID)
        parts: list[dict[str, Any]] = []
        if isinstance(answered, str) and role == "tool":
            parts.append(tool_response_part(answered, content if isinstance(content, str) else ""))
        elif isinstance(content, str) and content:
            parts.append(text_part(content))
        j = 0
        calls = base + names.OI_MESSAGE.MESSAGE_TOOL_CALLS
        while any(key.startswith(f"{calls}.{j}.") for key in attributes):
            call = f"{calls}.{j}."
            call_id = attributes.get(call + names.OI_TOOL_CALL.TOOL_CALL_ID)
            name = attributes.get(call + names.OI_TOOL_CALL.TOOL_CALL_FUNCTION_NAME)
            arguments = attributes.get(call + names.OI_TOOL_CALL.TOOL_CALL_FUNCTION_ARGUMENTS_JSON)
            parts.append(
                tool_call_part(
                    call_id if isinstance(call_id, str) else "",
                    name if isinstance(name, str) else None,
                    arguments if isinstance(arguments, str) else None,
                )
            )
            j += 1
        messages.append({"role": role if isinstance(role, str) else "assistant", "parts": parts})
        i += 1
    return messages


def _output_parts(span: _Span) -> list[OutputPart]:
    attributes = span.attributes
    return output_parts(attributes.get(names.OUTPUT_MESSAGES)) or output_parts(
        _oi_messages(attributes, names.OI.LLM_OUTPUT_MESSAGES)
    )


def _tool_call_ids(run: _Run, outputs: dict[int, list[OutputPart]]) -> dict[int, str]:
    """The call id of each tool span of a run: its own; else (OpenInference's TOOL spans name none) the
    earliest call of its tool name a model span made before it and no other tool span took; else its span id."""
    ids: dict[int, str] = {}
    for tool in run.tools:
        own = _text(tool.attributes, names.TOOL_CALL_ID, names.OI_TOOL_CALL.TOOL_CALL_ID)
        if own is not None:
            ids[id(tool)] = own
    taken = set(ids.values())
    for tool in run.tools:
        if id(tool) in ids:
            continue
        name = _text(tool.attributes, names.TOOL_NAME, names.OI.TOOL_NAME)
        made = (
            part[1]
            for model in run.models
            if (model.end or 0) <= (tool.start or 0)
            for part in outputs[id(model)]
            if part[0] == "tool_call" and part[1] and part[2] == name and part[1] not in taken
        )
        ids[id(tool)] = next(made, tool.id)
        taken.add(ids[id(tool)])
    return ids


class _RunEvents:
    """The events of one run, each with the time it is placed at (for order), its own time and its line."""

    def __init__(self) -> None:
        self.items: list[tuple[int, int, int, dict[str, Any], int | None, int]] = []

    def add(self, place: int, phase: int, event: dict[str, Any], time: int | None, line: int) -> None:
        self.items.append((place, phase, len(self.items), event, time, line))

    def sorted(self) -> list[tuple[dict[str, Any], int | None, int]]:
        return [(event, time, line) for _, _, _, event, time, line in sorted(self.items, key=lambda i: i[:3])]


def _error_text(span: _Span) -> tuple[str, str | None]:
    """A failed span's error message and code (``error.type``, unless the conventions' ``_OTHER``)."""
    code = _text(span.attributes, names.ERROR_TYPE)
    code = None if code == "_OTHER" else code
    message = span.exception or span.status or "error"
    if code is not None and message.endswith(f" [{code}]"):  # export_otel's "message [code]"
        message = message[: -len(code) - 3]
    return message, code


def _outcome(span: _Span) -> dict[str, Any] | None:
    """The RUN_FINISHED outcome of a run span that did not fail; None when the run never finished."""
    attributes = span.attributes
    status = attributes.get(names.RUN_STATUS)
    if attributes.get(names.UNFINISHED) is True or status == "incomplete":
        return None
    if status == "interrupt":
        interrupts: Any = []
        raw = attributes.get(names.RUN_INTERRUPTS)
        if isinstance(raw, str):
            try:
                interrupts = decode_json(raw)
            except (JSONDecodeError, RecursionError):
                interrupts = []
        return {"type": "interrupt", "interrupts": interrupts if isinstance(interrupts, list) else []}
    if status == "cancelled":
        return {"type": "cancelled"}
    return {"type": "success"}


def _model_events(
    events: _RunEvents, span: _Span, parts: list[OutputPart], tools: dict[str, _Span], announced: set[str]
) -> None:
    place = span.end if span.end is not None else (span.start or 0)
    start = span.start if span.start is not None else place
    events.add(start, 1, {"type": "STEP_STARTED", "stepName": span.name}, span.start, span.line)
    parent: str | None = None
    for k, part in enumerate(parts):
        message_id = f"{span.id}-{k}"
        if part[0] == "text":
            parent = message_id
            events.add(
                place,
                2,
                {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"},
                None,
                span.line,
            )
            if part[1]:
                events.add(
                    place,
                    2,
                    {"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": part[1]},
                    None,
                    span.line,
                )
            events.add(place, 2, {"type": "TEXT_MESSAGE_END", "messageId": message_id}, None, span.line)
        elif part[0] == "reasoning":
            for kind, extra in (
                ("REASONING_START", {}),
                ("REASONING_MESSAGE_START", {"role": "reasoning"}),
                ("REASONING_MESSAGE_CONTENT", {"delta": part[1]} if part[1] else None),
                ("REASONING_MESSAGE_END", {}),
                ("REASONING_END", {}),
            ):
                if extra is not None:
                    events.add(place, 2, {"type": kind, "messageId": message_id, **extra}, None, span.line)
        else:
            call_id = part[1] or f"{span.id}-call-{k}"
            start_event: dict[str, Any] = {
                "type": "TOOL_CALL_START",
                "toolCallId": call_id,
                "toolCallName": part[2],
            }
            if parent is not None:
                start_event["parentMessageId"] = parent
            events.add(place, 2, start_event, None, span.line)
            if part[3]:
                events.add(
                    place,
                    2,
                    {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": part[3]},
                    None,
                    span.line,
                )
            announced.add(call_id)
            if call_id not in tools:  # no span ran it: its arguments end with the model's output
                events.add(place, 2, {"type": "TOOL_CALL_END", "toolCallId": call_id}, None, span.line)
    events.add(place, 3, {"type": "STEP_FINISHED", "stepName": span.name}, span.end, span.line)


def _tool_events(events: _RunEvents, span: _Span, call_id: str, announced: set[str]) -> None:
    attributes = span.attributes
    start = span.start if span.start is not None else 0
    if call_id not in announced:  # content was not captured, or no model span made the call
        name = _text(attributes, names.TOOL_NAME, names.OI.TOOL_NAME) or span.name
        events.add(
            start,
            4,
            {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": name},
            None,
            span.line,
        )
        arguments = _json_text(
            attributes.get(names.TOOL_ARGUMENTS)
            if names.TOOL_ARGUMENTS in attributes
            else attributes.get(names.PYDANTIC_AI_V2["tool_arguments"], attributes.get(names.OI.INPUT_VALUE))
        )
        if arguments:
            events.add(
                start,
                4,
                {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": arguments},
                None,
                span.line,
            )
    events.add(start, 4, {"type": "TOOL_CALL_END", "toolCallId": call_id}, span.start, span.line)
    if attributes.get(names.UNFINISHED) is True or attributes.get(names.TOOL_STATUS) == "pending":
        return  # no result: the call is pending
    result = _json_text(
        attributes.get(names.TOOL_RESULT)
        if names.TOOL_RESULT in attributes
        else attributes.get(names.PYDANTIC_AI_V2["tool_result"], attributes.get(names.OI.OUTPUT_VALUE))
    )
    event: dict[str, Any] = {
        "type": "TOOL_CALL_RESULT",
        "messageId": f"{span.id}-result",
        "toolCallId": call_id,
        "content": result or "",
        "role": "tool",
    }
    if span.failed:
        event["error"] = _error_text(span)[0]
    end = span.end if span.end is not None else start
    events.add(end, 5, event, span.end, span.line)


def _run_input(run: _Run, thread: str, run_id: str) -> dict[str, Any] | None:
    """The run's input as RUN_STARTED's ``input`` (so ``fork`` and the inspector see the user's messages):
    the agent span's ``gen_ai.input.messages``, else its first model span's, with the system instructions."""
    for span in (run.span, *run.models[:1]):
        attributes = span.attributes
        given = attributes.get(names.INPUT_MESSAGES) or _oi_messages(attributes, names.OI.LLM_INPUT_MESSAGES)
        messages = agui_messages(given, attributes.get(names.SYSTEM_INSTRUCTIONS), f"{span.id}-input")
        if messages:
            return {"threadId": thread, "runId": run_id, "messages": messages}
    return None


def _run_events(
    run: _Run, run_ids: dict[int, str], thread: str
) -> list[tuple[dict[str, Any], int | None, int]]:
    span = run.span
    run_id = run_ids[id(span)]
    events = _RunEvents()
    started: dict[str, Any] = {"type": "RUN_STARTED", "threadId": thread, "runId": run_id}
    parent = (
        run_ids[id(run.parent)] if run.parent is not None else _text(span.attributes, names.RUN_PARENT_ID)
    )
    if parent is not None:
        started["parentRunId"] = parent
    run_input = _run_input(run, thread, run_id)
    if run_input is not None:
        started["input"] = run_input
    events.add(-_MAX_NANOS, 0, started, span.start, span.line)  # first and last, whatever the times say
    outputs = {id(model): _output_parts(model) for model in run.models}
    call_ids = _tool_call_ids(run, outputs)
    tools = {call_ids[id(tool)]: tool for tool in run.tools}
    announced: set[str] = set()
    for model in run.models:
        _model_events(events, model, outputs[id(model)], tools, announced)
    for tool in run.tools:
        _tool_events(events, tool, call_ids[id(tool)], announced)
    usage = _usage(run)
    if span.failed:
        message, code = _error_text(span)
        ending: dict[str, Any] | None = {"type": "RUN_ERROR", "message": message}
        if code is not None:
            ending["code"] = code  # type: ignore[index]
    else:
        outcome = _outcome(span)
        ending = (
            None
            if outcome is None
            else {"type": "RUN_FINISHED", "threadId": thread, "runId": run_id, "outcome": outcome}
        )
    if ending is not None:
        if usage:
            ending["usage"] = usage
        events.add(_MAX_NANOS, 9, ending, span.end, span.line)
    return events.sorted()


def _runs(spans: list[_Span]) -> list[_Run]:
    trees = _Trees(spans)
    for span in spans:
        span.kind = _kind(span)
    runs: dict[int, _Run] = {}
    for span in spans:
        if span.kind == "agent":
            parent = next((a for a in trees.ancestors(span) if a.kind == "agent"), None)
            runs[id(span)] = _Run(span, parent, [], [])
    for span in spans:
        if span.kind in ("model", "tool"):
            owner = trees.owner(span)
            run = runs.get(id(owner))
            if run is None:
                run = runs[id(owner)] = _Run(owner, None, [], [])
            (run.models if span.kind == "model" else run.tools).append(span)
    for run in runs.values():
        run.models.sort(key=lambda s: (s.start or 0, s.line))
        run.tools.sort(key=lambda s: (s.start or 0, s.line))
    # By start, but a run that never ended after all the others: its RUN_STARTED, never closed, would claim the
    # events of a run emitted after it that uses the same run id.
    return sorted(runs.values(), key=lambda r: (_unended(r.span), r.span.start or 0, r.span.line))


def _unended(span: _Span) -> bool:
    return not span.failed and _outcome(span) is None


def _thread(run: _Run) -> str:
    for span in (run.span, *run.models, *run.tools):
        found = _text(span.attributes, names.CONVERSATION_ID, names.OI.SESSION_ID)
        if found is not None:
            return found
    return run.span.trace


def span_batches(name: str, source: bytes | list[Any], problems: Problems) -> Iterator[Batch]:
    """The AG-UI events of a source of spans (OTLP/JSON bytes, or in-memory spans and export objects)."""
    spans = (
        _otlp_spans(name, source, problems)
        if isinstance(source, bytes)
        else _item_spans(name, source, problems)
    )
    runs = _runs(spans)
    run_ids = {id(run.span): _text(run.span.attributes, names.RUN_ID) or run.span.id for run in runs}
    events: list[dict[str, Any]] = []
    lines: list[int] = []
    received: list[int] = []
    for run in runs:
        for event, time, line in _run_events(run, run_ids, _thread(run)):
            if time is not None:
                event["timestamp"] = time // 1_000_000
            events.append(event)
            lines.append(line)
            received.append(NO_TIME if time is None else time)
    batch = made_batch(
        name, events, lines, received, problems, len(source) if isinstance(source, bytes) else 0
    )
    if batch is not None:
        yield batch
