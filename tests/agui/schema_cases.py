"""Response schemas as Python agents send them, each with answers a person could give (good and bad).

Schemas come from pydantic models (``model_json_schema()``: enums and nested models under ``$defs`` behind
``$ref``, ``Optional[X]`` as ``anyOf [X, null]``, literals as ``const``, discriminated unions as ``oneOf``, dicts as
``additionalProperties``, tuples as ``prefixItems``), from the shapes LangGraph's human-in-the-loop and CopilotKit's
``renderAndWaitForResponse`` examples send, and from hand-written schemas for the keywords pydantic does not emit
(``allOf``, ``if``/``then``, ``not``, ``patternProperties``, ``dependentRequired``, cycles through ``$ref``).
"""

from __future__ import annotations

from datetime import date, datetime, time
from enum import Enum
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field


class Mode(str, Enum):
    train = "train"
    plane = "plane"


class Guest(BaseModel):
    name: str = Field(min_length=2, max_length=20)
    age: int | None = Field(default=None, ge=0, le=130)


class Trip(BaseModel):
    """The issue's example: an enum and a nested model behind ``$ref``."""

    mode: Mode
    guest: Guest
    nights: int = Field(ge=1, le=30)


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Booking(BaseModel):
    when: date
    start: datetime | None = None
    at: time | None = None
    ref: UUID | None = None
    guests: list[Guest] = Field(default_factory=list, max_length=3)
    tags: dict[str, int] = Field(default_factory=dict)
    pet: Annotated[Cat | Dog, Field(discriminator="kind")]
    price: float = Field(default=0, ge=0, multiple_of=0.01)
    coords: tuple[float, float] | None = None
    email: str | None = Field(default=None, json_schema_extra={"format": "email"})
    site: str | None = Field(default=None, json_schema_extra={"format": "uri"})


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[A-Z]{3}-[0-9]{2}$")
    level: Literal[1, 2, 3] = 1
    flags: set[Literal["a", "b", "c"]] = Field(default_factory=set)


class TreeNode(BaseModel):
    label: str
    children: list[TreeNode] = Field(default_factory=list)


class ActionRequest(BaseModel):
    action: str
    args: dict[str, Any]


class HumanResponse(BaseModel):
    """LangGraph's agent-inbox answer to a human interrupt (``langgraph.prebuilt.interrupt.HumanResponse``)."""

    type: Literal["accept", "ignore", "response", "edit"]
    args: str | ActionRequest | None


COPILOTKIT_STEPS = {
    # CopilotKit's human-in-the-loop example: the user enables or disables each planned step.
    "type": "object",
    "properties": {
        "steps": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "description": {"type": "string"},
                    "status": {"type": "string", "enum": ["enabled", "disabled", "executing"]},
                },
                "required": ["description", "status"],
            },
        },
        "approved": {"type": "boolean"},
    },
    "required": ["steps"],
}

HAND_WRITTEN = {
    "allOf": {
        "allOf": [
            {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
            {"properties": {"age": {"type": "integer", "minimum": 18}}, "required": ["age"]},
        ]
    },
    "if-then": {
        "type": "object",
        "properties": {"country": {"enum": ["US", "NL"]}, "zip": {"type": "string"}},
        "if": {"properties": {"country": {"const": "US"}}, "required": ["country"]},
        "then": {"properties": {"zip": {"pattern": "^[0-9]{5}$"}}},
        "else": {"properties": {"zip": {"pattern": "^[0-9]{4} ?[A-Z]{2}$"}}},
    },
    "not": {"type": "string", "not": {"enum": ["admin", "root"]}},
    "patterns": {
        "type": "object",
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": False,
        "minProperties": 1,
        "maxProperties": 2,
    },
    "dependent": {
        "type": "object",
        "properties": {"card": {"type": "string"}, "cvc": {"type": "string", "minLength": 3}},
        "dependentRequired": {"card": ["cvc"]},
    },
    "cycle": {
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        "type": "object",
        "properties": {"loop": {"$ref": "#/$defs/a"}, "n": {"type": "integer"}},
    },
    "definitions": {
        "definitions": {"color": {"enum": ["red", "green"]}},
        "type": "array",
        "items": {"$ref": "#/definitions/color"},
        "minItems": 1,
        "uniqueItems": True,
    },
    "root-ref": {
        "type": "object",
        "properties": {"value": {"type": "integer"}, "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}},
        "required": ["value"],
    },
    "oneOf-overlap": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]},
    "const-object": {"const": {"ok": True}},
    "false-schema": {"type": "object", "properties": {"gone": False}},
    "tuple-draft7": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "items": [{"type": "string"}, {"type": "integer"}],
        "additionalItems": False,
    },
}


def _schemas() -> dict[str, dict[str, Any]]:
    schemas = {
        "Trip": Trip.model_json_schema(),
        "Booking": Booking.model_json_schema(),
        "Strict": Strict.model_json_schema(),
        "TreeNode": TreeNode.model_json_schema(),
        "HumanResponse": HumanResponse.model_json_schema(),
        "CopilotKitSteps": COPILOTKIT_STEPS,
    }
    schemas.update(HAND_WRITTEN)
    return schemas


SCHEMAS = _schemas()

_BOOKING = {"when": "2026-05-01", "pet": {"kind": "cat"}}

