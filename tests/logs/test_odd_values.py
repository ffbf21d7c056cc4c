"""Odd values in events (a number as a delta, a string as a timestamp, a list as an id, usage of the wrong
shape...): every table still builds, reads the value as missing (or an id as its text), and says which event
(file and line) and which field, in an EventLogWarning and in ``attrs["odd_values"]``."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from agui_notebook._errors import EventLogWarning
from agui_notebook.logs._load import load_events
from agui_notebook.logs._plots import (
    plot_reasoning_lengths,
    plot_run_timeline,
    plot_token_stream,
    plot_tool_latency,
)
from agui_notebook.logs._summary import summarize, totals_df
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import T0, at, jsonl, ts, values

LOAD_ODD = [
    at(0, "RUN_STARTED", threadId="t", runId="r"),  # 1
    at(1, "TEXT_MESSAGE_START", messageId="m", role="assistant"),  # 2
    at(2, "TEXT_MESSAGE_CONTENT", messageId="m", delta=5),  # 3: a number
    at(3, "TEXT_MESSAGE_CONTENT", messageId="m", delta=None),  # 4: null
    at(4, "TEXT_MESSAGE_CONTENT", messageId="m", delta=["a", "b"]),  # 5: a list (has a len())
    at(5, "TEXT_MESSAGE_CONTENT", messageId="m"),  # 6: missing
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "ok", "timestamp": "soon"},  # 7
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "!", "timestamp": -5},  # 8
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "?", "timestamp": 1e30},  # 9
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": ".", "timestamp": True},  # 10
    at(10, "TEXT_MESSAGE_END", messageId="m"),  # 11
    at(11, "TEXT_MESSAGE_START", messageId=7, role=3),  # 12: a number id, a number role
    at(12, "TEXT_MESSAGE_CONTENT", messageId=7, delta="seven"),  # 13
    at(13, "TEXT_MESSAGE_CONTENT", messageId="7", delta="!"),  # 14: the same text
    at(14, "TOOL_CALL_START", toolCallId=["c", 1], toolCallName={"n": 1}),  # 15: a list id, an object name
    at(15, "TOOL_CALL_ARGS", toolCallId=["c", 1], delta="{}"),  # 16
    at(16, "TOOL_CALL_END", toolCallId=["c", 1]),  # 17
    at(17, "TOOL_CALL_RESULT", messageId="res", toolCallId=["c", 1], content="done"),  # 18
    at(20, "RUN_FINISHED", threadId="t", runId="r"),  # 19
]
"""Odd values in the fields ``load_events`` itself reads; the comments give each event's line."""

TABLE_ODD = [
    at(0, "RUN_STARTED", threadId="t", runId="r", parentRunId=["p"]),  # 1
    at(1, "TOOL_CALL_START", toolCallId="c1", toolCallName="a"),  # 2
    at(2, "TOOL_CALL_RESULT", messageId="x1", toolCallId="c1", content={"rows": 3}),  # 3: an object
    at(3, "TOOL_CALL_START", toolCallId="c2", toolCallName="a"),  # 4
    at(4, "TOOL_CALL_RESULT", messageId="x2", toolCallId="c2", content=12, error={"code": 1}),  # 5
    at(5, "TOOL_CALL_START", toolCallId="c3", toolCallName="b"),  # 6
    at(6, "TOOL_CALL_RESULT", messageId="x3", toolCallId="c3", content=[1, {"type": "text", "text": 2}]),  # 7
    at(7, "REASONING_ENCRYPTED_VALUE", subtype="message", entityId=["x1"], encryptedValue="e"),  # 8
    at(8, "RUN_FINISHED", threadId="t", runId="r", usage="lots", outcome="fine"),  # 9
    at(10, "RUN_STARTED", threadId="t", runId="s"),  # 10
    at(11, "RUN_FINISHED", threadId="t", runId="s",
       usage=[{"inputTokens": "12", "outputTokens": 1e400}, 5, {"outputTokens": 2**70, "totalTokens": True}]),  # 11
    at(12, "RUN_STARTED", threadId="t", runId="u"),  # 12
    at(13, "RUN_ERROR", message={"why": "?"}, code=529),  # 13
]  # fmt: skip
"""Odd values in the fields only the tables read (payloads of the few events they decode)."""


