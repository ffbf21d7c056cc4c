"""Plots of the logs tables (matplotlib, imported only when a plot is drawn).

Each function takes the events table (or anything ``load_events`` accepts), draws on ``ax`` (a new figure
when omitted) and returns the Axes. ``theme`` is ``"light"``, ``"dark"`` or None: follow the notebook, that
is the figure of ``ax`` when one is given, else a dark matplotlib style in use (``plt.style.use(
"dark_background")``), else JupyterLab's theme setting, else light. New figures are drawn at 100 dpi with
10 pt text, so they read at the size a notebook shows them.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from agui_notebook._errors import OptionalDependencyError, OptionError
from agui_notebook._options import keyword_options
from agui_notebook._shown import shown
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

Theme = Literal["light", "dark"]

_DPI = 100


@dataclass(frozen=True)
class _Palette:
    """The colours of one theme: JupyterLab's own for the page and text, data colours that read on it."""

    name: str
    background: str
    text: str
    muted: str
    grid: str
    reasoning: str
    text_message: str
    args: str
    tool: str
    error: str
    denied: str

    def rc(self) -> dict[str, Any]:
        return {
            "figure.facecolor": self.background,
            "axes.facecolor": self.background,
            "savefig.facecolor": self.background,
            "axes.edgecolor": self.muted,
            "axes.labelcolor": self.text,
            "axes.titlecolor": self.text,
            "text.color": self.text,
            "xtick.color": self.muted,
            "ytick.color": self.muted,
            "xtick.labelcolor": self.text,
            "ytick.labelcolor": self.text,
            "grid.color": self.grid,
            "legend.facecolor": self.background,
            "legend.edgecolor": self.grid,
            "legend.labelcolor": self.text,
            "font.size": 10,
            "axes.titlesize": 11,
            "axes.labelsize": 10,
            "xtick.labelsize": 9,
            "ytick.labelsize": 9,
            "legend.fontsize": 9,
            "figure.dpi": _DPI,
        }


_LIGHT = _Palette(
    "light", background="#ffffff", text="#212121", muted="#616161", grid="#e0e0e0", reasoning="#7b52ab",
    text_message="#1976d2", args="#e09f1f", tool="#388e3c", error="#d32f2f", denied="#757575",
)  # fmt: skip
_DARK = _Palette(
    "dark", background="#111111", text="#e0e0e0", muted="#a0a0a0", grid="#3a3a3a", reasoning="#b39ddb",
    text_message="#64b5f6", args="#ffca28", tool="#81c784", error="#ef5350", denied="#9e9e9e",
)  # fmt: skip


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise OptionalDependencyError(
            "plotting needs matplotlib: pip install 'agui-notebook[plot]'"
        ) from None
    return plt


def _is_dark(color: Any) -> bool:
    from matplotlib.colors import to_rgba

    r, g, b, alpha = to_rgba(color)
    return alpha > 0 and 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5


def jupyterlab_theme() -> Theme | None:
    """JupyterLab's theme setting ("light" or "dark"), or None when it is not set or follows the system.

    Read from JupyterLab's user settings (``$JUPYTERLAB_SETTINGS_DIR``, else the Jupyter config folder's
    ``lab/user-settings``), which JupyterLab writes when the theme is changed from its menu.
    """
    folder = os.environ.get("JUPYTERLAB_SETTINGS_DIR")
    if not folder:
        try:
            from jupyter_core.paths import jupyter_config_dir
        except ImportError:
            return None
        folder = os.path.join(jupyter_config_dir(), "lab", "user-settings")
    path = Path(folder) / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if re.search(r'"adaptive-theme"\s*:\s*true', text):
        return None
    found = re.search(r'"theme"\s*:\s*"([^"]*)"', text)
    if found is None:
        return None
    return "dark" if "dark" in found.group(1).lower() else "light"


