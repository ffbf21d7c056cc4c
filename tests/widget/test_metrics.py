"""Live metrics of a ChatWidget's answers (widget/_metrics.py): exact numbers on scripted streams with known
receive times, agreement with the logs tables on recorded pydantic-ai runs, the sparkline's downsampling."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agui_notebook import ChatWidget, chunks_df, runs_df
from agui_notebook.widget._metrics import MAX_BARS, GapBars, RunMetrics
from tests.support.pydantic_ai_runs import SCENARIOS, capture, make_agent, make_approval_agent

BASE_NS = 1_767_000_000_000_000_000  # a receive time in 2025 (0 would read as "no time")


def at(ms: float, event: dict[str, Any]) -> dict[str, Any]:
    return {"received_ns": BASE_NS + round(ms * 1_000_000), "event": event}


def text_run(usage: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """RUN_STARTED at 0 ms, chunks at 250, 300 and 450 ms (12 characters), RUN_FINISHED at 600 ms."""
    finished: dict[str, Any] = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}
    if usage is not None:
        finished["usage"] = usage
    return [
        at(0, {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
        at(100, {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        at(250, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hello"}),
        at(300, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": " world"}),
        at(450, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "!"}),
        at(500, {"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        at(600, finished),
    ]


def played(records: list[Any], **options: Any) -> ChatWidget:
    async def run() -> ChatWidget:
        chat = ChatWidget(show_metrics=True, **options)
        await chat.play(records)
        return chat

    return asyncio.run(run())


def answer_ids(chat: ChatWidget) -> list[str]:
    return [m["id"] for m in chat.messages if m["role"] == "assistant"]


def test_a_scripted_run_gives_its_exact_numbers() -> None:
    chat = played(text_run(usage=[{"outputTokens": 5}]))
    assert list(chat.message_metrics) == answer_ids(chat) == ["r1"]
    assert chat.message_metrics["r1"] == {
        "ttft_s": 0.25,
        "duration_s": 0.6,
        "elapsed_s": 0.6,
        "running": False,
        "chunks": 3,
        "chars": 12,
        "chunks_per_s": 10.0,  # 2 chunks after the first in 0.2 s
        "output_tokens": 5,
        "tokens_per_s": 20.0,  # (5 - 1) tokens in 0.2 s: 1 / tpot_s
        "tokens_estimated": False,
        "gaps_s": [0.05, 0.15],
        "gaps_per_bar": 1,
        "gap_count": 2,
        "max_gap_s": 0.15,
    }


def test_without_usage_the_tokens_are_estimated_from_characters_and_say_so() -> None:
    metrics = played(text_run()).message_metrics["r1"]
    assert metrics["output_tokens"] is None
    assert metrics["tokens_estimated"] is True
    assert metrics["tokens_per_s"] == 10.0  # 12 characters / 4 = 3 tokens: (3 - 1) in 0.2 s


def test_usage_is_summed_over_the_entries_as_runs_df_sums_it() -> None:
    chat = played(text_run(usage=[{"outputTokens": 3}, {"outputTokens": 4, "model": "b"}]))
    assert chat.message_metrics["r1"]["output_tokens"] == 7
    assert runs_df(chat).output_tokens.tolist() == [7]


def test_gaps_are_per_message_so_a_new_message_starts_no_gap() -> None:
    records = [
        at(0, {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
        at(5, {"type": "REASONING_START", "messageId": "think"}),
        at(5, {"type": "REASONING_MESSAGE_START", "messageId": "think", "role": "reasoning"}),
        at(10, {"type": "REASONING_MESSAGE_CONTENT", "messageId": "think", "delta": "Hmm"}),
        at(30, {"type": "REASONING_MESSAGE_CONTENT", "messageId": "think", "delta": " ok"}),
        at(40, {"type": "REASONING_MESSAGE_END", "messageId": "think"}),
        at(40, {"type": "REASONING_END", "messageId": "think"}),
        at(450, {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        at(500, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Yes"}),
        at(540, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "."}),
        at(550, {"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        at(600, {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}),
    ]
    chat = played(records)
    assert chat.status == "ready", chat.error
    metrics = chat.message_metrics["r1"]
    assert metrics["ttft_s"] == 0.01  # reasoning counts, as runs_df.ttft_s counts it
    assert metrics["gaps_s"] == [0.02, 0.04]  # not the 470 ms between the two messages
    assert chunks_df(chat).gap_s.dropna().round(6).tolist() == [0.02, 0.04]


def test_an_ai_sdk_chunk_stream_is_measured_from_its_start_chunk() -> None:
    records = [
        at(0, {"type": "start", "messageId": "msg-1"}),
        at(5, {"type": "start-step"}),
        at(5, {"type": "text-start", "id": "t1"}),
        at(120, {"type": "text-delta", "id": "t1", "delta": "Hi"}),
        at(220, {"type": "text-delta", "id": "t1", "delta": " you"}),
        at(230, {"type": "text-end", "id": "t1"}),
        at(240, {"type": "finish-step"}),
        at(250, {"type": "finish"}),
    ]
    chat = played(records)
    metrics = chat.message_metrics[answer_ids(chat)[0]]
    assert (metrics["ttft_s"], metrics["duration_s"], metrics["gaps_s"]) == (0.12, 0.25, [0.1])
    assert metrics["chunks_per_s"] == 10.0
    assert metrics["tokens_estimated"] is True


def test_each_answer_has_its_own_metrics_and_clear_forgets_them() -> None:
    second = [
        {**r, "received_ns": r["received_ns"] + 10**10, "event": {**r["event"], "runId": "r2"}}
        for r in text_run()
    ]
    second = [
        {**r, "event": {**r["event"], "messageId": "m2"}} if "messageId" in r["event"] else r for r in second
    ]

    async def run() -> ChatWidget:
        chat = ChatWidget(show_metrics=True)
        await chat.play(text_run(usage=[{"outputTokens": 5}]))
        await chat.play(second)
        return chat

    chat = asyncio.run(run())
    assert list(chat.message_metrics) == answer_ids(chat) == ["r1", "r2"]
    assert chat.message_metrics["r1"]["output_tokens"] == 5
    assert chat.message_metrics["r2"]["output_tokens"] is None
    chat.clear()
    assert chat.message_metrics == {}


def test_metrics_are_not_synced_while_off_and_appear_when_turned_on() -> None:
    async def run() -> ChatWidget:
        chat = ChatWidget()
        await chat.play(text_run())
        return chat

    chat = asyncio.run(run())
    assert chat.show_metrics is False
    assert chat.message_metrics == {}
    chat.show_metrics = True
    assert chat.message_metrics["r1"]["ttft_s"] == 0.25


@pytest.mark.parametrize("shown", [False, True])
def test_a_flood_is_read_in_small_batches_shown_or_not(shown: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The metrics keep up with a run as it streams: no read, its end's included, takes more than READ_BATCH
    records at once (5,000 deltas read at the run's end stalled the kernel's loop in proportion)."""
    from agui_notebook.widget import _metrics

    batches: list[int] = []
    read = _metrics.MessageMetrics.read

    def counted(self: Any) -> None:
        batches.append(len(self._records) - self._read)
        read(self)

    monkeypatch.setattr(_metrics.MessageMetrics, "read", counted)

    async def agent(run_input: Any) -> Any:
        for _ in range(5_000):
            yield "x"

    async def run() -> ChatWidget:
        chat = ChatWidget(agent, show_metrics=shown, store=None)
        await chat.send_message("Flood")
        return chat

    chat = asyncio.run(run())
    assert chat.status == "ready", chat.error
    assert sum(batches) >= 5_000
    assert max(batches) <= _metrics.READ_BATCH
    chat.show_metrics = True
    (final,) = chat.message_metrics.values()
    assert final["chunks"] == 5_000