PAYLOADS: dict[str, list[Any]] = {
    "Trip": [
        {"mode": "train", "guest": {"name": "Ann"}, "nights": 3},
        {"mode": "rocket", "guest": {"name": "x"}, "nights": 3},
        {"mode": "plane", "guest": {"name": "Bo", "age": None}, "nights": 30},
        {"mode": "plane", "guest": {"name": "Bo", "age": -1}, "nights": 0},
        {"mode": "plane", "guest": {"name": "Bo", "age": 40.5}, "nights": 2},
        {"mode": "plane", "guest": "Bo", "nights": 2},
        {"guest": {"name": "Bo"}},
        {"mode": "train", "guest": {"name": "A" * 21}, "nights": 31},
        {"mode": "train", "guest": {}, "nights": "3"},
        [],
        None,
    ],
    "Booking": [
        _BOOKING,
        {**_BOOKING, "when": "2026-02-30"},
        {
            **_BOOKING,
            "start": "2026-05-01T10:00:00+02:00",
            "at": "10:30:00",
            "ref": "123e4567-e89b-12d3-a456-426614174000",
        },
        {**_BOOKING, "start": "2026-05-01T10:00", "at": "25:00:00"},
        {**_BOOKING, "start": "2026-05-01T23:59:60Z", "at": "10:30:00Z"},
        {**_BOOKING, "ref": "not-a-uuid"},
        {**_BOOKING, "guests": [{"name": "Ann"}, {"name": "Bo", "age": 3}]},
        {**_BOOKING, "guests": [{"name": "A"}, {"age": 3}]},
        {**_BOOKING, "guests": [{"name": "Ann"}] * 4},
        {**_BOOKING, "tags": {"a": 1, "b": 2}},
        {**_BOOKING, "tags": {"a": "one"}},
        {**_BOOKING, "pet": {"kind": "dog", "good": False}},
        {**_BOOKING, "pet": {"kind": "fish"}},
        {**_BOOKING, "pet": {"kind": "cat", "lives": "nine"}},
        {**_BOOKING, "pet": {}},
        {**_BOOKING, "price": 12.34},
        {**_BOOKING, "price": 0.3},
        {**_BOOKING, "price": 12.345},
        {**_BOOKING, "price": -1},
        {**_BOOKING, "coords": [52.1, 4.3]},
        {**_BOOKING, "coords": [52.1]},
        {**_BOOKING, "coords": [52.1, "x"]},
        {**_BOOKING, "coords": None},
        {**_BOOKING, "email": "ann@example.com", "site": "https://example.com"},
        {**_BOOKING, "email": "ann@example", "site": "example.com"},
        {**_BOOKING, "email": None, "site": None},
        {"pet": {"kind": "cat"}},
        {"when": 20260501, "pet": {"kind": "cat"}},
    ],
    "Strict": [
        {"code": "ABC-12"},
        {"code": "abc-12"},
        {"code": "ABC-12", "level": 2, "flags": ["a", "c"]},
        {"code": "ABC-12", "level": 4},
        {"code": "ABC-12", "flags": ["a", "a"]},
        {"code": "ABC-12", "flags": ["d"]},
        {"code": "ABC-12", "extra": 1},
        {"code": "ABC-12", "level": True},
        {},
    ],
    "TreeNode": [
        {"label": "root"},
        {"label": "root", "children": [{"label": "a", "children": [{"label": "b"}]}]},
        {"label": "root", "children": [{"label": "a", "children": [{"children": []}]}]},
        {"label": "root", "children": [{"label": 1}]},
        {"label": "root", "children": {"label": "a"}},
    ],
    "HumanResponse": [
        {"type": "accept", "args": None},
        {"type": "response", "args": "Looks good"},
        {"type": "edit", "args": {"action": "send_email", "args": {"to": "ann@example.com"}}},
        {"type": "edit", "args": {"action": "send_email"}},
        {"type": "edit", "args": 3},
        {"type": "maybe", "args": None},
        {"type": "accept"},
    ],
    "CopilotKitSteps": [
        {"steps": [{"description": "Search flights", "status": "enabled"}], "approved": True},
        {"steps": [{"description": "Search flights", "status": "paused"}]},
        {"steps": [{"status": "enabled"}]},
        {"steps": []},
        {"steps": "all"},
        {"approved": False},
    ],
    "allOf": [{"name": "Ann", "age": 30}, {"name": "Ann", "age": 3}, {"name": "Ann"}, {"age": 30}, {}, "Ann"],
    "if-then": [
        {"country": "US", "zip": "12345"},
        {"country": "US", "zip": "1234 AB"},
        {"country": "NL", "zip": "1234 AB"},
        {"country": "NL", "zip": "12345"},
        {"zip": "1234AB"},
        {"country": "FR"},
    ],
    "not": ["ann", "admin", "root", 3],
    "patterns": [{"x-a": "1"}, {"x-a": 1}, {"y": "1"}, {}, {"x-a": "1", "x-b": "2", "x-c": "3"}],
    "dependent": [{"card": "4111", "cvc": "123"}, {"card": "4111"}, {"cvc": "12"}, {}],
    "cycle": [{"loop": 1, "n": 2}, {"n": "two"}, {"loop": {"deep": [1]}}],
    "definitions": [["red"], ["red", "green"], [], ["blue"], ["red", "red"], "red"],
    "root-ref": [
        {"value": 1},
        {"value": 1, "next": {"value": 2, "next": None}},
        {"value": 1, "next": {"value": "2"}},
        {"value": 1, "next": {"next": None}},
        {"next": None},
    ],
    "oneOf-overlap": [3, 2.5, -1.5, -3, "x"],
    "const-object": [{"ok": True}, {"ok": False}, {"ok": 1}],
    "false-schema": [{}, {"gone": 1}, {"kept": 1}],
    "tuple-draft7": [["a", 1], ["a", "b"], ["a", 1, 2], [], [1]],
}

CASES: list[tuple[str, Any]] = [
    (name, payload) for name, payloads in PAYLOADS.items() for payload in payloads
]
