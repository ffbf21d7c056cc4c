"""What a stream item's ``type`` names: an AG-UI event or an AI SDK chunk, known or not."""

from __future__ import annotations

import pytest

from agui_notebook.agui._compat import LEGACY_EVENT_TYPES
from agui_notebook.agui._intake import EVENT_TYPES
from agui_notebook.ui import UIMessageStreamReducer
from agui_notebook.ui._chunk_types import UI_CHUNK_TYPES, classify_type, is_ui_chunk_type


def test_every_ag_ui_event_type_is_an_event() -> None:
    assert {classify_type(t) for t in EVENT_TYPES | LEGACY_EVENT_TYPES} == {"event"}
    assert not any(is_ui_chunk_type(t) for t in EVENT_TYPES | LEGACY_EVENT_TYPES)


def test_every_ai_sdk_chunk_type_is_a_chunk() -> None:
    assert {classify_type(t) for t in UI_CHUNK_TYPES} == {"chunk"}
    assert classify_type("data-weather") == "chunk" and is_ui_chunk_type("data-weather")


def test_the_chunk_reducer_handles_only_known_chunk_types() -> None:
    handled = set(UIMessageStreamReducer()._handlers)
    assert handled <= UI_CHUNK_TYPES
    # pydantic-ai's closing `done` stands in for `[DONE]` and changes no message.
    assert UI_CHUNK_TYPES - handled == {"done"}


@pytest.mark.parametrize(
    ("item_type", "kind"),
    [
        ("NOT_AN_AG_UI_EVENT", "event"),  # reported by the event checks as an unknown event type
        ("Custom", "event"),
        ("future-chunk", "chunk"),  # ignored by the chunk reducer, as by the AI SDK
        ("x", "chunk"),
        ("-", "chunk"),
    ],
)
def test_an_unknown_type_goes_by_its_spelling(item_type: str, kind: str) -> None:
    assert classify_type(item_type) == kind
    assert not is_ui_chunk_type(item_type)


def test_only_strings_name_chunks() -> None:
    assert not is_ui_chunk_type(None) and not is_ui_chunk_type(3)
