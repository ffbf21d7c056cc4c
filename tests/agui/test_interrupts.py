"""Resume entries and interrupt expiry, as @ag-ui/client's buildResumeArray and isInterruptExpired."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import Interrupt, ResumeEntry
from hypothesis import given, settings
from hypothesis import strategies as st

from agui_notebook.agui._interrupts import (
    approval_fields,
    approval_response,
    build_resume_entries,
    is_interrupt_expired,
    is_tool_approval,
    payload_problems,
)

ROOT = Path(__file__).resolve().parents[2]

INTERRUPTS = [Interrupt(id="i1", reason="tool_approval", tool_call_id="c1"), {"id": "i2", "reason": "input"}]


def test_entries_follow_the_interrupts_order_and_keep_only_what_applies() -> None:
    entries = build_resume_entries(
        INTERRUPTS,
        {
            "i2": {"status": "cancelled", "payload": "ignored", "metadata": {"by": "ann"}},
            "i1": {"status": "resolved", "payload": None},
        },
    )
    assert entries == [
        # As an ag_ui.core ResumeEntry leaves a None optional out on the wire, a null payload is not sent.
        {"interruptId": "i1", "status": "resolved"},
        {"interruptId": "i2", "status": "cancelled", "metadata": {"by": "ann"}},
    ]
    assert [ResumeEntry.model_validate(e).model_dump(by_alias=True) for e in entries] == entries


def test_an_approval_answer_is_a_resolved_entry_with_its_reason() -> None:
    interrupts = [{"id": "a1", "reason": "tool_approval"}, {"id": "a2", "reason": "tool_approval"}]
    responses = {"a2": approval_response(False, "keep it"), "a1": approval_response(True)}
    assert build_resume_entries(interrupts, responses) == [
        {"interruptId": "a1", "status": "resolved", "payload": {"approved": True}},
        {"interruptId": "a2", "status": "resolved", "payload": {"approved": False, "reason": "keep it"}},
    ]


def test_every_open_interrupt_needs_a_response_and_no_more() -> None:
    with pytest.raises(ValueError, match=r"^missing responses for open interrupts: i2$"):
        build_resume_entries(INTERRUPTS, {"i1": {"status": "cancelled"}})
    with pytest.raises(ValueError, match=r"^responses reference unknown interrupt ids: i9$"):
        build_resume_entries(
            INTERRUPTS,
            {"i1": {"status": "cancelled"}, "i2": {"status": "cancelled"}, "i9": {"status": "cancelled"}},
        )
    with pytest.raises(
        ValueError, match=r"^interrupt 'i1': status must be 'resolved' or 'cancelled', got 'ok'$"
    ):
        build_resume_entries(INTERRUPTS[:1], {"i1": {"status": "ok"}})


def test_expiry() -> None:
    now = datetime(2026, 1, 1, 12, tzinfo=timezone.utc)
    assert is_interrupt_expired({"id": "i", "reason": "r", "expiresAt": "2026-01-01T11:59:59Z"}, now)
    assert is_interrupt_expired(Interrupt(id="i", reason="r", expires_at="2026-01-01T12:00:00+00:00"), now)
    assert not is_interrupt_expired(
        {"id": "i", "reason": "r", "expiresAt": "2026-01-01T13:00:00+01:00Z"}, now
    )
    assert not is_interrupt_expired({"id": "i", "reason": "r", "expiresAt": "2026-01-02T00:00:00Z"}, now)
    assert not is_interrupt_expired({"id": "i", "reason": "r", "expiresAt": "tomorrow"}, now)
    assert not is_interrupt_expired({"id": "i", "reason": "r"}, now)


# ---------------------------------------------------------------------------------------------- answer checks

FORM_SCHEMA = {
    "type": "object",
    "required": ["city", "nights"],
    "properties": {
        "city": {"type": "string", "minLength": 2, "maxLength": 6, "pattern": "^[A-Za-z ]+$"},
        "email": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"},
        "day": {"type": "string", "format": "date"},
        "nights": {"type": "integer", "minimum": 1, "maximum": 14},
        "budget": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 100, "multipleOf": 0.5},
        "old": {"type": "number", "minimum": 5, "exclusiveMinimum": True},
        "ok": {"type": "boolean"},
        "room": {"enum": ["single", "double", 3, None, True]},
        "fixed": {"const": "v1"},
        "extras": {
            "type": "array",
            "items": {"enum": ["a", "b", "c"]},
            "minItems": 1,
            "maxItems": 2,
            "uniqueItems": True,
        },
        "guest": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "age": {"anyOf": [{"type": "integer", "minimum": 18}, {"type": "null"}]},
            },
        },
        "either": {"type": ["string", "null"], "minLength": 1},
    },
}
_TEXT = st.text(alphabet="ab AZé😀@.:/-0123456789\t\x1c\u00a0", max_size=9)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-20, 120),
    st.floats(-5, 150, allow_nan=False).map(lambda f: round(f * 4) / 4),
    _TEXT,
    st.sampled_from(
        [
            "ab",
            "ann@example.com",
            "x@y",
            "https://a.b",
            "a b:c",
            "2026-02-29",
            "2024-02-29",
            "2026-13-01",
            "single",
            "v1",
        ]
    ),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["name", "age", "x"]), inner, max_size=3)
    ),
    max_leaves=6,
)
_PAYLOADS = st.one_of(
    _VALUES,
    st.fixed_dictionaries({}, optional={name: _VALUES for name in FORM_SCHEMA["properties"]}),
    st.fixed_dictionaries(
        {"city": st.sampled_from(["Oslo", "O", "Rome 2"]), "nights": st.integers(0, 15)},
        optional={
            "extras": st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=3),
            "guest": st.fixed_dictionaries({}, optional={"name": _VALUES, "age": _VALUES}),
            "budget": st.sampled_from([0, 0.5, 10.25, 99.5, 100, 7]),
            "old": st.sampled_from([4, 5, 5.5]),
        },
    ),
)


def test_the_kernel_and_the_form_refuse_the_same_answers_with_the_same_words() -> None:
    """payload_problems against js/src/form.js payloadProblems (node) on random answers to one schema that uses
    every keyword, and on the answer being the schema of each field alone."""
    cases: list[dict[str, Any]] = []

    @settings(max_examples=300, deadline=None, database=None)
    @given(_PAYLOADS, st.sampled_from([None, *FORM_SCHEMA["properties"]]))
    def collect(payload: Any, name: str | None) -> None:
        schema = FORM_SCHEMA if name is None else FORM_SCHEMA["properties"][name]
        value = payload if name is None or not isinstance(payload, dict) else payload.get(name, payload)
        cases.append({"schema": schema, "payload": value})

    collect()
    ours = [[list(p) for p in payload_problems(c["schema"], c["payload"])] for c in cases]
    theirs = run_form_checks(cases)
    mismatches = [(c, o, t) for c, o, t in zip(cases, ours, theirs, strict=True) if o != t]
    assert mismatches == []
    assert sum(1 for o in ours if o) > len(ours) // 3  # most are refused somewhere: the words were compared


def run_form_checks(cases: list[dict[str, Any]]) -> list[Any]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to run js/src/form.js")
    script = ROOT / "js" / "test-harness" / "payload_problems.mjs"
    done = subprocess.run(
        [node, str(script)], input=json.dumps(cases).encode(), capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("schema", "payload", "problems"),
    [
        ({"type": "string", "minLength": 1}, "", [("payload", "is required")]),
        ({"type": "string", "maxLength": 2}, "😀😀", []),  # code points, not UTF-16 units
        ({"type": "number", "multipleOf": 0.1}, 0.3, []),
        ({"type": "integer"}, 2.0, []),
        ({"type": "integer"}, True, [("payload", "must be a whole number")]),
        ({"enum": [1, 2]}, 1.0, []),
        ({"enum": [1, 2]}, True, [("payload", "must be one of: 1, 2")]),
        ({"type": "number", "maximum": 3, "exclusiveMaximum": True}, 3, [("payload", "must be less than 3")]),
        ({"type": "string", "format": "date"}, "2026-02-29", [("payload", "must be a date (YYYY-MM-DD)")]),
        ({"type": "string", "format": "email"}, "a@b.c\n", [("payload", "must be an email address")]),
        (
            {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 5}]},
            3,
            [("payload", "must be at least 5")],
        ),
        (
            {"type": "object", "properties": {"a": {"type": "string"}}},
            {"a": 1, "b": 2},
            [("payload.a", "must be text")],
        ),
        # Patterns that could take exponential time to fail are left to the agent (both sides skip them).
        ({"type": "string", "pattern": "^(a+)+$"}, "a" * 40 + "!", []),
        ({"type": "string", "pattern": "^(a|b)*c$"}, "ab", [("payload", "must match the pattern ^(a|b)*c$")]),
    ],
)
def test_answer_checks(schema: dict[str, Any], payload: Any, problems: list[tuple[str, str]]) -> None:
    assert payload_problems(schema, payload) == problems
    assert run_form_checks([{"schema": schema, "payload": payload}]) == [[list(p) for p in problems]]


def test_is_tool_approval_and_approval_fields() -> None:
    pydantic_ai_schema = {
        "type": "object",
        "properties": {"approved": {"type": "boolean"}},
        "required": ["approved"],
    }
    assert is_tool_approval(
        {"id": "i", "reason": "tool_call", "toolCallId": "c", "responseSchema": pydantic_ai_schema}
    )
    assert not is_tool_approval({"id": "i", "reason": "tool_call", "responseSchema": pydantic_ai_schema})
    assert not is_tool_approval(
        Interrupt(id="i", reason="x", tool_call_id="c", response_schema={"type": "string"})
    )
    assert is_tool_approval(Interrupt(id="i", reason="x", tool_call_id="c"))
    assert approval_fields(
        {"approvalDescriptor": 1, "descriptor": 2, "isAutomatic": "yes", "signature": 3}
    ) == {"approvalDescriptor": 1}
    assert approval_fields(None) == {}


def test_the_card_reads_expires_at_as_the_kernel_does() -> None:
    """js/src/interrupts.js expiryTime (node) against is_interrupt_expired: the same moments, the same refusals
    (the browser's lenient Date.parse would read "x 1" as the year 2001, and expire the card at once)."""
    texts = [
        "2026-01-01T12:00:00Z",
        "2026-01-01T12:00:00",
        "2026-01-01",
        "2026-01-01 12:00",
        "2026-01-01T12:00:00.123456+01:00",
        "2026-01-01T12:00+0100",
        "2026-01-01T12:00:00-05",
        "2026-01-01T13:00:00+01:00Z",
        "2026-02-30T00:00:00Z",
        "2026-13-01",
        "tomorrow",
        "x 1",
        "Jan 1 2001",
        '<img src=x onerror="window.__pwned=1">',
        "",
    ]
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to run js/src/interrupts.js")
    script = ROOT / "js" / "test-harness" / "expiry_times.mjs"
    done = subprocess.run(
        [node, str(script)], input=json.dumps(texts).encode(), capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    theirs = json.loads(done.stdout)
    for text, ms in zip(texts, theirs, strict=True):
        interrupt = {"id": "i", "reason": "r", "expiresAt": text}
        if ms is None:
            assert not is_interrupt_expired(interrupt, datetime(9999, 1, 1, tzinfo=timezone.utc)), text
            continue
        moment = datetime.fromtimestamp(ms / 1000, timezone.utc)  # (the browser keeps milliseconds)
        assert is_interrupt_expired(interrupt, moment + timedelta(milliseconds=1)), text
        assert not is_interrupt_expired(interrupt, moment - timedelta(milliseconds=1)), text
