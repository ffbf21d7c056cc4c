"""Answering the interrupts a run ended with: resume entries for the next run, expiry, and answer checks.

Mirrors @ag-ui/client's ``buildResumeArray`` and ``isInterruptExpired``. :func:`payload_problems` checks an
answer against the interrupt's ``responseSchema`` with the rules the widget's form applies (``js/src/form.js``,
the same keywords and the same messages): ``type``, ``enum``/``const``, ``required``, ``properties``, ``items``,
``minLength``/``maxLength``/``pattern``/``format`` (``email``, ``uri``, ``date``), ``minimum``/``maximum``/
``exclusiveMinimum``/``exclusiveMaximum``/``multipleOf``, ``minItems``/``maxItems``/``uniqueItems`` and
``anyOf``/``oneOf`` (one branch must fit). Other keywords are not checked; the agent has the last word. A
``pattern`` is read by each side's own regular expressions (Python's ``re``, JavaScript's with the ``u`` flag),
which differ at the edges (``$`` before a final newline).

>>> answers = {"i1": approval_response(False, "not now")}
>>> build_resume_entries([{"id": "i1", "reason": "tool_approval"}], answers)
[{'interruptId': 'i1', 'status': 'resolved', 'payload': {'approved': False, 'reason': 'not now'}}]
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timezone
from typing import Any

from ag_ui.core import Interrupt

from agui_notebook._errors import InterruptPayloadError
from agui_notebook._types import JSON

__all__ = [
    "approval_fields",
    "approval_response",
    "build_resume_entries",
    "is_interrupt_expired",
    "is_tool_approval",
    "payload_problems",
]

_STATUSES = ("resolved", "cancelled")


def _field(interrupt: Any, wire: str, attribute: str) -> Any:
    if isinstance(interrupt, Mapping):
        return interrupt.get(wire)
    return getattr(interrupt, attribute, None)


def approval_response(approved: bool, reason: str | None = None) -> dict[str, JSON]:
    """The response to a tool-approval interrupt: resolved, with ``{"approved", "reason"}`` as its payload.

    >>> approval_response(True)
    {'status': 'resolved', 'payload': {'approved': True}}
    """
    payload: dict[str, JSON] = {"approved": bool(approved)}
    if reason is not None:
        payload["reason"] = reason
    return {"status": "resolved", "payload": payload}


def build_resume_entries(
    interrupts: Iterable[Interrupt | Mapping[str, Any]], responses: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, JSON]]:
    """One resume entry per open interrupt, in their order, from ``{interrupt id: response}``: wire dicts.

    A response is ``{"status": "resolved", "payload": ..., "metadata": {...}}`` or ``{"status": "cancelled"}``.
    The entries are what ``RunAgentInput.resume`` carries: the payload of a resolved answer only, and no
    ``null`` payload (an ``ag_ui.core.ResumeEntry`` leaves it out). Every open interrupt needs a response and
    every response an open interrupt, and a status is one of the two, else
    :class:`~agui_notebook.InterruptPayloadError` (a ``ValueError``).
    """
    interrupts = list(interrupts)
    open_ids = [_field(i, "id", "id") for i in interrupts]
    missing = [i for i in dict.fromkeys(open_ids) if i not in responses]
    if missing:
        raise InterruptPayloadError(f"missing responses for open interrupts: {', '.join(map(str, missing))}")
    unknown = [i for i in responses if i not in set(open_ids)]
    if unknown:
        raise InterruptPayloadError(f"responses reference unknown interrupt ids: {', '.join(unknown)}")
    entries = []
    for interrupt_id in open_ids:
        response = responses[interrupt_id]
        status = response["status"]
        if status not in _STATUSES:
            raise InterruptPayloadError(
                f"interrupt {interrupt_id!r}: status must be 'resolved' or 'cancelled', got {status!r}",
                interrupt_id=str(interrupt_id),
            )
        entry: dict[str, JSON] = {"interruptId": interrupt_id, "status": status}
        if status == "resolved" and response.get("payload") is not None:
            entry["payload"] = response["payload"]
        if response.get("metadata") is not None:
            entry["metadata"] = response["metadata"]
        entries.append(entry)
    return entries


def is_interrupt_expired(interrupt: Interrupt | Mapping[str, Any], now: datetime | None = None) -> bool:
    """Whether the interrupt's ``expiresAt`` (ISO 8601) has passed; no or unreadable ``expiresAt`` never expires."""
    expires_at = _field(interrupt, "expiresAt", "expires_at")
    if not isinstance(expires_at, str):
        return False
    try:
        moment = datetime.fromisoformat(expires_at.replace("Z", "+00:00"))
    except ValueError:
        return False
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment <= (now or datetime.now(timezone.utc))


