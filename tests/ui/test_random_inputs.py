"""Hostile input to every public reader, reducer and validator of ui/: only the package's errors, each located.

Random chunk streams of the real chunk shapes with random values (huge ints, deep nesting, lone surrogates,
NaN, unhashable ids), as objects and as SSE/JSONL bytes cut anywhere, and random UIMessages for the validators.
"""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agui_notebook import (
    UIMessageStreamError,
    iter_ui_chunks,
    read_ui_message_stream,
    safe_validate_ui_messages,
    ui_message_from_chunks,
    validate_ui_messages,
)
from agui_notebook.ui import (
    PartialJsonBuffer,
    UIMessageStreamReducer,
    get_tool_name,
    is_tool_output_error_part,
    is_tool_ui_part,
    parse_partial_json,
)
from tests.support.hostile import (
    DEEP_LIST,
    HUGE_INT,
    RANDOM_INPUT_SETTINGS,
    VALUES,
    assert_located,
    async_slices,
    chunk_sequences,
    collect_async,
    raises_only_located,
    text_form,
)
from tests.support.node import run_node_reference
from tests.wire.streams import cuts

SETTINGS = RANDOM_INPUT_SETTINGS


def _reduce(stream: list[Any], **options: Any) -> UIMessageStreamReducer:
    reducer = UIMessageStreamReducer(**options)
    for chunk in stream:
        if options.get("errors") == "collect":
            reducer.push(chunk)  # never raises
        else:
            raises_only_located(lambda chunk=chunk: reducer.push(chunk))
    reducer.settle()
    for problem in reducer.problems:
        assert_located(problem)
    return reducer


def _every_entry_point(replay: Any) -> None:
    errors: list[Exception] = []
    raises_only_located(lambda: list(read_ui_message_stream(replay(), on_error=errors.append)))
    raises_only_located(lambda: list(read_ui_message_stream(replay(), terminate_on_error=True)))
    raises_only_located(lambda: ui_message_from_chunks(replay()))
    for error in errors:
        assert_located(error)  # error chunks included: assert_located knows them


@SETTINGS
@given(chunk_sequences(), st.booleans())
def test_chunk_objects(stream: list[Any], defer: bool) -> None:
    _reduce(stream, defer_tool_input=defer)
    collected = _reduce(stream, errors="collect", defer_tool_input=defer)
    # Collecting, the message is still a model-able UIMessage or a located validation error.
    raises_only_located(lambda: ui_message_from_chunks([], message=collected.message))
    _every_entry_point(lambda: list(stream))


@SETTINGS
@given(chunk_sequences(max_size=8), st.booleans(), st.data())
def test_chunk_text_cut_anywhere(stream: list[Any], sse: bool, data: st.DataObject) -> None:
    blob = text_form(stream, sse=sse)
    pieces = data.draw(cuts(blob))
    raises_only_located(lambda: list(iter_ui_chunks(blob)))
    _every_entry_point(lambda: blob)
    _every_entry_point(lambda: list(pieces))
    raises_only_located(lambda: asyncio.run(collect_async(read_ui_message_stream(async_slices(pieces)))))
    raises_only_located(lambda: asyncio.run(ui_message_from_chunks(async_slices(pieces))))


@SETTINGS
@given(
    st.lists(
        st.fixed_dictionaries({}, optional={"type": VALUES, "text": VALUES, "state": VALUES}), max_size=3
    )
)
def test_continuing_a_random_message(parts: list[Any]) -> None:
    message = {"id": "a1", "role": "assistant", "parts": parts}
    raises_only_located(lambda: UIMessageStreamReducer(message))
    raises_only_located(
        lambda: UIMessageStreamReducer(message, errors="collect").push({"type": "start-step"})
    )


_PART = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["text", "reasoning", "tool-f", "dynamic-tool", "data-x", "file", "step-start"]
        )
        | VALUES
    },
    optional={
        "text": VALUES,
        "state": st.sampled_from(["input-available", "output-available", "done"]) | VALUES,
        "toolCallId": VALUES,
        "toolName": VALUES,
        "input": VALUES,
        "output": VALUES,
        "data": VALUES,
        "providerMetadata": VALUES,
    },
)
_MESSAGE = st.fixed_dictionaries(
    {"id": VALUES | st.just("m"), "role": st.sampled_from(["user", "assistant", "system"]) | VALUES},
    optional={"parts": st.lists(_PART | VALUES, max_size=3) | VALUES, "metadata": VALUES},
)


