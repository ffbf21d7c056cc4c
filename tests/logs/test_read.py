"""The batch reader: the one-call fast path, its fallbacks, and the formats it tells apart."""

from __future__ import annotations

import numpy as np
import orjson
import pytest
from msgspec import UNSET

from agui_notebook.logs._event_array import EventBlob
from agui_notebook.logs._read import (
    NO_TIME,
    Batch,
    Problems,
    _dict_slice,
    _struct_slice,
    read_buffer,
    read_items,
    value_runs,
)

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


def fields(batch: Batch, key: str) -> list:
    return list(batch.field(key))


def test_mixed_field_types_stay_on_the_struct_path() -> None:
    data = piece(MIXED)
    batch = _struct_slice(data, 1, EventBlob(data))
    assert batch is not None and batch.structs
    assert fields(batch, "type") == [e["type"] for e in MIXED]
    assert fields(batch, "toolCallId") == ["c", "d", None, None, None]
    assert batch.deltas.tolist() == [UNSET, UNSET, MIXED[2]["delta"], "hi", UNSET]  # told apart from null
    assert batch.message_ids.tolist() == ["a", "b", None, "m", None]
    assert np.isnan(batch.timestamps[[0, 1, 2, 4]]).all() and batch.timestamps[3] == 5.0
    assert batch.lines.tolist() == [1, 2, 3, 4, 5] and batch.blob_lines.tolist() == [0, 1, 2, 3, 4]
    assert batch.type_values.tolist() == ["TOOL_CALL_RESULT", "STATE_DELTA", "TEXT_MESSAGE_CONTENT", "CUSTOM"]
    assert batch.type_starts.tolist() == [0, 2, 3, 4]
    assert batch.received_ns is None


def test_dict_path_reads_the_same_fields() -> None:
    data = piece(MIXED)
    batch = _dict_slice(data, 1, EventBlob(data))
    assert batch is not None and not batch.structs and batch.events == MIXED
    assert fields(batch, "toolCallId") == ["c", "d", None, None, None]
    assert batch.deltas.tolist()[2:4] == [MIXED[2]["delta"], "hi"]
    assert batch.type_starts.tolist() == [0, 2, 3, 4]


def test_both_fast_paths_decline_what_the_slow_path_must_explain() -> None:
    for lines in ([b'{"type":"A"}', b""], [b'{"type":"A"}', b"{oops"], [b'{"type":"A"}', b"[1]"],
                  [b'{"type":"A"}', b'{"type":3}'], [b'{"type":"A"}, {"type":"B"}'],
                  [b'{"type":"A"}', b'{"type":"B","x":"\xff"}'],  # invalid UTF-8 in a field not read
                  [b'{"type":"A"}', b'{"type":"B","x":"\\ud800"}']):  # fmt: skip
        data = b"\n".join(lines)
        assert _struct_slice(data, 1, EventBlob(data)) is None, lines
        assert _dict_slice(data, 1, EventBlob(data)) is None, lines


def test_struct_path_leaves_rewritten_and_odd_events_to_the_dict_path() -> None:
    for events in (
        [{"type": "RUN_STARTED"}, {"type": "THINKING_START"}],  # legacy: upgraded whole
        [{"type": "start"}, {"type": "text-delta", "id": "t", "delta": "x"}],  # AI SDK chunks: converted
        [{"type": "A", "timestamp": True}],  # a timestamp that is no number
        [{"type": "A", "timestamp": "12"}],
    ):
        data = piece(events)
        assert _struct_slice(data, 1, EventBlob(data)) is None, events
        assert _dict_slice(data, 1, EventBlob(data)) is not None, events


def test_null_timestamps_and_non_ascii_text_stay_on_the_struct_path() -> None:
    events = [{"type": "A", "timestamp": None}, {"type": "B", "delta": "grüße 👋", "timestamp": 7}]
    data = piece(events)
    batch = _struct_slice(data, 1, EventBlob(data))
    assert batch is not None
    assert np.isnan(batch.timestamps[0]) and batch.timestamps[1] == 7.0
    assert batch.deltas.tolist() == [UNSET, "grüße 👋"]


def test_numbers_beyond_float_range_read_as_infinite_on_every_path() -> None:
    # JSON.parse reads 1e400 as Infinity; orjson refuses it, msgspec skips it unread.
    line = b'{"type":"CUSTOM","name":"n","value":1e400}'
    assert _struct_slice(line, 1, EventBlob(line)) is not None
    data = line + b"\n{oops"  # the broken line sends the slice down the line-by-line path
    problems = Problems("collect")
    (batch,) = read_buffer("x", data, problems)
    assert batch.lines.tolist() == [1] and [p["line"] for p in problems.items] == [2]
    assert batch.blob.decode(0)["value"] == float("inf")


def test_recorder_records_on_both_fast_paths() -> None:
    records = [{"received_ns": 10 + i, "event": e} for i, e in enumerate(MIXED)]
    data = piece(records)
    for read in (_struct_slice, _dict_slice):
        batch = read(data, 1, EventBlob(data))
        assert batch is not None
        assert fields(batch, "type") == [e["type"] for e in MIXED]
        assert batch.received_ns.tolist() == [10, 11, 12, 13, 14]
    # A bare event among records, or a record whose time is not an integer: the line-by-line path.
    raw = {"type": "RAW", "event": {"type": "CUSTOM", "name": "inner"}, "source": "s"}  # bare, with an event
    for odd in (
        MIXED[0],
        raw,
        {"received_ns": 1.5, "event": MIXED[0]},
        {"received_ns": True, "event": MIXED[0]},
    ):
        data = piece([*records[:2], odd])
        assert _struct_slice(data, 1, EventBlob(data)) is None
        assert _dict_slice(data, 1, EventBlob(data)) is None
        (batch,) = read_buffer("x", data, Problems("raise"))
        assert batch.received_ns.tolist() == [10, 11, NO_TIME]
        assert list(batch.field("type"))[2] == (odd["type"] if "type" in odd else odd["event"]["type"])


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


def test_a_recorded_receive_time_beyond_int64_is_an_odd_value_not_a_crash(tmp_path) -> None:
    """A recorder file's struct fast path met ``received_ns`` 2**63 (found by test_random_inputs): the line is
    read on the dict path, its time missing and reported."""
    from agui_notebook.logs._load import load_events

    path = tmp_path / "log.jsonl"
    path.write_bytes(
        b'{"received_ns":1700000000000000000,"event":{"type":"RUN_STARTED","threadId":"t","runId":"r"}}\n'
        b'{"received_ns":9223372036854775808,"event":{"type":"RUN_FINISHED","threadId":"t","runId":"r"}}\n'
    )
    with pytest.warns(UserWarning, match="odd value"):
        df = load_events(path)
    assert df["time"].isna().tolist() == [False, True]
    assert [(v["line"], v["field"]) for v in df.attrs["odd_values"]] == [(2, "received_ns")]
