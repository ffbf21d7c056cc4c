"""``summarize`` and ``totals_df``: the headline numbers of a set of runs, the way serving benchmarks report them.

Latency distributions follow vLLM's benchmark definitions (TTFT, ITL, TPOT, E2E latency) with count, mean,
p50, p90 and p99. AG-UI streams chunks, not tokens, so the figures measured on chunks say so in their names
(``inter_chunk_latency_s``, ``chunks_per_s``); TPOT uses the token counts a run reports in its usage.

No table is built twice. Both functions take the tables they need as arguments (``runs=``, ``tool_calls=``,
``reasoning=``, ``chunks=``) and build only the missing ones, from one pass over the events table shared by
all of them; given every table they need, they do not need the events at all. The work the tables share
(the chunks, the tool calls, the decoded payloads) is kept with an events frame while it is unchanged, so a
summary of a frame whose ``runs_df`` or ``tool_calls_df`` was built does that work once (``tables/_shared``:
an events table is a mutable DataFrame, so every use checks the frame's contents first).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from agui_notebook._errors import EventLogWarning, OptionError, warn
from agui_notebook._gc import collections_paused
from agui_notebook._options import keyword_options
from agui_notebook._shown import shown
from agui_notebook._types import ReadErrorMode

from ._by_file import by_file, file_paths
from ._columns import (
    CHUNK_COLUMNS,
    REASONING_COLUMNS,
    RUN_COLUMNS,
    RUN_STATUSES,
    SUMMARY_DISTRIBUTIONS,
    SUMMARY_STATISTICS,
    SUMMARY_TOTALS,
    TOOL_CALL_COLUMNS,
    names,
)
from ._load import load_events
from .tables._chunks import Chunks, chunks_df
from .tables._frame import EventFrame, category_values, take
from .tables._reasoning import kept_reasoning_table, reasoning_df
from .tables._runs import checked_prices, kept_runs_table, runs_df
from .tables._shared import event_frame
from .tables._tool_calls import kept_tool_calls_table, tool_calls_df

__all__ = ["summarize", "totals_df"]

_PER_RUN = {
    "time_to_first_text_s": "time_to_first_text_s",
    "ttft_s": "ttft_s",
    "tpot_s": "tpot_s",
    "e2e_latency_s": "duration_s",
    "chunks_per_s": "chunks_per_s",
    "cost_usd": "cost_usd",
}
"""The distributions measured once per run: summary row -> runs_df column."""


class _Tables:
    """The tables a summary reads: those given, the others built once from one shared events frame."""

    def __init__(self, events: Any, given: dict[str, pd.DataFrame | None], prices: Any) -> None:
        self.given = {name: table for name, table in given.items() if table is not None}
        if prices is not None and "runs" in self.given:
            raise OptionError(
                "prices= prices the runs summarize builds; give runs_df(events, prices=...) as runs="
            )
        self.prices = None if prices is None else checked_prices(prices)
        self.events = events
        self._built: tuple[EventFrame, Chunks] | None = None

    def _frame(self, wanted: str) -> tuple[EventFrame, Chunks]:
        if self._built is None:
            if self.events is None:
                raise OptionError(
                    f"give the events, or the {wanted} table as {wanted}= (no events to build it from)"
                )
            ev = event_frame(self.events)
            self._built = (ev, Chunks.of(ev))
        ev, chunks = self._built
        ev.odd = type(ev.odd)()  # each table reports the odd values it reads itself
        return ev, chunks

    def table(self, name: str) -> pd.DataFrame:
        if name not in self.given:
            with collections_paused():
                ev, chunks = self._frame(name)
                if name == "runs":
                    self.given[name] = kept_runs_table(ev, chunks, self.prices)
                elif name == "tool_calls":
                    self.given[name] = kept_tool_calls_table(ev, chunks)
                else:
                    self.given[name] = kept_reasoning_table(ev, chunks)
        return self.given[name]

    def chunk_gaps(self, keyed: bool) -> tuple[Any, np.ndarray]:
        """(run_key, gap_s) of every text and reasoning chunk: from ``chunks=``, else from the events.

        The run keys only when ``keyed`` (a summary by group), else None.
        """
        if "chunks" in self.given:
            chunk_table = self.given["chunks"]
            streamed = chunk_table[chunk_table["kind"] != "tool_args"]
            keys = streamed["run_key"].to_numpy(dtype=object) if keyed else None
            return keys, streamed["gap_s"].to_numpy(dtype=float)
        ev, chunks = self._frame("chunks")
        streamed = chunks.kind != 2
        if not keyed:
            return None, chunks.gap[streamed]
        rows = take(ev.run_first_row, chunks.run[streamed], -1)  # chunks outside any run have no run key
        keys = np.asarray(category_values(ev.col("run_key"), rows), dtype=object)
        return keys, chunks.gap[streamed]


_GIVEN_COLUMNS = {
    "runs": [name for name in names(RUN_COLUMNS) if name != "cost_usd"],
    "tool_calls": names(TOOL_CALL_COLUMNS),
    "reasoning": [name for name in names(REASONING_COLUMNS) if name != "tokens"],
    "chunks": names(CHUNK_COLUMNS),
}
"""The columns a table given to ``summarize``/``totals_df`` has: those of the table function's result."""


