"""The UI message stream reducer against the AI SDK's processUIMessageStream (through readUIMessageStream)."""

from __future__ import annotations

import copy
import doctest
import json
from typing import Any

import pytest

from agui_notebook.ui import _reducer
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._reducer import UIMessageStreamError, UIMessageStreamErrorChunk, UIMessageStreamReducer
from tests.ui.stream_cases import fixture_streams, reference_cases, reference_errors


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


@pytest.mark.node
def test_matches_process_ui_message_stream():
    mismatches = []
    for name, spec, reference in reference_cases():
        if spec.get("terminateOnError"):
            continue  # the reducer has no such option: test_read_stream covers these
        snapshots, failed_at = _dict_snapshots(spec["chunks"], spec.get("message"))
        if snapshots != reference["snapshots"]:
            mismatches.append((name, "reducer snapshots"))
        errors = reference_errors(reference)
        if failed_at != next((i for kind, i in errors if kind == "malformed"), None):
            mismatches.append((name, "failing chunk", failed_at, errors))
    assert mismatches == []


def test_non_string_values_are_appended_as_javascript_prints_them():
    # `text += delta` and `tool-${toolName}` in the AI SDK: String(value). The fixture non_string_values.jsonl
    # holds the same kinds of value for the differential test above.
    errors: list[UIMessageStreamErrorChunk] = []
    reducer = UIMessageStreamReducer(on_error=errors.append)
    reducer.push({"type": "text-start", "id": "t"})
    deltas = [
        1.0,
        2.5,
        1e21,
        1e-7,
        -0.0,
        12345678901234567890,
        [1.0, None, "a", [2, 3.5], {"k": 1}],
        {"a": 1},
    ]
    changes = [reducer.push({"type": "text-delta", "id": "t", "delta": delta}) for delta in deltas]
    reducer.push({"type": "text-delta", "id": "t", "delta": None})
    reducer.push({"type": "text-delta", "id": "t"})  # absent: undefined
    assert [change.delta for (change,) in changes] == [
        "1",
        "2.5",
        "1e+21",
        "1e-7",
        "0",
        "12345678901234567000",
        "1,,a,2,3.5,[object Object]",
        "[object Object]",
    ]
    assert reducer.message["parts"][0]["text"] == "".join(c.delta for (c,) in changes) + "nullundefined"
    reducer.push({"type": "tool-input-start", "toolCallId": "c", "toolName": 3.0})
    reducer.push({"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": [1.0]})
    reducer.push({"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": 0.5})
    assert reducer.message["parts"][1] == {
        "type": "tool-3",
        "toolCallId": "c",
        "state": "input-streaming",
        "input": 10.5,
        "rawInput": "10.5",
    }
    reducer.push({"type": "error", "errorText": 2.0})
    assert [e.error_text for e in errors] == ["2"]


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
    reducer = UIMessageStreamReducer(errors="collect")
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
    ("name", "chunks"), [("long arguments", _long_arguments_stream()), *fixture_streams().items()]
)
def test_deferred_tool_inputs_settle_to_what_every_delta_gives(
    name: str, chunks: list[dict[str, Any]]
) -> None:
    eager = UIMessageStreamReducer(errors="collect")
    settled_each = UIMessageStreamReducer(errors="collect", defer_tool_input=True)
    settled_once = UIMessageStreamReducer(errors="collect", defer_tool_input=True)
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


def test_docstring_examples():
    assert doctest.testmod(_reducer).failed == 0


@pytest.mark.parametrize(
    "chunk",
    [
        {"type": "tool-input-start", "toolCallId": ["c"], "toolName": "f"},
        {"type": "source-url"},
        {"type": "tool-input-available", "toolCallId": {"a": 1}, "toolName": 5, "input": b"x"},
        {"type": "text-delta", "id": [], "delta": None},
    ],
)
def test_collect_mode_never_raises_on_content(chunk: dict[str, Any]) -> None:
    reducer = UIMessageStreamReducer(errors="collect")
    reducer.push({"type": "start"})
    reducer.push(chunk)  # documented never to raise on content with errors="collect"
    reducer.push({"type": "finish"})
    assert isinstance(reducer.message, dict)
