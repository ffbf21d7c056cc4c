"""load_events: bad input (raised or collected), the progress bar, tables passed through, a real capture."""

from __future__ import annotations

import warnings
from pathlib import Path

import orjson
import pandas as pd
import pytest

from agui_notebook._errors import EventLogWarning
from agui_notebook.agui._intake import EventParseError
from agui_notebook.logs._load import events_table, load_events
from tests.logs.samples import CAPTURES, RUN, T0, at, jsonl, values

T0_NS = T0 * 1_000_000

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


DEEP = b'{"type": "CUSTOM", "name": "deep", "value": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
"""A line nested 10,000 levels deep: valid JSON that no reader here parses (orjson stops at 1,024)."""
HUGE_INT = b'{"type": "CUSTOM", "name": "huge", "value": ' + b"9" * 5_000 + b"}"
"""A 5,000-digit integer: beyond Python's 4,300-digit int parsing limit, read as JSON.parse reads it."""


@pytest.mark.parametrize(
    "layout",
    [
        "bare",
        "recorded",
        "deep in a field the loader reads",
        "SSE",
        "JSON array",
        "dicts nested 5,000 levels",
    ],
)
def test_a_deeply_nested_line_is_one_problem_and_the_rest_is_kept(tmp_path: Path, layout: str) -> None:
    good = jsonl(RUN)
    if layout == "bare":
        text, line = jsonl(RUN[:2]) + DEEP + b"\n" + jsonl(RUN[2:]), 3
    elif layout == "recorded":
        records = [{"received_ns": T0_NS + i, "event": e} for i, e in enumerate(RUN)]
        deep_record = b'{"received_ns": 5, "event": ' + DEEP + b"}"
        text, line = jsonl(records[:2]) + deep_record + b"\n" + jsonl(records[2:]), 3
    elif layout == "deep in a field the loader reads":
        deep_id = b'{"type": "TEXT_MESSAGE_CONTENT", "messageId": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
        text, line = jsonl(RUN[:2]) + deep_id + b"\n" + jsonl(RUN[2:]), 3
    elif layout == "SSE":
        text = b"".join(b"data: " + orjson.dumps(e) + b"\n\n" for e in RUN[:2])
        text += b"data: " + DEEP + b"\n\n" + b"".join(b"data: " + orjson.dumps(e) + b"\n\n" for e in RUN[2:])
        line = 5
    elif layout == "JSON array":
        text = b"[" + b",".join([*map(orjson.dumps, RUN[:2]), DEEP, *map(orjson.dumps, RUN[2:])]) + b"]"
        line = 3
    else:  # in memory: 5,000 levels, which neither orjson nor the standard library writes
        nested: object = []
        for _ in range(5000):
            nested = [nested]
        text, line = [*RUN[:2], {"type": "CUSTOM", "name": "deep", "value": nested}, *RUN[2:]], 3
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(good)
    bad = folder / "b.jsonl"
    if isinstance(text, bytes):
        bad.write_bytes(text)
        source: object = folder
        name = str(bad)
    else:
        source, name = text, "<events>"
    with pytest.raises(EventParseError) as caught:
        load_events(source)
    assert (caught.value.source, caught.value.line) == (name, line)
    with pytest.warns(EventLogWarning, match="skipped 1 unreadable"):
        df = load_events(source, errors="collect")
    assert [(p["source"], p["line"]) for p in df.attrs["errors"]] == [(name, line)]
    assert "nested" in df.attrs["errors"][0]["error"] or "depth" in df.attrs["errors"][0]["error"]
    expected = [e["type"] for e in RUN] * (2 if isinstance(text, bytes) else 1)
    assert values(df["type"]) == expected
    assert [df["event"].iloc[i]["type"] for i in range(len(df))] == expected


