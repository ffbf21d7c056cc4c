"""read_ui_message_stream and ui_message_from_chunks against the AI SDK's readUIMessageStream."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

from agui_notebook.ui import _read_stream
from agui_notebook.ui._parts import TextUIPart, UIMessage
from agui_notebook.ui._read_stream import read_ui_message_stream, ui_message_from_chunks
from agui_notebook.ui._reducer import UIMessageStreamError, UIMessageStreamErrorChunk
from tests.ui.stream_cases import FIXTURES, NULLS_IN_OPTIONAL_FIELDS, reference_cases, reference_errors


def _read(spec):
    """read_ui_message_stream's snapshots as JSON, the errors reported, and the error raised."""
    reported: list[tuple[str, int]] = []

    def on_error(error: Exception) -> None:
        kind = "chunk" if isinstance(error, UIMessageStreamErrorChunk) else "malformed"
        reported.append((kind, error.chunk_index))  # type: ignore[attr-defined]

    snapshots = []
    raised = None
    try:
        for snapshot in read_ui_message_stream(
            spec["chunks"],
            message=spec.get("message"),
            on_error=on_error,
            terminate_on_error=spec.get("terminateOnError", False),
        ):
            snapshots.append(snapshot.model_dump(mode="json"))
    except (UIMessageStreamError, UIMessageStreamErrorChunk) as error:
        raised = error.chunk_index
    return snapshots, reported, raised


@pytest.mark.node
def test_matches_read_ui_message_stream():
    cases = reference_cases()
    mismatches = []
    for name, spec, reference in cases:
        if spec.get("terminateOnError"):
            # The AI SDK drops snapshots still queued when the stream errors; compare where it stopped.
            # Its `thrown` index may already be past the chunk, so use the index reported to onError.
            _, _, raised = _read(spec)
            if reference["thrown"] is None or raised != reference["errors"][0]["chunkIndex"]:
                mismatches.append((name, "raised", raised, reference["errors"]))
            continue
        model_snapshots, reported, raised = _read(spec)
        if name.split("[")[0] not in NULLS_IN_OPTIONAL_FIELDS and model_snapshots != reference["snapshots"]:
            mismatches.append((name, "model snapshots"))
        errors = reference_errors(reference)
        if reported != errors or raised is not None:
            mismatches.append((name, "reported errors", reported, errors))
    assert mismatches == []
    assert len(cases) > 120


def test_callbacks_receive_data_and_errors():
    data, errors = [], []
    chunks = [
        {"type": "data-note", "data": "a", "transient": True},
        {"type": "error", "errorText": "rate limited"},
        {"type": "data-note", "id": "n", "data": "b"},
    ]
    message = ui_message_from_chunks(chunks, on_data=data.append, on_error=errors.append)
    assert data == [chunks[0], chunks[2]]
    assert [(str(e), e.chunk_index) for e in errors] == [("rate limited", 1)]
    assert message.model_dump() == {
        "id": "",
        "role": "assistant",
        "parts": [{"type": "data-note", "id": "n", "data": "b"}],
    }


def test_terminate_on_error_raises_after_the_snapshots_before_it():
    chunks = [
        {"type": "text-start", "id": "t"},
        {"type": "error", "errorText": "boom"},
        {"type": "text-end", "id": "t"},
    ]
    seen = []
    with pytest.raises(UIMessageStreamErrorChunk, match=r"^boom$"):
        for snapshot in read_ui_message_stream(chunks, terminate_on_error=True):
            seen.append(snapshot)
    assert [s.parts for s in seen] == [[TextUIPart(text="", state="streaming")]]
    # without it, a malformed stream ends quietly, as in the AI SDK
    assert len(list(read_ui_message_stream([*chunks, {"type": "text-delta", "id": "x", "delta": ""}]))) == 2
    with pytest.raises(UIMessageStreamError):
        ui_message_from_chunks([{"type": "text-end", "id": "x"}])


async def test_async_sources_and_sse_fragments():
    sse = (FIXTURES / "pydantic_ai_tools.sse").read_bytes()

    async def fragments():
        for start in range(0, len(sse), 37):  # cut anywhere, as a network read may
            yield sse[start : start + 37]

    expected = ui_message_from_chunks(sse)
    assert await ui_message_from_chunks(fragments()) == expected
    snapshots = [snapshot async for snapshot in read_ui_message_stream(fragments())]
    assert snapshots[-1] == expected
    assert expected.parts[-1].text == "It is 21°C in **Paris**."


def test_typed_messages():
    from pydantic import BaseModel

    from agui_notebook.ui._parts import ToolUIPart

    class Query(BaseModel):
        city: str
        days: list[int]

    class GetWeather(ToolUIPart[Query, dict], name="get_weather"):
        pass

    chat = UIMessage[dict, Any, GetWeather | ToolUIPart]  # type: ignore[type-var]
    message = ui_message_from_chunks((FIXTURES / "pydantic_ai_tools.sse").read_text(), message_type=chat)
    weather = next(p for p in message.parts if isinstance(p, GetWeather))
    assert weather.input == Query(city="Paris", days=[1, 2])
    streaming = [
        s.parts[-1].input
        for s in read_ui_message_stream((FIXTURES / "pydantic_ai_tools.sse").read_text(), message_type=chat)
        if s.parts and isinstance(s.parts[-1], GetWeather) and s.parts[-1].state == "input-streaming"
    ]
    assert streaming == [
        None,
        {},
        {"city": "Par"},
        {"city": "Paris", "days": [1]},
        {"city": "Paris", "days": [1, 2]},
    ]


def test_docstring_examples():
    assert doctest.testmod(_read_stream).failed == 0