def _check_given(given: dict[str, Any]) -> None:
    for name, table in given.items():
        if table is None:
            continue
        if not isinstance(table, pd.DataFrame):
            raise OptionError(
                f"{name}= must be the {name}_df table (a DataFrame), not {type(table).__name__}"
            )
        missing = [column for column in _GIVEN_COLUMNS[name] if column not in table.columns]
        if missing:
            raise OptionError(f"{name}= is not a {name}_df table: it has no {', '.join(missing[:5])} column")


def _from_files(
    events: Any,
    given: dict[str, pd.DataFrame | None],
    prices: Any,
    workers: int | None,
    client: Any,
    progress: bool | None,
    errors: ReadErrorMode,
) -> tuple[Any, dict[str, pd.DataFrame | None], Any]:
    """The missing tables of files, built file by file in one pass (``_by_file``); other events unchanged.

    Returns ``(events, given, prices)`` for :class:`_Tables`: with files, every table it needs is given.
    """
    _check_given(given)
    skipped: list[dict[str, str]] = []
    paths = None if events is None else file_paths(events, skipped)
    if paths is None:
        if workers is not None or client is not None:
            raise OptionError("workers= and client= read files: give a path, glob, folder or list of paths")
        reads_now = errors != "raise" or progress is not None
        if reads_now and events is not None and not isinstance(events, pd.DataFrame):
            events = load_events(events, errors=errors, progress=progress)
        return events, given, prices
    if prices is not None and given.get("runs") is not None:
        raise OptionError(
            "prices= prices the runs summarize builds; give runs_df(events, prices=...) as runs="
        )
    builders = {
        "runs": functools.partial(runs_df, prices=prices) if prices is not None else runs_df,
        "tool_calls": tool_calls_df,
        "reasoning": reasoning_df,
        "chunks": _streamed_chunks,
    }
    wanted = {name: builders[name] for name, table in given.items() if table is None}
    built = by_file(
        paths, wanted, errors=errors, workers=workers, client=client, progress=progress, skipped=skipped
    )
    return None, {**given, **built}, None


def _streamed_chunks(frame: pd.DataFrame) -> pd.DataFrame:
    """What summarize reads of a file's chunks: the kind, run and gap of each."""
    chunks = chunks_df(frame)
    return chunks.loc[:, ["run_key", "kind", "gap_s"]]


def _group_keys(runs: pd.DataFrame, by: Any) -> list[str]:
    keys = [by] if isinstance(by, str) else list(by) if isinstance(by, (list, tuple)) else []
    missing = [key for key in keys if type(key) is not str or key not in runs.columns]
    if missing or not keys:
        raise OptionError(
            f"by must name runs_df columns (such as 'model' or 'source'), not {shown(missing or by)}"
        )
    return keys


def _labels(runs: pd.DataFrame, keys: list[str], run_keys: Any) -> pd.Series:
    """The group of each value, found from the run it was measured in."""
    groups = runs.set_index(runs["run_key"].astype(object))[keys]
    index = pd.Index(np.asarray(run_keys, dtype=object))
    picked = groups.reindex(index)
    if len(keys) == 1:
        return pd.Series(picked[keys[0]].astype(object).to_numpy(), dtype=object)
    return pd.Series(list(picked.astype(object).itertuples(index=False, name=None)), dtype=object)