def _palette(theme: Theme | None, ax: Any) -> _Palette:
    if theme not in (None, "light", "dark"):
        raise OptionError(f"theme must be 'light', 'dark' or None (follow the notebook), not {shown(theme)}")
    if theme is None:
        import matplotlib

        if ax is not None:
            dark = _is_dark(ax.figure.get_facecolor())
        elif _is_dark(matplotlib.rcParams["figure.facecolor"]):
            dark = True
        else:
            dark = jupyterlab_theme() == "dark"
        theme = "dark" if dark else "light"
    return _DARK if theme == "dark" else _LIGHT


def _themed(draw: Callable[..., Axes]) -> Callable[..., Axes]:
    """Run a drawing function in its theme's matplotlib settings, with the palette as ``palette``."""

    @functools.wraps(draw)
    def themed(*args: Any, theme: Theme | None = None, ax: Any = None, **kwargs: Any) -> Axes:
        plt = _pyplot()
        palette = _palette(theme, ax)
        with plt.rc_context(palette.rc()):
            return draw(*args, ax=ax, palette=palette, **kwargs)

    return themed


def _axes(ax: Any, size: tuple[float, float]) -> Axes:
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots(figsize=size, dpi=_DPI, layout="constrained")
    return ax


def _pick_run(frame: pd.DataFrame, run_id: str | None) -> tuple[str, pd.Series]:
    if run_id is not None and type(run_id) is not str:
        raise OptionError(f"run_id must be a run's key or id (a str), not {shown(run_id)}")
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
            listed = ", ".join(map(str, runs["run_key"][:5])) + (", ..." if len(runs) > 5 else "")
            raise OptionError(f"no run {shown(run_id)} in the events (runs: {listed})")
        row = found.iloc[0]
    return str(row["run_key"]), row


def _seconds_since(times: pd.Series, start: pd.Timestamp) -> np.ndarray:
    return ((times - start).dt.total_seconds()).to_numpy(dtype=float)


_HATCHES = {"denied": "xx", "cancelled": ".."}
"""How a call that did not run to its end is drawn: grey, hatched by why (never red: it did not fail)."""

_SHORT_ID = 16
"""Ids up to this long are shown in labels; longer ones (UUIDs) are left out, never cut."""


def _short_id(call_id: Any) -> bool:
    return isinstance(call_id, str) and len(call_id) <= _SHORT_ID


def _call_label(name: Any, call_id: Any, status: Any, cause: Any = None) -> str:
    label = f"tool {name}"
    if _short_id(call_id):
        label += f" ({call_id})"
    if status == "cancelled" and isinstance(cause, str):
        return f"{label} [cancelled: {cause if _short_id(cause) else 'a sibling'} failed]"
    return label if status == "ok" else f"{label} [{status}]"


def _seconds_text(value: float) -> str:
    return "unfinished" if pd.isna(value) else f"{value:.3g} s"


