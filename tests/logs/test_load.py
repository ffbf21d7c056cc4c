"""load_events: sources, formats, columns, run assignment, times and bad input."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
import orjson
import pandas as pd
import pytest
from ag_ui.core import RunFinishedEvent, RunStartedEvent, TextMessageContentEvent, TextMessageStartEvent

from agui_notebook.agui._intake import EventParseError
from agui_notebook.logs._columns import EVENT_COLUMNS, names
from agui_notebook.logs._errors import EventLogWarning
from agui_notebook.logs._load import events_table, load_events
from agui_notebook.logs._record import EventRecorder

from .conftest import CAPTURES, T0, at, jsonl, known_events

RUN = [
    at(0, "RUN_STARTED", threadId="t", runId="r"),
    at(10, "TEXT_MESSAGE_START", messageId="m", role="assistant"),
    at(25, "TEXT_MESSAGE_CONTENT", messageId="m", delta="Hi"),
    at(40, "TEXT_MESSAGE_END", messageId="m"),
    at(50, "RUN_FINISHED", threadId="t", runId="r"),
]


def values(column: pd.Series) -> list:
    """A column's values with every kind of missing value as None."""
    return [None if pd.isna(v) else v for v in column.astype(object)]


def summary(df: pd.DataFrame) -> list[tuple]:
    """The parts of the table every format must agree on."""
    return list(
        zip(df["type"].astype(str), df["run_id"].astype(str), df["t"], df["delta"].fillna(""), strict=True)
    )


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


def test_every_source_kind_gives_the_same_table(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(jsonl(RUN))
    expected = summary(load_events(path))
    assert expected[2] == ("TEXT_MESSAGE_CONTENT", "r", 0.025, "Hi")
    text = jsonl(RUN).decode()
    sources = {
        "str path": str(path),
        "Path": path,
        "text": text,
        "bytes": text.encode(),
        "open file": io.StringIO(text),
        "binary file": io.BytesIO(text.encode()),
        "dicts": RUN,
        "tuple of dicts": tuple(RUN),
        "generator": (e for e in RUN),
        "JSON array": orjson.dumps(RUN).decode(),
        "SSE": "".join(f"data: {orjson.dumps(e).decode()}\n\n" for e in RUN),
        "SSE with comments and CRLF": ": hi\r\n"
        + "".join(f"event: x\r\ndata: {orjson.dumps(e).decode()}\r\n\r\n" for e in RUN),
        "folder": tmp_path,
        "glob": str(tmp_path / "*.jsonl"),
        "list of paths": [path],
    }
    for name, source in sources.items():
        assert summary(load_events(source)) == expected, name


def test_ag_ui_models_are_read_through_the_intake() -> None:
    models = [
        RunStartedEvent(thread_id="t", run_id="r", timestamp=T0),
        TextMessageStartEvent(message_id="m", role="assistant", timestamp=T0 + 10),
        TextMessageContentEvent(message_id="m", delta="Hi", timestamp=T0 + 25),
        RunFinishedEvent(thread_id="t", run_id="r", timestamp=T0 + 50),
    ]
    df = load_events(models)
    assert values(df["type"]) == ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "RUN_FINISHED"]
    assert df["t"].tolist() == [0.0, 0.01, 0.025, 0.05]
    assert df["event"].iloc[2] == {
        "type": "TEXT_MESSAGE_CONTENT",
        "timestamp": T0 + 25,
        "messageId": "m",
        "delta": "Hi",
    }
    assert df["source"].unique().tolist() == ["<events>"]


def test_several_files_keep_their_runs_apart(tmp_path: Path) -> None:
    # The same run id in two files: two runs, told apart by source; a run never spills into the next file.
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN[:3]))  # no RUN_FINISHED: incomplete
    (tmp_path / "b.jsonl").write_bytes(jsonl([at(1000, "CUSTOM", name="x", value=1), *RUN]))
    (tmp_path / "notes.md").write_text("not a log")
    df = load_events(tmp_path)
    assert df["source"].astype(str).str.rsplit("/", n=1).str[-1].value_counts().to_dict() == {
        "b.jsonl": 6,
        "a.jsonl": 3,
    }
    b_custom = df[(df["type"] == "CUSTOM")]
    assert b_custom["run_id"].isna().all()
    assert df.groupby(["source", "run_id"], observed=True).size().tolist() == [3, 5]


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


def test_events_without_time() -> None:
    df = load_events(
        [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
        ]
    )
    assert df["time"].isna().all() and df["t"].isna().all()
    assert values(df["run_id"]) == ["r", "r"]