_NO_GROUP = ("<measured outside any run>",)
"""The label of a value measured outside any run: no group of ``by`` has it, so no group counts it."""


def _grouped_labels(
    runs: pd.DataFrame, keys: list[str], owners: Any, values: np.ndarray, name: str, outside: dict[str, int]
) -> pd.Series:
    """The group of each value (``_labels``); a value measured outside any run of ``runs`` is in none (its
    count, when it has a value, is added to ``outside[name]``)."""
    labels = _labels(runs, keys, owners)
    known = pd.Index(runs["run_key"].astype(object)).get_indexer(np.asarray(owners, dtype=object)) >= 0
    if not known.all():
        marked = labels.to_numpy(dtype=object, copy=True)
        for i in np.flatnonzero(~known).tolist():
            marked[i] = _NO_GROUP
        labels = pd.Series(marked, dtype=object)
        left = int((~known & ~np.isnan(values)).sum())
        if left:
            outside[name] = left
    return labels


def _warn_outside(function: str, keys: list[str], outside: dict[str, int]) -> None:
    """Warn that values measured outside any run are in no group of ``by`` (how many, per metric)."""
    if outside:
        counts = ", ".join(f"{name}: {count}" for name, count in outside.items())
        warn(
            f"{function}: by={keys[0] if len(keys) == 1 else keys}: values measured outside any run are in no"
            f" group and left out ({counts})",
            EventLogWarning,
        )


def _statistics(values: np.ndarray) -> list[float]:
    array = values[~np.isnan(values)]
    if not len(array):
        return [0.0, np.nan, np.nan, np.nan, np.nan]
    p50, p90, p99 = np.percentile(array, [50, 90, 99])
    return [float(len(array)), float(array.mean()), float(p50), float(p90), float(p99)]


