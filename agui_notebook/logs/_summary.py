"""``summarize``: the headline numbers of a set of runs, the way serving benchmarks report them.

Latency distributions follow vLLM's benchmark definitions (TTFT, ITL, TPOT, E2E latency) with mean, p50, p90
and p99. AG-UI streams chunks, not tokens, so the figures measured on chunks say so in their names
(``inter_chunk_latency_s``, ``chunks_per_s``); TPOT uses the token counts a run reports in its usage.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._columns import SUMMARY_DISTRIBUTIONS, SUMMARY_STATISTICS, summary_names
from ._load import events_table
from .tables._chunks import chunks_df
from .tables._reasoning import reasoning_df
from .tables._runs import runs_df
from .tables._tool_calls import tool_calls_df

__all__ = ["summarize"]


def _statistics(values: Any) -> dict[str, float]:
    array = np.asarray(pd.Series(values, dtype=float).dropna(), dtype=float)
    if not len(array):
        return dict.fromkeys(SUMMARY_STATISTICS, np.nan)
    p50, p90, p99 = np.percentile(array, [50, 90, 99])
    return {"mean": float(array.mean()), "p50": float(p50), "p90": float(p90), "p99": float(p99)}


def summarize(
    events: Any,
    *,
    workers: int | None = None,
    client: Any = None,
    progress: bool | None = None,
    errors: Any = "raise",
) -> pd.Series:
    """Headline numbers: run counts by status, token and character totals, and latency percentiles.

    The index is ``_columns.summary_names()``: totals first, then ``<metric>_<mean|p50|p90|p99>``. Files (a
    path, glob, folder or list of paths) are read file by file, as the tables read them (``workers=``,
    ``client=``).

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.summarize("logs/")[["ttft_s_p50", "ttft_s_p99", "e2e_latency_s_p90"]]  # doctest: +SKIP
    """
    from ._by_file import summary_tables

    tables = summary_tables(events, workers=workers, client=client, progress=progress, errors=errors)
    if tables is not None:
        runs, tools, reasoning, streamed, span = tables
    else:
        frame = events_table(events)
        runs = runs_df(frame)
        tools = tool_calls_df(frame)
        reasoning = reasoning_df(frame)
        chunks = chunks_df(frame)
        streamed = chunks[chunks["kind"] != "tool_args"]
        times = frame["time"].dropna()
        span = (times.max() - times.min()).total_seconds() if len(times) else np.nan

    status = runs["status"].value_counts()
    output_tokens = runs["output_tokens"].sum(min_count=1)
    totals: dict[str, Any] = {
        "runs": len(runs),
        "runs_success": int(status.get("success", 0)),
        "runs_error": int(status.get("error", 0)),
        "runs_interrupt": int(status.get("interrupt", 0)),
        "runs_cancelled": int(status.get("cancelled", 0)),
        "runs_incomplete": int(status.get("incomplete", 0)),
        "span_s": span,
        "input_tokens": runs["input_tokens"].sum(min_count=1),
        "output_tokens": output_tokens,
        "output_tokens_per_s": output_tokens / span if span and not pd.isna(output_tokens) else np.nan,
        "text_chars": int(runs["text_chars"].sum()),
        "reasoning_chars": int(runs["reasoning_chars"].sum()),
        "chunks": len(streamed),
        "tool_calls": len(tools),
        "tool_errors": int((tools["status"] == "error").sum()),
    }
    distributions = {
        "ttft_s": runs["ttft_s"],
        "time_to_first_text_s": runs["time_to_first_text_s"],
        "inter_chunk_latency_s": streamed["gap_s"],
        "tpot_s": runs["tpot_s"],
        "e2e_latency_s": runs["duration_s"],
        "chunks_per_s": runs["chunks_per_s"],
        "tool_latency_s": tools["latency_s"],
        "reasoning_duration_s": reasoning["duration_s"],
    }
    assert list(distributions) == [column.name for column in SUMMARY_DISTRIBUTIONS]
    values: dict[str, Any] = {
        name: (np.nan if pd.isna(value) else float(value)) for name, value in totals.items()
    }
    for name, series in distributions.items():
        for statistic, value in _statistics(series).items():
            values[f"{name}_{statistic}"] = value
    summary = pd.Series(values, dtype=float, name="summary")
    return summary[summary_names()]