def test_a_huge_integer_reads_as_json_parse_reads_it(tmp_path: Path) -> None:
    """Beyond Python's int digits limit: infinite, as in JavaScript (and as 1e400 reads), not a lost folder."""
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN[:2]) + HUGE_INT + b"\n" + jsonl(RUN[2:]))
    (tmp_path / "b.jsonl").write_bytes(b"[" + HUGE_INT + b"]")
    df = load_events(tmp_path, errors="collect")
    assert df.attrs["errors"] == []
    huge = df[df["type"] == "CUSTOM"]["event"]
    assert [event["value"] for event in huge] == [float("inf")] * 2


def test_in_memory_values_that_are_not_json() -> None:
    """An integer beyond 64 bits is kept (read back as JSON.parse reads it); a set is not JSON: a problem."""
    events = [RUN[0], {"type": "CUSTOM", "name": "big", "value": 2**70}, {"type": "CUSTOM", "value": {1}}]
    with pytest.raises(EventParseError, match=r"<events>:3: the event cannot be kept as JSON"):
        load_events(events)
    with pytest.warns(EventLogWarning, match="skipped 1 unreadable"):
        df = load_events(events, errors="collect")
    assert values(df["type"]) == ["RUN_STARTED", "CUSTOM"]
    assert df["event"].iloc[1]["value"] == float(2**70)
    # A timestamp beyond float range, as Python holds it: infinite, so no time (an odd value, not an error).
    with pytest.warns(EventLogWarning, match="timestamp is infinite"):
        df = load_events([{"type": "CUSTOM", "timestamp": 10**400}])
    assert df["timestamp"].isna().all()