def test_a_run_without_run_started_is_timed_from_the_send() -> None:
    async def agent(run_input: Any) -> Any:
        await asyncio.sleep(0.2)
        yield {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi"}
        yield {"type": "TEXT_MESSAGE_END", "messageId": "m1"}

    async def run() -> ChatWidget:
        chat = ChatWidget(agent, show_metrics=True)
        await chat.send_message("Hello")
        return chat

    chat = asyncio.run(run())
    (metrics,) = chat.message_metrics.values()
    assert 0.2 <= metrics["ttft_s"] < 1.0


def test_the_metrics_update_while_the_answer_streams() -> None:
    seen: list[dict[str, Any]] = []

    async def agent(run_input: Any) -> Any:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}
        for piece in ["One", " two", " three", " four"]:
            await asyncio.sleep(0.3)
            yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": piece}
        yield {"type": "TEXT_MESSAGE_END", "messageId": "m1"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_input.run_id}

    async def run() -> ChatWidget:
        chat = ChatWidget(agent, show_metrics=True)
        chat.observe(lambda change: seen.append(change["new"]), "message_metrics")
        await chat.send_message("Count")
        return chat

    chat = asyncio.run(run())
    assert chat.status == "ready", chat.error
    live = [value for value in seen if value and next(iter(value.values()))["running"]]
    assert live, seen  # shown before the run ended
    chunk_counts = [next(iter(value.values()))["chunks"] for value in live]
    assert chunk_counts == sorted(chunk_counts)
    assert {1, 2, 3} <= set(chunk_counts)  # chunks 0.3 s apart: each shown as it came (throttle: 0.25 s)
    (final,) = chat.message_metrics.values()
    assert final["running"] is False and final["chunks"] == 4 and final["gap_count"] == 3


