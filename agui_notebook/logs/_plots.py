"""Plots of the logs tables (matplotlib, imported only when a plot is drawn).

Each function takes the events table (or anything ``load_events`` accepts), draws on ``ax`` (a new figure
when omitted) and returns the Axes.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from agui_notebook._errors import OptionError
from agui_notebook._types import EventsOrSource

from ._load import events_table
from .tables._chunks import chunks_df
from .tables._messages import messages_df
from .tables._reasoning import reasoning_df
from .tables._runs import runs_df
from .tables._tool_calls import tool_calls_df

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_reasoning_lengths", "plot_run_timeline", "plot_token_stream", "plot_tool_latency"]

_COLORS = {
    "reasoning": "#8e6bbf",
    "text": "#3b7dd8",
    "args": "#f2b134",
    "tool": "#4aa564",
    "error": "#d9534f",
}


def _pyplot() -> Axes:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plotting needs matplotlib: pip install 'agui-notebook[plot]'") from None
    return plt


def _axes(ax: Any, size: tuple[float, float]) -> Axes:
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots(figsize=size, layout="constrained")
    return ax


def _pick_run(frame: pd.DataFrame, run_id: str | None) -> tuple[str, pd.Series]:
    """The run to draw: by its ``run_key`` or, failing that, the first run with that ``run_id``."""
    runs = runs_df(frame)
    if not len(runs):
        raise OptionError("the events hold no run to draw")
    if run_id is None:
        row = runs.iloc[0]
    else:
        found = runs[runs["run_key"] == run_id]
        if not len(found):
            found = runs[runs["run_id"] == run_id]
        if not len(found):
            shown = ", ".join(map(str, runs["run_key"][:5])) + (", ..." if len(runs) > 5 else "")
            raise OptionError(f"no run {run_id!r} in the events (runs: {shown})")
        row = found.iloc[0]
    return str(row["run_key"]), row


def _seconds_since(times: pd.Series, start: pd.Timestamp) -> np.ndarray:
    return ((times - start).dt.total_seconds()).to_numpy(dtype=float)


def plot_run_timeline(events: EventsOrSource, run_id: str | None = None, *, ax: Any = None) -> Axes:
    """One run on a time axis: a lane per reasoning/text message with its chunks, and per tool call.

    Tool lanes show argument streaming (START to END) and execution (END to RESULT, red when it failed,
    hatched when no result came). ``run_id`` is a ``run_key`` or a ``run_id`` (its first run); it defaults to
    the first run.
    """
    frame = events_table(events)
    run_key, run = _pick_run(frame, run_id)
    start = run["started_at"]
    in_run = frame[frame["run_key"] == run_key]
    messages = messages_df(in_run)
    chunks = chunks_df(in_run)
    calls = tool_calls_df(in_run)
    timed = not pd.isna(start)

    def seconds(at: Any) -> float:
        """Seconds since the run started; NaN for a missing time (or when the run has none)."""
        return float("nan") if not timed or pd.isna(at) else float((at - start).total_seconds())

    end_at = run["finished_at"] if not pd.isna(run["finished_at"]) else in_run["time"].max()
    run_end = seconds(end_at)
    run_end = run_end if math.isfinite(run_end) else 0.0
    span = run_end if run_end > 0 else 1.0

    ax = _axes(ax, (10, 1.2 + 0.45 * (len(messages) + len(calls))))
    floor = span / 500  # the narrowest bar still visible
    lanes: list[tuple[float, int, str, Any]] = []
    for i, message in enumerate(messages.itertuples()):
        label = f"{message.kind} {i + 1}" + (f" ({message.chars} ch)" if message.chars else " (empty)")
        lanes.append((seconds(message.started_at), len(lanes), label, message))
    for call in calls.itertuples():
        label = f"tool {call.tool_name} ({str(call.tool_call_id)[:12]})"
        label += "" if call.status == "ok" else f" [{call.status}]"
        lanes.append((seconds(call.started_at), len(lanes), label, call))
    # Lanes in time order; those without a time last, in table order.
    lanes.sort(
        key=lambda lane: (not math.isfinite(lane[0]), lane[0] if math.isfinite(lane[0]) else 0, lane[1])
    )
    for lane, (begin, _, _, item) in enumerate(lanes):
        if not math.isfinite(begin):
            continue  # a lane with nothing to draw: its events carry no time
        if hasattr(item, "kind"):
            color = _COLORS[item.kind]
            finish = seconds(item.ended_at)
            finish = finish if math.isfinite(finish) else run_end
            ax.broken_barh([(begin, max(finish - begin, floor))], (lane - 0.3, 0.6), color=color, alpha=0.35)
            times = _seconds_since(chunks.loc[chunks["message_id"] == item.message_id, "time"], start)
            ax.vlines(times[np.isfinite(times)], lane - 0.3, lane + 0.3, color=color, linewidth=1)
            continue
        args_end = seconds(item.args_end_at)
        args_end = args_end if math.isfinite(args_end) else begin
        ax.broken_barh([(begin, max(args_end - begin, floor))], (lane - 0.3, 0.6), color=_COLORS["args"])
        result = seconds(item.result_at)
        if math.isfinite(result):
            color = _COLORS["error"] if item.status == "error" else _COLORS["tool"]
            ax.broken_barh([(args_end, max(result - args_end, floor))], (lane - 0.3, 0.6), color=color)
        else:
            ax.broken_barh([(args_end, max(run_end - args_end, 0))], (lane - 0.3, 0.6),
                           facecolor="none", edgecolor=_COLORS["error"], hatch="//")  # fmt: skip
    ax.axvline(run_end, color="black", linewidth=1, linestyle="--")
    from matplotlib.patches import Patch

    legend = [
        Patch(color=_COLORS["reasoning"], alpha=0.35, label="reasoning (ticks: chunks)"),
        Patch(color=_COLORS["text"], alpha=0.35, label="text (ticks: chunks)"),
        Patch(color=_COLORS["args"], label="tool arguments streaming"),
        Patch(color=_COLORS["tool"], label="tool executing"),
        Patch(color=_COLORS["error"], label="tool failed"),
    ]
    ax.legend(handles=legend, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_xlim(0, max(span, floor) * 1.02)
    ax.set_yticks(range(len(lanes)), [lane[2] for lane in lanes])
    ax.set_ylim(len(lanes) - 0.4, -0.9)
    ax.set_xlabel("seconds since RUN_STARTED")
    duration = "unfinished" if pd.isna(run["duration_s"]) else f"{run['duration_s']:.3g} s"
    end = "run end" if not pd.isna(run["finished_at"]) else "last event"
    if timed:
        ax.set_title(f"run {run_key}: {run['status']}, {duration} (dashed: {end})")
    else:
        ax.set_title(f"run {run_key}: {run['status']}, no timed events to draw")
    ax.grid(axis="x", alpha=0.3)
    return ax


def plot_token_stream(events: EventsOrSource, run_id: str | None = None, *, ax: Any = None) -> Axes:
    """Characters streamed so far over time, one step line per text/reasoning message of a run.

    AG-UI streams chunks of characters, not tokens; the y axis counts characters.
    """
    frame = events_table(events)
    run_key, _ = _pick_run(frame, run_id)
    chunks = chunks_df(frame[frame["run_key"] == run_key])
    chunks = chunks[(chunks["kind"] != "tool_args") & chunks["t"].notna()]
    ax = _axes(ax, (8, 4))
    for i, (message_id, group) in enumerate(chunks.groupby("message_id", observed=True, sort=False)):
        kind = str(group["kind"].iloc[0])
        t = np.concatenate([[group["t"].iloc[0]], group["t"].to_numpy()])
        chars = np.concatenate([[0], group["cum_chars"].to_numpy()])
        ax.step(t, chars, where="post", color=_COLORS[kind], alpha=0.9 if kind == "text" else 0.7,
                label=f"{kind} {i + 1} ({str(message_id)[:8]})")  # fmt: skip
        ax.plot(group["t"], group["cum_chars"], "o", color=_COLORS[kind], markersize=2.5)
    ax.set_xlim(left=0)
    ax.set_xlabel("seconds since RUN_STARTED")
    ax.set_ylabel("characters streamed")
    ax.set_title(f"token stream of run {run_key} ({len(chunks)} chunks; chunks are not tokens)")
    if len(chunks):
        ax.legend(fontsize=8, loc="upper left")
    ax.grid(alpha=0.3)
    return ax


def plot_tool_latency(events: EventsOrSource, *, ax: Any = None) -> Axes:
    """Tool execution latency (TOOL_CALL_END to RESULT) by tool: a box per tool, every call a dot."""
    calls = tool_calls_df(events_table(events)).dropna(subset=["latency_s"])
    ax = _axes(ax, (8, 4))
    tools = sorted(calls["tool_name"].dropna().astype(str).unique())
    data = [calls.loc[calls["tool_name"] == tool, "latency_s"].to_numpy() for tool in tools]
    if tools:
        import matplotlib

        # `orientation` replaced `vert` in matplotlib 3.10.
        version = tuple(int(part) for part in matplotlib.__version__.split(".")[:2])
        horizontal = {"orientation": "horizontal"} if version >= (3, 10) else {"vert": False}
        ax.boxplot(data, widths=0.5, showfliers=False, **horizontal)
        jitter = np.random.default_rng(0)
        for i, tool in enumerate(tools, 1):
            subset = calls[calls["tool_name"] == tool]
            colors = [_COLORS["error"] if s == "error" else _COLORS["tool"] for s in subset["status"]]
            y = i + jitter.uniform(-0.15, 0.15, len(subset))
            ax.scatter(subset["latency_s"], y, c=colors, s=14, zorder=3)
        ax.set_yticks(
            range(1, len(tools) + 1), [f"{t} (n={len(d)})" for t, d in zip(tools, data, strict=True)]
        )
    ax.set_xlim(left=0)
    ax.set_xlabel("latency (s): TOOL_CALL_END to TOOL_CALL_RESULT")
    ax.set_title("tool latency by tool (red: failed)")
    ax.grid(axis="x", alpha=0.3)
    return ax


def plot_reasoning_lengths(
    events: EventsOrSource, *, by: str = "chars", tokenizer: Any = None, bins: int = 20, ax: Any = None
) -> Axes:
    """Histogram of reasoning length per reasoning message: ``by`` chars, words or tokens (with a tokenizer)."""
    if by not in ("chars", "words", "tokens"):
        raise OptionError(f"by must be 'chars', 'words' or 'tokens', not {by!r}")
    if by == "tokens" and tokenizer is None:
        raise OptionError("by='tokens' needs a tokenizer (text -> token count or token list)")
    table = reasoning_df(events_table(events), tokenizer=tokenizer)
    ax = _axes(ax, (8, 4))
    values = table[by].to_numpy(dtype=float)
    ax.hist(values, bins=bins, color=_COLORS["reasoning"], edgecolor="white")
    if len(values):
        median = float(np.median(values))
        ax.axvline(median, color="black", linestyle="--", linewidth=1)
        ax.text(median, ax.get_ylim()[1] * 0.95, f" median {median:.3g}", va="top", fontsize=8)
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"reasoning length ({by})")
    ax.set_ylabel("reasoning messages")
    ax.set_title(f"reasoning length distribution ({len(values)} messages)")
    return ax