@_themed
@keyword_options
def plot_run_timeline(
    events: EventsOrSource, run_id: str | None = None, *, ax: Any = None, palette: _Palette = _LIGHT
) -> Axes:
    """One run on a time axis: a lane per reasoning/text message with its chunks, and per tool call.

    Tool lanes show argument streaming (START to END) and execution (END to RESULT, red when it failed);
    a denied call is grey and cross-hatched up to its answer (it never ran), a cancelled call (a sibling
    failed, or the run stopped) grey and dotted up to its end, a call without a result is hatched red to the
    end of the run. ``run_id`` is a ``run_key`` or a ``run_id`` (its first run); it defaults to
    the first run. ``theme``: see the module.
    """
    frame = events_table(events)
    run_key, run = _pick_run(frame, run_id)
    start = run["started_at"]
    in_run = frame[frame["run_key"] == run_key]
    messages = messages_df(in_run)
    chunks = chunks_df(in_run)
    calls = tool_calls_df(frame)  # a call's answer can come in a later run (a resumed approval)
    calls = calls[calls["run_key"] == run_key]
    timed = not pd.isna(start)

    def seconds(at: Any) -> float:
        """Seconds since the run started; NaN for a missing time (or when the run has none)."""
        return float("nan") if not timed or pd.isna(at) else float((at - start).total_seconds())

    end_at = run["finished_at"] if not pd.isna(run["finished_at"]) else in_run["time"].max()
    run_end = seconds(end_at)
    run_end = run_end if math.isfinite(run_end) else 0.0
    span = run_end if run_end > 0 else 1.0
    colors = {"reasoning": palette.reasoning, "text": palette.text_message}

    ax = _axes(ax, (10, 1.6 + 0.42 * (len(messages) + len(calls))))
    floor = span / 500  # the narrowest bar still visible
    lanes: list[tuple[float, int, str, Any]] = []
    for i, (message, chars) in enumerate(zip(messages.itertuples(), messages["chars"].tolist(), strict=True)):
        label = f"{message.kind} {i + 1}" + (f" ({chars} chars)" if chars else " (empty)")
        lanes.append((seconds(message.started_at), len(lanes), label, message))
    for call in calls.itertuples():
        lanes.append(
            (
                seconds(call.started_at),
                len(lanes),
                _call_label(call.tool_name, call.tool_call_id, call.status, call.cause),
                call,
            )
        )
    # Lanes in time order; those without a time last, in table order.
    lanes.sort(
        key=lambda lane: (not math.isfinite(lane[0]), lane[0] if math.isfinite(lane[0]) else 0, lane[1])
    )
    shown = set()
    for lane, (begin, _, _, item) in enumerate(lanes):
        if not math.isfinite(begin):
            continue  # a lane with nothing to draw: its events carry no time
        if hasattr(item, "kind"):
            color = colors[item.kind]
            shown.add(item.kind)
            finish = seconds(item.ended_at)
            finish = finish if math.isfinite(finish) else run_end
            ax.broken_barh([(begin, max(finish - begin, floor))], (lane - 0.3, 0.6), color=color, alpha=0.35)
            times = _seconds_since(chunks.loc[chunks["message_id"] == item.message_id, "time"], start)
            ax.vlines(times[np.isfinite(times)], lane - 0.3, lane + 0.3, color=color, linewidth=1)
            continue
        args_end = seconds(item.args_end_at)
        args_end = args_end if math.isfinite(args_end) else begin
        ax.broken_barh([(begin, max(args_end - begin, floor))], (lane - 0.3, 0.6), color=palette.args)
        shown.add("args")
        result = seconds(item.result_at)
        if item.status in ("denied", "cancelled"):
            until = result if math.isfinite(result) else run_end
            ax.broken_barh([(args_end, max(until - args_end, floor))], (lane - 0.3, 0.6), facecolor="none",
                           edgecolor=palette.denied, hatch=_HATCHES[item.status])  # fmt: skip
            shown.add(item.status)
        elif math.isfinite(result) or item.status == "error":
            # A call that failed its run may have no time of its own (pydantic-ai's closing results carry
            # none): it failed by the end of the run.
            result = result if math.isfinite(result) else run_end
            color = palette.error if item.status == "error" else palette.tool
            ax.broken_barh([(args_end, max(result - args_end, floor))], (lane - 0.3, 0.6), color=color)
            shown.add("error" if item.status == "error" else "tool")
        else:
            ax.broken_barh([(args_end, max(run_end - args_end, 0))], (lane - 0.3, 0.6),
                           facecolor="none", edgecolor=palette.error, hatch="//")  # fmt: skip
            shown.add("pending")
    ax.axvline(run_end, color=palette.muted, linewidth=1, linestyle="--")
    from matplotlib.patches import Patch

    legend = {
        "reasoning": Patch(color=palette.reasoning, alpha=0.35, label="reasoning (ticks: chunks)"),
        "text": Patch(color=palette.text_message, alpha=0.35, label="text (ticks: chunks)"),
        "args": Patch(color=palette.args, label="tool arguments streaming"),
        "tool": Patch(color=palette.tool, label="tool executing"),
        "error": Patch(color=palette.error, label="tool failed"),
        "denied": Patch(facecolor="none", edgecolor=palette.denied, hatch="xx", label="denied (never ran)"),
        "cancelled": Patch(
            facecolor="none",
            edgecolor=palette.denied,
            hatch=_HATCHES["cancelled"],
            label="cancelled (a sibling failed, or the run stopped)",
        ),
        "pending": Patch(facecolor="none", edgecolor=palette.error, hatch="//", label="no result"),
    }
    handles = [patch for key, patch in legend.items() if key in shown]
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_xlim(0, max(span, floor) * 1.02)
    ax.set_yticks(range(len(lanes)), [lane[2] for lane in lanes])
    ax.set_ylim(len(lanes) - 0.4, -0.9)
    ax.set_xlabel("seconds since RUN_STARTED")
    end = "run end" if not pd.isna(run["finished_at"]) else "last event"
    if timed:
        ax.set_title(f"run {run_key}: {run['status']}, {_seconds_text(run['duration_s'])} (dashed: {end})")
    else:
        ax.set_title(f"run {run_key}: {run['status']}, no timed events to draw")
    ax.grid(axis="x", alpha=0.6)
    return ax