def test_a_run_that_continues_an_answer_shows_its_own_numbers_on_it() -> None:
    async def run() -> tuple[ChatWidget, dict[str, Any], dict[str, Any]]:
        chat = ChatWidget(make_approval_agent(), show_metrics=True)
        assert await chat.send_message("Delete /tmp/x") == "interrupt"
        asked = dict(chat.message_metrics)
        approval_id = chat.messages[1]["parts"][-1]["approval"]["id"]
        assert await chat.answer_approval(approval_id, True) == "success"
        return chat, asked, dict(chat.message_metrics)

    chat, asked, answered = asyncio.run(run())
    assert list(asked) == list(answered) == answer_ids(chat)  # one answer, continued
    (message_id,) = answer_ids(chat)
    runs = runs_df(chat)
    assert len(runs) == 2
    assert _same(asked[message_id]["duration_s"], runs.duration_s.iloc[0])
    assert _same(answered[message_id]["duration_s"], runs.duration_s.iloc[1])
    assert answered[message_id]["chunks"] == runs.text_chunks.iloc[1] + runs.reasoning_chunks.iloc[1] > 0


# ------------------------------------------------------------------------------ agreement with the logs tables


def _same(ours: Any, theirs: Any, rel: float = 1e-6) -> bool:
    """A strip number and a table's: None where the table has NaN, else equal (to the microsecond)."""
    if theirs is None or (isinstance(theirs, float) and not math.isfinite(theirs)):
        return ours is None
    return ours is not None and math.isclose(ours, theirs, rel_tol=rel, abs_tol=1e-6)


