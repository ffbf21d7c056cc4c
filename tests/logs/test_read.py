"""The batch reader: the one-call fast path, its fallbacks, and the formats it tells apart."""

from __future__ import annotations

import numpy as np
import orjson
import pytest

from agui_notebook.logs._event_array import EventBlob
from agui_notebook.logs._read import NO_TIME, Problems, _fast_slice, read_buffer, read_items, value_runs

MIXED = [
    {"type": "TOOL_CALL_RESULT", "messageId": "a", "toolCallId": "c", "content": "text"},
    {
        "type": "TOOL_CALL_RESULT",
        "messageId": "b",
        "toolCallId": "d",
        "content": [{"type": "text", "text": "x"}],
    },
    {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a", "value": 1}]},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "hi", "timestamp": 5},
    {"type": "CUSTOM", "name": "n", "value": None},
]


def piece(events: list) -> bytes:
    return b"\n".join(orjson.dumps(e) for e in events)


def test_mixed_field_types_stay_on_the_fast_path() -> None:
    data = piece(MIXED)
    batch = _fast_slice(data, 1, EventBlob(data))
    assert batch is not None
    assert batch.events == MIXED
    assert batch.lines.tolist() == [1, 2, 3, 4, 5] and batch.blob_lines.tolist() == [0, 1, 2, 3, 4]
    assert batch.type_values.tolist() == ["TOOL_CALL_RESULT", "STATE_DELTA", "TEXT_MESSAGE_CONTENT", "CUSTOM"]
    assert batch.type_starts.tolist() == [0, 2, 3, 4]
    assert batch.received_ns is None


def test_fast_path_declines_what_the_slow_path_must_explain() -> None:
    for lines in ([b'{"type":"A"}', b""], [b'{"type":"A"}', b"{oops"], [b'{"type":"A"}', b"[1]"],
                  [b'{"type":"A"}', b'{"type":3}'], [b'{"type":"A"}, {"type":"B"}']):  # fmt: skip
        data = b"\n".join(lines)
        assert _fast_slice(data, 1, EventBlob(data)) is None, lines


def test_recorder_records_on_the_fast_path() -> None:
    records = [{"received_ns": 10 + i, "event": e} for i, e in enumerate(MIXED)]
    data = piece(records)
    batch = _fast_slice(data, 1, EventBlob(data))
    assert batch is not None and batch.events == MIXED
    assert batch.received_ns.tolist() == [10, 11, 12, 13, 14]


def test_formats_by_first_characters() -> None:
    problems = Problems("raise")
    jsonl = b"\xef\xbb\xbf\n\n" + piece(MIXED) + b"\n\n"
    batches = list(read_buffer("x", jsonl, problems))
    assert [b.lines.tolist() for b in batches] == [[3, 4, 5, 6, 7]]
    array = list(read_buffer("x", orjson.dumps(MIXED), problems))
    assert array[0].events == MIXED and array[0].lines.tolist() == [1, 2, 3, 4, 5]
    sse = b"".join(b"data: " + orjson.dumps(e) + b"\n\n" for e in MIXED[:2])
    assert [b.lines.tolist() for b in read_buffer("x", sse, problems)] == [[1, 3]]
    multi_line = b'data: {"type":\ndata: "A"}\n\n'
    (batch,) = read_buffer("x", multi_line, problems)
    assert batch.events == [{"type": "A"}] and batch.blob.data == b'{"type":"A"}'


def test_items_and_records_in_memory() -> None:
    (batch,) = read_items("<events>", [MIXED[0], {"received_ns": 7, "event": MIXED[1]}], Problems("raise"))
    assert batch.events == MIXED[:2]
    assert batch.received_ns.tolist() == [NO_TIME, 7]
    problems = Problems("collect")
    (batch,) = read_items("<events>", [MIXED[0], "text", {"no": "type"}], problems)
    assert [(p["line"], p["error"]) for p in problems.items] == [
        (2, "expected an event (a dict or an ag_ui.core model), got str"),
        (3, "event has no string 'type'"),
    ]


def test_value_runs() -> None:
    starts, values = value_runs(["a", "a", None, None, "b", "a"])
    assert starts.tolist() == [0, 2, 4, 5] and values.tolist() == ["a", None, "b", "a"]
    starts, values = value_runs(np.array([], dtype=object))
    assert starts.tolist() == [] and values.tolist() == []


def test_problems_mode() -> None:
    with pytest.raises(ValueError, match="errors must be"):
        Problems("skip")
