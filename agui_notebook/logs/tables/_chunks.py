"""``chunks_df``: one row per streamed delta, and the chunks every other table counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np
import pandas as pd

from agui_notebook._options import keyword_options
from agui_notebook._types import EventsOrSource, LazyTable, ReadErrorMode

from .._columns import CHUNK_COLUMNS, columns_of
from .._kinds import REASONING_DELTA_TYPES, TEXT_DELTA_TYPES, TOOL_ARGS_TYPES
from ._frame import NAT, EventFrame, compact, read_table, reading_documented
from ._shared import event_frame

__all__ = ["Chunks", "chunks_df"]


class Chunks:
    """Every non-empty streamed delta, grouped by the message or tool call it belongs to."""

    @classmethod
    def of(cls, ev: EventFrame) -> Chunks:
        """The chunks of ``ev``, found on first use and then shared by every table built from it."""
        return ev.shared("chunks", lambda: cls(ev))

    def __init__(self, ev: EventFrame) -> None:
        lookup = np.full(len(ev.type_names) + 1, -1, dtype=np.int8)  # the last entry: a missing type (-1)
        for code, name in enumerate(ev.type_names):
            if name in TEXT_DELTA_TYPES | REASONING_DELTA_TYPES | TOOL_ARGS_TYPES:
                lookup[code] = 2 if name in TOOL_ARGS_TYPES else 1 if name in REASONING_DELTA_TYPES else 0
        kind = lookup[ev.types]
        rows = np.flatnonzero((kind >= 0) & (ev.chars > 0)).astype(np.int32)
        self.rows = rows
        self.kind = kind = kind[rows]
        """0 text, 1 reasoning, 2 tool arguments."""
        # The owner: a message (2 * its key) or a tool call (2 * its key + 1); -1 for none.
        raw = ev.owner("message_id", rows)
        raw[raw >= 0] *= 2
        tool = kind == 2
        call_owner = ev.owner("tool_call_id", rows[tool])
        raw[tool] = np.where(call_owner >= 0, call_owner * 2 + 1, -1)
        del call_owner
        _, owner = compact(raw)
        del raw
        self.owner = owner.astype(np.int32)
        del owner
        self.time = ev.time[rows]
        self.chars = ev.chars[rows]
        """int32 (``chunks_df`` gives int64)."""
        self.run = ev.run[rows].astype(np.int32)
        # The gap to the chunk before in the same owner: sorted by owner (stable keeps stream order).
        order = np.argsort(self.owner, kind="stable")
        owner_sorted = self.owner[order]
        time = self.time[order]
        timed = np.zeros(len(rows), dtype=bool)
        timed[1:] = (owner_sorted[1:] == owner_sorted[:-1]) & (owner_sorted[1:] >= 0)
        del owner_sorted
        timed[1:] &= (time[1:] != NAT) & (time[:-1] != NAT)
        gap_sorted = np.full(len(rows), np.nan)
        gap_sorted[1:][timed[1:]] = (time[1:] - time[:-1])[timed[1:]] / 1e9
        del time, timed
        self.gap = np.empty(len(rows))
        self.gap[order] = gap_sorted
        self._positions: tuple[np.ndarray, np.ndarray] | None = None

    def positions(self) -> tuple[np.ndarray, np.ndarray]:
        """Per chunk: its index within its owner and the owner's length up to it (``cum_chars``), int64."""
        if self._positions is None:
            n = len(self.rows)
            order = np.argsort(self.owner, kind="stable")
            owner = self.owner[order]
            chars = self.chars[order].astype(np.int64)
            same = np.zeros(n, dtype=bool)
            same[1:] = owner[1:] == owner[:-1]
            starts = np.flatnonzero(~same)
            lengths = np.diff(np.append(starts, n))
            total = np.cumsum(chars)
            index = np.empty(n, dtype=np.int64)
            cum = np.empty(n, dtype=np.int64)
            index[order] = np.arange(n) - np.repeat(starts, lengths)
            cum[order] = total - np.repeat(total[starts] - chars[starts], lengths)
            self._positions = (index, cum)
        return self._positions


@overload
def chunks_df(
    events: EventsOrSource,
    *,
    workers: int | None = None,
    client: Any = None,
    lazy: Literal[False] = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame: ...
@overload
def chunks_df(
    events: EventsOrSource,
    *,
    workers: int | None = None,
    client: Any,
    lazy: Literal[True],
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> LazyTable: ...
@reading_documented
@keyword_options
def chunks_df(
    events: EventsOrSource,
    *,
    workers: int | None = None,
    client: Any = None,
    lazy: bool = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame | LazyTable:
    """One row per streamed delta (text, reasoning, tool arguments), with its gap and running length.

    Parameters
    ----------

    Returns
    -------
    DataFrame
        One row per chunk, the columns of ``CHUNK_COLUMNS`` (docs/metrics.md); a Dask DataFrame with ``lazy=True``.

    Examples
    --------
    >>> from agui_notebook import logs  # doctest: +SKIP
    >>> logs.chunks_df("run.jsonl").groupby("kind").gap_s.describe()  # doctest: +SKIP
    """
    return read_table(
        "chunks_df",
        _chunks_of,
        events,
        {},
        workers=workers,
        client=client,
        lazy=lazy,
        progress=progress,
        errors=errors,
    )


def _chunks_of(events: Any) -> pd.DataFrame:
    ev = event_frame(events)
    chunks = Chunks.of(ev)
    index, cum_chars = chunks.positions()
    parts = _ChunkParts(ev, chunks, chunks.rows, index, cum_chars, chunks.kind == 2)
    return ev.finished(pd.DataFrame(columns_of(CHUNK_COLUMNS, parts)), "chunks_df")


@dataclass(slots=True)
class _ChunkParts:
    """What ``CHUNK_COLUMNS`` are made of (``_columns.py`` says which column is made of what)."""

    ev: EventFrame
    chunks: Chunks
    rows: np.ndarray
    index: np.ndarray
    cum_chars: np.ndarray
    is_tool: np.ndarray