def approval_fields(metadata: Any) -> dict[str, JSON]:
    """The AI SDK approval fields an approval interrupt's ``metadata`` carries, as ``tool-approval-request``
    chunk fields: ``approvalDescriptor`` (``metadata.approvalDescriptor``, else ``metadata.descriptor``),
    ``isAutomatic`` (a boolean) and ``signature`` (a string). AG-UI leaves ``metadata`` free-form; these are the
    AI SDK's names for what its approval card shows.

    >>> approval_fields({"descriptor": {"risk": "high"}, "isAutomatic": False, "signature": "ab12", "x": 1})
    {'approvalDescriptor': {'risk': 'high'}, 'isAutomatic': False, 'signature': 'ab12'}
    """
    if not isinstance(metadata, Mapping):
        return {}
    fields: dict[str, JSON] = {}
    descriptor = metadata.get("approvalDescriptor", metadata.get("descriptor"))
    if descriptor is not None:
        fields["approvalDescriptor"] = descriptor
    if type(metadata.get("isAutomatic")) is bool:
        fields["isAutomatic"] = metadata["isAutomatic"]
    if isinstance(metadata.get("signature"), str):
        fields["signature"] = metadata["signature"]
    return fields


def is_tool_approval(interrupt: Interrupt | Mapping[str, Any]) -> bool:
    """Whether the tool card's Approve/Deny answers ``interrupt``: it names a tool call, and its
    ``responseSchema`` is absent or takes the card's ``{"approved", "reason"}`` (has an ``approved`` property).

    Any other interrupt (no ``toolCallId``, or a schema asking for something else) is answered with a form.

    >>> is_tool_approval({"id": "i", "reason": "tool_call", "toolCallId": "c1"})
    True
    >>> is_tool_approval({"id": "i", "reason": "input", "toolCallId": "c1",
    ...                   "responseSchema": {"type": "object", "properties": {"city": {"type": "string"}}}})
    False
    """
    if not isinstance(_field(interrupt, "toolCallId", "tool_call_id"), str):
        return False
    schema = _field(interrupt, "responseSchema", "response_schema")
    if not isinstance(schema, Mapping):
        return True
    properties = schema.get("properties")
    return isinstance(properties, Mapping) and "approved" in properties


# One message per rule, word for word those of js/src/form.js (the form shows them next to the field).
_TYPE_MESSAGES = {
    "string": "must be text",
    "number": "must be a number",
    "integer": "must be a whole number",
    "boolean": "must be true or false",
    "object": "must be an object",
    "array": "must be a list",
    "null": "must be empty (null)",
}
# Spelled out (not \s, \d, $), which Python and JavaScript read differently.
_EMAIL = re.compile(r"[^ \t\n\r\f\v@]+@[^ \t\n\r\f\v@]+\.[^ \t\n\r\f\v@]+")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^ \t\n\r\f\v]+")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _number(value: float) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _is_type(value: Any, kind: Any) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return type(value) is bool
    if kind == "integer":
        return type(value) is int or (type(value) is float and value.is_integer())
    if kind == "number":
        return type(value) in (int, float) and not (type(value) is float and not math.isfinite(value))
    if kind == "object":
        return isinstance(value, Mapping)
    if kind == "array":
        return isinstance(value, list)
    if kind == "null":
        return value is None
    return True  # a type we do not know: not ours to refuse


# A group with a quantifier inside, itself quantified (``(a+)+``), can take exponential time to fail: an agent's
# pattern like that, or a very long one, is not checked here (nor in the form); the agent checks its own.
_NESTED_QUANTIFIER = re.compile(r"\([^()]*[+*}][^()]*\)[+*{]")


def _risky_pattern(pattern: str) -> bool:
    return len(pattern) > 200 or _NESTED_QUANTIFIER.search(pattern) is not None


