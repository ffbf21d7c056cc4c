"""EventArray: the event column keeps raw JSON and decodes on access, through pandas operations."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

from agui_notebook.logs._event_array import EventArray, EventBlob, EventDtype

EVENTS = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "héllo\nworld"},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
]


@pytest.fixture
def frame() -> pd.DataFrame:
    return pd.DataFrame({"n": [1, 2, 3], "event": EventArray.from_events(EVENTS)})


def test_decodes_on_access(frame: pd.DataFrame) -> None:
    assert frame["event"].dtype == EventDtype() and str(frame["event"].dtype) == "agui_event"
    assert frame["event"].iloc[1] == EVENTS[1]
    assert frame["event"].tolist() == EVENTS
    # A fresh dict every time: changing it does not change the table.
    frame["event"].iloc[0]["runId"] = "changed"
    assert frame["event"].iloc[0]["runId"] == "r"


def test_survives_filtering_sorting_concat_and_pickle(frame: pd.DataFrame) -> None:
    assert frame[frame["n"] > 1]["event"].tolist() == EVENTS[1:]
    assert frame.sort_values("n", ascending=False)["event"].tolist() == EVENTS[::-1]
    both = pd.concat([frame, frame], ignore_index=True)
    assert both["event"].tolist() == EVENTS * 2
    assert len(both["event"].array._blobs) == 1  # the buffer is shared, not copied
    assert pickle.loads(pickle.dumps(frame))["event"].tolist() == EVENTS
    assert frame.reindex([0, 5])["event"].tolist() == [EVENTS[0], None]
    assert frame["event"].map(lambda e: e["type"]).tolist() == [e["type"] for e in EVENTS]
    assert frame.to_dict("records")[1]["event"] == EVENTS[1]


def test_missing_and_assignment(frame: pd.DataFrame) -> None:
    array = EventArray.from_events([EVENTS[0], None])
    assert array.isna().tolist() == [False, True] and array[1] is None
    frame["event"].array[2] = {"type": "CUSTOM", "name": "x", "value": 1}
    assert frame["event"].iloc[2]["type"] == "CUSTOM"
    with pytest.raises(ValueError, match="only be filled with None"):
        frame["event"].array.take([0, -1], allow_fill=True, fill_value={"type": "X"})


def test_reads_lines_of_a_buffer_as_they_were_written() -> None:
    data = b'{"type":"A"}\r\ndata: {"type":"B"}\n{"received_ns":5,"event":{"type":"C"}}\n{"type":"RAW","event":{"x":1}}'
    blob = EventBlob(data)
    array = EventArray.from_blob(blob, np.array([0, 1, 2, 3]))
    assert array.tolist() == [{"type": "A"}, {"type": "B"}, {"type": "C"}, {"type": "RAW", "event": {"x": 1}}]
    assert array.raw(1) == b'data: {"type":"B"}'
    assert array.nbytes == len(data) + 4 * 2 + 4 * 8


def test_repr_is_short(frame: pd.DataFrame) -> None:
    text = repr(frame)
    assert '{"type":"RUN_STARTED","threadId":"t","runId":"r"}' in text
    long = pd.Series(EventArray.from_events([{"type": "X", "value": "y" * 500}]))
    assert max(len(line) for line in repr(long).splitlines()) < 100
