"""runs_df: known answers on the hand-built log, outcomes, and the real captures' runs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from agui_notebook._errors import OptionError
from agui_notebook.logs._columns import RUN_COLUMNS, names
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._runs import runs_df
from tests.logs.samples import CAPTURES, at, ts, values


def test_runs_known_answers(known: pd.DataFrame) -> None:
    runs = runs_df(known)
    assert list(runs.columns) == [name for name in names(RUN_COLUMNS) if name != "cost_usd"]
    # r2 failed and r4 never ended: no usage, so their model is the thread's previous run's. r3 finished (an
    # interrupt) and named none: it has none.
    assert values(runs["model"]) == ["a + b", "a + b", None, "a + b"]
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


def test_sse_and_ui_stream_captures_give_the_same_runs() -> None:
    for name in ("pydantic_ai_run.sse", "pydantic_ai_ui_stream.jsonl"):
        runs = runs_df(load_events(CAPTURES / name))
        assert values(runs["status"]) == ["success"]
        assert runs[
            ["text_chars", "reasoning_chars", "text_chunks", "reasoning_chunks", "tool_calls"]
        ].values.tolist() == [[41, 60, 3, 5, 1]]


def test_model_from_usage_or_metadata_and_cost_from_prices() -> None:
    events = [
        # usage entries name the model (AG-UI 1.0, pydantic-ai's include_usage)
        at(0, "RUN_STARTED", threadId="t", runId="u"),
        at(9, "RUN_FINISHED", threadId="t", runId="u", usage=[
            {"model": "big", "inputTokens": 1_000, "cachedInputTokens": 400, "outputTokens": 100},
            {"model": "small", "inputTokens": 2_000_000, "outputTokens": 10},
        ]),
        # AG-UI message metadata names it; the usage entry does not
        at(10, "RUN_STARTED", threadId="t", runId="m"),
        at(11, "TEXT_MESSAGE_START", messageId="x", role="assistant", metadata={"model": "small"}),
        at(19, "RUN_FINISHED", threadId="t", runId="m", usage=[{"inputTokens": 1_000_000}]),
        # a model without a price, and a run without usage
        at(20, "RUN_STARTED", threadId="t", runId="n", metadata={"model": "unknown"}),
        at(21, "RUN_FINISHED", threadId="t", runId="n", usage={"inputTokens": 5}),
        at(30, "RUN_STARTED", threadId="t", runId="e"),
        at(31, "RUN_FINISHED", threadId="t", runId="e"),
    ]  # fmt: skip
    prices = {
        "big": {"input": 3.0, "output": 15.0, "cached_input": 0.3},
        "small": {"input": 0.1, "output": 0.4},
    }
    with pytest.warns(UserWarning, match="no price for 'unknown'"):
        runs = runs_df(events, prices=prices)
    assert values(runs["model"]) == ["big + small", "small", "unknown", None]
    big = (600 * 3.0 + 400 * 0.3 + 100 * 15.0) / 1e6
    small = (2_000_000 * 0.1 + 10 * 0.4) / 1e6
    assert values(runs["cost_usd"]) == pytest.approx([big + small, 0.1, None, None], nan_ok=True)
    assert runs.attrs["unpriced_models"] == ["unknown"]
    assert "cost_usd" not in runs_df(events).columns


@pytest.mark.parametrize(
    "prices",
    [
        {"m": {"input": 1}},
        {"m": {"input": 1, "output": -1}},
        {"m": {"input": 1, "output": 2, "cache": 1}},
        ["m"],
    ],
)
def test_prices_that_are_not_prices_are_refused(prices) -> None:
    with pytest.raises(OptionError, match="prices"):
        runs_df([at(0, "RUN_STARTED", threadId="t", runId="r")], prices=prices)


def test_models_of_the_real_captures() -> None:
    runs = runs_df(load_events(CAPTURES / "pydantic_ai_runs.jsonl"))
    # The crashed run's RUN_ERROR reports no usage: its model is its thread's (thread-0's) previous run's. (Each
    # capture has a model of its own, so here that is another function's name; a real thread keeps its model.)
    assert values(runs["thread_id"]) == ["thread-0", "thread-1"] * 3
    assert values(runs["model"]) == [
        "function::text_only", "function::reasoning_tool_text", "function::parallel_tools",
        "function::retried_tool", "function::parallel_tools", "function::needs_approval",
    ]  # fmt: skip


def test_the_ai_sdk_message_metadata_names_the_model() -> None:
    chunks = [
        {"type": "start", "messageId": "msg", "messageMetadata": {"model": "gpt-x"}},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "hi"},
        {"type": "text-end", "id": "t"},
        {"type": "finish"},
        {"type": "start", "messageId": "msg2"},
        {"type": "message-metadata", "messageMetadata": {"model": "gpt-y", "createdAt": 1}},
        {"type": "finish"},
    ]
    assert values(runs_df(chunks)["model"]) == ["gpt-x", "gpt-y"]


def test_usage_in_microsoft_agent_frameworks_custom_events() -> None:
    """agent-framework-ag-ui 1.7.0 sends no usage on RUN_FINISHED: a CUSTOM ``usage`` event per model response,
    its value agent-framework-core 1.26.0's UsageDetails (``_run_common._emit_usage``)."""
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(10, "TOOL_CALL_START", toolCallId="c", toolCallName="get_weather", parentMessageId="m1"),
        at(11, "TOOL_CALL_ARGS", toolCallId="c", delta='{"city":"Paris"}'),
        at(12, "TOOL_CALL_END", toolCallId="c"),
        at(13, "CUSTOM", name="usage", value={"input_token_count": 52, "output_token_count": 17,
                                               "total_token_count": 69}),
        at(20, "TOOL_CALL_RESULT", toolCallId="c", messageId="tr", content="sunny", role="tool"),
        at(30, "TEXT_MESSAGE_START", messageId="m2", role="assistant"),
        at(31, "TEXT_MESSAGE_CONTENT", messageId="m2", delta="It is sunny."),
        at(32, "TEXT_MESSAGE_END", messageId="m2"),
        at(33, "CUSTOM", name="usage", value={"input_token_count": 80, "output_token_count": 6,
                                               "total_token_count": 86, "cache_read_input_token_count": 64,
                                               "reasoning_output_token_count": 2}),
        at(40, "RUN_FINISHED", threadId="t", runId="r"),
        # A run whose end reports usage keeps it: the producer's events are not added to it.
        at(50, "RUN_STARTED", threadId="t", runId="s"),
        at(51, "CUSTOM", name="usage", value={"input_token_count": 1, "output_token_count": 1}),
        at(52, "RUN_FINISHED", threadId="t", runId="s", usage=[{"inputTokens": 7, "outputTokens": 3}]),
        # A CUSTOM event of another name is no usage.
        at(60, "RUN_STARTED", threadId="t", runId="u"),
        at(61, "CUSTOM", name="oauth_consent_request", value={"input_token_count": 5}),
        at(62, "RUN_FINISHED", threadId="t", runId="u"),
    ]  # fmt: skip
    runs = runs_df(events)
    assert values(runs["input_tokens"]) == [132, 7, None]
    assert values(runs["output_tokens"]) == [23, 3, None]
    assert values(runs["total_tokens"]) == [155, None, None]
    assert values(runs["cached_input_tokens"]) == [64, None, None]
    assert values(runs["reasoning_tokens"]) == [2, None, None]
    assert values(runs["usage_source"]) == ["custom", "run_end", None]
    assert list(runs["usage_source"].cat.categories) == ["run_end", "custom", "raw"]


