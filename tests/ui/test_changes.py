"""Change records: replaying what a reducer reports onto a copy gives the reducer's message, after every chunk.

``apply_changes`` is what a live view does with them (the widget's patches, js/src/sync.js); the bridge's tests
replay the assembler and the conversation engine with it too.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._reducer import UIMessageStreamReducer
from tests.ui.stream_cases import fixture_streams


def apply_changes(
    mirror: list[dict[str, Any]], messages: list[dict[str, Any]], changes: list[MessageChange]
) -> None:
    """What a live view does with a batch of change records, read after the batch: copy only what they name.

    A part or message copied in this batch already holds the text appended to it later in the batch.
    """
    copied: set[tuple[int, int]] = set()
    for change in changes:
        i, p = change.message_index, change.part_index
        if change.kind == "text" and ((i, p) in copied or (i, -1) in copied):
            continue
        copied.add((i, p if change.kind in ("part", "text") else -1))
        if change.kind == "text":
            copied.discard((i, p))
        if change.kind == "message":
            if i == len(mirror):
                mirror.append(copy.deepcopy(messages[i]))
            else:
                mirror[i] = copy.deepcopy(messages[i])
        elif change.kind == "part":
            part = copy.deepcopy(messages[i]["parts"][p])
            parts = mirror[i]["parts"]
            if p == len(parts):
                parts.append(part)
            else:
                parts[p] = part
        elif change.kind == "text":
            mirror[i]["parts"][p]["text"] += change.delta
        elif change.kind == "metadata":
            mirror[i]["metadata"] = copy.deepcopy(messages[i].get("metadata"))
        elif change.kind == "parts":
            mirror[i]["parts"] = copy.deepcopy(messages[i]["parts"])
        elif change.kind == "length":
            del mirror[i:]


@pytest.mark.parametrize("name", sorted(fixture_streams()))
def test_replaying_the_changes_of_every_chunk_gives_the_message(name: str) -> None:
    reducer = UIMessageStreamReducer(errors="collect")
    mirror: list[dict[str, Any]] = [copy.deepcopy(reducer.message)]
    for index, chunk in enumerate(fixture_streams()[name]):
        changes = reducer.push(chunk)  # before reading the message: a start chunk may replace it
        apply_changes(mirror, [reducer.message], changes)
        assert mirror == [reducer.message], (
            f"after chunk {index} ({chunk.get('type') if isinstance(chunk, dict) else chunk!r})"
        )


def test_a_change_record_is_a_small_frozen_value() -> None:
    change = MessageChange("text", 0, 2, "Hi")
    assert (change.kind, change.message_index, change.part_index, change.delta) == ("text", 0, 2, "Hi")
    assert MessageChange("message") == MessageChange("message", 0, -1, "")
    with pytest.raises(dataclasses.FrozenInstanceError):
        change.delta = "changed"  # type: ignore[misc]
    assert not hasattr(change, "__dict__")
