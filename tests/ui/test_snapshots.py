"""The snapshots read_ui_message_stream yields: models shared where nothing changed, built as model_construct."""

from __future__ import annotations

from agui_notebook.ui._parts import UIMessage
from agui_notebook.ui._read_stream import read_ui_message_stream


def test_snapshots_are_independent_where_parts_changed():
    chunks = [{"type": "text-start", "id": "t"}] + [
        {"type": "text-delta", "id": "t", "delta": c} for c in "abc"
    ]
    chunks += [{"type": "data-x", "data": 1}]
    snapshots = list(read_ui_message_stream(chunks))
    assert [s.parts[0].text for s in snapshots] == ["", "a", "ab", "abc", "abc"]
    assert snapshots[-1].parts[0] is snapshots[-2].parts[0]  # an unchanged part is shared, not copied


def test_snapshots_are_what_model_construct_builds():
    # Snapshots skip model_construct's per-field work; they must still be the same models.
    chunks = [
        {"type": "start", "messageId": "m", "messageMetadata": {"a": 1}},
        {"type": "text-start", "id": "t"},
    ]
    for snapshot in [*read_ui_message_stream(chunks), *read_ui_message_stream(chunks[1:])]:
        fields = {name: getattr(snapshot, name) for name in snapshot.__pydantic_fields_set__}
        built = UIMessage.model_construct(**fields)
        assert snapshot == built
        assert snapshot.__pydantic_fields_set__ == built.__pydantic_fields_set__
        assert snapshot.__pydantic_extra__ == built.__pydantic_extra__
        assert snapshot.__pydantic_private__ == built.__pydantic_private__
        assert snapshot.model_dump() == built.model_dump()
        snapshot.role = "user"  # snapshots are ordinary models
        assert "role" in snapshot.__pydantic_fields_set__