def _filler(count: int) -> list[dict]:
    """``count`` text chunks of one message in one run (no tool call, no parent id, no usage)."""
    return [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(1, "TEXT_MESSAGE_START", messageId="m", role="assistant"),
        *(at(2 + i // 1000, "TEXT_MESSAGE_CONTENT", messageId="m", delta="w ") for i in range(count)),
        at(30, "TEXT_MESSAGE_END", messageId="m"),
    ]


def _late_keys(count: int) -> list[dict]:
    """A run whose tool call, parent message id, usage and outcome keys are first seen after ``count`` rows."""
    return [
        *_filler(count),
        at(40, "TOOL_CALL_START", toolCallId="c", toolCallName="search", parentMessageId="m"),
        at(41, "TOOL_CALL_ARGS", toolCallId="c", delta='{"q": 1}'),
        at(42, "TOOL_CALL_END", toolCallId="c"),
        at(50, "TOOL_CALL_RESULT", toolCallId="c", messageId="res", content=[{"type": "text", "text": "ok"}]),
        at(60, "RUN_FINISHED", threadId="t", runId="r", usage={"inputTokens": 3, "outputTokens": 4}),
    ]


@pytest.mark.parametrize("count", [100, 20_480])
def test_keys_first_seen_late_are_read(tmp_path: Path, count: int) -> None:
    # polars infers from the first 100 rows, DuckDB samples 20,480: keys first seen after those are kept.
    from agui_notebook.logs.tables._runs import runs_df
    from agui_notebook.logs.tables._tool_calls import tool_calls_df

    path = tmp_path / "late.jsonl"
    path.write_bytes(jsonl(_late_keys(count)))
    df = load_events(path)
    assert len(df) == count + 8
    tail = df.iloc[-5:]
    assert values(tail["tool_call_name"])[:3] == ["search"] * 3
    assert values(tail["parent_message_id"])[0] == "m"
    for calls in (tool_calls_df(df), tool_calls_df(path)):
        assert calls[["tool_name", "args", "result", "status"]].values.tolist() == [
            ["search", {"q": 1}, "ok", "ok"]
        ]
    for runs in (runs_df(df), runs_df(path)):
        assert runs[["input_tokens", "output_tokens", "text_chunks"]].values.tolist() == [[3, 4, count]]


def test_mixed_type_fields_are_read(tmp_path: Path) -> None:
    # Where pyarrow and DuckDB stop: content a string then a list, delta a string then a list (STATE_DELTA).
    from agui_notebook.logs.tables._tool_calls import tool_calls_df

    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(1, "TOOL_CALL_START", toolCallId="a", toolCallName="x"),
        at(2, "TOOL_CALL_END", toolCallId="a"),
        at(3, "TOOL_CALL_RESULT", toolCallId="a", messageId="ra", content="plain"),
        at(4, "STATE_DELTA", delta=[{"op": "add", "path": "/n", "value": 1}]),
        at(5, "TOOL_CALL_START", toolCallId="b", toolCallName="x"),
        at(6, "TOOL_CALL_END", toolCallId="b"),
        at(
            7, "TOOL_CALL_RESULT", toolCallId="b", messageId="rb", content=[{"type": "text", "text": "parts"}]
        ),
        at(8, "RUN_FINISHED", threadId="t", runId="r"),
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(jsonl(_filler(150)[2:-1] + events))  # strings first, for a sampler to settle on
    df = load_events(path)
    assert df.loc[df["type"] == "STATE_DELTA", "event"].iloc[0]["delta"][0]["op"] == "add"
    for calls in (tool_calls_df(df), tool_calls_df(path)):
        assert calls["result"].tolist() == ["plain", "parts"]


def test_an_empty_file_is_listed_as_skipped_with_a_warning(tmp_path) -> None:
    import shutil

    from agui_notebook._errors import EventLogWarning
    from agui_notebook.logs.tables._runs import runs_df

    shutil.copy(CAPTURES / "pydantic_ai_runs.jsonl", tmp_path / "a.jsonl")
    (tmp_path / "b.jsonl").write_bytes(b"")
    (tmp_path / "c.jsonl").write_bytes(b"\n\n")
    empty = [
        {"path": str(tmp_path / "b.jsonl"), "reason": "empty: no events"},
        {"path": str(tmp_path / "c.jsonl"), "reason": "empty: no events"},
    ]
    with pytest.warns(EventLogWarning, match=r"2 empty files \(no events\): .*b\.jsonl', .*c\.jsonl'"):
        df = load_events(tmp_path)
    assert df.attrs["skipped"] == empty and len(df) == 86
    with pytest.warns(EventLogWarning, match=r"1 empty files"):
        assert load_events(tmp_path / "b.jsonl").attrs["skipped"] == empty[:1]
    for workers in (None, 2):  # read file by file, here and on a pool
        with pytest.warns(EventLogWarning, match=r"2 empty files"):
            runs = runs_df(tmp_path, workers=workers)
        assert runs.attrs["skipped"] == empty and len(runs) == 6


def test_timestamps_in_seconds_are_told_from_milliseconds_by_their_size() -> None:
    """LlamaIndex's integration stamps events with ``int(time())``: an SSE capture without receive times must read
    as its day, not as January 1970; a millisecond stamp of the same instant, and a small hand-written one, stay."""
    seconds = T0 // 1000
    sse = "".join(
        f"data: {orjson.dumps(event).decode()}\n\n"
        for event in [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": seconds},
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "Hi", "timestamp": seconds + 2},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "timestamp": T0 + 3000},
        ]
    )
    df = load_events(sse)
    assert values(df["timestamp"]) == [
        pd.Timestamp(T0, unit="ms", tz="UTC"),
        pd.Timestamp(T0 + 2000, unit="ms", tz="UTC"),
        pd.Timestamp(T0 + 3000, unit="ms", tz="UTC"),
    ]
    assert df["time"].equals(df["timestamp"]) and df["t"].tolist() == [0.0, 2.0, 3.0]
    # Below 1e9 a stamp stays milliseconds (an offset from the epoch, as hand-written logs count); at 1e11 too.
    small = load_events([{"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 999_999_999},
                         {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "timestamp": 100_000_000_000}])  # fmt: skip
    assert small["timestamp"].tolist() == [
        pd.Timestamp(999_999_999, unit="ms", tz="UTC"),
        pd.Timestamp(100_000_000_000, unit="ms", tz="UTC"),
    ]