def _agrees_with_the_tables(chat: ChatWidget) -> None:
    runs = runs_df(chat)
    # The logs read what an AI SDK stream sends after its `error` chunk (finish-step, finish) as a run of its own
    # (logs/_aisdk.py); the answer is one message, measured to its first end as the run before it is.
    runs = runs[~(runs.run_id.str.startswith("ui-run-") & (runs.status.shift() == "error"))]
    chunks = chunks_df(chat)
    ids = answer_ids(chat)
    assert len(ids) == len(runs) == len(chat.message_metrics)
    for message_id, run in zip(ids, runs.itertuples(), strict=True):
        metrics = chat.message_metrics[message_id]
        assert _same(metrics["ttft_s"], run.ttft_s), (metrics, run)
        assert _same(metrics["duration_s"], run.duration_s), (metrics, run)
        assert metrics["chunks"] == run.text_chunks + run.reasoning_chunks
        assert metrics["chars"] == run.text_chars + run.reasoning_chars
        assert _same(metrics["chunks_per_s"], run.chunks_per_s), (metrics, run)
        if metrics["tokens_estimated"]:
            assert run.output_tokens is pd.NA or pd.isna(run.output_tokens)
        else:
            assert metrics["output_tokens"] == run.output_tokens
            tpot = run.tpot_s
            assert _same(metrics["tokens_per_s"], 1 / tpot if tpot and math.isfinite(tpot) else None, 1e-5)
        gaps = chunks[
            (chunks.run_key == run.run_key) & chunks.kind.isin(["text", "reasoning"])
        ].gap_s.dropna()
        assert metrics["gap_count"] == len(gaps)
        if len(gaps) <= MAX_BARS:
            assert metrics["gaps_s"] == pytest.approx(gaps.tolist(), abs=1e-6)
        assert _same(metrics["max_gap_s"], float(gaps.max()) if len(gaps) else None)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@pytest.mark.parametrize("kind", ["agui", "ai_sdk"])
@settings(max_examples=10, deadline=None)
@given(gaps_ms=st.lists(st.integers(0, 400), min_size=80, max_size=80))
def test_a_recorded_pydantic_ai_run_agrees_with_runs_df_and_chunks_df(
    scenario: str, kind: str, gaps_ms: list[int]
) -> None:
    captured = _captured(scenario)
    stream = captured.agui_events if kind == "agui" else captured.ai_sdk_chunks
    times = [sum(gaps_ms[: i + 1]) for i in range(len(stream))]
    _agrees_with_the_tables(played([at(ms, event) for ms, event in zip(times, stream, strict=False)]))


_CAPTURES: dict[str, Any] = {}


def _captured(scenario: str) -> Any:
    if scenario not in _CAPTURES:
        _CAPTURES[scenario] = asyncio.run(capture(scenario))
    return _CAPTURES[scenario]


def test_a_live_pydantic_ai_run_agrees_with_the_tables() -> None:
    async def run() -> ChatWidget:
        chat = ChatWidget(make_agent(SCENARIOS["reasoning_tool_text"]), show_metrics=True)
        await chat.send_message("What's the weather?")
        await chat.send_message("And tomorrow?")
        return chat

    _agrees_with_the_tables(asyncio.run(run()))


# ------------------------------------------------------------------------------------------------- the bars


@settings(max_examples=150, deadline=None)
@given(gaps=st.lists(st.floats(0, 10, allow_nan=False), max_size=1000), capacity=st.integers(2, 61))
def test_the_bars_are_the_max_of_equal_runs_of_consecutive_gaps(gaps: list[float], capacity: int) -> None:
    bars = GapBars(capacity=capacity)
    for gap in gaps:
        bars.add(gap)
    per = bars.per_bar
    assert bars.count == len(gaps)
    assert len(bars.bars) <= capacity
    assert bars.bars == [max(gaps[i : i + per]) for i in range(0, len(gaps), per)]
    if len(gaps) > capacity:
        assert len(bars.bars) > capacity // 2  # downsampled no further than needed


def test_a_long_stream_keeps_at_most_max_bars_and_its_longest_stall() -> None:
    metrics = RunMetrics(sent_ns=None)
    metrics.add(BASE_NS, {"type": "RUN_STARTED"})
    ns = BASE_NS
    for i in range(5000):
        ns += 10_000_000 if i != 3001 else 2_000_000_000
        metrics.add(ns, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "x"})
    summary = metrics.summary()
    assert len(summary["gaps_s"]) <= MAX_BARS
    assert summary["gap_count"] == 4999
    assert max(summary["gaps_s"]) == summary["max_gap_s"] == 2.0