def odd(attrs: dict) -> list[tuple]:
    return [(o["line"], o["type"], o["field"], o["problem"]) for o in attrs["odd_values"]]


def test_load_events_reads_odd_values_as_missing_and_says_where(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_bytes(jsonl(LOAD_ODD))
    for source, name in ((LOAD_ODD, "<events>"), (path, str(path))):
        with pytest.warns(
            EventLogWarning, match=rf"{re.escape(name)}:3 \(TEXT_MESSAGE_CONTENT\): delta is a num"
        ):
            df = load_events(source)
        assert len(df) == len(LOAD_ODD)
        assert {o["source"] for o in df.attrs["odd_values"]} == {name}
        assert odd(df.attrs) == [
            (3, "TEXT_MESSAGE_CONTENT", "delta", "delta is a number (read as none)"),
            (4, "TEXT_MESSAGE_CONTENT", "delta", "delta is null (read as none)"),
            (5, "TEXT_MESSAGE_CONTENT", "delta", "delta is an array (read as none)"),
            (6, "TEXT_MESSAGE_CONTENT", "delta", "delta is missing"),
            (7, "TEXT_MESSAGE_CONTENT", "timestamp", "timestamp is a string (read as none)"),
            (8, "TEXT_MESSAGE_CONTENT", "timestamp", "timestamp is negative (read as none)"),
            (9, "TEXT_MESSAGE_CONTENT", "timestamp", "timestamp is beyond the year 2262 (read as none)"),
            (10, "TEXT_MESSAGE_CONTENT", "timestamp", "timestamp is a boolean (read as none)"),
            (12, "TEXT_MESSAGE_START", "messageId", "messageId is a number (read as '7')"),
            (12, "TEXT_MESSAGE_START", "role", "role is a number (read as '3')"),
            (13, "TEXT_MESSAGE_CONTENT", "messageId", "messageId is a number (read as '7')"),
            (15, "TOOL_CALL_START", "toolCallId", """toolCallId is an array (read as '["c",1]')"""),
            (15, "TOOL_CALL_START", "toolCallName", """toolCallName is an object (read as '{"n":1}')"""),
            (16, "TOOL_CALL_ARGS", "toolCallId", """toolCallId is an array (read as '["c",1]')"""),
            (17, "TOOL_CALL_END", "toolCallId", """toolCallId is an array (read as '["c",1]')"""),
            (18, "TOOL_CALL_RESULT", "toolCallId", """toolCallId is an array (read as '["c",1]')"""),
        ]
        assert values(df["delta"].iloc[2:10]) == [None, None, None, None, "ok", "!", "?", "."]
        assert df["chars"].iloc[2:10].tolist() == [0, 0, 0, 0, 2, 1, 1, 1]
        assert values(df["timestamp"].iloc[5:10]) == [ts(5), None, None, None, None]
        assert values(df["message_id"].iloc[11:14]) == ["7", "7", "7"]
        assert values(df["tool_call_id"].iloc[14:18]) == ['["c",1]'] * 4
        assert values(df["role"].iloc[11:13]) == ["3", "3"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        messages = messages_df(df)  # the load warned; the table of that load does not again
    assert values(messages["text"]) == ["ok!?.", "seven!"]
    assert values(tool_calls_df(df)["tool_name"]) == ['{"n":1}']


def test_tables_read_odd_payloads_as_missing_and_say_where() -> None:
    df = load_events(TABLE_ODD)
    assert df.attrs["odd_values"] == []
    with pytest.warns(
        EventLogWarning, match=r"runs_df: 9 odd values in 4 events, .*<events>:1 \(RUN_STARTED\): parentRunId"
    ):
        runs = runs_df(df)
    assert odd(runs.attrs) == [
        (1, "RUN_STARTED", "parentRunId", "parentRunId is an array (read as none)"),
        (9, "RUN_FINISHED", "outcome", "outcome is a string (read as none)"),
        (9, "RUN_FINISHED", "usage", "usage is a string (read as none)"),
        (11, "RUN_FINISHED", "usage", "usage[0].inputTokens is a string (read as none)"),
        (11, "RUN_FINISHED", "usage", "usage[0].outputTokens is not a whole number of tokens (read as none)"),
        (11, "RUN_FINISHED", "usage", "usage[1] is a number (read as none)"),
        (
            11,
            "RUN_FINISHED",
            "usage",
            "usage[2].outputTokens is out of range for a token count (read as none)",
        ),
        (11, "RUN_FINISHED", "usage", "usage[2].totalTokens is a boolean (read as none)"),
        (13, "RUN_ERROR", "message", """message is an object (read as '{"why":"?"}')"""),
    ]
    assert values(runs["status"]) == ["success", "success", "error"]
    assert values(runs["parent_run_id"]) == [None, None, None]
    assert values(runs["input_tokens"]) == [None, None, None] and values(runs["output_tokens"]) == [None] * 3
    assert values(runs["error"]) == [None, None, '{"why":"?"} [529]']
    with pytest.warns(EventLogWarning, match=r"tool_calls_df: .*<events>:3 \(TOOL_CALL_RESULT\): content"):
        calls = tool_calls_df(df)
    assert odd(calls.attrs) == [
        (3, "TOOL_CALL_RESULT", "content", """content is an object (read as '{"rows":3}')"""),
        (5, "TOOL_CALL_RESULT", "content", "content is a number (read as '12')"),
        (5, "TOOL_CALL_RESULT", "error", """error is an object (read as '{"code":1}')"""),
        (7, "TOOL_CALL_RESULT", "content", "content[0] is a number (read as '1')"),
        (7, "TOOL_CALL_RESULT", "content", "content[1].text is a number (read as '2')"),
        (8, "REASONING_ENCRYPTED_VALUE", "entityId", "entityId is an array (read as none)"),
    ]
    assert values(calls["result"]) == ['{"rows":3}', "12", "12"]
    assert values(calls["error"]) == [None, '{"code":1}', None]
    assert values(calls["status"]) == ["ok", "error", "ok"]
    with pytest.warns(EventLogWarning, match=r"reasoning_df: .*entityId"):
        assert len(reasoning_df(df)) == 0
    with pytest.warns(EventLogWarning):
        totals = totals_df(df).loc["all"]
    assert totals["runs"] == 3 and totals["tool_calls"] == 3 and totals["tool_errors"] == 1
    with pytest.warns(EventLogWarning) as caught:
        summarize(df)
    # One warning per table read, each naming its events once.
    assert sorted(str(w.message).split(":")[0] for w in caught) == [
        "reasoning_df",
        "runs_df",
        "tool_calls_df",
    ]


def test_every_table_and_plot_builds_from_odd_values(tmp_path: Path) -> None:
    events = LOAD_ODD + [{**e, "timestamp": T0 + 1000 + i} for i, e in enumerate(TABLE_ODD)]
    path = tmp_path / "odd.jsonl"
    # orjson writes no integer beyond 64 bits, the standard library no 1e400.
    path.write_text("\n".join(json.dumps(e).replace("Infinity", "1e400") for e in events))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # anything but our own warning (numpy's, pandas') fails the test
        warnings.simplefilter("ignore", EventLogWarning)
        df = load_events(path)
        for table in (runs_df, messages_df, chunks_df, tool_calls_df, reasoning_df, summarize):
            assert len(table(path)) == len(table(df)), table.__name__
        for plot in (plot_run_timeline, plot_token_stream, plot_tool_latency, plot_reasoning_lengths):
            plt.close(plot(df).figure)


def test_runs_without_any_time_still_plot() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "x"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"},
        {"type": "TOOL_CALL_RESULT", "messageId": "x", "toolCallId": "c", "content": "y"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for plot in (plot_run_timeline, plot_token_stream, plot_tool_latency, plot_reasoning_lengths):
            ax = plot(events)
            plt.close(ax.figure)
        assert "no timed events" in plot_run_timeline(events).get_title()


def test_a_table_put_together_by_hand_is_read() -> None:
    """``pd.concat`` of two loads turns the categoricals into objects; the tables still read it."""
    first = load_events(
        [at(0, "RUN_STARTED", threadId="t", runId="a"), at(1, "RUN_FINISHED", threadId="t", runId="a")]
    )
    second = load_events([at(5, "RUN_STARTED", threadId="u", runId="b"), at(9, "RUN_FINISHED", threadId="u", runId="b")])  # fmt: skip
    both = pd.concat([first, second], ignore_index=True)
    runs = runs_df(both)
    assert values(runs["run_id"]) == ["a", "b"] and runs["duration_s"].tolist() == pytest.approx(
        [0.001, 0.004]
    )
    assert np.all(runs["events"] == 2)