@_themed
@keyword_options
def plot_token_stream(
    events: EventsOrSource, run_id: str | None = None, *, ax: Any = None, palette: _Palette = _LIGHT
) -> Axes:
    """Characters streamed so far over time, one step line per text/reasoning message of a run.

    AG-UI streams chunks of characters, not tokens; the y axis counts characters. ``theme``: see the module.
    """
    frame = events_table(events)
    run_key, _ = _pick_run(frame, run_id)
    chunks = chunks_df(frame[frame["run_key"] == run_key])
    chunks = chunks[(chunks["kind"] != "tool_args") & chunks["t"].notna()]
    colors = {"reasoning": palette.reasoning, "text": palette.text_message}
    ax = _axes(ax, (8, 4.2))
    for i, (_, group) in enumerate(chunks.groupby("message_id", observed=True, sort=False)):
        kind = str(group["kind"].iloc[0])
        t = np.concatenate([[group["t"].iloc[0]], group["t"].to_numpy()])
        chars = np.concatenate([[0], group["cum_chars"].to_numpy()])
        label = f"{kind} {i + 1} ({int(chars[-1])} chars, {len(group)} chunks)"
        ax.step(t, chars, where="post", color=colors[kind], linewidth=1.6, label=label)
        ax.plot(group["t"], group["cum_chars"], "o", color=colors[kind], markersize=3)
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("seconds since RUN_STARTED")
    ax.set_ylabel("characters streamed")
    ax.set_title(f"stream of run {run_key}: {len(chunks)} chunks (chunks are not tokens)")
    if ax.get_legend_handles_labels()[0]:  # chunks outside any message draw no line
        ax.legend(loc="upper left", frameon=False)
    ax.grid(alpha=0.6)
    return ax


