"""``chunks_df``: one row per streamed delta, and the chunks every other table counts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._columns import CHUNK_COLUMNS, names
from .._kinds import REASONING_DELTA_TYPES, TEXT_DELTA_TYPES, TOOL_ARGS_TYPES
from ._frame import NAT, EventFrame, category_values, compact, from_sources, utc
from ._shared import event_frame

__all__ = ["Chunks", "chunks_df"]


class Chunks:
    """Every non-empty streamed delta, grouped by the message or tool call it belongs to."""

    @classmethod
    def of(cls, ev: EventFrame) -> Chunks:
        """The chunks of ``ev``, found on first use and then shared by every table built from it."""
        return ev.shared("chunks", lambda: cls(ev))

    def __init__(self, ev: EventFrame) -> None:
        text = ev.mask(TEXT_DELTA_TYPES)
        reasoning = ev.mask(REASONING_DELTA_TYPES)
        tool = ev.mask(TOOL_ARGS_TYPES)
        rows = np.flatnonzero((text | reasoning | tool) & (ev.chars > 0))
        self.rows = rows
        self.kind = np.where(tool[rows], 2, np.where(reasoning[rows], 1, 0)).astype(np.int8)
        message_owner = ev.owner("message_id")[rows]
        call_owner = ev.owner("tool_call_id")[rows]
        raw = np.where(self.kind == 2, np.where(call_owner >= 0, call_owner * 2 + 1, -1), message_owner * 2)
        raw = np.where((self.kind != 2) & (message_owner < 0), -1, raw)
        self.first_row, self.owner = compact(raw)
        self.time = ev.time[rows]
        self.chars = ev.chars[rows].astype(np.int64)
        self.run = ev.run[rows]
        # Position, running length and gap within each owner: sort by owner (stable keeps stream order).
        order = np.argsort(self.owner, kind="stable")
        owner = self.owner[order]
        time = self.time[order]
        chars = self.chars[order]
        same = np.zeros(len(rows), dtype=bool)
        same[1:] = owner[1:] == owner[:-1]
        starts = np.flatnonzero(~same)
        lengths = np.diff(np.append(starts, len(rows)))
        total = np.cumsum(chars)
        index = np.empty(len(rows), dtype=np.int64)
        cum = np.empty(len(rows), dtype=np.int64)
        gap = np.full(len(rows), np.nan)
        index[order] = np.arange(len(rows)) - np.repeat(starts, lengths)
        cum[order] = total - np.repeat(total[starts] - chars[starts], lengths)
        previous = np.empty(len(rows), dtype=np.int64)
        previous[:1] = NAT
        previous[1:] = time[:-1]
        timed = same & (time != NAT) & (previous != NAT) & (owner >= 0)
        gap_sorted = np.full(len(rows), np.nan)
        gap_sorted[timed] = (time[timed] - previous[timed]) / 1e9
        gap[order] = gap_sorted
        self.index = index
        self.cum_chars = cum
        self.gap = gap


@from_sources
def chunks_df(events: Any) -> pd.DataFrame:
    """One row per streamed delta (text, reasoning, tool arguments), with its gap and running length.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.chunks_df("run.jsonl").groupby("kind").gap_s.describe()  # doctest: +SKIP
    """
    ev = event_frame(events)
    frame = ev.frame
    chunks = Chunks.of(ev)
    rows = chunks.rows
    is_tool = chunks.kind == 2
    kind = pd.Categorical.from_codes(chunks.kind, categories=["text", "reasoning", "tool_args"])
    out = pd.DataFrame(
        {
            "run_id": category_values(frame["run_id"], rows),
            "run_key": category_values(frame["run_key"], rows),
            "message_id": category_values(frame["message_id"], np.where(is_tool, -1, rows)),
            "tool_call_id": category_values(frame["tool_call_id"], np.where(is_tool, rows, -1)),
            "kind": kind,
            "index": chunks.index.astype(np.int64),
            "time": utc(chunks.time),
            "t": frame["t"].to_numpy()[rows],
            "gap_s": chunks.gap,
            "chars": chunks.chars,
            "cum_chars": chunks.cum_chars.astype(np.int64),
            "delta": frame["delta"].array[rows] if len(rows) else frame["delta"].array[:0],
        }
    )
    return ev.finished(out[names(CHUNK_COLUMNS)], "chunks_df")
