"""AG-UI's shallow metadata rule (``mergeMetadata``), alone and as the reducer applies it."""

from __future__ import annotations

from agui_notebook.agui._apply import apply_events
from agui_notebook.agui._metadata import spread_merge_metadata


def test_keys_are_replaced_whole_the_last_write_winning():
    existing = {"usage": {"in": 3}, "a": 1}
    assert spread_merge_metadata(existing, {"usage": {"out": 2}, "b": None}) == {
        "usage": {"out": 2},
        "a": 1,
        "b": None,
    }
    assert existing == {"usage": {"in": 3}, "a": 1}


def test_each_side_is_spread_as_javascript_spreads_it():
    assert spread_merge_metadata(None, {"a": 1}) == {"a": 1}
    assert spread_merge_metadata({"a": 1}, None) == {"a": 1}
    assert spread_merge_metadata(["x", "y"], "z") == {"0": "z", "1": "y"}
    assert spread_merge_metadata(5, True) == {}


def test_null_metadata_on_an_event_is_folded_and_absent_metadata_is_not():
    events = [
        {"type": "TEXT_MESSAGE_START", "messageId": "m1", "metadata": None},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "x"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m2"},
    ]
    first, second = apply_events(events).message_dicts
    assert first == {"id": "m1", "role": "assistant", "content": "x", "metadata": {}}
    assert "metadata" not in second
