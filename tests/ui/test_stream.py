"""The UI message stream reducer and read_ui_message_stream against the AI SDK's readUIMessageStream."""

from __future__ import annotations

import asyncio
import copy
import doctest
import json
from pathlib import Path
from typing import Any

import pytest

from agui_notebook.ui import _stream
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._chunk_source import iter_ui_chunks
from agui_notebook.ui._parts import TextUIPart, UIMessage
from agui_notebook.ui._stream import (
    UIMessageStreamError,
    UIMessageStreamErrorChunk,
    UIMessageStreamReducer,
    merge_metadata,
    read_ui_message_stream,
    ui_message_from_chunks,
)

from .pydantic_ai_streams import SCENARIOS, capture_sse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ui_streams"
# Streams whose explicit nulls in optional fields the models leave out (the AI SDK's validation rejects them).
NULLS_IN_OPTIONAL_FIELDS = {"odd_values"}


def _fixture_streams() -> dict[str, list[dict[str, Any]]]:
    streams = {path.stem: list(iter_ui_chunks(path.read_text())) for path in sorted(FIXTURES.glob("*.jsonl"))}
    streams |= {path.stem: list(iter_ui_chunks(path.read_bytes())) for path in sorted(FIXTURES.glob("*.sse"))}
    for case in json.loads((FIXTURES / "malformed.json").read_text()):
        streams[f"malformed: {case['name']}"] = case["chunks"]
    return streams


RESUMED = {
    "id": "msg-r",
    "role": "assistant",
    "parts": [
        {"type": "step-start"},
        {"type": "text", "text": "Before", "state": "done"},
        {
            "type": "tool-search",
            "toolCallId": "c9",
            "state": "input-streaming",
            "input": {"q": "pa"},
            "rawInput": '{"q": "pa',
        },
        {
            "type": "dynamic-tool",
            "toolName": "mcp",
            "toolCallId": "d9",
            "state": "input-streaming",
            "rawInput": "[1",
        },
        {"type": "data-x", "id": "dx", "data": 1},
    ],
    "metadata": {"a": 1},
}
RESUME_CHUNKS = [
    {"type": "start", "messageId": "msg-r", "messageMetadata": {"b": 2}},
    {"type": "tool-input-delta", "toolCallId": "c9", "inputTextDelta": 'ris"}'},
    {"type": "tool-input-delta", "toolCallId": "d9", "inputTextDelta": ", 2]"},
    {"type": "data-x", "id": "dx", "data": 2},
    {"type": "tool-input-available", "toolCallId": "c9", "toolName": "search", "input": {"q": "paris"}},
    {"type": "finish"},
]


