"""``runs_df``: one row per run, its status, latencies, stream rates, tool time and token usage."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, TypeAlias, overload

import numpy as np
import pandas as pd

from agui_notebook._errors import AguiNotebookWarning, OptionError, warn
from agui_notebook._options import keyword_options
from agui_notebook._shown import shown
from agui_notebook._types import EventsOrSource, LazyTable, ReadErrorMode

from .._columns import RUN_COLUMNS, columns_of
from .._kinds import MESSAGE_START_TYPES, RUN_START_TYPES
from .._odd_values import OddValues, odd_problem
from .._run_models import ENDED_EARLY, inherit_models
from ._chunks import Chunks
from ._frame import (
    NAT,
    EventFrame,
    first_in_group,
    group_count,
    group_max,
    group_min,
    group_quantiles,
    read_table,
    reading_documented,
    seconds_between,
    take,
)
from ._run_endings import run_endings, run_error_text
from ._shared import event_frame
from ._tool_calls import ToolCalls

__all__ = [
    "PRICE_KEYS",
    "USAGE_CONVENTIONS",
    "USAGE_SOURCES",
    "Prices",
    "UsageConvention",
    "checked_prices",
    "runs_df",
    "runs_table",
]

PRICE_KEYS = ("input", "output", "cached_input")
"""What a model's entry in ``prices=`` gives, in US dollars per million tokens (``cached_input`` defaults to
``input``)."""

_USAGE_KEYS = {
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "reasoning_tokens": "reasoningTokens",
    "cached_input_tokens": "cachedInputTokens",
    "total_tokens": "totalTokens",
}
"""AG-UI's ``usage`` entry keys (on RUN_FINISHED / RUN_ERROR), by the column each is summed into."""


