"""The recorder's line shape: a record is an object with ``event`` and no ``type``."""

from __future__ import annotations

import pytest

from agui_notebook.wire._records import is_recorded, recorded_event, recorded_time

EVENT = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"received_ns": 5, "event": EVENT}, True),
        ({"event": EVENT}, True),  # received_ns is optional
        ({"event": "not an object"}, True),  # reported where the record is read, not hidden as an event
        (EVENT, False),
        (
            {"type": "CUSTOM", "name": "x", "event": {}},
            False,
        ),  # an event that happens to carry an "event" field
        ({"received_ns": 5}, False),
        ([EVENT], False),
        ("event", False),
        (None, False),
    ],
)
def test_a_record_is_told_apart_from_an_event(value, expected):
    assert is_recorded(value) is expected


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"received_ns": 1_700_000_000_000_000_000, "event": EVENT}, 1_700_000_000_000_000_000),
        ({"received_ns": True, "event": EVENT}, None),  # a bool is not a time
        ({"received_ns": 5.0, "event": EVENT}, None),
        ({"received_ns": "5", "event": EVENT}, None),
        ({"event": EVENT}, None),
    ],
)
def test_only_integer_nanoseconds_are_a_receive_time(record, expected):
    assert recorded_time(record) == expected


def test_the_event_inside_a_record_and_a_bare_event_read_the_same():
    assert recorded_event({"received_ns": 5, "event": EVENT}) is EVENT
    assert recorded_event(EVENT) is EVENT
    custom = {"type": "CUSTOM", "name": "x", "event": {"nested": True}}
    assert recorded_event(custom) is custom