def _cases(streams: dict[str, list[dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    cases = [(name, {"chunks": chunks}) for name, chunks in streams.items()]
    for name in ("tools_static", "approvals", "interleaved", "pydantic_ai_tools"):
        chunks = streams[name]
        cases += [(f"{name}[:{n}]", {"chunks": chunks[:n]}) for n in range(len(chunks))]
    cases.append(("resumed", {"chunks": RESUME_CHUNKS, "message": RESUMED}))
    cases.append(
        (
            "user message given",
            {"chunks": streams["text_basic"][1:], "message": {"id": "u", "role": "user", "parts": []}},
        )
    )
    for name in ("interleaved", "malformed: text-delta unknown id", "pydantic_ai_error"):
        cases.append((f"{name} (terminate)", {"chunks": streams[name], "terminateOnError": True}))
    return cases


def _dict_snapshots(chunks, message=None):
    """Snapshots taken from the reducer's dicts where the AI SDK emits one; and the failing chunk."""
    reducer = UIMessageStreamReducer(message)
    snapshots = []
    for chunk in chunks:
        try:
            changes = reducer.push(chunk)
        except UIMessageStreamError as error:
            return snapshots, error.chunk_index
        if changes and chunk.get("type") != "start-step":
            snapshots.append(copy.deepcopy(reducer.message))
    return snapshots, None


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


def _reference_errors(result):
    # JavaScript `Error`s come from `error` chunks; everything else is a malformed stream.
    return [("chunk" if e["name"] == "Error" else "malformed", e["chunkIndex"]) for e in result["errors"]]


@pytest.mark.node
def test_matches_read_ui_message_stream(node_reference):
    streams = _fixture_streams()
    for scenario in SCENARIOS:  # live runs of the real producer too, not only the saved captures
        streams[f"live pydantic-ai {scenario}"] = list(iter_ui_chunks(asyncio.run(capture_sse(scenario))))
    cases = _cases(streams)
    expected = node_reference("ai_read_stream.mjs", {"streams": [spec for _, spec in cases]})
    mismatches = []
    for (name, spec), reference in zip(cases, expected, strict=True):
        if spec.get("terminateOnError"):
            # The AI SDK drops snapshots still queued when the stream errors; compare where it stopped.
            # Its `thrown` index may already be past the chunk, so use the index reported to onError.
            _, _, raised = _read(spec)
            if reference["thrown"] is None or raised != reference["errors"][0]["chunkIndex"]:
                mismatches.append((name, "raised", raised, reference["errors"]))
            continue
        snapshots, failed_at = _dict_snapshots(spec["chunks"], spec.get("message"))
        if snapshots != reference["snapshots"]:
            mismatches.append((name, "reducer snapshots"))
        reference_errors = _reference_errors(reference)
        if failed_at != next((i for kind, i in reference_errors if kind == "malformed"), None):
            mismatches.append((name, "failing chunk", failed_at, reference_errors))
        model_snapshots, reported, raised = _read(spec)
        if name.split("[")[0] not in NULLS_IN_OPTIONAL_FIELDS and model_snapshots != reference["snapshots"]:
            mismatches.append((name, "model snapshots"))
        if reported != reference_errors or raised is not None:
            mismatches.append((name, "reported errors", reported, reference_errors))
    assert mismatches == []
    assert len(cases) > 120


def test_changes_describe_each_chunk():
    reducer = UIMessageStreamReducer()
    chunks = [
        {"type": "start", "messageId": "m"},
        {"type": "start-step"},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "Hi"},
        {"type": "text-delta", "id": "t", "delta": "!", "providerMetadata": {"p": {}}},
        {"type": "text-end", "id": "t"},
        {"type": "message-metadata", "messageMetadata": {"k": 1}},
        {"type": "data-x", "data": 1, "transient": True},
        {"type": "reset-step"},
        {"type": "finish"},
    ]
    assert [reducer.push(chunk) for chunk in chunks] == [
        [MessageChange("message")],
        [MessageChange("part", 0, 0)],
        [MessageChange("part", 0, 1)],
        [MessageChange("text", 0, 1, "Hi")],
        [MessageChange("part", 0, 1)],
        [MessageChange("part", 0, 1)],
        [MessageChange("metadata")],
        [],
        [MessageChange("parts")],
        [],
    ]
    assert reducer.message == {
        "id": "m",
        "role": "assistant",
        "parts": [{"type": "step-start"}],
        "metadata": {"k": 1},
    }


def test_malformed_stream_error_names_the_chunk():
    reducer = UIMessageStreamReducer()
    reducer.push({"type": "text-start", "id": "t1"})
    with pytest.raises(UIMessageStreamError) as caught:
        reducer.push({"type": "text-delta", "id": "t3", "delta": "x"})
    assert str(caught.value) == "chunk 1 (text-delta): no text part with id 't3' (send text-start first)"
    assert (caught.value.chunk_index, caught.value.chunk_type, caught.value.chunk_id) == (
        1,
        "text-delta",
        "t3",
    )
    with pytest.raises(
        UIMessageStreamError, match=r"^chunk 2 \(tool-output-available\): no tool call with id 'c7'$"
    ):
        reducer.push({"type": "tool-output-available", "toolCallId": "c7", "output": 1})


def test_lenient_mode_skips_malformed_chunks_and_collects_the_errors():
    reducer = UIMessageStreamReducer(lenient=True)
    chunks = [
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "x", "delta": "lost"},
        {"type": "tool-output-available", "toolCallId": "c", "output": 1},
        {"type": "text-delta", "id": "t", "delta": "kept"},
    ]
    assert [reducer.push(chunk) for chunk in chunks][1:3] == [[], []]
    assert [str(p) for p in reducer.problems] == [
        "chunk 1 (text-delta): no text part with id 'x' (send text-start first)",
        "chunk 2 (tool-output-available): no tool call with id 'c'",
    ]
    assert reducer.message["parts"] == [{"type": "text", "text": "kept", "state": "streaming"}]


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


def test_snapshots_are_independent_where_parts_changed():
    chunks = [{"type": "text-start", "id": "t"}] + [
        {"type": "text-delta", "id": "t", "delta": c} for c in "abc"
    ]
    chunks += [{"type": "data-x", "data": 1}]
    snapshots = list(read_ui_message_stream(chunks))
    assert [s.parts[0].text for s in snapshots] == ["", "a", "ab", "abc", "abc"]
    assert snapshots[-1].parts[0] is snapshots[-2].parts[0]  # an unchanged part is shared, not copied


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


def test_merge_metadata():
    base = {"a": {"b": 1, "c": [1]}, "d": 1}
    assert merge_metadata(base, {"a": {"c": [2], "e": None}, "__proto__": {}}) == {
        "a": {"b": 1, "c": [2], "e": None},
        "d": 1,
    }
    assert base == {"a": {"b": 1, "c": [1]}, "d": 1}
    assert merge_metadata(None, {"x": 1}) == {"x": 1}


def test_docstring_examples():
    assert doctest.testmod(_stream).failed == 0


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


# -- deferred tool inputs ------------------------------------------------------------------------------------------


def _long_arguments_stream() -> list[dict[str, Any]]:
    """Two parallel calls whose arguments interleave, a delta that leaves the JSON unparsable, and an output
    that arrives without ``tool-input-available`` (the input must be parsed before it is kept)."""
    arguments = json.dumps({"path": "notes.md", "content": "line é\n" * 300, "tags": ["a", "b"]})
    chunks: list[dict[str, Any]] = [
        {"type": "start", "messageId": "m"},
        {"type": "tool-input-start", "toolCallId": "a", "toolName": "write"},
        {"type": "tool-input-start", "toolCallId": "b", "toolName": "search", "dynamic": True},
    ]
    for i in range(0, len(arguments), 7):
        chunks.append({"type": "tool-input-delta", "toolCallId": "a", "inputTextDelta": arguments[i : i + 7]})
        if i % 70 == 0:
            chunks.append(
                {"type": "tool-input-delta", "toolCallId": "b", "inputTextDelta": "{" if i == 0 else " "}
            )
    chunks += [
        {"type": "tool-input-delta", "toolCallId": "b", "inputTextDelta": '"q": 1}x'},  # unparsable: no input
        {"type": "tool-output-available", "toolCallId": "a", "output": "ok"},
        {"type": "tool-input-delta", "toolCallId": "b", "inputTextDelta": ""},
    ]
    return chunks


@pytest.mark.parametrize(
    ("name", "chunks"), [("long arguments", _long_arguments_stream()), *_fixture_streams().items()]
)
def test_deferred_tool_inputs_settle_to_what_every_delta_gives(
    name: str, chunks: list[dict[str, Any]]
) -> None:
    eager = UIMessageStreamReducer(lenient=True)
    settled_each = UIMessageStreamReducer(lenient=True, defer_tool_input=True)
    settled_once = UIMessageStreamReducer(lenient=True, defer_tool_input=True)
    for chunk in chunks:
        expected = eager.push(chunk)
        assert settled_each.push(chunk) == expected
        settled_once.push(chunk)
        settled_each.settle()
        assert settled_each.message == eager.message, chunk
    settled_once.settle()
    assert settled_once.message == eager.message


def test_deferred_inputs_wait_for_settle() -> None:
    """The deferral is real: between settles a part keeps its last parsed input while rawInput grows."""
    reducer = UIMessageStreamReducer(defer_tool_input=True)
    reducer.push({"type": "tool-input-start", "toolCallId": "c", "toolName": "f"})
    reducer.push({"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"a": 1'})
    (part,) = reducer.message["parts"]
    assert "input" not in part and part["rawInput"] == '{"a": 1'
    reducer.settle()
    assert part["input"] == {"a": 1}
    reducer.push({"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": ', "b": 2}'})
    assert part["input"] == {"a": 1} and part["rawInput"] == '{"a": 1, "b": 2}'
    reducer.push({"type": "finish"})  # any other chunk settles first
    assert part["input"] == {"a": 1, "b": 2}