def _valid_date(text: str) -> bool:
    if not _DATE.fullmatch(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _string_problems(schema: Mapping[str, Any], value: str) -> list[str]:
    problems = []
    length = len(value)  # code points, as JSON Schema counts (the form counts them the same way)
    if isinstance(schema.get("minLength"), int) and length < schema["minLength"]:
        n = schema["minLength"]
        problems.append("is required" if n == 1 and length == 0 else f"must be at least {n} characters")
    if isinstance(schema.get("maxLength"), int) and length > schema["maxLength"]:
        problems.append(f"must be at most {schema['maxLength']} characters")
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and not _risky_pattern(pattern):
        try:
            matched = re.search(pattern, value) is not None
        except re.error:
            matched = True  # a pattern Python cannot read is the agent's to check
        if not matched:
            problems.append(f"must match the pattern {pattern}")
    fmt = schema.get("format")
    if fmt == "email" and not _EMAIL.fullmatch(value):
        problems.append("must be an email address")
    elif fmt in ("uri", "url") and not _URI.fullmatch(value):
        problems.append("must be a URL such as https://example.com")
    elif fmt == "date" and not _valid_date(value):
        problems.append("must be a date (YYYY-MM-DD)")
    return problems


def _number_problems(schema: Mapping[str, Any], value: float) -> list[str]:
    problems = []
    low: Any
    high: Any
    ex_low: Any
    ex_high: Any  # JSON Schema values, of any type until _is_type says
    low, high = schema.get("minimum"), schema.get("maximum")
    ex_low, ex_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if ex_low is True:  # draft 4: a flag on minimum
        ex_low, low = low, None
    if ex_high is True:
        ex_high, high = high, None
    if _is_type(low, "number") and value < low:
        problems.append(f"must be at least {_number(low)}")
    if _is_type(ex_low, "number") and value <= ex_low:
        problems.append(f"must be more than {_number(ex_low)}")
    if _is_type(high, "number") and value > high:
        problems.append(f"must be at most {_number(high)}")
    if _is_type(ex_high, "number") and value >= ex_high:
        problems.append(f"must be less than {_number(ex_high)}")
    step: Any = schema.get("multipleOf")
    if _is_type(step, "number") and step > 0:
        quotient = value / step
        if abs(quotient - round(quotient)) > 1e-9 * max(1.0, abs(quotient)):
            problems.append(f"must be a multiple of {_number(step)}")
    return problems


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: numbers by value (``1 == 1.0``), ``true`` no number, objects whatever their key order."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if type(a) in (int, float) and type(b) in (int, float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _shown_choice(value: Any) -> str:
    return (
        value
        if isinstance(value, str)
        else "null"
        if value is None
        else str(value).lower()
        if type(value) is bool
        else str(value)
    )


def _wrong_type(found: list[tuple[str, str]], path: str) -> bool:
    return found[0][0] == path and found[0][1] in _TYPE_MESSAGES.values()


def _problems(schema: Any, value: Any, path: str, out: list[tuple[str, str]]) -> None:
    if not isinstance(schema, Mapping):
        return
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            tried: list[list[tuple[str, str]]] = []
            for branch in branches:
                found: list[tuple[str, str]] = []
                _problems(branch, value, path, found)
                if not found:
                    break
                tried.append(found)
            else:
                # The branch of the value's own type says most: a type mismatch is the last resort.
                best = min(tried, key=lambda attempt: (_wrong_type(attempt, path), len(attempt)))
                out.extend(best)
                return
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
    if kinds and not any(_is_type(value, k) for k in kinds):
        out.append((path, _TYPE_MESSAGES.get(kinds[0], f"must be of type {kinds[0]}")))
        return
    if "const" in schema and not _same_json(value, schema["const"]):
        out.append((path, f"must be {_shown_choice(schema['const'])}"))
    choices = schema.get("enum")
    if isinstance(choices, list) and not any(_same_json(value, c) for c in choices):
        out.append((path, f"must be one of: {', '.join(_shown_choice(c) for c in choices)}"))
    if isinstance(value, str):
        out.extend((path, p) for p in _string_problems(schema, value))
    elif _is_type(value, "number") and type(value) is not bool:
        out.extend((path, p) for p in _number_problems(schema, value))
    elif isinstance(value, list):
        count = len(value)
        if isinstance(schema.get("minItems"), int) and count < schema["minItems"]:
            out.append((path, f"choose at least {schema['minItems']}"))
        if isinstance(schema.get("maxItems"), int) and count > schema["maxItems"]:
            out.append((path, f"choose at most {schema['maxItems']}"))
        if schema.get("uniqueItems") is True and any(
            _same_json(value[i], value[j]) for i in range(count) for j in range(i)
        ):
            out.append((path, "must not repeat a value"))
        for index, item in enumerate(value):
            _problems(schema.get("items"), item, f"{path}[{index}]", out)
    elif isinstance(value, Mapping):
        required = schema.get("required")
        for name in required if isinstance(required, list) else ():
            if isinstance(name, str) and name not in value:
                out.append((f"{path}.{name}", "is required"))
        properties = schema.get("properties")
        for name, sub in (properties if isinstance(properties, Mapping) else {}).items():
            if name in value:
                _problems(sub, value[name], f"{path}.{name}", out)


def payload_problems(schema: Any, payload: Any) -> list[tuple[str, str]]:
    """What ``responseSchema`` ``schema`` refuses in ``payload``: ``(JSON path, message)`` pairs, first found first.

    >>> schema = {"type": "object", "required": ["city"],
    ...           "properties": {"city": {"type": "string", "minLength": 2}, "days": {"type": "integer", "minimum": 1}}}
    >>> payload_problems(schema, {"days": 0})
    [('payload.city', 'is required'), ('payload.days', 'must be at least 1')]
    >>> payload_problems(schema, {"city": "Oslo", "days": 3})
    []
    """
    out: list[tuple[str, str]] = []
    _problems(schema, payload, "payload", out)
    return out
