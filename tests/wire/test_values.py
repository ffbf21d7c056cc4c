"""The JSON conversion rule (wire/_values.py): each kind of value, the error path, and its agreement with the readers."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import math
import uuid
from typing import Any

import numpy as np
import orjson
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agui_notebook import AguiNotebookError, JsonValueError
from agui_notebook.wire._json import decode_json
from agui_notebook.wire._values import MAX_DEPTH, is_plain_json, json_value


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Opaque:
    pass


class Forecast(BaseModel):
    city: str
    at: datetime.datetime
    price: decimal.Decimal


@dataclasses.dataclass
class Reading:
    sensor: str
    values: tuple[float, ...]


UTC = datetime.timezone.utc

CONVERSIONS = [
    (np.int64(42), 42),
    (np.float32(0.5), 0.5),
    (np.float64(0.1), 0.1),
    (np.bool_(True), True),
    (np.str_("text"), "text"),
    (np.array([[1, 2], [3, 4]]), [[1, 2], [3, 4]]),
    (np.array([1.5, np.nan]), [1.5, None]),
    (np.datetime64("2026-12-01T09:30:00"), "2026-12-01T09:30:00"),
    (np.datetime64("NaT"), None),
    (decimal.Decimal("1.25"), 1.25),
    (decimal.Decimal("12"), 12),
    (decimal.Decimal("1E+2"), 100),
    (decimal.Decimal("NaN"), None),
    (datetime.datetime(2026, 12, 1, 9, 30, tzinfo=UTC), "2026-12-01T09:30:00+00:00"),
    (datetime.datetime(2026, 12, 1, 9, 30, 0, 500), "2026-12-01T09:30:00.000500"),
    (datetime.date(2026, 12, 1), "2026-12-01"),
    (datetime.time(9, 30), "09:30:00"),
    (pd.Timestamp("2026-12-01T09:30:00Z"), "2026-12-01T09:30:00+00:00"),
    (pd.NaT, None),
    (pd.NA, None),
    (b"\x00\xffhi", "AP9oaQ=="),
    (bytearray(b"hi"), "aGk="),
    (memoryview(b"hi"), "aGk="),
    ({"b", "a", "c"}, ["a", "b", "c"]),
    (frozenset({3, 1}), [1, 3]),
    ((1, (2, 3)), [1, [2, 3]]),
    (2**64, 1.8446744073709552e19),
    (-(2**63) - 1, -9.223372036854776e18),
    (2**64 - 1, 2**64 - 1),
    (10**400, None),
    (float("nan"), None),
    (float("inf"), None),
    (-math.inf, None),
    (Color.RED, "red"),
    (Level.HIGH, 3),
    (uuid.UUID(int=1), "00000000-0000-0000-0000-000000000001"),
    (datetime.timedelta(hours=1, seconds=1.5), "PT1H1.5S"),
    (
        Forecast(city="Paris", at=datetime.datetime(2026, 12, 1, tzinfo=UTC), price=decimal.Decimal("9.90")),
        {"city": "Paris", "at": "2026-12-01T00:00:00Z", "price": "9.90"},
    ),
    (Reading("t1", (1.0, 2.5)), {"sensor": "t1", "values": [1.0, 2.5]}),
    (
        {1: "one", 1.5: "x", None: "n", False: "f", Color.RED: "r"},
        {"1": "one", "1.5": "x", "null": "n", "false": "f", "red": "r"},
    ),
]


@pytest.mark.parametrize(("value", "expected"), CONVERSIONS, ids=lambda v: type(v).__name__)
def test_each_kind_of_value_has_one_json_form(value: Any, expected: Any) -> None:
    converted = json_value(value)
    assert converted == expected
    assert type(converted) is type(expected)
    assert is_plain_json(converted)


def test_values_nested_in_events_are_converted_and_the_plain_rest_is_kept() -> None:
    output = {"rows": [{"n": np.int64(1), "when": datetime.date(2026, 1, 2)}], "name": "t"}
    event = {"type": "tool-output-available", "toolCallId": "c1", "output": output}
    assert json_value(event) == {
        "type": "tool-output-available",
        "toolCallId": "c1",
        "output": {"rows": [{"n": 1, "when": "2026-01-02"}], "name": "t"},
    }
    assert event["output"]["rows"][0]["n"] == np.int64(1)  # the original is left alone


def test_a_pydantic_model_with_a_numpy_field_goes_through_the_rule() -> None:
    class Stats(BaseModel):
        mean: Any

    assert json_value(Stats(mean=np.float64(2.5))) == {"mean": 2.5}
    assert json_value(Stats(mean=np.int16(3))) == {"mean": 3}


def test_plain_json_comes_back_as_it_is() -> None:
    value = {"a": [1, 2.5, None, True, "x", {"b": []}], "big": 2**63}
    assert is_plain_json(value)
    assert json_value(value) is value


@pytest.mark.parametrize(
    ("value", "message", "path"),
    [
        (
            {"content": [0, 1, 2, {"when": object()}]},
            ".content[3].when: a <class 'object'> is not JSON",
            ".content[3].when",
        ),
        ({"out": Opaque()}, ".out: a <class 'tests.wire.test_values.Opaque'> is not JSON", ".out"),
        (
            {"gen": iter([1])},
            ".gen: a <class 'list_iterator'> is not JSON (an iterator is consumed once, not a value)",
            ".gen",
        ),
        ({"a b": {"x": lambda: 1}}, "[\"a b\"].x: a <class 'function'> is not JSON", '["a b"].x'),
        ({"m": {(1, 2): "pair"}}, ".m: the key (1, 2): a <class 'tuple'> key is not JSON", ".m"),
        (object(), "a <class 'object'> is not JSON", ""),
    ],
)
def test_a_value_with_no_json_form_names_its_path(value: Any, message: str, path: str) -> None:
    where = "item 12 (TOOL_CALL_RESULT)"
    with pytest.raises(JsonValueError) as caught:
        json_value(value, where)
    assert str(caught.value) == (f"{where} {message}" if path else f"{where}: {message}")
    assert caught.value.path == path
    assert isinstance(caught.value, AguiNotebookError) and isinstance(caught.value, TypeError)


def test_deep_nesting_and_cycles_are_errors_not_recursion_errors() -> None:
    deep: Any = "leaf"
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    assert not is_plain_json(deep)
    with pytest.raises(
        JsonValueError, match=f"^state(\\[0\\]){{{MAX_DEPTH}}}: nested deeper than {MAX_DEPTH} levels"
    ):
        json_value(deep, "state")
    cycle: list[Any] = [1]
    cycle.append(cycle)
    with pytest.raises(JsonValueError, match="nested deeper than"):
        json_value({"loop": cycle})
    fine: Any = 1
    for _ in range(MAX_DEPTH):
        fine = [fine]
    assert json_value(fine) is fine
    orjson.dumps(fine)  # what is accepted, the notebook's encoders write


# -------------------------------------------------------------------------------------------- properties

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)

ODD_LEAVES = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80),
    st.integers(min_value=-(2**31), max_value=2**31 - 1).map(np.int64),
    st.floats(width=32).map(np.float32),
    st.floats(),
    st.decimals(allow_nan=True, allow_infinity=True, places=None),
    st.datetimes(timezones=st.none() | st.just(UTC)),
    st.dates(),
    st.binary(max_size=8),
    st.frozensets(st.integers(), max_size=4),
    st.tuples(st.integers(), st.text(max_size=3)),
)

ODD_VALUES = st.recursive(
    ODD_LEAVES | JSON_VALUES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_plain_json_is_recognised_and_kept(value: Any) -> None:
    assert is_plain_json(value)
    assert json_value(value) is value


@settings(max_examples=300, deadline=None)
@given(ODD_VALUES)
def test_every_conversion_is_plain_json_the_readers_read_back_unchanged(value: Any) -> None:
    converted = json_value(value)
    assert is_plain_json(converted)
    assert json_value(converted) is converted  # the rule is idempotent
    assert decode_json(orjson.dumps(converted)) == converted


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2**1100), max_value=2**1100))
def test_integers_follow_the_wire_readers_number_rule(number: int) -> None:
    read = decode_json(str(number))  # what a log or a server's JSON text of this number reads as
    assert json_value(number) == (None if isinstance(read, float) and math.isinf(read) else read)
