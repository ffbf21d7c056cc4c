"""The events table's columns: dtypes, known values, receive times, ids filled in, sparse fields."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from agui_notebook.chat._recorder import EventRecorder
from agui_notebook.logs._columns import EVENT_COLUMNS, names
from agui_notebook.logs._load import load_events
from tests.logs.samples import CAPTURES, RUN, T0, at, jsonl, known_events, values


def test_columns_and_dtypes(known_log: Path) -> None:
    df = load_events(known_log)
    assert list(df.columns) == names(EVENT_COLUMNS)
    assert len(df) == len(known_events())
    for column in ("source", "thread_id", "run_id", "type", "message_id", "tool_call_id", "role"):
        assert isinstance(df[column].dtype, pd.CategoricalDtype), column
    assert str(df["time"].dtype) == "datetime64[ns, UTC]"
    assert df["line"].tolist() == list(range(1, len(df) + 1))
    assert df["source"].unique().tolist() == [str(known_log)]
    assert df.attrs["errors"] == []


def test_known_log_row_values(known_log: Path) -> None:
    df = load_events(known_log).set_index("line")
    # Outside any run: no run, no t, and its own position among the source's run-less events.
    assert pd.isna(df.loc[1, "run_id"]) and np.isnan(df.loc[1, "t"]) and df.loc[1, "seq"] == 0
    assert df.loc[2, ["run_id", "thread_id", "seq", "t"]].tolist() == ["r1", "t1", 0, 0.0]
    assert df.loc[5, "time"] == pd.Timestamp(T0 + 150, unit="ms", tz="UTC")
    assert df.loc[5, ["message_id", "role", "delta", "chars", "t"]].tolist() == [
        "mr",
        "reasoning",
        "Think",
        5,
        0.15,
    ]
    # The empty delta is no chunk: no text, no characters.
    assert pd.isna(df.loc[12, "delta"]) and df.loc[12, "chars"] == 0
    # Role and tool name are filled from the start events.
    assert df.loc[11, "role"] == "assistant"
    assert df.loc[18, ["tool_call_id", "tool_call_name", "delta"]].tolist() == ["c1", "search", '{"q":']
    assert df.loc[17, "parent_message_id"] == "m1"
    # Unknown types stay, in their run.
    assert df.loc[15, ["type", "run_id"]].tolist() == ["MY_CUSTOM_TYPE", "r1"]
    # Runs after the first: RUN_ERROR (which names no run) belongs to the open run.
    assert df.loc[35, ["type", "run_id", "seq", "t"]].tolist() == ["RUN_ERROR", "r2", 4, 0.5]
    assert df.loc[40, ["run_id", "t"]].tolist() == ["r4", 0.2]
    assert df["type"].value_counts()["TEXT_MESSAGE_CONTENT"] == 7


def test_full_event_column_decodes_the_event(known_log: Path) -> None:
    df = load_events(known_log)
    events = known_events()
    assert df["event"].iloc[0] == events[0]
    assert df["event"].tolist() == events
    picked = df[df["type"] == "TOOL_CALL_RESULT"]
    assert [e["toolCallId"] for e in picked["event"]] == ["c2", "c1"]


def test_recorder_records_take_receive_times(tmp_path: Path) -> None:
    # Receive times (ns) win over the events' ms timestamps and keep sub-millisecond precision.
    records = [
        {"received_ns": (T0 + ms) * 1_000_000 + 250_500, "event": e}
        for ms, e in zip([0, 12, 30, 41, 55], RUN, strict=True)
    ]
    path = tmp_path / "rec.jsonl"
    path.write_bytes(jsonl(records))
    df = load_events(path)
    assert df["time"].iloc[2] == pd.Timestamp((T0 + 30) * 1_000_000 + 250_500, unit="ns", tz="UTC")
    assert df["timestamp"].iloc[2] == pd.Timestamp(T0 + 25, unit="ms", tz="UTC")
    assert df["t"].tolist() == [0.0, 0.012, 0.03, 0.041, 0.055]
    assert df["event"].tolist() == RUN
    # The same from memory: a list of records, or anything with an `events` list of them.
    recorder = EventRecorder()
    recorder.events.extend(records)
    assert df["t"].tolist() == load_events(recorder)["t"].tolist() == load_events(records)["t"].tolist()
    assert load_events(recorder)["source"].iloc[0] == "<recorder>"


def test_mixed_records_and_bare_events_in_one_file(tmp_path: Path) -> None:
    lines = [
        {"received_ns": (T0 + 1) * 1_000_000, "event": RUN[0]},
        RUN[1],
        {"received_ns": (T0 + 30) * 1_000_000, "event": RUN[2]},
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(jsonl(lines))
    df = load_events(path)
    assert df["t"].tolist() == [0.0, 0.009, 0.029]
    assert df["event"].tolist() == RUN[:3]


def test_chunk_events_without_ids_continue_the_open_one() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(1, "TEXT_MESSAGE_CHUNK", messageId="m", role="assistant", delta="a"),
        at(2, "TEXT_MESSAGE_CHUNK", delta="b"),
        at(3, "TOOL_CALL_CHUNK", toolCallId="c", toolCallName="f", delta="{"),
        at(4, "TOOL_CALL_CHUNK", delta="}"),
    ]
    df = load_events(events)
    assert values(df["message_id"]) == [None, "m", "m", None, None]
    assert values(df["tool_call_id"]) == [None, None, None, "c", "c"]
    assert values(df["role"])[1:3] == ["assistant", "assistant"]


def test_legacy_thinking_events_are_read_as_reasoning() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(1, "THINKING_START"),
        at(2, "THINKING_TEXT_MESSAGE_START"),
        at(3, "THINKING_TEXT_MESSAGE_CONTENT", delta="hmm"),
        at(4, "THINKING_TEXT_MESSAGE_END"),
        at(5, "THINKING_END"),
    ]
    df = load_events(events)
    assert values(df["type"])[2:5] == [
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
    ]
    assert df["message_id"].iloc[2] == df["message_id"].iloc[3] and not pd.isna(df["message_id"].iloc[3])
    assert df["event"].iloc[3]["type"] == "REASONING_MESSAGE_CONTENT"


def test_subagent_and_step_columns() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(1, "STEP_STARTED", stepName="plan"),
        at(2, "SUBAGENT_STARTED", subagentRunId="s1", name="researcher"),
        at(3, "TEXT_MESSAGE_CONTENT", messageId="m", delta="x", subagentRunId="s1"),
        at(4, "STEP_FINISHED", stepName="plan"),
    ]
    df = load_events(events)
    assert values(df["step_name"]) == [None, "plan", None, None, "plan"]
    assert values(df["subagent_run_id"]) == [None, None, "s1", "s1", None]


def test_state_delta_patch_is_not_a_text_delta() -> None:
    df = load_events([at(0, "STATE_DELTA", delta=[{"op": "add", "path": "/a", "value": 1}])])
    assert pd.isna(df["delta"].iloc[0]) and df["chars"].iloc[0] == 0


def test_sse_capture_has_producer_times_and_the_ui_stream_receive_times() -> None:
    sse = load_events(CAPTURES / "pydantic_ai_run.sse")
    ui = load_events(CAPTURES / "pydantic_ai_ui_stream.jsonl")
    # The SSE capture has only the producer's millisecond timestamps; the UI stream only receive times.
    assert (sse["time"] == sse["timestamp"]).all()
    assert ui["timestamp"].isna().all() and ui["time"].notna().all()


def test_a_tool_name_and_a_role_are_filled_within_their_file(tmp_path: Path) -> None:
    # b.jsonl's events name a call and a message of a.jsonl without their start: nothing is borrowed.
    (tmp_path / "a.jsonl").write_bytes(
        jsonl([at(0, "TOOL_CALL_START", toolCallId="c", toolCallName="search"), *RUN[1:3]])
    )
    (tmp_path / "b.jsonl").write_bytes(
        jsonl(
            [at(5, "TOOL_CALL_END", toolCallId="c"), at(6, "TEXT_MESSAGE_CONTENT", messageId="m", delta="x")]
        )
    )
    df = load_events(tmp_path)
    assert values(df["tool_call_name"]) == ["search", None, None, None, None]
    assert values(df["role"]) == [None, "assistant", "assistant", None, None]
