"""Answering the interrupts a run ended with: resume entries for the next run, expiry, and answer checks.

Mirrors @ag-ui/client's ``buildResumeArray`` and ``isInterruptExpired``. :func:`payload_problems` checks an
answer against the interrupt's ``responseSchema`` with the rules the widget's form applies (``js/src/form.js``,
the same keywords and the same messages): local ``$ref`` (``$defs``, ``definitions``, ``#``; a reference that comes
back to itself adds nothing), ``allOf``, ``anyOf`` (one branch must fit), ``oneOf`` (exactly one), ``not``,
``if``/``then``/``else``, ``type``, ``enum``/``const``, ``required``/``dependentRequired``, ``properties``/
``patternProperties``/``additionalProperties``, ``minProperties``/``maxProperties``, ``items``/``prefixItems``,
``minLength``/``maxLength``/``pattern``/``format`` (``email``, ``uri``, ``date``, ``date-time``, ``time``,
``uuid``), ``minimum``/``maximum``/``exclusiveMinimum``/``exclusiveMaximum``/``multipleOf`` and
``minItems``/``maxItems``/``uniqueItems``. An answer those checks pass is then validated by ``jsonschema``
(:func:`schema_validation_problems`), so a keyword the form does not know (``propertyNames``, ``contains``,
``unevaluatedProperties``...) still refuses what it should, in jsonschema's words. A ``pattern`` is read by each
side's own regular expressions (Python's ``re``, JavaScript's with the ``u`` flag), which differ at the edges
(``$`` before a final newline).

>>> answers = {"i1": approval_response(False, "not now")}
>>> build_resume_entries([{"id": "i1", "reason": "tool_approval"}], answers)
[{'interruptId': 'i1', 'status': 'resolved', 'payload': {'approved': False, 'reason': 'not now'}}]
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime, timezone
from typing import Any
from urllib.parse import unquote

import jsonschema
import referencing.exceptions
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
    "schema_validation_problems",
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
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-]([0-9]{2}):([0-9]{2}))?")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_FORMAT_MESSAGES = {
    "email": "must be an email address",
    "uri": "must be a URL such as https://example.com",
    "url": "must be a URL such as https://example.com",
    "date": "must be a date (YYYY-MM-DD)",
    "date-time": "must be a date and time (YYYY-MM-DDTHH:MM:SS+00:00)",
    "time": "must be a time (HH:MM:SS)",
    "uuid": "must be a UUID",
}


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


def _pattern_matches(pattern: Any, text: str) -> bool:
    """Whether ``text`` matches ``pattern`` (True for a risky pattern or one Python cannot read: the agent's)."""
    if not isinstance(pattern, str) or _risky_pattern(pattern):
        return True
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return True


def _valid_date(text: str) -> bool:
    match = _DATE.fullmatch(text)
    if not match:
        return False
    year, month, day = (int(g) for g in match.groups())
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _valid_time(text: str, *, offset: bool = False) -> bool:
    """``HH:MM:SS[.frac][Z|+HH:MM]``, the offset required with ``offset`` (as in a date-time)."""
    match = _TIME.fullmatch(text)
    if not match or (offset and match[5] is None):
        return False
    hour, minute, second = int(match[1]), int(match[2]), int(match[3])
    if hour > 23 or minute > 59 or second > 60:  # 60: a leap second
        return False
    return match[6] is None or (int(match[6]) <= 23 and int(match[7]) <= 59)


def _valid_date_time(text: str) -> bool:
    return (
        len(text) > 11 and text[10] in "Tt" and _valid_date(text[:10]) and _valid_time(text[11:], offset=True)
    )


def _format_ok(fmt: Any, text: str) -> bool:
    """Whether ``text`` has the ``format`` the schema names (formats we do not know: yes)."""
    if fmt == "email":
        return _EMAIL.fullmatch(text) is not None
    if fmt in ("uri", "url"):
        return _URI.fullmatch(text) is not None
    if fmt == "date":
        return _valid_date(text)
    if fmt == "date-time":
        return _valid_date_time(text)
    if fmt == "time":
        return _valid_time(text)
    if fmt == "uuid":
        return _UUID.fullmatch(text) is not None
    return True


def _string_problems(schema: Mapping[str, Any], value: str) -> list[str]:
    problems = []
    length = len(value)  # code points, as JSON Schema counts (the form counts them the same way)
    if isinstance(schema.get("minLength"), int) and length < schema["minLength"]:
        n = schema["minLength"]
        problems.append("is required" if n == 1 and length == 0 else f"must be at least {n} characters")
    if isinstance(schema.get("maxLength"), int) and length > schema["maxLength"]:
        problems.append(f"must be at most {schema['maxLength']} characters")
    if not _pattern_matches(schema.get("pattern"), value):
        problems.append(f"must match the pattern {schema['pattern']}")
    fmt = schema.get("format")
    if isinstance(fmt, str) and not _format_ok(fmt, value):
        problems.append(_FORMAT_MESSAGES[fmt])
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
    if not _multiple_ok(schema.get("multipleOf"), value):
        problems.append(f"must be a multiple of {_number(schema['multipleOf'])}")
    return problems


def _multiple_ok(step: Any, value: float) -> bool:
    """``multipleOf`` with a tolerance for binary fractions (0.3 is a multiple of 0.1, as a person means it)."""
    if not _is_type(step, "number") or step <= 0:
        return True
    quotient = value / step
    return abs(quotient - round(quotient)) <= 1e-9 * max(1.0, abs(quotient))


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
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if type(value) is bool:
        return str(value).lower()
    if isinstance(value, (list, Mapping)):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return _number(value)


def _wrong_type(found: list[tuple[str, str]], path: str) -> bool:
    return found[0][0] == path and found[0][1] in _TYPE_MESSAGES.values()


def _resolve(root: Any, ref: str) -> Any:
    """The schema a local ``$ref`` (``#``, ``#/$defs/Name``, ``#/definitions/Name``...) points at, else None."""
    if ref != "#" and not ref.startswith("#/"):
        return None  # a remote schema or an anchor: not followed (jsonschema judges it)
    target = root
    for raw in ref[2:].split("/") if ref != "#" else ():
        key = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(target, Mapping) and key in target:
            target = target[key]
        elif isinstance(target, list) and key.isdigit() and int(key) < len(target):
            target = target[int(key)]
        else:
            return None
    return target


class _Checks:
    """One walk of a schema over a value: the root for ``$ref``, and the references being followed (a reference
    that comes back to itself at the same place of the value is a cycle: it adds nothing)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.following: set[tuple[str, str]] = set()

    def fits(self, schema: Any, value: Any, path: str) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        self.walk(schema, value, path, found)
        return found

    def walk(self, schema: Any, value: Any, path: str, out: list[tuple[str, str]]) -> None:
        if schema is False:
            out.append((path, "is not allowed"))
            return
        if not isinstance(schema, Mapping):
            return
        ref = schema.get("$ref")
        if isinstance(ref, str) and (ref, path) not in self.following:
            target = _resolve(self.root, ref)
            if target is not None:
                self.following.add((ref, path))
                try:
                    before = len(out)
                    self.walk(target, value, path, out)
                finally:
                    self.following.discard((ref, path))
                if len(out) > before and _wrong_type(out[before:], path):
                    return
        branches = schema.get("allOf")
        for branch in branches if isinstance(branches, list) else ():
            before = len(out)
            self.walk(branch, value, path, out)
            if len(out) > before and _wrong_type(out[before:], path):
                return
        if self.choices(schema, value, path, out):
            return
        if "not" in schema and not self.fits(schema["not"], value, path):
            out.append((path, "is not allowed"))
        if "if" in schema:
            branch = schema.get("then") if not self.fits(schema["if"], value, path) else schema.get("else")
            self.walk(branch, value, path, out)
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
            self.array(schema, value, path, out)
        elif isinstance(value, Mapping):
            self.object(schema, value, path, out)

    def choices(self, schema: Mapping[str, Any], value: Any, path: str, out: list[tuple[str, str]]) -> bool:
        """``anyOf`` (one branch must fit) and ``oneOf`` (exactly one); True when none fits (then the branch that
        says most is reported and the rest of the schema is not checked)."""
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if not isinstance(branches, list) or not branches:
                continue
            tried: list[list[tuple[str, str]]] = [self.fits(branch, value, path) for branch in branches]
            fitting = sum(1 for found in tried if not found)
            if fitting == 0:
                # The branch of the value's own type says most: a type mismatch is the last resort.
                says_most = min(tried, key=lambda found: (_wrong_type(found, path), len(found)))
                out.extend(says_most)
                return True
            if key == "oneOf" and fitting > 1:
                out.append((path, "must match exactly one of the choices"))
        return False

    def array(
        self, schema: Mapping[str, Any], value: list[Any], path: str, out: list[tuple[str, str]]
    ) -> None:
        count = len(value)
        if isinstance(schema.get("minItems"), int) and count < schema["minItems"]:
            out.append((path, f"choose at least {schema['minItems']}"))
        if isinstance(schema.get("maxItems"), int) and count > schema["maxItems"]:
            out.append((path, f"choose at most {schema['maxItems']}"))
        if schema.get("uniqueItems") is True and any(
            _same_json(value[i], value[j]) for i in range(count) for j in range(i)
        ):
            out.append((path, "must not repeat a value"))
        prefix = schema.get("prefixItems")
        prefix = prefix if isinstance(prefix, list) else []
        items = schema.get("items")
        if isinstance(items, list):  # draft 4-7 tuples
            prefix, items = items, schema.get("additionalItems")
        for index, item in enumerate(value):
            sub = prefix[index] if index < len(prefix) else items
            self.walk(sub, item, f"{path}[{index}]", out)

    def object(
        self, schema: Mapping[str, Any], value: Mapping[str, Any], path: str, out: list[tuple[str, str]]
    ) -> None:
        required = schema.get("required")
        for name in required if isinstance(required, list) else ():
            if isinstance(name, str) and name not in value:
                out.append((f"{path}.{name}", "is required"))
        dependent = schema.get("dependentRequired")
        for name, needed in dependent.items() if isinstance(dependent, Mapping) else ():
            if name in value and isinstance(needed, list):
                out.extend(
                    (f"{path}.{n}", "is required") for n in needed if isinstance(n, str) and n not in value
                )
        count = len(value)
        if isinstance(schema.get("minProperties"), int) and count < schema["minProperties"]:
            out.append((path, f"must have at least {schema['minProperties']} entries"))
        if isinstance(schema.get("maxProperties"), int) and count > schema["maxProperties"]:
            out.append((path, f"must have at most {schema['maxProperties']} entries"))
        properties = schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        patterns = schema.get("patternProperties")
        patterns = patterns if isinstance(patterns, Mapping) else {}
        extra = schema.get("additionalProperties")
        for name, item in value.items():
            matched = False
            if name in properties:
                matched = True
                self.walk(properties[name], item, f"{path}.{name}", out)
            for pattern, sub in patterns.items():
                if (
                    isinstance(pattern, str)
                    and not _risky_pattern(pattern)
                    and _pattern_matches(pattern, name)
                ):
                    matched = True
                    self.walk(sub, item, f"{path}.{name}", out)
            if not matched and extra is not None:
                self.walk(extra, item, f"{path}.{name}", out)


def payload_problems(schema: Any, payload: Any) -> list[tuple[str, str]]:
    """What ``responseSchema`` ``schema`` refuses in ``payload``: ``(JSON path, message)`` pairs, first found first.

    The form's own checks come first (the words the form shows, field by field); an answer they pass is then
    validated by ``jsonschema`` (:func:`schema_validation_problems`), so a keyword the form does not know still
    refuses what it should.

    >>> schema = {"type": "object", "required": ["city"],
    ...           "properties": {"city": {"type": "string", "minLength": 2}, "days": {"type": "integer", "minimum": 1}}}
    >>> payload_problems(schema, {"days": 0})
    [('payload.city', 'is required'), ('payload.days', 'must be at least 1')]
    >>> payload_problems(schema, {"city": "Oslo", "days": 3})
    []
    """
    out = _Checks(schema).fits(schema, payload, "payload")
    return out or schema_validation_problems(schema, payload)


def schema_validation_problems(schema: Any, payload: Any) -> list[tuple[str, str]]:
    """``jsonschema``'s verdict on ``payload``: ``(JSON path, message)`` pairs, by field.

    The validator is the one ``$schema`` names (2020-12 otherwise) with three of the form's readings, which JSON
    Schema leaves to the implementation or which would otherwise make the two disagree: the formats of the form
    (``email``, ``uri``, ``date``, ``date-time``, ``time``, ``uuid``, spelled as above), ``pattern`` unchecked where it
    could take exponential time, and ``multipleOf`` with a tolerance for binary fractions. A schema that is not
    valid JSON Schema, or that points at a remote ``$ref``, is not judged here (no problems).

    >>> schema_validation_problems({"type": "object", "required": ["a"], "propertyNames": {"maxLength": 3}},
    ...                            {"long": 1})
    [('payload.a', 'is required'), ('payload', "'long' is too long")]
    """
    try:
        validator = _validator(schema)
        errors = sorted(validator.iter_errors(payload), key=lambda e: list(map(str, e.absolute_path)))
        problems: list[tuple[str, str]] = []
        for error in errors:
            problems.extend(p for p in _error_problems(error) if p not in problems)
        return problems
    except (jsonschema.exceptions.SchemaError, referencing.exceptions.Unresolvable, RecursionError):
        return []


def _format_checker() -> jsonschema.FormatChecker:
    checker = jsonschema.FormatChecker(formats=())
    for fmt in _FORMAT_MESSAGES:
        checker.checks(fmt)(lambda value, fmt=fmt: not isinstance(value, str) or _format_ok(fmt, value))
    return checker


def _pattern_keyword(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if isinstance(instance, str) and not _pattern_matches(pattern, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def _multiple_of_keyword(validator: Any, step: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if _is_type(instance, "number") and type(instance) is not bool and not _multiple_ok(step, instance):
        yield jsonschema.ValidationError(f"{instance!r} is not a multiple of {step}")


_FORMATS = _format_checker()
_VALIDATORS: dict[type, Any] = {}


def _validator(schema: Any) -> Any:
    base = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    base.check_schema(schema)
    cls = _VALIDATORS.get(base)
    if cls is None:
        cls = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
            base, {"pattern": _pattern_keyword, "multipleOf": _multiple_of_keyword}
        )
        _VALIDATORS[base] = cls
    return cls(schema, format_checker=_FORMATS)


def _error_path(steps: Iterable[Any]) -> str:
    return "payload" + "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in steps)


def _error_problems(error: Any) -> list[tuple[str, str]]:
    path = _error_path(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, Mapping):
        # One error per missing name, each naming it only in its message: all of them, once (see the caller).
        return [(f"{path}.{n}", "is required") for n in error.validator_value if n not in error.instance]
    return [(path, error.message)]