@SETTINGS
@given(st.lists(_MESSAGE | VALUES, max_size=3) | VALUES)
def test_validators(messages: Any) -> None:
    raises_only_located(lambda: validate_ui_messages(messages))
    raises_only_located(lambda: validate_ui_messages(messages, tools={"f": dict}, data_schemas={"x": dict}))
    result = safe_validate_ui_messages(messages)
    assert result.success or result.error is not None
    for message in messages if isinstance(messages, list) else ():
        for part in (
            message.get("parts") or ()
            if isinstance(message, dict) and isinstance(message.get("parts"), list)
            else ()
        ):
            is_tool_ui_part(part)
            is_tool_output_error_part(part)
            if is_tool_ui_part(part):
                raises_only_located(lambda part=part: get_tool_name(part))


@SETTINGS
@given(
    st.lists(
        st.text(max_size=8) | st.sampled_from(['{"a": "\\ud83d', '\\ude00"}', "[1e400", "\ud83d"]), max_size=6
    )
)
def test_partial_json(deltas: list[str]) -> None:
    buffer = PartialJsonBuffer()
    for delta in deltas:
        buffer.append(delta)
    parse_partial_json("".join(deltas))


# -- the cases from the issue, and the AI SDK's own behaviour ----------------------------------------------------

ODD_IDS = [["x"], {"a": 1}, 1, HUGE_INT, None, 1.5, True, DEEP_LIST]


@pytest.mark.parametrize("odd", ODD_IDS, ids=["list", "dict", "int", "huge", "null", "float", "bool", "deep"])
def test_odd_ids_never_leak(odd: Any) -> None:
    stream = [
        {"type": "text-start", "id": odd},
        {"type": "text-delta", "id": odd, "delta": "a"},
        {"type": "tool-input-start", "toolCallId": odd, "toolName": "f"},
        {"type": "tool-input-delta", "toolCallId": odd, "inputTextDelta": "{}"},
        {"type": "tool-output-available", "toolCallId": odd, "output": 1},
        {"type": "data-x", "id": odd, "data": 1},
    ]
    _reduce(stream)
    problems = _reduce(stream, errors="collect").problems
    # An array or object id is a fresh object: a later chunk never finds the tool call (JavaScript's ===).
    expected = [4] if isinstance(odd, (list, dict)) else []
    assert [p.chunk_index for p in problems] == expected


def test_deep_metadata_is_merged_or_a_located_error() -> None:
    stream = [
        {"type": "start", "messageMetadata": DEEP_LIST and {"a": _deep_dict(3000)}},
        {"type": "finish", "messageMetadata": {"a": _deep_dict(3000)}},
    ]
    reducer = _reduce(stream, errors="collect")
    assert reducer.problems == []
    depth, node = 0, reducer.message["metadata"]
    while node:
        node, depth = node.get("a", node.get("x")), depth + 1
    assert depth == 3001  # merged all the way down, as the AI SDK's mergeObjects does
    raises_only_located(lambda: ui_message_from_chunks(stream))


def _deep_dict(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels):
        value = {"x": value}
    return value


STREAMS_FOR_THE_AI_SDK = {
    # JavaScript keys parts by String(id): 1 and "1" are one part, [1] is "1" too, {} is "[object Object]".
    "number-and-string-ids": [
        {"type": "text-start", "id": 1},
        {"type": "text-delta", "id": "1", "delta": "a"},
        {"type": "text-delta", "id": [1], "delta": "b"},
        {"type": "text-end", "id": 1},
    ],
    "object-ids": [
        {"type": "text-start", "id": {"a": 1}},
        {"type": "text-delta", "id": {"b": 2}, "delta": "x"},
        {"type": "text-end", "id": "[object Object]"},
    ],
    "nested-list-and-huge-ids": [
        {"type": "text-start", "id": [["c"], 1, None]},
        {"type": "text-delta", "id": "c,1,", "delta": "y"},
        {"type": "text-start", "id": 10**400},  # JSON.parse: Infinity
        {"type": "text-delta", "id": "Infinity", "delta": "z"},
    ],
    "null-and-missing-ids": [
        {"type": "text-start"},
        {"type": "text-delta", "id": None, "delta": "x"},
        {"type": "text-delta", "delta": "y"},
    ],
}


@pytest.mark.node
def test_odd_ids_are_keyed_as_the_ai_sdk_keys_them() -> None:
    names = list(STREAMS_FOR_THE_AI_SDK)
    theirs = run_node_reference(
        "ai_read_stream.mjs", {"streams": [{"chunks": STREAMS_FOR_THE_AI_SDK[n]} for n in names]}
    )
    for name, result in zip(names, theirs, strict=True):
        errors: list[Exception] = []
        ours = [
            json.loads(m.model_dump_json())
            for m in read_ui_message_stream(
                copy.deepcopy(STREAMS_FOR_THE_AI_SDK[name]), on_error=errors.append
            )
        ]
        assert [m["parts"] for m in ours] == [s["parts"] for s in result["snapshots"]], name
        assert [isinstance(e, UIMessageStreamError) for e in errors] == [True] * len(result["errors"]), name
