"""The answer checks on real schemas: the kernel (``payload_problems``), jsonschema and the widget's form
(``js/src/form.js``, run in node) agree on every fixture of tests/agui/schema_cases.py."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from agui_notebook.agui._interrupts import payload_problems, schema_validation_problems
from tests.agui.schema_cases import CASES, SCHEMAS
from tests.agui.test_interrupts import run_form_checks


def test_there_are_enough_fixtures() -> None:
    assert len(CASES) >= 100
    assert len(SCHEMAS) >= 15


def test_the_kernel_agrees_with_jsonschema_on_every_fixture() -> None:
    """Refused by payload_problems exactly when jsonschema refuses, and at a field jsonschema names (or below it:
    jsonschema reports a failed anyOf at the choice, the form at the field of the branch that was meant)."""
    disagreements = []
    for name, payload in CASES:
        if name == "cycle":
            continue  # a $ref that only points at itself sends jsonschema into endless recursion: not judged
        schema = SCHEMAS[name]
        ours = payload_problems(schema, payload)
        theirs = schema_validation_problems(schema, payload)
        valid = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)(
            schema, format_checker=jsonschema.FormatChecker()
        ).is_valid(payload)
        if bool(ours) != bool(theirs) or (
            ours and not any(ours[0][0].startswith(path) for path, _ in theirs)
        ):
            disagreements.append((name, payload, ours, theirs))
        # Where the form's readings (formats, binary fractions) are not involved, stock jsonschema agrees too.
        if valid != (not theirs) and name not in ("Booking",):
            disagreements.append((name, payload, "stock jsonschema", valid))
    assert disagreements == []
    refused = sum(1 for name, payload in CASES if payload_problems(SCHEMAS[name], payload))
    assert len(CASES) // 3 < refused < len(CASES)  # both kinds of answer are well represented


def test_the_form_and_the_kernel_agree_on_every_fixture() -> None:
    cases = [{"schema": SCHEMAS[name], "payload": payload} for name, payload in CASES]
    form = run_form_checks(cases)
    kernel = [[list(p) for p in payload_problems(c["schema"], c["payload"])] for c in cases]
    mismatches = [(c, k, f) for c, k, f in zip(cases, kernel, form, strict=True) if k != f]
    assert mismatches == []


@pytest.mark.parametrize(
    ("name", "payload", "problems"),
    [
        # The example: an enum and a nested model, both behind $ref.
        (
            "Trip",
            {"mode": "rocket", "guest": {"name": "x"}, "nights": 3},
            [
                ("payload.mode", "must be one of: train, plane"),
                ("payload.guest.name", "must be at least 2 characters"),
            ],
        ),
        ("Booking", {"when": "2026-05-01", "pet": {"kind": "fish"}}, [("payload.pet.kind", "must be cat")]),
        (
            "Booking",
            {"when": "2026-05-01", "pet": {"kind": "cat"}, "start": "2026-05-01T10:00"},
            [("payload.start", "must be a date and time (YYYY-MM-DDTHH:MM:SS+00:00)")],
        ),
        (
            "Booking",
            {"when": "2026-05-01", "pet": {"kind": "cat"}, "tags": {"a": "one"}},
            [("payload.tags.a", "must be a whole number")],
        ),
        ("Strict", {"code": "ABC-12", "extra": 1}, [("payload.extra", "is not allowed")]),
        (
            "HumanResponse",
            {"type": "edit", "args": {"action": "send_email"}},
            [("payload.args.args", "is required")],
        ),
        ("oneOf-overlap", 3, [("payload", "must match exactly one of the choices")]),
        ("not", "root", [("payload", "is not allowed")]),
        (
            "if-then",
            {"country": "US", "zip": "1234 AB"},
            [("payload.zip", "must match the pattern ^[0-9]{5}$")],
        ),
        ("dependent", {"card": "4111"}, [("payload.cvc", "is required")]),
        ("patterns", {}, [("payload", "must have at least 1 entries")]),
        ("cycle", {"loop": {"deep": [1]}}, []),
        (
            "root-ref",
            {"value": 1, "next": {"value": "2"}},
            [("payload.next.value", "must be a whole number")],
        ),
    ],
)
def test_problems_are_by_field_in_the_forms_words(
    name: str, payload: Any, problems: list[tuple[str, str]]
) -> None:
    assert payload_problems(SCHEMAS[name], payload) == problems


def test_jsonschema_refuses_what_the_form_does_not_check() -> None:
    schema = {
        "type": "object",
        "propertyNames": {"maxLength": 3},
        "properties": {"xs": {"contains": {"const": 1}}},
    }
    assert payload_problems(schema, {"xs": [1]}) == []
    assert payload_problems(schema, {"long": 1, "xs": [2]}) == [
        ("payload", "'long' is too long"),
        ("payload.xs", "[2] does not contain items matching the given schema"),
    ]


def test_a_schema_jsonschema_cannot_read_is_left_to_the_agent() -> None:
    assert payload_problems({"type": 12}, "x") == []
    assert payload_problems({"$ref": "https://example.com/schema.json"}, "x") == []
    # Risky patterns are not run by either side (jsonschema neither: it would take exponential time).
    assert payload_problems({"type": "string", "pattern": "^(a+)+$"}, "a" * 40 + "!") == []


def _keys(schema: Any) -> list[str]:
    """Every property name a schema mentions anywhere (so random answers use them)."""
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                found.extend(value)
            found.extend(_keys(value))
    elif isinstance(schema, list):
        for item in schema:
            found.extend(_keys(item))
    return found


def test_random_answers_to_the_fixture_schemas() -> None:
    """On random answers to every fixture schema: the form and the kernel agree, and the kernel refuses exactly
    what jsonschema refuses."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    names = sorted(n for n in SCHEMAS if n != "cycle")
    keys = sorted({k for n in names for k in _keys(SCHEMAS[n])} | {"extra", "x-a"})
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 40),
        st.sampled_from([0.3, 2.5, 12.345, -1.5]),
        st.sampled_from(
            ["", "x", "Ann", "ABC-12", "train", "cat", "dog", "edit", "red", "US", "12345", "1234 AB", "admin",
             "2026-05-01", "2026-02-30", "2026-05-01T10:00:00Z", "10:30:00", "ann@example.com",
             "https://example.com", "123e4567-e89b-12d3-a456-426614174000", "enabled"]
        ),
    )  # fmt: skip
    values = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(keys), inner, max_size=4),
        max_leaves=8,
    )
    cases: list[dict[str, Any]] = []

    @settings(max_examples=400, deadline=None, database=None)
    @given(st.sampled_from(names), values)
    def collect(name: str, payload: Any) -> None:
        cases.append({"name": name, "schema": SCHEMAS[name], "payload": payload})

    collect()
    form = run_form_checks([{"schema": c["schema"], "payload": c["payload"]} for c in cases])
    wrong = []
    for case, theirs in zip(cases, form, strict=True):
        ours = payload_problems(case["schema"], case["payload"])
        if [list(p) for p in ours] != theirs:
            wrong.append(("form", case["name"], case["payload"], ours, theirs))
        if bool(ours) != bool(schema_validation_problems(case["schema"], case["payload"])):
            wrong.append(("jsonschema", case["name"], case["payload"], ours))
    assert wrong == []