@_themed
@keyword_options
def plot_tool_latency(events: EventsOrSource, *, ax: Any = None, palette: _Palette = _LIGHT) -> Axes:
    """Tool execution latency (TOOL_CALL_END to RESULT) by tool: a box per tool, every call that ran a dot.

    Calls that did not run or did not finish have no latency to draw: each tool's label counts them
    (``2 ran, 1 denied, 1 pending``). ``theme``: see the module.
    """
    calls = tool_calls_df(events_table(events))
    tools = sorted(calls["tool_name"].dropna().astype(str).unique())
    ran = calls.dropna(subset=["latency_s"])
    ax = _axes(ax, (8, 1.4 + 0.55 * max(len(tools), 1)))
    labels = []
    for i, tool in enumerate(tools, 1):
        mine = calls[calls["tool_name"] == tool]
        timed = ran[ran["tool_name"] == tool]
        parts = [f"{len(timed)} ran"]
        cancelled = int((timed["status"] == "cancelled").sum())
        if cancelled:
            parts.append(f"{cancelled} of them cancelled")
        for status in ("denied", "pending"):
            count = int((mine["status"] == status).sum())
            if count:
                parts.append(f"{count} {status}")
        untimed = (
            len(mine) - len(timed) - sum(int((mine["status"] == s).sum()) for s in ("denied", "pending"))
        )
        if untimed:
            parts.append(f"{untimed} untimed")
        labels.append(f"{tool}\n({', '.join(parts)})")
        if len(timed):
            ax.boxplot(
                [timed["latency_s"].to_numpy()], positions=[i], widths=0.5, showfliers=False,
                medianprops={"color": palette.text}, boxprops={"color": palette.muted},
                whiskerprops={"color": palette.muted}, capprops={"color": palette.muted}, **_horizontal(),
            )  # fmt: skip
            jitter = np.random.default_rng(i).uniform(-0.15, 0.15, len(timed))
            shade = {"error": palette.error, "cancelled": palette.denied}
            colors = [shade.get(s, palette.tool) for s in timed["status"]]
            ax.scatter(timed["latency_s"], i + jitter, c=colors, s=18, zorder=3)
        else:
            ax.annotate(
                "  no call ran: no latency to show", (0, i), va="center", color=palette.muted, style="italic"
            )
    if tools:
        ax.set_yticks(range(1, len(tools) + 1), labels)
        ax.set_ylim(len(tools) + 0.6, 0.4)
    ax.set_xlim(left=0)
    ax.set_xlabel("latency (s): TOOL_CALL_END to TOOL_CALL_RESULT")
    ax.set_title("tool latency by tool (green: ok, red: failed)")
    ax.grid(axis="x", alpha=0.6)
    return ax


def _horizontal() -> dict[str, Any]:
    import matplotlib

    # `orientation` replaced `vert` in matplotlib 3.10.
    version = tuple(int(part) for part in matplotlib.__version__.split(".")[:2])
    return {"orientation": "horizontal"} if version >= (3, 10) else {"vert": False}


@_themed
@keyword_options
def plot_reasoning_lengths(
    events: EventsOrSource,
    *,
    by: str = "chars",
    tokenizer: Any = None,
    bins: int = 20,
    ax: Any = None,
    palette: _Palette = _LIGHT,
) -> Axes:
    """Histogram of reasoning length per reasoning message: ``by`` chars, words or tokens (with a tokenizer).

    Lengths are whole numbers: bins are whole-number wide (at most ``bins`` of them) and the axis starts at
    zero, so a log whose messages all have the same length shows one bar at that length. ``theme``: see the
    module.
    """
    if by not in ("chars", "words", "tokens"):
        raise OptionError(f"by must be 'chars', 'words' or 'tokens', not {shown(by)}")
    if type(bins) is not int or not 1 <= bins <= 10_000:
        raise OptionError(f"bins must be a whole number from 1 to 10000, not {shown(bins)}")
    if by == "tokens" and tokenizer is None:
        raise OptionError("by='tokens' needs a tokenizer (text -> token count or token list)")
    table = reasoning_df(events_table(events), tokenizer=tokenizer)
    ax = _axes(ax, (8, 4))
    values = table[by].to_numpy(dtype=float)
    from matplotlib.ticker import MaxNLocator

    if len(values):
        low, high = int(values.min()), int(values.max())
        width = max(1, math.ceil((high - low + 1) / max(bins, 1)))
        edges = np.arange(low, high + width + 1, width) - 0.5
        ax.hist(values, bins=edges, color=palette.reasoning, edgecolor=palette.background)
        median = float(np.median(values))
        ax.axvline(median, color=palette.text, linestyle="--", linewidth=1, label=f"median {median:.4g} {by}")
        ax.legend(loc="upper left", frameon=False)
        ax.set_xlim(0, max(high + width, high * 1.1))
        ax.set_ylim(0, ax.get_ylim()[1] * 1.15)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"reasoning length ({by})")
    ax.set_ylabel("reasoning messages")
    ax.set_title(f"reasoning length distribution ({len(values)} messages)")
    return ax
