"""Which run each event belongs to: nesting, runs without a start, several files, no times."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agui_notebook._errors import EventLogWarning
from agui_notebook.logs._load import load_events
from agui_notebook.logs._run_assignment import assign_runs
from tests.logs.samples import RUN, at, jsonl, values


def test_several_files_keep_their_runs_apart(tmp_path: Path) -> None:
    # The same run id in two files: two runs, told apart by source; a run never spills into the next file.
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN[:3]))  # no RUN_FINISHED: incomplete
    (tmp_path / "b.jsonl").write_bytes(jsonl([at(1000, "CUSTOM", name="x", value=1), *RUN]))
    (tmp_path / "notes.md").write_text("not a log")
    with pytest.warns(EventLogWarning, match="notes.md"):
        df = load_events(tmp_path)
    assert df["source"].astype(str).str.rsplit("/", n=1).str[-1].value_counts().to_dict() == {
        "b.jsonl": 6,
        "a.jsonl": 3,
    }
    b_custom = df[(df["type"] == "CUSTOM")]
    assert b_custom["run_id"].isna().all()
    assert df.groupby(["source", "run_id"], observed=True).size().tolist() == [3, 5]


def test_run_without_start_claims_the_events_before_its_finish() -> None:
    # A log cut from the middle of a run: the finish names the run.
    events = [RUN[2], RUN[3], RUN[4], at(60, "CUSTOM", name="after", value=0)]
    df = load_events(events)
    assert values(df["run_id"]) == ["r", "r", "r", None]
    assert df["t"].iloc[:3].tolist() == [0.0, 0.015, 0.025]


def test_nested_runs() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="outer"),
        at(1, "RUN_STARTED", threadId="t", runId="inner", parentRunId="outer"),
        at(2, "TEXT_MESSAGE_CONTENT", messageId="m", delta="x"),
        at(3, "RUN_FINISHED", threadId="t", runId="inner"),
        at(4, "TEXT_MESSAGE_CONTENT", messageId="m2", delta="y"),
        at(5, "RUN_FINISHED", threadId="t", runId="outer"),
    ]
    df = load_events(events)
    assert values(df["run_id"]) == ["outer", "inner", "inner", "inner", "outer", "outer"]
    assert df["seq"].tolist() == [0, 0, 1, 2, 1, 2]
    assert df["t"].tolist() == [0.0, 0.0, 0.001, 0.002, 0.004, 0.005]


def test_events_without_time() -> None:
    df = load_events(
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
        ]
    )
    assert df["time"].isna().all() and df["t"].isna().all()
    assert values(df["run_id"]) == ["r", "r"]


def test_segments_from_the_boundaries_alone() -> None:
    """Rows: outside, outer start, x, inner start, x, inner finish, x, outer finish, outside (one source)."""
    type_index = {"RUN_STARTED": 0, "TEXT_MESSAGE_CONTENT": 1, "RUN_FINISHED": 2}
    types = np.array([1, 0, 1, 0, 1, 2, 1, 2, 1], dtype=np.int16)
    run_ids = {1: 0, 3: 1, 5: 1, 7: 0}  # row -> runId code: outer 0, inner 1
    segments = assign_runs(types, type_index, np.array([0]), run_ids, {1: 0, 3: 0})
    assert (segments.starts.tolist(), segments.runs.tolist()) == ([0, 1, 3, 6, 8], [-1, 0, 1, 0, -1])
    assert segments.spread(segments.run_codes).tolist() == [-1, 0, 0, 1, 1, 1, 0, 0, -1]
    assert segments.spread(segments.thread_codes).tolist() == [-1, 0, 0, 0, 0, 0, 0, 0, -1]
    # Positions count within each run; the events outside runs count among themselves.
    assert segments.positions(np.zeros(9, dtype=np.int64)).tolist() == [0, 0, 1, 0, 1, 2, 2, 3, 1]
