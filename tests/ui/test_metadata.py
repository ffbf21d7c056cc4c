"""The AI SDK's deep merge of message metadata."""

from __future__ import annotations

from agui_notebook.ui._metadata import deep_merge_metadata


def test_nested_objects_merge_and_everything_else_is_replaced():
    base = {"a": {"b": 1, "c": [1]}, "d": 1}
    assert deep_merge_metadata(base, {"a": {"c": [2], "e": None}, "__proto__": {}}) == {
        "a": {"b": 1, "c": [2], "e": None},
        "d": 1,
    }
    assert base == {"a": {"b": 1, "c": [1]}, "d": 1}
    assert deep_merge_metadata(None, {"x": 1}) == {"x": 1}
    assert deep_merge_metadata({"x": {"y": 1}}, {"x": [1]}) == {"x": [1]}