class UsageConvention(NamedTuple):
    """How a producer that sends no ``usage`` on its run's end reports token counts: in events of its own, one
    per model request, summed per run."""

    source: str
    """The run's ``usage_source`` when its counts come from these events."""
    event_type: str
    """The AG-UI type of the events (CUSTOM, RAW)."""
    names: frozenset[str]
    """The CUSTOM event's ``name``, or the ``event`` of the RAW event's payload, that marks a usage event."""
    payload: str
    """The field of the event that holds the counts (and its ``name`` for a RAW one)."""
    keys: dict[str, str]
    """The producer's key for each token column it reports."""

    def counted(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The object holding the counts when ``event`` is one of this convention's, else None."""
        if event.get("type") != self.event_type:
            return None
        payload = event.get(self.payload)
        if not isinstance(payload, dict):
            return None
        # A CUSTOM event is named beside its value; a RAW event's payload names itself.
        name = payload.get("event") if self.event_type == "RAW" else event.get("name")
        return payload if name in self.names else None


USAGE_CONVENTIONS = (
    # agent-framework-ag-ui 1.7.0 (_run_common._emit_usage): CustomEvent(name="usage", value=usage_details),
    # one per model response; usage_details is agent-framework-core 1.26.0's UsageDetails.
    UsageConvention(
        source="custom",
        event_type="CUSTOM",
        names=frozenset({"usage"}),
        payload="value",
        keys={
            "input_tokens": "input_token_count",
            "output_tokens": "output_token_count",
            "reasoning_tokens": "reasoning_output_token_count",
            "cached_input_tokens": "cache_read_input_token_count",
            "total_tokens": "total_token_count",
        },
    ),
    # agno 3.1.10 (os/interfaces/agui/handlers.on_unknown_event): RawEvent(event=chunk.to_dict(), source="agno")
    # for every run event the interface does not map, ModelRequestCompleted (TeamModelRequestCompleted for a
    # team's leader) among them: one per model request, with its model and counts (agno/run/agent.py).
    UsageConvention(
        source="raw",
        event_type="RAW",
        names=frozenset({"ModelRequestCompleted", "TeamModelRequestCompleted"}),
        payload="event",
        keys={
            "input_tokens": "input_tokens",
            "output_tokens": "output_tokens",
            "reasoning_tokens": "reasoning_tokens",
            "cached_input_tokens": "cache_read_tokens",
            "total_tokens": "total_tokens",
        },
    ),
)
"""The producers' own usage events, each convention written once: read for a run whose end reports no counts."""

USAGE_SOURCES = ("run_end", *(convention.source for convention in USAGE_CONVENTIONS))
"""The categories of ``runs_df``'s ``usage_source``, in order."""


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


def _usage(
    event: Any, row: int, odd: OddValues, priced: list[tuple[Any, dict[str, int]]] | None = None
) -> dict[str, Any]:
    """Token counts summed over a run end's ``usage`` entries (a list of objects, or one object).

    ``priced`` receives each entry's ``model`` (None when it names none) and its own counts.
    """
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
        keys = {column: key if key in entry else column for column, key in _USAGE_KEYS.items()}
        counts = _counts(entry, keys, where, row, odd, totals)
        if priced is not None:
            priced.append((_model_of(entry), counts))
    return totals


def _counts(
    entry: dict[str, Any], keys: dict[str, str], where: str, row: int, odd: OddValues, totals: dict[str, Any]
) -> dict[str, int]:
    """The token counts of one usage entry (``keys``: the entry's key for each column), added to ``totals``; a
    value that is no count is reported in ``odd`` under ``where``."""
    counts: dict[str, int] = {}
    for column, name in keys.items():
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
            counts[column] = count
    return counts


def _convention_usage(
    ev: EventFrame, wanted: np.ndarray, entries: list[list[tuple[Any, dict[str, int]]]]
) -> dict[int, tuple[str, dict[str, Any]]]:
    """Per run of ``wanted`` (runs whose end reports no token counts): the counts its producer's usage events
    (``USAGE_CONVENTIONS``) sum to, and the source of the first one; each event's counts go to ``entries``."""
    types = frozenset(convention.event_type for convention in USAGE_CONVENTIONS)
    rows = np.flatnonzero(ev.mask(types) & (ev.run >= 0))
    rows = rows[wanted[ev.run[rows]]]
    found: dict[int, tuple[str, dict[str, Any]]] = {}
    for row, event in zip(rows.tolist(), ev.decode(rows), strict=True):
        for convention in USAGE_CONVENTIONS if isinstance(event, dict) else ():
            counted = convention.counted(event)
            if counted is None:
                continue
            run = int(ev.run[row])
            totals = found.setdefault(run, (convention.source, {}))[1]
            counts = _counts(counted, convention.keys, convention.payload, row, ev.odd, totals)
            entries[run].append((_model_of(counted), counts))
            break
    return found


def _requested_model(event: Any) -> str | None:
    """The model a run's request asked for: ``input.forwardedProps.model`` of its RUN_STARTED (the OpenAI-style
    request field a client forwards), else None."""
    run_input = event.get("input") if isinstance(event, dict) else None
    props = run_input.get("forwardedProps") if isinstance(run_input, dict) else None
    return _model_of(props)


def _requested_models(ev: EventFrame, models: list[Any], status: np.ndarray, start_row: np.ndarray) -> None:
    """Give the runs that ended without usage (``_ENDED_EARLY``) and name no model the model their request asked
    for (``_requested_model``)."""
    early = [run for run, model in enumerate(models) if model is None and status[run] in ENDED_EARLY]
    rows = np.array([start_row[run] for run in early if start_row[run] >= 0], dtype=np.int64)
    runs = [run for run in early if start_row[run] >= 0]
    for run, event in zip(runs, ev.decode(rows), strict=True):
        models[run] = _requested_model(event)


def _model_of(metadata: Any) -> str | None:
    model = metadata.get("model") if isinstance(metadata, dict) else None
    return model if isinstance(model, str) and model else None


def _metadata_model(event: Any) -> str | None:
    """The model an event's metadata names: AG-UI's ``metadata.model``, or the AI SDK's message metadata
    ``model`` (on the ``start``/``finish`` chunk kept as ``rawEvent``, or a ``message-metadata`` chunk)."""
    if not isinstance(event, dict):
        return None
    raw = event.get("rawEvent")
    value = event.get("value") if event.get("type") == "CUSTOM" else None
    return (
        _model_of(event.get("metadata"))
        or (_model_of(raw.get("messageMetadata")) if isinstance(raw, dict) else None)
        or (_model_of(value.get("messageMetadata")) if isinstance(value, dict) else None)
    )


def checked_prices(prices: Any) -> dict[str, dict[str, float]]:
    """``prices=`` as {model: {"input", "output", "cached_input"}} in USD per million tokens, else OptionError."""
    if not isinstance(prices, Mapping):
        raise OptionError(f"prices must map model names to their prices, not {type(prices).__name__}")
    checked = {}
    for model, price in prices.items():
        if not isinstance(price, Mapping):
            raise OptionError(
                f"prices[{shown(model)}] must be a dict of {', '.join(PRICE_KEYS)}, not {shown(price)}"
            )
        unknown = sorted(set(price) - set(PRICE_KEYS))
        if unknown or "input" not in price or "output" not in price:
            raise OptionError(
                f"prices[{shown(model)}] takes input and output (and optionally cached_input), USD per million"
                f" tokens; got {sorted(price)}"
            )
        for key, value in price.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise OptionError(
                    f"prices[{shown(model)}][{shown(key)}] must be a non-negative number, not {shown(value)}"
                )
        checked[str(model)] = {key: float(price.get(key, price["input"])) for key in PRICE_KEYS}
    return checked


def _cost(
    entries: list[tuple[Any, dict[str, int]]],
    fallback: str | None,
    prices: dict[str, dict[str, float]],
    unpriced: set[str],
) -> float:
    """The USD cost of a run's usage entries (NaN when an entry's model has no price)."""
    total = 0.0
    for model, counts in entries:
        if not counts.get("input_tokens") and not counts.get("output_tokens"):
            continue
        model = model or fallback
        price = prices.get(model) if model is not None else None
        if price is None:
            unpriced.add(model or "<no model named>")
            return math.nan
        tokens_in = counts.get("input_tokens", 0)
        cached = min(counts.get("cached_input_tokens", 0), tokens_in)
        total += (
            (tokens_in - cached) * price["input"]
            + cached * price["cached_input"]
            + counts.get("output_tokens", 0) * price["output"]
        ) / 1e6
    return total


def _union_seconds(intervals: list[tuple[int, int]]) -> float:
    total = 0
    current_start = 0
    current_end: int | None = None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None:
                total += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None:
        total += current_end - current_start
    return total / 1e9


def _tool_time(calls: ToolCalls, size: int) -> np.ndarray:
    """Per run: the seconds its executed calls ran (from arguments end to result), overlaps counted once."""
    timed = (calls.run >= 0) & calls.executed & (calls.args_end != NAT) & (calls.result_at != NAT)
    run, start, end = calls.run[timed], calls.args_end[timed], calls.result_at[timed]
    if (end < start).any():  # a result stamped before its arguments ended: interval by interval
        intervals: dict[int, list[tuple[int, int]]] = {}
        for k, a, b in zip(run.tolist(), start.tolist(), end.tolist(), strict=True):
            intervals.setdefault(k, []).append((a, b))
        return np.array([_union_seconds(intervals.get(k, [])) for k in range(size)], dtype=float)
    # Sorted by run, then start: each interval adds the part past the latest end before it in its run.
    order = np.lexsort((end, start, run))
    run, start, end = run[order], start[order], end[order]
    totals = np.zeros(size, dtype=np.int64)
    if len(run):
        reach = pd.Series(end).groupby(run).cummax().to_numpy()
        previous = np.empty_like(reach)
        previous[1:] = reach[:-1]
        first = np.ones(len(run), dtype=bool)
        first[1:] = run[1:] != run[:-1]
        previous[first] = np.iinfo(np.int64).min
        np.add.at(totals, run, np.maximum(end - np.maximum(start, previous), 0))
    return totals / 1e9


Prices: TypeAlias = Mapping[str, Mapping[str, float]]
"""``prices=``: ``{model: {"input": usd, "output": usd, "cached_input": usd}}``, US dollars per million tokens."""


@overload
def runs_df(
    events: EventsOrSource,
    *,
    prices: Prices | None = None,
    workers: int | None = None,
    client: Any = None,
    lazy: Literal[False] = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame: ...
@overload
def runs_df(
    events: EventsOrSource,
    *,
    prices: Prices | None = None,
    workers: int | None = None,
    client: Any,
    lazy: Literal[True],
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> LazyTable: ...
@reading_documented
@keyword_options
def runs_df(
    events: EventsOrSource,
    *,
    prices: Prices | None = None,
    workers: int | None = None,
    client: Any = None,
    lazy: bool = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame | LazyTable:
    """One row per run: status, latencies, stream rates, tool time, model and tokens.

    Parameters
    ----------
    prices : dict, optional
        ``{model: {"input": usd_per_Mtok, "output": usd_per_Mtok, "cached_input": usd_per_Mtok}}``
        (``cached_input`` defaults to ``input``) adds ``cost_usd``: each usage entry priced by the model it
        names (else the model the run's metadata names); NaN for a run without usage or with a model not in
        ``prices`` (those are listed in ``attrs["unpriced_models"]``, with a warning).

    Returns
    -------
    DataFrame
        One row per run, the columns of ``RUN_COLUMNS`` (docs/metrics.md); a Dask DataFrame with ``lazy=True``.

    Examples
    --------
    >>> from agui_notebook import logs  # doctest: +SKIP
    >>> logs.runs_df("logs/").groupby("status").ttft_s.median()  # doctest: +SKIP
    >>> logs.runs_df("logs/", prices={"gpt-4o": {"input": 2.5, "output": 10}}).cost_usd.sum()  # doctest: +SKIP
    """
    priced = None if prices is None else checked_prices(prices)
    return read_table(
        "runs_df",
        _runs_of,
        events,
        {"prices": priced},
        workers=workers,
        client=client,
        lazy=lazy,
        progress=progress,
        errors=errors,
    )


def _runs_of(events: Any, *, prices: dict[str, dict[str, float]] | None) -> pd.DataFrame:
    ev = event_frame(events)
    return kept_runs_table(ev, Chunks.of(ev), prices)


def kept_runs_table(
    ev: EventFrame, chunks: Chunks, prices: dict[str, dict[str, float]] | None
) -> pd.DataFrame:
    """``runs_table``, built once per unchanged frame and these prices (``EventFrame.kept_table``)."""
    key = (
        None
        if prices is None
        else tuple(sorted((model, tuple(sorted(p.items()))) for model, p in prices.items()))
    )
    return ev.kept_table(("runs_df", key), lambda: runs_table(ev, chunks, prices), _warn_unpriced_again)


def _warn_unpriced_again(table: pd.DataFrame) -> None:
    """The unpriced-models warning ``runs_table`` gave for ``table``, given again (for a kept table)."""
    if table.attrs.get("unpriced_models"):
        _warn_unpriced(table.attrs["unpriced_models"])


def _warn_unpriced(unpriced: list[str]) -> None:
    warn(
        f"runs_df: no price for {', '.join(map(repr, unpriced))}: the cost of their runs is"
        " NaN (listed in attrs['unpriced_models'])",
        AguiNotebookWarning,
    )


@dataclass(slots=True)
class _RunParts:
    """What ``RUN_COLUMNS`` are made of (``_columns.py`` says which column is made of what), per run."""

    ev: EventFrame
    chunks: Chunks
    size: int
    first: np.ndarray
    parents: list[Any]
    started: np.ndarray
    finished: np.ndarray
    status: np.ndarray
    error: list[Any]
    models: list[Any]
    text: np.ndarray
    reasoning: np.ndarray
    text_first: np.ndarray
    stream_first: np.ndarray
    rate: np.ndarray
    itl50: np.ndarray
    itl95: np.ndarray
    tool_counts: np.ndarray
    tool_time: np.ndarray
    usage: dict[str, list[Any]]
    usage_source: pd.Categorical
    output_tokens: Any
    tpot: np.ndarray
    costs: np.ndarray | None


def runs_table(ev: EventFrame, chunks: Chunks, prices: dict[str, dict[str, float]] | None) -> pd.DataFrame:
    """``runs_df`` of an events frame whose chunks are already found (``prices`` checked)."""
    unpriced: set[str] = set()
    parts = _run_parts(ev, chunks, prices, unpriced)
    given = ("prices=",) if prices is not None else ()
    table = ev.finished(pd.DataFrame(columns_of(RUN_COLUMNS, parts, given)), "runs_df")
    inherit_models(table)
    if prices is not None:
        table.attrs["unpriced_models"] = sorted(unpriced)
        if unpriced:
            _warn_unpriced(sorted(unpriced))
    return table


def _run_parts(
    ev: EventFrame, chunks: Chunks, prices: dict[str, dict[str, float]] | None, unpriced: set[str]
) -> _RunParts:
    size = ev.runs
    last, endings = run_endings(ev)
    # The calls' own odd values are tool_calls_df's to report; events that do not decode, both tables'.
    calls = ToolCalls.of(ev, chunks)
    ev.odd.found.extend(calls.decode_odd.found)

    started_rows = np.flatnonzero(ev.mask(RUN_START_TYPES) & (ev.run >= 0))
    start_row = first_in_group(ev.run, started_rows, size)
    start_time = take(ev.time, start_row, NAT)
    started = np.where(start_time != NAT, start_time, group_min(ev.run, ev.time, size))
    finished = take(ev.time, last, NAT)
    endings_by_run = dict(zip(np.flatnonzero(last >= 0).tolist(), endings, strict=True))
    status = np.full(size, "incomplete", dtype=object)
    error: list[Any] = [None] * size
    usage: dict[str, list[Any]] = {column: [pd.NA] * size for column in _USAGE_KEYS}
    entries: list[list[tuple[Any, dict[str, int]]]] = [[] for _ in range(size)]
    named: list[dict[str, None]] = [{} for _ in range(size)]  # models the metadata names, in order
    usage_source: list[Any] = [None] * size
    without_usage = np.ones(size, dtype=bool)
    for run, event in zip(np.flatnonzero(last >= 0).tolist(), endings, strict=True):
        row = int(last[run])
        status[run] = _status(event, row, ev.odd)
        if status[run] == "error":
            error[run] = run_error_text(event, row, ev.odd)
        totals = _usage(event, row, ev.odd, entries[run])
        if totals:
            without_usage[run] = False
            usage_source[run] = "run_end"
            for column, value in totals.items():
                usage[column][run] = value
    for run, (source, totals) in _convention_usage(ev, without_usage, entries).items():
        usage_source[run] = source if totals else None
        for column, value in totals.items():
            usage[column][run] = value
    parents: list[Any] = [None] * size
    for run, event in zip(
        np.flatnonzero(start_row >= 0).tolist(), ev.decode(start_row[start_row >= 0]), strict=True
    ):
        model = _metadata_model(event)
        if model is not None:
            named[run][model] = None
        parent = event.get("parentRunId") if isinstance(event, dict) else None
        if isinstance(parent, str):
            parents[run] = parent
        elif parent is not None:
            ev.odd.add(int(start_row[run]), "parentRunId", odd_problem("parentRunId", parent))

    metadata_rows = np.flatnonzero(ev.mask(MESSAGE_START_TYPES | {"CUSTOM"}) & (ev.run >= 0))
    for row, event in zip(metadata_rows.tolist(), ev.decode(metadata_rows), strict=True):
        model = _metadata_model(event)
        if model is not None:
            named[int(ev.run[row])][model] = None
    for run in np.flatnonzero(last >= 0).tolist():
        model = _metadata_model(endings_by_run[run])
        if model is not None:
            named[run][model] = None
    models: list[Any] = []
    for run in range(size):
        found = dict.fromkeys(model for model, _ in entries[run] if model is not None) or named[run]
        models.append(" + ".join(found) if found else None)
    _requested_models(ev, models, status, start_row)

    text = chunks.kind == 0
    streamed = chunks.kind != 2
    text_first = group_min(chunks.run[text], chunks.time[text], size)
    stream_first = group_min(chunks.run[streamed], chunks.time[streamed], size)
    stream_last = group_max(chunks.run[streamed], chunks.time[streamed], size)
    stream_count = group_count(chunks.run[streamed], size)
    span = np.where(stream_count > 1, seconds_between(stream_last, stream_first), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(span > 0, (stream_count - 1) / span, np.nan)
    timed = streamed & (chunks.run >= 0) & ~np.isnan(chunks.gap)
    itl50, itl95 = group_quantiles(chunks.run[timed], chunks.gap[timed], size, (0.5, 0.95))

    output_tokens = pd.array(usage["output_tokens"], dtype="Int64")
    out_float = output_tokens.to_numpy(dtype=float, na_value=np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        tpot = np.where(out_float > 1, span / (out_float - 1), np.nan)

    costs = None
    if prices is not None:
        costs = np.array(
            [
                _cost(
                    entries[run], next(iter(named[run])) if len(named[run]) == 1 else None, prices, unpriced
                )
                if entries[run]
                else np.nan
                for run in range(size)
            ],
            dtype=float,
        )
    return _RunParts(
        ev=ev,
        chunks=chunks,
        size=size,
        first=ev.run_first_row,
        parents=parents,
        started=started,
        finished=finished,
        status=status,
        error=error,
        models=models,
        text=text,
        reasoning=chunks.kind == 1,
        text_first=text_first,
        stream_first=stream_first,
        rate=rate,
        itl50=itl50,
        itl95=itl95,
        tool_counts=group_count(calls.run, size),
        tool_time=_tool_time(calls, size),
        usage=usage,
        usage_source=pd.Categorical(usage_source, categories=list(USAGE_SOURCES)),
        output_tokens=output_tokens,
        tpot=tpot,
        costs=costs,
    )
