"""``runs_df``: one row per run, its status, latencies, stream rates, tool time and token usage."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .._columns import RUN_COLUMNS, names
from .._load import events_table
from .._odd_values import OddValues, odd_problem
from ._chunks import Chunks
from ._frame import (
    NAT,
    EventFrame,
    category_values,
    first_in_group,
    group_count,
    group_max,
    group_min,
    seconds_between,
    take,
    text_column,
    utc,
)
from ._run_endings import errors_by_run, run_endings, run_error_text
from ._tool_calls import ToolCalls

__all__ = ["runs_df"]

_USAGE_KEYS = {
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "reasoning_tokens": "reasoningTokens",
    "cached_input_tokens": "cachedInputTokens",
    "total_tokens": "totalTokens",
}


def _status(event: Any, row: int, odd: OddValues) -> str:
    if not isinstance(event, dict):
        return "incomplete"
    if event.get("type") == "RUN_ERROR":
        return "error"
    outcome = event.get("outcome")
    if outcome is not None and not isinstance(outcome, dict):
        odd.add(row, "outcome", odd_problem("outcome", outcome))
    kind = outcome.get("type") if isinstance(outcome, dict) else None
    return kind if kind in ("interrupt", "cancelled") else "success"


_MAX_COUNT = 2**63


def _token_count(value: Any, where: str) -> int | str:
    """A usage count as an int, or why it is not one (a problem text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return odd_problem(where, value)
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return f"{where} is not a whole number of tokens (read as none)"
    if not 0 <= value < _MAX_COUNT:
        return f"{where} is out of range for a token count (read as none)"
    return int(value)


def _usage(event: Any, row: int, odd: OddValues) -> dict[str, Any]:
    """Token counts summed over a run end's ``usage`` entries (a list of objects, or one object)."""
    totals: dict[str, Any] = {}
    entries = event.get("usage") if isinstance(event, dict) else None
    if entries is None:
        return totals
    single = isinstance(entries, dict)
    if single:
        entries = [entries]
    if not isinstance(entries, list):
        odd.add(row, "usage", odd_problem("usage", entries))
        return totals
    for i, entry in enumerate(entries):
        where = "usage" if single else f"usage[{i}]"
        if not isinstance(entry, dict):
            odd.add(row, "usage", odd_problem(where, entry))
            continue
        for column, key in _USAGE_KEYS.items():
            name = key if key in entry else column
            value = entry.get(name)
            if value is None:
                continue
            count = _token_count(value, f"{where}.{name}")
            if isinstance(count, str):
                odd.add(row, "usage", count)
            elif totals.get(column, 0) + count >= _MAX_COUNT:
                odd.add(row, "usage", f"{where}.{name} sums beyond a 64-bit count (read as none)")
            else:
                totals[column] = totals.get(column, 0) + count
    return totals


def _union_seconds(intervals: list[tuple[int, int]]) -> float:
    total = 0
    current_start = current_end = None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None:
                total += current_end - current_start  # type: ignore[operator]
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None:
        total += current_end - current_start  # type: ignore[operator]
    return total / 1e9


def runs_df(events: Any) -> pd.DataFrame:
    """One row per run: status, end-to-end and first-chunk latencies, stream rates, tool time and tokens.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.runs_df("logs/").groupby("status").ttft_s.median()  # doctest: +SKIP
    """
    frame = events_table(events)
    ev = EventFrame(frame)
    size = ev.runs
    chunks = Chunks(ev)
    last, endings = run_endings(ev)
    # The calls' own odd values are tool_calls_df's to report.
    calls = ToolCalls(ev, chunks, errors_by_run(ev, last, endings), odd=OddValues())

    started_rows = np.flatnonzero(ev.mask(frozenset({"RUN_STARTED"})) & (ev.run >= 0))
    start_row = first_in_group(ev.run, started_rows, size)
    start_time = take(ev.time, start_row, NAT)
    started = np.where(start_time != NAT, start_time, group_min(ev.run, ev.time, size))
    finished = take(ev.time, last, NAT)
    status = np.full(size, "incomplete", dtype=object)
    error: list[Any] = [None] * size
    usage: dict[str, list[Any]] = {column: [pd.NA] * size for column in _USAGE_KEYS}
    for run, event in zip(np.flatnonzero(last >= 0).tolist(), endings, strict=True):
        row = int(last[run])
        status[run] = _status(event, row, ev.odd)
        if status[run] == "error":
            error[run] = run_error_text(event, row, ev.odd)
        for column, value in _usage(event, row, ev.odd).items():
            usage[column][run] = value
    parents: list[Any] = [None] * size
    for run, event in zip(
        np.flatnonzero(start_row >= 0).tolist(), ev.decode(start_row[start_row >= 0]), strict=True
    ):
        parent = event.get("parentRunId") if isinstance(event, dict) else None
        if isinstance(parent, str):
            parents[run] = parent
        elif parent is not None:
            ev.odd.add(int(start_row[run]), "parentRunId", odd_problem("parentRunId", parent))

    text = chunks.kind == 0
    streamed = chunks.kind != 2
    text_first = group_min(chunks.run[text], chunks.time[text], size)
    stream_first = group_min(chunks.run[streamed], chunks.time[streamed], size)
    stream_last = group_max(chunks.run[streamed], chunks.time[streamed], size)
    stream_count = group_count(chunks.run[streamed], size)
    reasoning = chunks.kind == 1
    span = np.where(stream_count > 1, seconds_between(stream_last, stream_first), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(span > 0, (stream_count - 1) / span, np.nan)
    gaps = pd.DataFrame({"run": chunks.run[streamed], "gap": chunks.gap[streamed]}).dropna()
    gaps = gaps[gaps["run"] >= 0]
    quantiles = gaps.groupby("run")["gap"].quantile([0.5, 0.95]).unstack() if len(gaps) else None
    itl50 = np.full(size, np.nan)
    itl95 = np.full(size, np.nan)
    if quantiles is not None:
        itl50[quantiles.index.to_numpy()] = quantiles[0.5].to_numpy()
        itl95[quantiles.index.to_numpy()] = quantiles[0.95].to_numpy()

    intervals: dict[int, list[tuple[int, int]]] = {}
    tool_counts = np.zeros(size, dtype=np.int64)
    for k in range(calls.size):
        run = int(calls.run[k])
        if run < 0:
            continue
        tool_counts[run] += 1
        if calls.executed[k] and calls.args_end[k] != NAT and calls.result_at[k] != NAT:
            intervals.setdefault(run, []).append((int(calls.args_end[k]), int(calls.result_at[k])))
    tool_time = np.array([_union_seconds(intervals.get(run, [])) for run in range(size)], dtype=float)

    output_tokens = pd.array(usage["output_tokens"], dtype="Int64")
    out_float = output_tokens.to_numpy(dtype=float, na_value=np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        tpot = np.where(out_float > 1, span / (out_float - 1), np.nan)

    first = ev.run_first_row
    columns = {
        "source": category_values(frame["source"], first),
        "thread_id": category_values(frame["thread_id"], first),
        "run_id": category_values(frame["run_id"], first),
        "run_key": category_values(frame["run_key"], first),
        "parent_run_id": text_column(parents),
        "started_at": utc(started),
        "finished_at": utc(finished),
        "status": pd.Categorical(
            status, categories=["success", "error", "interrupt", "cancelled", "incomplete"]
        ),
        "error": text_column(error),
        "events": group_count(ev.run, size),
        "duration_s": seconds_between(finished, started),
        "ttft_s": seconds_between(stream_first, started),
        "time_to_first_text_s": seconds_between(text_first, started),
        "text_chars": group_count(chunks.run[text], size, weights=chunks.chars[text]).astype(np.int64),
        "reasoning_chars": group_count(chunks.run[reasoning], size, weights=chunks.chars[reasoning]).astype(
            np.int64
        ),
        "text_chunks": group_count(chunks.run[text], size),
        "reasoning_chunks": group_count(chunks.run[reasoning], size),
        "tool_calls": tool_counts,
        "tool_time_s": tool_time,
        "itl_p50_s": itl50,
        "itl_p95_s": itl95,
        "chunks_per_s": rate,
        **{column: pd.array(values, dtype="Int64") for column, values in usage.items()},
        "tpot_s": tpot,
    }
    return ev.finished(pd.DataFrame(columns)[names(RUN_COLUMNS)], "runs_df")