@keyword_options
def summarize(
    events: Any = None,
    *,
    by: str | Sequence[str] | None = None,
    runs: pd.DataFrame | None = None,
    tool_calls: pd.DataFrame | None = None,
    reasoning: pd.DataFrame | None = None,
    chunks: pd.DataFrame | None = None,
    prices: Mapping[str, Mapping[str, float]] | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame:
    """Latency (and cost) distributions: one row per metric, with its count, mean, p50, p90 and p99.

    The rows are ``SUMMARY_DISTRIBUTIONS`` (``cost_usd`` when the runs have a cost: give ``prices=``, or
    runs from ``runs_df(events, prices=...)``). ``by`` names one or more ``runs_df`` columns (``"model"``,
    ``"source"``, ``"status"``): the index is then (group, metric), every value counted in the group of the
    run it was measured in. Given a table instead of events (``summarize(tool_calls_df(log),
    by="tool_name")``), it summarises that table's own rows, grouped by any of its columns: a ``runs_df`` gives
    the per-run rows, a ``tool_calls_df`` ``tool_latency_s``, a ``reasoning_df`` ``reasoning_duration_s``.
    Tables already built are reused when given (``runs=``, ``tool_calls=``,
    ``reasoning=``, ``chunks=``); given all four, ``events`` may be left out. The totals (runs by status,
    tokens, characters, cost) are :func:`totals_df`'s. Files (a path, glob, folder or list of paths) are read
    file by file, as the tables read them (``workers=``, ``client=``, ``progress=``, ``errors=``).

    >>> from agui_notebook import summarize
    >>> log = [{"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 0},
    ...        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi", "timestamp": 250},
    ...        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "timestamp": 1000}]
    >>> summarize(log).loc[["time_to_first_text_s", "e2e_latency_s"], ["count", "p50"]]
                          count   p50
    metric
    time_to_first_text_s      1  0.25
    e2e_latency_s             1  1.00
    """
    kind = _table_kind(events)
    if kind is not None:
        if any(
            t is not None for t in (runs, tool_calls, reasoning, chunks, prices, workers, client, progress)
        ):
            raise OptionError(
                f"summarize of a {kind}_df table takes only by=: runs=, tool_calls=, reasoning=, chunks=,"
                " prices=, workers=, client= and progress= are for events"
            )
        return _summarize_table(kind, events, by)
    given = {"runs": runs, "tool_calls": tool_calls, "reasoning": reasoning, "chunks": chunks}
    events, given, prices = _from_files(events, given, prices, workers, client, progress, errors)
    tables = _Tables(events, given, prices)
    runs_table_ = tables.table("runs")
    keys = None if by is None else _group_keys(runs_table_, by)
    run_keys = runs_table_["run_key"].to_numpy(dtype=object)
    measured: dict[str, tuple[Any, np.ndarray]] = {}
    for column in SUMMARY_DISTRIBUTIONS:
        name = column.name
        if name in _PER_RUN:
            if _PER_RUN[name] in runs_table_.columns:
                measured[name] = (run_keys, runs_table_[_PER_RUN[name]].to_numpy(dtype=float))
        elif name == "inter_chunk_latency_s":
            measured[name] = tables.chunk_gaps(keyed=keys is not None)
        elif name == "tool_latency_s":
            calls = tables.table("tool_calls")
            measured[name] = (
                calls["run_key"].to_numpy(dtype=object),
                calls["latency_s"].to_numpy(dtype=float),
            )
        elif name == "reasoning_duration_s":
            spans = tables.table("reasoning")
            measured[name] = (
                spans["run_key"].to_numpy(dtype=object),
                spans["duration_s"].to_numpy(dtype=float),
            )
    outside: dict[str, int] = {}
    labelled = {
        name: (
            None if keys is None else _grouped_labels(runs_table_, keys, owners, values, name, outside),
            values,
        )
        for name, (owners, values) in measured.items()
    }
    if keys is not None:
        _warn_outside("summarize", keys, outside)
    groups = None if keys is None else _labels(runs_table_, keys, run_keys)
    out = _distribution_table(labelled, keys, groups)
    if "cost_usd" in measured:
        _warn_left_out("summarize", "cost_usd", measured["cost_usd"][1], "no usage or no price")
    return out


def _distribution_table(
    labelled: dict[str, tuple[pd.Series | None, np.ndarray]], keys: list[str] | None, groups: pd.Series | None
) -> pd.DataFrame:
    """One row per metric (and group of ``keys``): count, mean, p50, p90, p99 of its values. ``labelled``
    gives each metric's values and, with ``keys``, the group of each; ``groups`` every group, in any order."""
    columns = ["count", *SUMMARY_STATISTICS]
    if keys is None or groups is None:
        rows = {name: _statistics(values) for name, (_, values) in labelled.items()}
        out = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
        out.index.name = "metric"
    else:
        order: list[Any] = list(pd.unique(groups.to_numpy()))
        with contextlib.suppress(TypeError):  # groups that do not compare keep their order of appearance
            order = sorted(order, key=lambda g: (pd.isna(g) if not isinstance(g, tuple) else False, g))
        records = []
        for name, (labels, values) in labelled.items():
            assert labels is not None
            keyed = [_group_key(label) for label in labels.tolist()]
            for group in order:
                wanted = _group_key(group)
                same = np.fromiter((key == wanted for key in keyed), dtype=bool, count=len(keyed))
                records.append((*(group if len(keys) > 1 else (group,)), name, *_statistics(values[same])))
        out = pd.DataFrame.from_records(records, columns=[*keys, "metric", *columns])
        out["metric"] = pd.Categorical(out["metric"], categories=list(labelled))
        out = out.sort_values([*keys, "metric"], kind="stable").set_index([*keys, "metric"])
        out.index = out.index.set_levels(out.index.levels[-1].astype(str), level=-1)
    out["count"] = out["count"].astype(np.int64)
    return out


_TABLE_METRICS = {
    "runs": {**_PER_RUN},
    "tool_calls": {"tool_latency_s": "latency_s"},
    "reasoning": {"reasoning_duration_s": "duration_s"},
}
"""The summary rows a table gives on its own: summary row -> the table's column."""

_TABLE_NAMES = {"runs": "runs_df", "tool_calls": "tool_calls_df", "reasoning": "reasoning_df"}


def _table_kind(events: Any) -> str | None:
    """Which table ``events`` is (``runs``, ``tool_calls``, ``reasoning``), or None (events, a path ...)."""
    if not isinstance(events, pd.DataFrame) or "event" in events.columns:
        return None
    for kind in _TABLE_METRICS:
        if all(column in events.columns for column in _GIVEN_COLUMNS[kind]):
            return kind
    return None


def _summarize_table(kind: str, table: pd.DataFrame, by: Any) -> pd.DataFrame:
    """``summarize`` of a runs, tool calls or reasoning table: its own rows, grouped by its own columns."""
    keys = None
    if by is not None:
        keys = [by] if isinstance(by, str) else list(by) if isinstance(by, (list, tuple)) else []
        missing = [key for key in keys if type(key) is not str or key not in table.columns]
        if missing or not keys:
            raise OptionError(f"by must name {_TABLE_NAMES[kind]} columns, not {shown(missing or by)}")
    groups = None
    if keys is not None:
        picked = table[keys].astype(object)
        groups = (
            pd.Series(picked[keys[0]].to_numpy(), dtype=object)
            if len(keys) == 1
            else pd.Series(list(picked.itertuples(index=False, name=None)), dtype=object)
        )
    labelled = {
        name: (groups, table[column].to_numpy(dtype=float))
        for name, column in _TABLE_METRICS[kind].items()
        if column in table.columns
    }
    out = _distribution_table(labelled, keys, groups)
    if "cost_usd" in labelled:
        _warn_left_out("summarize", "cost_usd", labelled["cost_usd"][1], "no usage or no price")
    return out


def _warn_left_out(function: str, what: str, values: np.ndarray, why: str) -> None:
    """Warn when ``what`` is measured over some runs but not all: how many are left out and why."""
    missing = int(np.isnan(values).sum())
    if 0 < missing < len(values):
        warn(f"{function}: {what} leaves out {missing} of {len(values)} runs ({why})", EventLogWarning)


def _group_key(value: Any) -> Any:
    """A group as a comparable key: a missing value (NaN, None, NA) as None, inside a tuple too."""
    if isinstance(value, tuple):
        return tuple(_group_key(v) for v in value)
    return None if pd.isna(value) else value


def _missing(value: Any) -> bool:
    return not isinstance(value, tuple) and pd.isna(value)


@keyword_options
def totals_df(
    events: Any = None,
    *,
    by: str | Sequence[str] | None = None,
    runs: pd.DataFrame | None = None,
    tool_calls: pd.DataFrame | None = None,
    prices: Mapping[str, Mapping[str, float]] | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame:
    """The totals of a set of runs: runs by status, tokens, characters, chunks, tool calls (and cost).

    One row, ``all``, or one per group of ``by`` (``runs_df`` columns, as for :func:`summarize`); the
    columns are ``SUMMARY_TOTALS`` (``cost_usd`` when the runs have a cost). ``runs=`` and
    ``tool_calls=`` are reused when given; files are read file by file, as for :func:`summarize`.

    >>> from agui_notebook import totals_df
    >>> totals_df([{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}])[["runs", "runs_incomplete"]]
         runs  runs_incomplete
    all     1                1
    """
    given = {"runs": runs, "tool_calls": tool_calls}
    events, given, prices = _from_files(events, given, prices, workers, client, progress, errors)
    tables = _Tables(events, given, prices)
    runs_ = tables.table("runs")
    calls = tables.table("tool_calls")
    keys = None if by is None else _group_keys(runs_, by)
    priced = "cost_usd" in runs_.columns
    wanted = [
        name for name in names(SUMMARY_TOTALS) if priced or name not in ("cost_usd", "runs_without_cost")
    ]
    if keys is None:
        run_groups = pd.Series("all", index=runs_.index, dtype=object)
        call_groups = pd.Series("all", index=calls.index, dtype=object)
    else:
        run_groups = _labels(runs_, keys, runs_["run_key"].to_numpy(dtype=object)).set_axis(runs_.index)
        outside: dict[str, int] = {}
        call_owners = calls["run_key"].to_numpy(dtype=object)
        call_groups = _grouped_labels(
            runs_, keys, call_owners, np.zeros(len(calls)), "tool_calls", outside
        ).set_axis(calls.index)
        _warn_outside("totals_df", keys, outside)
    rows = {}
    for group in ["all"] if keys is None else pd.unique(run_groups.to_numpy()):
        in_group = (run_groups.isna() if _missing(group) else run_groups == group).to_numpy()
        these = runs_[in_group]
        called = calls[(call_groups.isna() if _missing(group) else call_groups == group).to_numpy()]
        rows[group] = _totals(these, called)
    out = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=wanted)
    _warn_left_out("totals_df", "input_tokens/output_tokens", _usage_reported(runs_), "no usage reported")
    if "cost_usd" in runs_.columns:
        _warn_left_out(
            "totals_df", "cost_usd", runs_["cost_usd"].to_numpy(dtype=float), "no usage or no price"
        )
    for name in wanted:  # counts as integers; token sums as nullable integers (NA: no run reported any)
        if name in ("input_tokens", "output_tokens"):
            out[name] = out[name].astype("Int64")
        elif name not in ("span_s", "busy_s", "output_tokens_per_s", "cost_usd"):
            out[name] = out[name].astype(np.int64)
    if keys is not None:
        with contextlib.suppress(TypeError):
            out = out.sort_index()
        out.index = pd.MultiIndex.from_tuples(out.index, names=keys) if len(keys) > 1 else out.index
        out.index.name = keys[0] if len(keys) == 1 else None
    return out


def _totals(runs: pd.DataFrame, calls: pd.DataFrame) -> dict[str, Any]:
    status = runs["status"].value_counts()
    started = runs["started_at"].dropna()
    ends = pd.concat([runs["finished_at"].dropna(), started])
    span = (ends.max() - started.min()).total_seconds() if len(started) else np.nan
    output_tokens = _number(runs["output_tokens"].sum(min_count=1))
    totals: dict[str, Any] = {
        "runs": len(runs),
        **{f"runs_{name}": int(status.get(name, 0)) for name in RUN_STATUSES},
        "span_s": span,
        "input_tokens": _number(runs["input_tokens"].sum(min_count=1)),
        "output_tokens": output_tokens,
        "runs_without_usage": int(np.isnan(_usage_reported(runs)).sum()),
        "busy_s": float(runs["duration_s"].sum()),
        "output_tokens_per_s": _tokens_per_busy_second(runs),
        "text_chars": int(runs["text_chars"].sum()),
        "reasoning_chars": int(runs["reasoning_chars"].sum()),
        "chunks": int((runs["text_chunks"] + runs["reasoning_chunks"]).sum()),
        "tool_calls": len(calls),
        "tool_errors": int((calls["status"] == "error").sum()),
        "tool_denied": int((calls["status"] == "denied").sum()),
        "tool_cancelled": int((calls["status"] == "cancelled").sum()),
    }
    if "cost_usd" in runs.columns:
        totals["cost_usd"] = _number(runs["cost_usd"].sum(min_count=1))
        totals["runs_without_cost"] = int(runs["cost_usd"].isna().sum())
    return totals


def _tokens_per_busy_second(runs: pd.DataFrame) -> float:
    """Output tokens per second of run time: over the finished runs that reported output tokens, their tokens
    over the sum of their durations (the idle time between runs is no one's)."""
    tokens = runs["output_tokens"].to_numpy(dtype=float, na_value=np.nan)
    seconds = runs["duration_s"].to_numpy(dtype=float)
    both = ~np.isnan(tokens) & ~np.isnan(seconds)
    busy = float(seconds[both].sum())
    return float(tokens[both].sum()) / busy if busy > 0 else np.nan


def _usage_reported(runs: pd.DataFrame) -> np.ndarray:
    """Per run: 1.0 when it reported input or output tokens, NaN when it reported none."""
    reported = runs["input_tokens"].notna().to_numpy() | runs["output_tokens"].notna().to_numpy()
    return np.where(reported, 1.0, np.nan)


def _number(value: Any) -> float:
    """A sum as a float, NaN when nothing was summed (pandas gives NA for an empty nullable sum)."""
    return np.nan if pd.isna(value) else float(value)
