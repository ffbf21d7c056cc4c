"""summarize: the headline numbers, known by hand for the hand-built log."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from agui_notebook.logs._columns import summary_names
from agui_notebook.logs._load import load_events
from agui_notebook.logs._summary import summarize
from tests.logs.samples import CAPTURES, known_events


def test_known_summary() -> None:
    summary = summarize(known_events())
    assert summary.index.tolist() == summary_names()
    expected = {
        "runs": 4, "runs_success": 1, "runs_error": 1, "runs_interrupt": 1, "runs_cancelled": 0,
        "runs_incomplete": 1,
        "span_s": 7.3,  # the CUSTOM event at -0.1 s to the last event at 7.2 s
        "input_tokens": 120, "output_tokens": 15, "output_tokens_per_s": 15 / 7.3,
        "text_chars": 24, "reasoning_chars": 9, "chunks": 8, "tool_calls": 4, "tool_errors": 2,
        # r1 0.15 s, r2 0.2 s (r3 and r4 stream nothing)
        "ttft_s_mean": 0.175, "ttft_s_p50": 0.175, "ttft_s_p90": 0.195, "ttft_s_p99": 0.1995,
        "time_to_first_text_s_mean": 0.35, "time_to_first_text_s_p50": 0.35,
        "time_to_first_text_s_p90": 0.47, "time_to_first_text_s_p99": 0.497,
        # gaps 0.1, 0.1, 0.3, 0.1
        "inter_chunk_latency_s_mean": 0.15, "inter_chunk_latency_s_p50": 0.1,
        "inter_chunk_latency_s_p90": 0.24, "inter_chunk_latency_s_p99": 0.294,
        "tpot_s_mean": 2.55 / 14, "tpot_s_p99": 2.55 / 14,
        # finished runs: 3.0, 0.5, 0.1
        "e2e_latency_s_mean": 1.2, "e2e_latency_s_p50": 0.5, "e2e_latency_s_p90": 2.5, "e2e_latency_s_p99": 2.95,
        "chunks_per_s_p50": 6 / 2.55,
        "tool_latency_s_mean": 0.75, "tool_latency_s_p50": 0.75, "tool_latency_s_p90": 0.95,
        "tool_latency_s_p99": 0.995,
        "reasoning_duration_s_mean": 0.21, "reasoning_duration_s_p99": 0.21,
    }  # fmt: skip
    assert summary[list(expected)].to_dict() == pytest.approx(expected)


def test_summary_of_runs_without_streams() -> None:
    summary = summarize([{"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 0}])
    assert summary["runs"] == 1 and summary["runs_incomplete"] == 1
    assert np.isnan(summary["ttft_s_p50"]) and np.isnan(summary["input_tokens"])


def test_summary_of_a_real_capture() -> None:
    summary = summarize(load_events(CAPTURES / "pydantic_ai_runs.jsonl"))
    assert summary[["runs", "runs_success", "runs_error", "runs_interrupt", "tool_calls", "tool_errors"]].tolist() == [
        6, 4, 1, 1, 6, 2,
    ]  # fmt: skip
    for metric in ("ttft_s", "inter_chunk_latency_s", "e2e_latency_s", "tool_latency_s"):
        p50, p90, p99 = summary[[f"{metric}_p50", f"{metric}_p90", f"{metric}_p99"]]
        assert 0 < p50 <= p90 <= p99, metric
    assert isinstance(summary, pd.Series) and summary.dtype == float
