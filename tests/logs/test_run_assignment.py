"""Which run each event belongs to: nesting, runs without a start, several files, no times."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agui_notebook._errors import EventLogWarning
from agui_notebook.logs._load import load_events
from agui_notebook.logs._run_assignment import assign_runs, run_keys
from agui_notebook.logs._summary import totals_df
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
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


def _run(offset: int, run_id: str, text: str, *, call: str | None = None) -> list[dict]:
    """A run of one text message (and one tool call) starting ``offset`` ms after T0."""
    events = [
        at(offset, "RUN_STARTED", threadId="t", runId=run_id),
        at(offset + 1, "TEXT_MESSAGE_START", messageId="m", role="assistant"),
        at(offset + 2, "TEXT_MESSAGE_CONTENT", messageId="m", delta=text),
        at(offset + 3, "TEXT_MESSAGE_END", messageId="m"),
    ]
    if call is not None:
        events += [
            at(offset + 4, "TOOL_CALL_START", toolCallId="c", toolCallName=call),
            at(offset + 5, "TOOL_CALL_ARGS", toolCallId="c", delta="{}"),
            at(offset + 6, "TOOL_CALL_END", toolCallId="c"),
            at(offset + 7, "TOOL_CALL_RESULT", messageId="res", toolCallId="c", content=call),
        ]
    return [*events, at(offset + 9, "RUN_FINISHED", threadId="t", runId=run_id)]


def test_runs_that_reuse_a_run_id_in_one_file_are_kept_apart() -> None:
    """A producer that reuses its run id (and message and call ids): two runs, in every table."""
    events = (
        _run(0, "r", "first", call="search") + _run(100, "r", "second", call="calc") + _run(200, "s", "x")
    )
    df = load_events(events)
    assert values(df["run_id"].drop_duplicates()) == ["r", "s"]
    assert values(df["run_key"].drop_duplicates()) == ["r#1", "r#2", "s"]
    assert df["seq"].iloc[9:11].tolist() == [0, 1]  # the second run counts from its own start
    runs = runs_df(df)
    assert values(runs["run_key"]) == ["r#1", "r#2", "s"] and values(runs["run_id"]) == ["r", "r", "s"]
    assert runs["events"].tolist() == [9, 9, 5] and runs["duration_s"].tolist() == [0.009] * 3
    messages = messages_df(df)
    assert values(messages["run_key"]) == ["r#1", "r#2", "s"]
    assert values(messages["text"]) == ["first", "second", "x"]
    calls = tool_calls_df(df)
    assert values(calls["run_key"]) == ["r#1", "r#2"] and values(calls["result"]) == ["search", "calc"]
    chunks = chunks_df(df)
    assert values(chunks["run_key"]) == ["r#1", "r#1", "r#2", "r#2", "s"]
    assert totals_df(df).loc["all", "runs"] == 3


def test_runs_that_reuse_a_run_id_across_files_are_kept_apart(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(jsonl(_run(0, "r", "first")))
    (tmp_path / "b.jsonl").write_bytes(jsonl(_run(0, "r", "second") + _run(50, "s", "x")))
    runs = runs_df(tmp_path)
    assert values(runs["run_key"]) == ["r#1", "r#2", "s"]
    assert [Path(source).name for source in runs["source"]] == ["a.jsonl", "b.jsonl", "b.jsonl"]
    assert values(messages_df(tmp_path)["run_key"]) == ["r#1", "r#2", "s"]


def test_run_keys_never_collide_with_run_ids() -> None:
    """A run whose id is ``r#2`` keeps it; the reused ``r`` takes the next free number."""
    events = _run(0, "r", "a") + _run(20, "r#2", "b") + _run(40, "r", "c")
    runs = runs_df(events)
    assert values(runs["run_key"]) == ["r#1", "r#2", "r#3"]
    assert values(runs["run_id"]) == ["r", "r#2", "r"]
    assert run_keys(["r", "", "r#1", "r", ""]) == ["r#2", "#1", "r#1", "r#3", "#2"]


def test_a_run_cut_across_files_is_one_run(tmp_path: Path) -> None:
    # A log rotated mid-run: the next file starts inside the run and its first boundary finishes it.
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN[:3]))
    (tmp_path / "b.jsonl").write_bytes(jsonl([*RUN[3:], *_run(100, "r", "again")]))
    df = load_events(tmp_path)
    assert values(df["run_key"]) == ["r#1"] * 5 + ["r#2"] * 5
    runs = runs_df(df)
    assert runs["status"].tolist() == ["success", "success"]
    assert runs["duration_s"].iloc[0] == 0.05
    assert runs["events"].tolist() == [5, 5]


def test_a_next_file_that_starts_a_run_does_not_continue_the_open_one(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN[:3]))
    (tmp_path / "b.jsonl").write_bytes(jsonl([at(5, "CUSTOM", name="x", value=1), *RUN]))
    runs = runs_df(load_events(tmp_path))
    assert runs["status"].tolist() == ["incomplete", "success"]
    assert values(runs["run_key"]) == ["r#1", "r#2"]


def test_nested_runs_stay_open_across_files(tmp_path: Path) -> None:
    outer = [at(0, "RUN_STARTED", threadId="t", runId="o"), at(1, "RUN_STARTED", threadId="t", runId="i")]
    (tmp_path / "a.jsonl").write_bytes(jsonl(outer))
    rest = [
        at(2, "CUSTOM", name="x", value=1),
        at(3, "RUN_FINISHED", threadId="t", runId="i"),
        at(4, "CUSTOM", name="y", value=2),
        at(5, "RUN_FINISHED", threadId="t", runId="o"),
    ]
    (tmp_path / "b.jsonl").write_bytes(jsonl(rest))
    df = load_events(tmp_path)
    assert values(df["run_key"]) == ["o", "i", "i", "i", "o", "o"]


def test_a_finish_without_start_claims_no_events_of_the_file_before(tmp_path: Path) -> None:
    # a.jsonl ends with a stray event after its run; b.jsonl is a cut run (its finish has no start).
    (tmp_path / "a.jsonl").write_bytes(jsonl([*RUN, at(60, "CUSTOM", name="stray", value=0)]))
    (tmp_path / "b.jsonl").write_bytes(jsonl([RUN[2], at(70, "RUN_FINISHED", threadId="t", runId="s")]))
    df = load_events(tmp_path)
    assert values(df["run_key"]) == ["r"] * 5 + [None, "s", "s"]
