"""The tables: known answers on the hand-built log, structure and invariants on the real captures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from agui_notebook.logs._columns import (
    CHUNK_COLUMNS,
    MESSAGE_COLUMNS,
    REASONING_COLUMNS,
    RUN_COLUMNS,
    TOOL_CALL_COLUMNS,
    names,
)
from agui_notebook.logs._load import load_events
from agui_notebook import chunks_df, messages_df, reasoning_df, runs_df, tool_calls_df

from .conftest import CAPTURES, T0, at, known_events


def ts(ms: int) -> pd.Timestamp:
    return pd.Timestamp(T0 + ms, unit="ms", tz="UTC")


def values(column: pd.Series) -> list:
    return [None if (not isinstance(v, (list, dict)) and pd.isna(v)) else v for v in column.astype(object)]


@pytest.fixture(scope="module")
def known() -> pd.DataFrame:
    return load_events(known_events())


def test_runs_known_answers(known: pd.DataFrame) -> None:
    runs = runs_df(known)
    assert list(runs.columns) == names(RUN_COLUMNS)
    r1, r2, r3, r4 = (runs.iloc[i] for i in range(4))
    assert values(runs["run_id"]) == ["r1", "r2", "r3", "r4"]
    assert values(runs["thread_id"]) == ["t1"] * 4
    assert values(runs["parent_run_id"]) == [None, "r1", None, None]
    assert values(runs["status"]) == ["success", "error", "interrupt", "incomplete"]
    assert values(runs["error"]) == [None, "model overloaded [529]", None, None]
    assert values(runs["started_at"]) == [ts(0), ts(5000), ts(6000), ts(7000)]
    assert values(runs["finished_at"]) == [ts(3000), ts(5500), ts(6100), None]
    assert runs["events"].tolist() == [29, 5, 2, 3]
    assert runs["duration_s"].iloc[:3].tolist() == pytest.approx([3.0, 0.5, 0.1]) and np.isnan(r4.duration_s)
    # r1: the first chunk is reasoning at 150 ms, the first text at 500 ms.
    assert (r1.ttft_s, r1.time_to_first_text_s, r2.ttft_s) == pytest.approx((0.15, 0.5, 0.2))
    assert np.isnan(r3.ttft_s) and np.isnan(r4.time_to_first_text_s)
    assert runs["text_chars"].tolist() == [17, 7, 0, 0]
    assert runs["reasoning_chars"].tolist() == [9, 0, 0, 0]
    assert runs["text_chunks"].tolist() == [5, 1, 0, 0]  # the empty delta is no chunk
    assert runs["reasoning_chunks"].tolist() == [2, 0, 0, 0]
    assert runs["tool_calls"].tolist() == [2, 1, 0, 1]
    # c1 runs 1.4-2.4 s, c2 1.5-2.0 s: one second with a tool executing, not 1.5.
    assert runs["tool_time_s"].tolist() == pytest.approx([1.0, 0.0, 0.0, 0.0])
    # Gaps within messages: reasoning 0.1; text 0.1, 0.3; text 0.1 (linear interpolation for p95).
    assert (r1.itl_p50_s, r1.itl_p95_s) == pytest.approx((0.1, 0.27))
    assert np.isnan(r2.itl_p50_s)
    # 7 text/reasoning chunks from 0.15 s to 2.7 s.
    assert r1.chunks_per_s == pytest.approx(6 / 2.55) and np.isnan(r2.chunks_per_s)
    # Usage summed over the two models' entries; NA when a run reports none.
    assert values(runs["input_tokens"]) == [120, None, None, None]
    assert (r1.output_tokens, r1.reasoning_tokens, r1.cached_input_tokens, r1.total_tokens) == (15, 2, 5, 135)
    assert str(runs["output_tokens"].dtype) == "Int64"
    assert r1.tpot_s == pytest.approx(2.55 / 14) and np.isnan(r2.tpot_s)


def test_messages_known_answers(known: pd.DataFrame) -> None:
    messages = messages_df(known)
    assert list(messages.columns) == names(MESSAGE_COLUMNS)
    assert values(messages["message_id"]) == ["mr", "m1", "m2", "m3"]
    assert values(messages["run_id"]) == ["r1", "r1", "r1", "r2"]
    assert values(messages["kind"]) == ["reasoning", "text", "text", "text"]
    assert values(messages["role"]) == ["reasoning", "assistant", "assistant", "assistant"]
    assert values(messages["started_at"]) == [ts(100), ts(400), ts(2500), ts(5100)]
    # mr ends at REASONING_END; m3 never ended, so its last chunk stands in.
    assert values(messages["ended_at"]) == [ts(310), ts(1000), ts(2700), ts(5200)]
    assert messages["duration_s"].tolist() == pytest.approx([0.21, 0.6, 0.2, 0.1])
    assert messages["chunks"].tolist() == [2, 3, 2, 1]
    assert messages["chars"].tolist() == [9, 12, 5, 7]
    assert messages["words"].tolist() == [1, 2, 1, 1]
    assert messages["text"].tolist() == ["Thinking.", "Hello world!", "Done.", "Partial"]


def test_chunks_known_answers(known: pd.DataFrame) -> None:
    chunks = chunks_df(known)
    assert list(chunks.columns) == names(CHUNK_COLUMNS)
    assert chunks["delta"].tolist() == [
        "Think",
        "ing.",
        "Hello",
        " world",
        "!",
        '{"q":',
        ' "x"}',
        '{"a": 1',
        "Done",
        ".",
        "Partial",
    ]
    assert values(chunks["kind"]) == ["reasoning"] * 2 + ["text"] * 3 + ["tool_args"] * 3 + ["text"] * 3
    assert values(chunks["message_id"]) == ["mr", "mr", "m1", "m1", "m1", None, None, None, "m2", "m2", "m3"]
    assert values(chunks["tool_call_id"]) == [None] * 5 + ["c1", "c1", "c2"] + [None] * 3
    assert chunks["index"].tolist() == [0, 1, 0, 1, 2, 0, 1, 0, 0, 1, 0]
    assert chunks["chars"].tolist() == [5, 4, 5, 6, 1, 5, 5, 7, 4, 1, 7]
    assert chunks["cum_chars"].tolist() == [5, 9, 5, 11, 12, 5, 10, 7, 4, 5, 7]
    assert values(chunks["gap_s"]) == pytest.approx(
        [None, 0.1, None, 0.1, 0.3, None, 0.2, None, None, 0.1, None], nan_ok=True
    )
    assert chunks["t"].tolist() == pytest.approx([0.15, 0.25, 0.5, 0.6, 0.9, 1.1, 1.3, 1.45, 2.6, 2.7, 0.2])
    assert values(chunks["time"])[0] == ts(150)
    assert values(chunks["run_id"]) == ["r1"] * 10 + ["r2"]


def test_tool_calls_known_answers(known: pd.DataFrame) -> None:
    calls = tool_calls_df(known)
    assert list(calls.columns) == names(TOOL_CALL_COLUMNS)
    assert values(calls["tool_call_id"]) == ["c1", "c2", "c3", "c4"]
    assert values(calls["run_id"]) == ["r1", "r1", "r2", "r4"]
    assert values(calls["tool_name"]) == ["search", "calc", "search", "calc"]
    assert values(calls["parent_message_id"]) == ["m1", "m1", None, None]
    assert values(calls["started_at"]) == [ts(1000), ts(1400), ts(5300), ts(7100)]
    assert values(calls["args_end_at"]) == [ts(1400), ts(1500), None, ts(7200)]
    assert values(calls["result_at"]) == [ts(2400), ts(2000), None, None]
    assert values(calls["args_s"]) == pytest.approx([0.4, 0.1, None, 0.1], nan_ok=True)
    assert values(calls["latency_s"]) == pytest.approx([1.0, 0.5, None, None], nan_ok=True)
    assert values(calls["total_s"]) == pytest.approx([1.4, 0.6, None, None], nan_ok=True)
    assert calls["args_chars"].tolist() == [10, 7, 0, 0]
    assert calls["args_json_valid"].tolist() == [True, False, True, True]
    assert calls["args"].tolist() == [{"q": "x"}, None, {}, {}]
    # A list of parts counts its text.
    assert values(calls["result"]) == ["found it", "division", None, None]
    assert calls["result_chars"].tolist() == [8, 8, 0, 0]
    assert values(calls["error"]) == [None, "division by zero", "model overloaded [529]", None]
    assert values(calls["status"]) == ["ok", "error", "error", "pending"]


def test_reasoning_known_answers(known: pd.DataFrame) -> None:
    reasoning = reasoning_df(known)
    assert list(reasoning.columns) == [c for c in names(REASONING_COLUMNS) if c != "tokens"]
    assert values(reasoning["message_id"]) == ["mr"]
    assert values(reasoning["started_at"]) == [ts(100)] and values(reasoning["ended_at"]) == [ts(310)]
    assert reasoning["duration_s"].tolist() == pytest.approx([0.21])
    assert (reasoning["chunks"].tolist(), reasoning["chars"].tolist(), reasoning["words"].tolist()) == (
        [2],
        [9],
        [1],
    )
    assert reasoning["encrypted"].tolist() == [True]
    with_tokens = reasoning_df(known, tokenizer=lambda text: list(text))
    assert list(with_tokens.columns) == names(REASONING_COLUMNS)
    assert with_tokens["tokens"].tolist() == [9]
    assert reasoning_df(known, tokenizer=lambda text: 3)["tokens"].tolist() == [3]


def test_encrypted_only_reasoning_is_a_row() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(10, "REASONING_START", messageId="enc"),
        at(20, "REASONING_ENCRYPTED_VALUE", subtype="message", entityId="enc", encryptedValue="gAAA"),
        at(40, "REASONING_END", messageId="enc"),
    ]
    reasoning = reasoning_df(events)
    assert reasoning[["chunks", "chars", "encrypted"]].values.tolist() == [[0, 0, True]]
    assert reasoning["duration_s"].tolist() == pytest.approx([0.03])


def test_tables_accept_any_load_source(known_log: Path) -> None:
    assert runs_df(known_log)["run_id"].tolist() == runs_df(load_events(known_log))["run_id"].tolist()
    assert len(chunks_df(str(known_log))) == 11


def test_tables_of_an_empty_log() -> None:
    empty = load_events([])
    for table, columns in [(runs_df, RUN_COLUMNS), (messages_df, MESSAGE_COLUMNS), (chunks_df, CHUNK_COLUMNS),
                           (tool_calls_df, TOOL_CALL_COLUMNS)]:  # fmt: skip
        out = table(empty)
        assert list(out.columns) == names(columns) and len(out) == 0


def test_cancelled_outcome_and_run_error_usage() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="a"),
        at(5, "RUN_FINISHED", threadId="t", runId="a", outcome={"type": "cancelled"}),
        at(6, "RUN_STARTED", threadId="t", runId="b"),
        at(9, "RUN_ERROR", message="boom", usage=[{"inputTokens": 7}]),
    ]
    runs = runs_df(events)
    assert values(runs["status"]) == ["cancelled", "error"]
    assert values(runs["input_tokens"]) == [None, 7] and values(runs["output_tokens"]) == [None, None]


# -- real captures ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def captured() -> pd.DataFrame:
    return load_events(CAPTURES / "pydantic_ai_runs.jsonl")


def test_captured_runs(captured: pd.DataFrame) -> None:
    runs = runs_df(captured).set_index("run_id")
    assert dict(runs["status"].astype(str)) == {
        "text_only": "success",
        "reasoning_tool_text": "success",
        "parallel_tools": "success",
        "retried_tool": "success",
        "crashing_tool": "error",
        "needs_approval": "interrupt",
    }
    assert runs.loc["crashing_tool", "error"] == "lookup service crashed on 'y'"
    assert runs["tool_calls"].to_dict() == {
        "text_only": 0, "reasoning_tool_text": 1, "parallel_tools": 2, "retried_tool": 1, "crashing_tool": 1, "needs_approval": 1,
    }  # fmt: skip
    assert runs.loc["text_only", "text_chars"] == len("Hello, world! Here is a list:\n\n- one\n- two\n")
    assert runs.loc["reasoning_tool_text", "reasoning_chunks"] == 5
    # Invariants of real timings: ordered, positive, and the parts fit in the whole.
    assert (runs["duration_s"] > 0).all()
    assert (runs["ttft_s"] <= runs["duration_s"]).all()
    assert (
        runs["time_to_first_text_s"].dropna() >= runs["ttft_s"][runs["time_to_first_text_s"].notna()]
    ).all()
    assert (runs["tool_time_s"] < runs["duration_s"]).all()
    assert (runs["itl_p50_s"].dropna() <= runs["itl_p95_s"].dropna()).all()
    # The model sleeps 4 ms between pieces: gaps are at least that, and well under a second.
    assert runs["itl_p50_s"].dropna().between(0.003, 0.5).all()
    assert runs["output_tokens"].notna().sum() == 5  # usage reported on every RUN_FINISHED
    assert runs.loc["text_only", "tpot_s"] > 0


def test_captured_tool_calls(captured: pd.DataFrame) -> None:
    calls = tool_calls_df(captured).set_index("tool_call_id")
    assert dict(calls["status"].astype(str)) == {
        "call_w1": "ok", "call_p": "ok", "call_o": "ok", "call_f": "error", "call_b": "error", "call_d": "pending",
    }  # fmt: skip
    assert calls.loc["call_f", "error"] == "retried: lookup of 'x' failed: backend unavailable"
    assert calls.loc["call_b", "error"] == "failed: Tool execution was interrupted by an error."
    assert calls.loc["call_o", "args"] == {"city": "Oslo"} and calls["args_json_valid"].all()
    assert calls.loc["call_w1", "result"] == '{"city":"Paris","sky":"sunny","temp_c":21}'
    finished = calls.dropna(subset=["result_at"])
    assert (finished["started_at"] <= finished["args_end_at"]).all()
    assert (finished["args_end_at"] <= finished["result_at"]).all()
    assert finished["total_s"].to_numpy() == pytest.approx(
        (finished["args_s"] + finished["latency_s"]).to_numpy()
    )
    # The weather tool sleeps 20-30 ms.
    assert calls.loc[["call_w1", "call_p", "call_o"], "latency_s"].between(0.02, 1).all()


def test_captured_messages_chunks_reasoning(captured: pd.DataFrame) -> None:
    messages = messages_df(captured)
    chunks = chunks_df(captured)
    text = messages[messages["kind"] == "text"]
    # pydantic-ai opens an empty text message before tool calls.
    assert (text["chars"] == 0).sum() == 3
    assert messages["chars"].sum() == chunks.loc[chunks["kind"] != "tool_args", "chars"].sum()
    assert (messages["chars"] == messages["text"].str.len()).all()
    per_owner = chunks.groupby(
        chunks["message_id"].astype(object).fillna(chunks["tool_call_id"].astype(object))
    )
    assert (per_owner["index"].apply(lambda s: s.tolist() == list(range(len(s))))).all()
    assert (per_owner["gap_s"].apply(lambda s: np.isnan(s.iloc[0]) and (s.iloc[1:] >= 0).all())).all()
    reasoning = reasoning_df(captured)
    assert (
        reasoning["message_id"].tolist()
        == messages.loc[messages["kind"] == "reasoning", "message_id"].tolist()
    )
    assert reasoning["chars"].tolist() == [60, 18]
    assert not reasoning["encrypted"].any()


def test_sse_and_ui_stream_captures_give_the_same_shape() -> None:
    sse = load_events(CAPTURES / "pydantic_ai_run.sse")
    ui = load_events(CAPTURES / "pydantic_ai_ui_stream.jsonl")
    for frame in (sse, ui):
        runs = runs_df(frame)
        assert values(runs["status"]) == ["success"]
        assert runs[
            ["text_chars", "reasoning_chars", "text_chunks", "reasoning_chunks", "tool_calls"]
        ].values.tolist() == [[41, 60, 3, 5, 1]]
        calls = tool_calls_df(frame)
        assert values(calls["status"]) == ["ok"] and calls["args"].tolist() == [{"city": "Paris"}]
        assert calls["latency_s"].iloc[0] > 0
    # The SSE capture has only the producer's millisecond timestamps; the UI stream only receive times.
    assert (sse["time"] == sse["timestamp"]).all()
    assert ui["timestamp"].isna().all() and ui["time"].notna().all()
    # Every AG-UI event made from a UI chunk keeps the chunk.
    assert ui["event"].iloc[3]["rawEvent"]["type"] == "reasoning-delta"


def test_a_result_in_the_resumed_run_joins_its_call() -> None:
    """An approval splits a tool call across runs: START/ARGS/END in the first, RESULT in the resumed one."""
    ms = 1_700_000_000_000
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "timestamp": ms},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "delete", "timestamp": ms + 100},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"p": 1}', "timestamp": ms + 200},
        {"type": "TOOL_CALL_END", "toolCallId": "c", "timestamp": ms + 300},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1", "timestamp": ms + 400,
         "outcome": {"type": "interrupt", "interrupts": [{"id": "i", "reason": "tool_call", "toolCallId": "c"}]}},
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r2", "timestamp": ms + 5_000},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c", "messageId": "m", "content": "done", "timestamp": ms + 5_300},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r2", "timestamp": ms + 5_400},
        # the same id in another thread is another call
        {"type": "RUN_STARTED", "threadId": "u", "runId": "r3", "timestamp": ms + 6_000},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c", "messageId": "m2", "content": "x", "timestamp": ms + 6_100},
        {"type": "RUN_FINISHED", "threadId": "u", "runId": "r3", "timestamp": ms + 6_200},
    ]  # fmt: skip
    calls = tool_calls_df(events)
    assert calls[["run_id", "status", "result_chars"]].to_dict("records") == [
        {"run_id": "r1", "status": "ok", "result_chars": 4},
        {"run_id": "r3", "status": "ok", "result_chars": 1},
    ]
    assert calls.loc[0, "args"] == {"p": 1}
    assert calls.loc[0, "latency_s"] == pytest.approx(5.0)
    assert calls.loc[0, "total_s"] == pytest.approx(5.2)
    assert runs_df(events).set_index("run_id").tool_calls.to_dict() == {"r1": 1, "r2": 0, "r3": 1}