def test_empty_inputs(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n\n")
    for source in ([], "", tmp_path / "empty.jsonl"):
        df = load_events(source)
        assert list(df.columns) == names(EVENT_COLUMNS) and len(df) == 0


def test_missing_paths_raise(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nothing\.jsonl"):
        load_events(str(tmp_path / "nothing.jsonl"))
    with pytest.raises(FileNotFoundError, match="no files match"):
        load_events(str(tmp_path / "*.jsonl"))
    with pytest.raises(TypeError, match="cannot load events from int"):
        load_events(42)


# -- bad input --------------------------------------------------------------------------------------------------

BAD_LINES = [
    orjson.dumps(RUN[0]).decode(),
    "{not json",
    "",
    orjson.dumps(RUN[1]).decode(),
    "[1, 2]",
    '{"no": "type"}',
    '{"received_ns": 5, "event": "oops"}',
    orjson.dumps(RUN[2]).decode(),
    '{"type": 7}',
]


def test_errors_raise_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(BAD_LINES) + "\n")
    with pytest.raises(EventParseError, match=r"bad\.jsonl:2: invalid JSON") as caught:
        load_events(path)
    assert (caught.value.source, caught.value.line) == (str(path), 2)


def test_a_log_cut_inside_its_last_line_says_so(tmp_path: Path) -> None:
    """A recorder still writing leaves a last line without its newline; the error says what that suggests."""
    path = tmp_path / "live.jsonl"
    complete = jsonl(RUN[:3])
    path.write_bytes(complete + b'{"type": "TEXT_MESSAGE_CONT')
    with pytest.raises(EventParseError, match=r"live\.jsonl:4: .*last line and has no newline") as caught:
        load_events(path)
    assert caught.value.line == 4
    with pytest.warns(EventLogWarning):
        df = load_events(path, errors="collect")
    assert len(df) == 3 and df.attrs["errors"][0]["line"] == 4
    path.write_bytes(
        complete + b'{"type": "TEXT_MESSAGE_CONT\n'
    )  # ended by a newline: broken, not unfinished
    with pytest.raises(EventParseError) as caught:
        load_events(path)
    assert "newline" not in str(caught.value)


def test_errors_collect_keeps_good_lines_and_reports_each_bad_one(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(BAD_LINES) + "\n")
    with pytest.warns(EventLogWarning, match=r"skipped 5 unreadable event\(s\)"):
        df = load_events(path, errors="collect")
    assert df["line"].tolist() == [1, 4, 8]
    assert values(df["type"]) == ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]
    problems = [(p["line"], p["error"]) for p in df.attrs["errors"]]
    assert [line for line, _ in problems] == [2, 5, 6, 7, 9]
    assert problems[1:] == [
        (5, "expected a JSON object, got an array"),
        (6, "event has no string 'type'"),
        (7, "recorded event is a string, not an object"),
        (9, "event has no string 'type'"),
    ]
    assert problems[0][1].startswith("invalid JSON")
    assert df.attrs["errors"][0]["text"] == "{not json"
    assert {p["source"] for p in df.attrs["errors"]} == {str(path)}


def test_bad_lines_deep_in_a_big_file_are_found(tmp_path: Path) -> None:
    # Far past the first slice, so the fast path has to fall back to the slow one for that slice only.
    events = [at(i, "TEXT_MESSAGE_CONTENT", messageId="m", delta="x" * 50) for i in range(30_000)]
    lines = [orjson.dumps(e).decode() for e in events]
    lines[25_000] = '{"type": "TEXT_MESSAGE_CONTENT", "delta": '
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(lines))
    with pytest.raises(EventParseError, match=r"big\.jsonl:25001: invalid JSON"):
        load_events(path)
    with pytest.warns(EventLogWarning):
        df = load_events(path, errors="collect")
    assert len(df) == 29_999 and df["line"].iloc[-1] == 30_000 and df["line"].iloc[25_000] == 25_002


def test_bad_items_in_lists_and_sse() -> None:
    with pytest.raises(EventParseError, match=r"<events>:2: expected an event"):
        load_events([RUN[0], 5])
    sse = f"data: {orjson.dumps(RUN[0]).decode()}\n\ndata: {{oops\n\ndata: [DONE]\n\n"
    with pytest.raises(EventParseError, match=r"<text>:3: invalid JSON"):
        load_events(sse)
    with pytest.warns(EventLogWarning):
        assert len(load_events(sse, errors="collect")) == 1


def test_not_a_log() -> None:
    with pytest.raises(EventParseError, match="not JSON, JSONL or SSE"):
        load_events("hello\nworld")
    with pytest.raises(ValueError, match="errors must be"):
        load_events(RUN, errors="ignore")


def test_progress_bar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(jsonl(RUN))
    load_events(path, progress=True)
    assert "loading events" in capsys.readouterr().err
    load_events(path, progress=False)
    load_events(path)  # shown only after half a second: nothing for a small file
    assert capsys.readouterr().err == ""


def test_events_table_passes_tables_through(known_log: Path) -> None:
    df = load_events(known_log)
    assert events_table(df) is df
    assert load_events(df) is df
    with pytest.raises(ValueError, match="not an events table"):
        events_table(pd.DataFrame({"x": [1]}))


def test_real_capture_loads(recwarn: pytest.WarningsRecorder) -> None:
    df = load_events(CAPTURES / "pydantic_ai_runs.jsonl")
    assert df.attrs["errors"] == [] and not recwarn.list
    assert df["run_id"].nunique() == 6 and df["run_id"].notna().all()
    assert set(df["thread_id"].astype(str)) == {"thread-0", "thread-1"}
    # Receive times are sub-millisecond and never go backwards in a recorded log.
    assert df["time"].is_monotonic_increasing
    assert (df["time"].astype("int64") % 1_000_000 != 0).mean() > 0.9
    assert (df["t"] >= 0).all()
    # Producer timestamps are ms and trail the receive time by less than a second where present.
    lag = (df["time"] - df["timestamp"]).dt.total_seconds().dropna()
    assert ((lag > -0.001) & (lag < 1)).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert df["event"].iloc[0]["type"] == "RUN_STARTED"