def test_usage_in_agnos_raw_model_request_events() -> None:
    """agno 3.1.10's AG-UI interface sends each run event it does not map as RAW (``on_unknown_event``):
    ``ModelRequestCompleted`` carries the request's model and counts (agno/run/agent.py)."""

    def raw(name: str, **fields: object) -> dict[str, object]:
        payload = {"created_at": 1_700_000_000, "event": name, "agent_id": "a1", "agent_name": "Helper",
                   "run_id": "agno-run", "session_id": "t", "nested_depth": 0, **fields}  # fmt: skip
        return {"event": payload, "source": "agno"}

    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        at(1, "RAW", **raw("ModelRequestStarted", model="gpt-4o-mini", model_provider="OpenAI")),
        at(5, "RAW", **raw("ModelRequestCompleted", model="gpt-4o-mini", model_provider="OpenAI",
                           input_tokens=1_000, output_tokens=200, total_tokens=1_200, reasoning_tokens=0,
                           cache_read_tokens=400, time_to_first_token=0.2)),
        at(6, "RAW", **raw("TeamModelRequestCompleted", model="gpt-4o-mini", input_tokens=500,
                           output_tokens=50, total_tokens=550)),
        at(9, "RUN_FINISHED", threadId="t", runId="r"),
        at(10, "RUN_STARTED", threadId="t", runId="bad"),
        at(11, "RAW", **raw("ModelRequestCompleted", input_tokens="many")),
        at(12, "RUN_FINISHED", threadId="t", runId="bad"),
    ]  # fmt: skip
    with pytest.warns(UserWarning, match="event.input_tokens"):
        runs = runs_df(events, prices={"gpt-4o-mini": {"input": 1.0, "output": 4.0, "cached_input": 0.5}})
    assert values(runs["input_tokens"]) == [1_500, None]
    assert values(runs["output_tokens"]) == [250, None]
    assert values(runs["total_tokens"]) == [1_750, None]
    assert values(runs["cached_input_tokens"]) == [400, None]
    assert values(runs["usage_source"]) == ["raw", None]  # counts that are none are no usage
    assert values(runs["model"]) == ["gpt-4o-mini", None]
    assert runs["cost_usd"].iloc[0] == pytest.approx((1_100 * 1.0 + 400 * 0.5 + 250 * 4.0) / 1e6)


PRODUCERS = CAPTURES.parent / "producers"


@pytest.mark.parametrize(
    ("framework", "source"), [("agent_framework", "custom"), ("agno", "raw"), ("langgraph", "run_end")]
)
def test_the_producer_captures_usage_is_read_where_each_framework_sends_it(
    framework: str, source: str
) -> None:
    runs = runs_df(PRODUCERS / framework / "two_turns.jsonl")
    assert values(runs["usage_source"]) == [source, source]
    assert runs["input_tokens"].notna().all() and runs["output_tokens"].notna().all()
    # The second turn's request carries the first turn's messages: more input tokens.
    assert runs["input_tokens"].iloc[1] > runs["input_tokens"].iloc[0]
