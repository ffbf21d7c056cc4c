"""summarize and totals_df: the headline numbers, known by hand for the hand-built log; no table built twice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from agui_notebook._errors import EventLogWarning, OptionError
from agui_notebook.logs import _summary
from agui_notebook.logs._columns import SUMMARY_DISTRIBUTIONS, SUMMARY_TOTALS, names
from agui_notebook.logs._load import load_events
from agui_notebook.logs._summary import summarize, totals_df
from agui_notebook.logs.tables import _chunks, _reasoning, _runs, _shared, _tool_calls
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import CAPTURES, at, jsonl, known_events, values

LATENCIES = [name for name in names(SUMMARY_DISTRIBUTIONS) if name != "cost_usd"]


def test_known_summary() -> None:
    summary = summarize(known_events())
    assert summary.index.tolist() == LATENCIES and summary.index.name == "metric"
    assert summary.columns.tolist() == ["count", "mean", "p50", "p90", "p99"]
    assert summary["count"].dtype == np.int64
    expected = {
        # r1 0.15 s, r2 0.2 s (r3 and r4 stream nothing)
        "ttft_s": [2, 0.175, 0.175, 0.195, 0.1995],
        "time_to_first_text_s": [2, 0.35, 0.35, 0.47, 0.497],
        # gaps 0.1, 0.1, 0.3, 0.1
        "inter_chunk_latency_s": [4, 0.15, 0.1, 0.24, 0.294],
        "tpot_s": [1, *[2.55 / 14] * 4],
        # finished runs: 3.0, 0.5, 0.1
        "e2e_latency_s": [3, 1.2, 0.5, 2.5, 2.95],
        "chunks_per_s": [1, *[6 / 2.55] * 4],
        "tool_latency_s": [2, 0.75, 0.75, 0.95, 0.995],
        "reasoning_duration_s": [1, *[0.21] * 4],
    }
    for metric, row in expected.items():
        assert summary.loc[metric].tolist() == pytest.approx(row), metric


def test_known_totals() -> None:
    # r2 (error), r3 (interrupt) and r4 (incomplete) report no usage: the token totals are r1's alone.
    with pytest.warns(EventLogWarning, match=r"input_tokens/output_tokens leaves out 3 of 4 runs"):
        totals = totals_df(known_events())
    priced = ("cost_usd", "runs_without_cost")
    assert totals.columns.tolist() == [name for name in names(SUMMARY_TOTALS) if name not in priced]
    assert totals.index.tolist() == ["all"]
    expected = {
        "runs": 4, "runs_success": 1, "runs_error": 1, "runs_interrupt": 1, "runs_cancelled": 0,
        "runs_incomplete": 1,
        "span_s": 7.0,  # r1 starts at 0 s, r4 (incomplete) at 7 s
        "input_tokens": 120, "output_tokens": 15, "runs_without_usage": 3,
        # Busy time: r1 3.0 s + r2 0.5 s + r3 0.1 s (r4 never ended). Only r1 reported tokens: 15 in its 3 s,
        # not over the 7 s span, most of it idle between runs.
        "busy_s": 3.6, "output_tokens_per_s": 15 / 3.0,
        "text_chars": 24, "reasoning_chars": 9, "chunks": 8, "tool_calls": 4, "tool_errors": 2, "tool_denied": 0,
        "tool_cancelled": 0,
    }  # fmt: skip
    assert totals.loc["all"].to_dict() == pytest.approx(expected)
    assert str(totals["runs"].dtype) == "int64" and str(totals["input_tokens"].dtype) == "Int64"


def test_a_log_without_runs() -> None:
    totals = totals_df([])
    assert totals.index.tolist() == ["all"] and totals.loc["all", "runs"] == 0
    assert summarize([])["count"].tolist() == [0] * 8
    assert len(totals_df([], by="model")) == 0


def test_runs_without_streams() -> None:
    log = [{"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 0}]
    summary = summarize(log)
    assert summary.loc["ttft_s", "count"] == 0 and np.isnan(summary.loc["ttft_s", "p50"])
    totals = totals_df(log).loc["all"]
    assert totals["runs"] == 1 and totals["runs_incomplete"] == 1 and pd.isna(totals["input_tokens"])


def test_a_real_capture() -> None:
    events = load_events(CAPTURES / "pydantic_ai_runs.jsonl")
    totals = totals_df(events).loc["all"]
    assert totals[["runs", "runs_success", "runs_error", "runs_interrupt", "tool_calls", "tool_errors"]].tolist() == [
        6, 4, 1, 1, 6, 2,
    ]  # fmt: skip
    summary = summarize(events)
    for metric in ("ttft_s", "inter_chunk_latency_s", "e2e_latency_s", "tool_latency_s"):
        p50, p90, p99 = summary.loc[metric, ["p50", "p90", "p99"]]
        assert 0 < p50 <= p90 <= p99, metric


def _two_models() -> list[dict]:
    """Run a (model big) answers after 1 s, run b (model small) after 0.2 s, run c names no model."""
    usage = lambda model: [{"model": model, "inputTokens": 1_000_000, "outputTokens": 1_000}]  # noqa: E731
    return [
        at(0, "RUN_STARTED", threadId="t", runId="a"),
        at(1000, "TEXT_MESSAGE_CONTENT", messageId="m1", delta="slow"),
        at(2000, "RUN_FINISHED", threadId="t", runId="a", usage=usage("big")),
        at(3000, "RUN_STARTED", threadId="t", runId="b"),
        at(3200, "TEXT_MESSAGE_CONTENT", messageId="m2", delta="quick"),
        at(3500, "RUN_FINISHED", threadId="t", runId="b", usage=usage("small")),
        at(4000, "RUN_STARTED", threadId="t", runId="c"),
        at(4100, "RUN_FINISHED", threadId="t", runId="c"),
    ]


def test_by_model_breaks_latency_and_cost_down() -> None:
    prices = {"big": {"input": 3, "output": 15}, "small": {"input": 0.1, "output": 0.4}}
    summary = summarize(_two_models(), by="model", prices=prices)
    assert summary.index.names == ["model", "metric"]
    assert summary.loc[("big", "ttft_s"), "p50"] == pytest.approx(1.0)
    assert summary.loc[("small", "ttft_s"), "p50"] == pytest.approx(0.2)
    assert summary.loc[("big", "cost_usd"), "mean"] == pytest.approx(3 + 1_000 * 15 / 1e6)
    assert summary.loc[("small", "cost_usd"), "mean"] == pytest.approx(0.1 + 1_000 * 0.4 / 1e6)
    # the run naming no model is a group of its own, last
    assert summary.index.get_level_values("model")[-1] != summary.index.get_level_values("model")[-1]  # NaN
    assert summary.xs("e2e_latency_s", level="metric")["count"].tolist() == [1, 1, 1]
    totals = totals_df(_two_models(), by="model", prices=prices)
    assert totals["cost_usd"].iloc[:2].tolist() == pytest.approx([3.015, 0.1004])
    assert totals["runs"].tolist() == [1, 1, 1]


def test_by_source(tmp_path: Path) -> None:
    for name in ("one", "two"):
        (tmp_path / f"{name}.jsonl").write_bytes(jsonl(_two_models()))
    summary = summarize(tmp_path, by="source")
    sources = summary.index.get_level_values("source").unique().tolist()
    assert sources == [str(tmp_path / "one.jsonl"), str(tmp_path / "two.jsonl")]
    assert summary.xs("ttft_s", level="metric")["count"].tolist() == [2, 2]
    assert totals_df(tmp_path, by="source")["runs"].tolist() == [3, 3]


def test_given_tables_are_used_and_nothing_is_rebuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    events = load_events(known_events())
    runs, tools = runs_df(events), tool_calls_df(events)
    reasoning, chunks = reasoning_df(events), chunks_df(events)
    built, totals = summarize(events), totals_df(events)

    def refuse(*args, **kwargs):
        raise AssertionError("a table was rebuilt")

    monkeypatch.setattr(_summary, "kept_runs_table", refuse)
    monkeypatch.setattr(_summary, "kept_tool_calls_table", refuse)
    # Only the reasoning table and the chunk gaps are left to build, from one pass over the events.
    pd.testing.assert_frame_equal(summarize(events, runs=runs, tool_calls=tools), built)
    pd.testing.assert_frame_equal(totals_df(runs=runs, tool_calls=tools), totals)
    monkeypatch.setattr(_summary, "kept_reasoning_table", refuse)
    monkeypatch.setattr(_summary, "EventFrame", refuse)
    # Given every table, the events are not read at all.
    pd.testing.assert_frame_equal(
        summarize(runs=runs, tool_calls=tools, reasoning=reasoning, chunks=chunks), built
    )
    # What is given is what is summarized: without r1 there is one TTFT left.
    fewer = summarize(runs=runs[runs["run_id"] != "r1"], tool_calls=tools, reasoning=reasoning, chunks=chunks)
    assert fewer.loc["ttft_s", "count"] == 1


def test_tables_already_built_for_the_frame_are_reused(monkeypatch: pytest.MonkeyPatch) -> None:
    """summarize(events) after runs_df(events) and tool_calls_df(events) builds neither again, nor the chunks;
    it gives the same summary and the same warnings as when it builds them."""
    events = load_events([*known_events(), at(8000, "TOOL_CALL_RESULT", toolCallId="c4", content=5)])
    with pytest.warns(EventLogWarning) as fresh:
        built = summarize(events)
    _shared._KEPT.clear()
    with pytest.warns(EventLogWarning):
        runs_df(events)
        tool_calls_df(events)
        reasoning_df(events)

    def refuse(*args, **kwargs):
        raise AssertionError("a table was rebuilt")

    monkeypatch.setattr(_runs, "runs_table", refuse)
    monkeypatch.setattr(_tool_calls, "tool_calls_table", refuse)
    monkeypatch.setattr(_reasoning, "reasoning_table", refuse)
    monkeypatch.setattr(_chunks.Chunks, "__init__", refuse)
    with pytest.warns(EventLogWarning) as reused:
        pd.testing.assert_frame_equal(summarize(events), built)
    assert [str(w.message) for w in reused] == [str(w.message) for w in fresh]
    # A changed frame is built again.
    events["chars"] = events["chars"].where(events["type"] != "TEXT_MESSAGE_CONTENT", 0)
    with pytest.raises(AssertionError, match="rebuilt"):
        summarize(events)


def test_what_summarize_does_not_take() -> None:
    events = known_events()
    with pytest.raises(OptionError, match="by must name runs_df columns"):
        summarize(events, by="colour")
    with pytest.raises(OptionError, match="chunks="):
        summarize(runs=runs_df(events))
    with pytest.raises(OptionError, match="prices="):
        summarize(events, runs=runs_df(events), prices={})
    with pytest.raises(OptionError, match="prices"):
        totals_df(events, prices={"m": {"input": "cheap", "output": 1}})


def test_chunks_outside_any_run() -> None:
    log = [{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "a", "timestamp": 0},
           {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "b", "timestamp": 100}]  # fmt: skip
    summary = summarize(log)
    assert summary.loc["inter_chunk_latency_s", "count"] == 1 and summary.loc["ttft_s", "count"] == 0
    assert summarize(log, by="model").empty  # no run, no group


def _answered_then_failed() -> list[dict]:
    """Real pydantic-ai runs with usage: thread-1 answers, then fails (RUN_ERROR, no usage); thread-2 fails
    first, its request naming the model (as a client-side recorder sees RUN_STARTED's input); thread-3 fails
    with nothing naming its model."""
    import asyncio

    from tests.support.pydantic_ai_runs import agui_run, make_answer_or_fail_agent

    agent = make_answer_or_fail_agent()

    async def runs() -> list[dict]:
        first = await agui_run(agent, "run-1", "hello", include_usage=True)
        failed = await agui_run(agent, "run-2", "please lookup", include_usage=True)
        asked = await agui_run(agent, "run-3", "please lookup", include_usage=True, thread_id="thread-2")
        asked[0]["input"] = {"threadId": "thread-2", "runId": "run-3", "forwardedProps": {"model": "gpt-x"}}
        lone = await agui_run(agent, "run-4", "please lookup", include_usage=True, thread_id="thread-3")
        return first + failed + asked + lone

    return asyncio.run(runs())


def test_error_runs_keep_their_model() -> None:
    events = _answered_then_failed()
    assert [e.get("usage") is None for e in events if e["type"] in ("RUN_FINISHED", "RUN_ERROR")] == [
        False, True, True, True,
    ]  # fmt: skip
    runs = runs_df(events)
    assert values(runs["status"]) == ["success", "error", "error", "error"]
    assert values(runs["model"]) == ["function:answer_or_fail", "function:answer_or_fail", "gpt-x", None]
    by_model = summarize(events, by="model").xs("e2e_latency_s", level="metric")["count"]
    assert by_model.index[:2].tolist() == ["function:answer_or_fail", "gpt-x"] and pd.isna(by_model.index[2])
    assert by_model.tolist() == [2, 1, 1]


def test_a_total_that_leaves_runs_out_says_how_many() -> None:
    events = _answered_then_failed()
    with pytest.warns(EventLogWarning, match=r"totals_df: input_tokens/output_tokens leaves out 3 of 4 runs"):
        totals = totals_df(events)
    assert totals.loc["all", ["runs", "runs_without_usage", "input_tokens"]].tolist() == [4, 3, 50]
    prices = {"function:answer_or_fail": {"input": 1.0, "output": 2.0}}
    with pytest.warns(
        EventLogWarning, match=r"totals_df: cost_usd leaves out 3 of 4 runs \(no usage or no price\)"
    ):
        totals = totals_df(events, prices=prices)
    assert totals.loc["all", ["runs_without_cost"]].tolist() == [3]
    assert totals.loc["all", "cost_usd"] == pytest.approx((50 * 1.0 + 2 * 2.0) / 1e6)
    with pytest.warns(EventLogWarning, match=r"summarize: cost_usd leaves out 3 of 4 runs"):
        summary = summarize(events, prices=prices)
    assert summary.loc["cost_usd", "count"] == 1


def test_a_table_is_summarised_by_any_of_its_columns() -> None:
    events = known_events()
    calls = tool_calls_df(events)
    # c1 (search) ran 1.0 s, c2 (calc) 0.5 s; c3 (search) and c4 (calc) have no result.
    by_tool = summarize(calls, by="tool_name")
    assert by_tool.index.tolist() == [("calc", "tool_latency_s"), ("search", "tool_latency_s")]
    assert by_tool["count"].tolist() == [1, 1]
    assert by_tool["mean"].tolist() == pytest.approx([0.5, 1.0])
    by_status = summarize(calls, by=["tool_name", "status"])
    assert by_status.loc[("search", "ok", "tool_latency_s"), "count"] == 1
    runs = runs_df(events)
    assert summarize(runs, by="status").loc[("success", "e2e_latency_s"), "count"] == 1
    assert summarize(runs).equals(summarize(events).loc[list(summarize(runs).index)])
    spans = reasoning_df(events)
    assert summarize(spans, by="run_id").index.get_level_values("metric").unique().tolist() == [
        "reasoning_duration_s"
    ]
    with pytest.raises(OptionError, match=r"by must name tool_calls_df columns, not \['nope'\]"):
        summarize(calls, by="nope")
    with pytest.raises(OptionError, match="takes only by="):
        summarize(calls, runs=runs)


def test_a_grouping_says_how_many_values_it_leaves_out() -> None:
    # c0 is called and answered outside any run: no run, so no model, holds it.
    events = [
        at(0, "TOOL_CALL_START", toolCallId="c0", toolCallName="search"),
        at(100, "TOOL_CALL_END", toolCallId="c0"),
        at(300, "TOOL_CALL_RESULT", toolCallId="c0", messageId="m0", content="x"),
        at(1000, "RUN_STARTED", threadId="t", runId="r1"),
        at(1100, "TOOL_CALL_START", toolCallId="c1", toolCallName="search"),
        at(1200, "TOOL_CALL_END", toolCallId="c1"),
        at(1700, "TOOL_CALL_RESULT", toolCallId="c1", messageId="m1", content="y"),
        at(2000, "RUN_FINISHED", threadId="t", runId="r1", usage=[{"model": "m", "outputTokens": 5}]),
    ]
    with pytest.warns(EventLogWarning, match=r"summarize: by=model: values measured outside any run are in no"
                      r" group and left out \(tool_latency_s: 1\)"):  # fmt: skip
        summary = summarize(events, by="model")
    assert summary.index.get_level_values("model").unique().tolist() == ["m"]
    assert summary.loc[("m", "tool_latency_s"), ["count", "mean"]].tolist() == [1, pytest.approx(0.5)]
    with pytest.warns(EventLogWarning, match=r"totals_df: by=model: .* \(tool_calls: 1\)"):
        totals = totals_df(events, by="model")
    assert totals.loc["m", "tool_calls"] == 1
    # Without by= every value is counted.
    assert summarize(events).loc["tool_latency_s", "count"] == 2
