"""``messages_df``: one row per text or reasoning message."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._columns import MESSAGE_COLUMNS, names
from .._kinds import MESSAGE_END_TYPES, MESSAGE_TYPES, REASONING_TYPES
from ._chunks import Chunks
from ._feedback import feedback_columns
from ._frame import (
    NAT,
    EventFrame,
    category_values,
    compact,
    delta_texts,
    first_in_group,
    from_sources,
    group_count,
    group_max,
    group_min,
    join_by_key,
    seconds_between,
    text_column,
    utc,
    word_count,
)
from ._shared import event_frame

__all__ = ["Messages", "message_columns", "messages_df"]


class Messages:
    """Per text/reasoning message: its events' times, chunks and text."""

    def __init__(self, ev: EventFrame, chunks: Chunks, *, reasoning_only: bool = False) -> None:
        """``reasoning_only``: only the messages with a reasoning event (``reasoning_df``'s), in the same order."""
        in_message = np.flatnonzero(ev.mask(MESSAGE_TYPES))
        owners = ev.owner("message_id", in_message)
        if reasoning_only:
            reasoning = np.unique(owners[ev.mask(REASONING_TYPES)[in_message] & (owners >= 0)])
            kept = np.isin(owners, reasoning)
            in_message, owners = in_message[kept], owners[kept]
        owner = np.full(ev.n, -1, dtype=np.int64)
        owner[in_message] = owners
        del owners
        self.first_row, key = compact(owner)
        size = len(self.first_row)
        self.size = size
        self.key = key
        self.reasoning = np.zeros(size, dtype=bool)
        reasoning_rows = np.flatnonzero(ev.mask(REASONING_TYPES) & (key >= 0))
        self.reasoning[key[reasoning_rows]] = True
        self.started = group_min(key, ev.time, size)
        end_rows = np.flatnonzero(ev.mask(MESSAGE_END_TYPES) & (key >= 0))
        ended = group_max(key[end_rows], ev.time[end_rows], size)
        # Chunks of this message: text/reasoning kinds only; map chunk owners to message keys.
        message_chunks = chunks.kind != 2
        chunk_rows = chunks.rows[message_chunks]
        chunk_key = key[chunk_rows]
        self.chunks = group_count(chunk_key, size)
        self.chars = group_count(chunk_key, size, weights=chunks.chars[message_chunks]).astype(np.int64)
        last_chunk = group_max(chunk_key, ev.time[chunk_rows], size)
        self.ended = np.where(ended != NAT, ended, last_chunk)
        role_rows = first_in_group(key, np.flatnonzero((ev.col("role").codes >= 0) & (key >= 0)), size)
        self.role = category_values(ev.col("role"), role_rows)
        self.run = ev.run[self.first_row] if size else np.empty(0, dtype=np.int64)
        self._chunk_key = chunk_key
        self._chunk_rows = chunk_rows
        self._ev = ev

    def texts(self, keys: np.ndarray) -> list[str]:
        """The text of the messages ``keys`` (their chunks joined in order)."""
        wanted = np.zeros(self.size + 1, dtype=bool)
        wanted[keys] = True
        chunk_key = self._chunk_key
        picked = wanted[chunk_key]  # a chunk without a message (key -1) reads the extra False
        joined = join_by_key(chunk_key[picked], self._chunk_rows[picked], delta_texts(self._ev), self.size)
        return [joined[k] for k in np.asarray(keys).tolist()]


def message_columns(ev: EventFrame, messages: Messages, rows: np.ndarray) -> dict[str, Any]:
    """The columns ``messages_df`` and ``reasoning_df`` share, for the messages at ``rows``."""
    first = messages.first_row[rows]
    texts = messages.texts(rows)
    return {
        "run_id": category_values(ev.col("run_id"), first),
        "run_key": category_values(ev.col("run_key"), first),
        "message_id": category_values(ev.col("message_id"), first),
        "started_at": utc(messages.started[rows]),
        "ended_at": utc(messages.ended[rows]),
        "duration_s": seconds_between(messages.ended[rows], messages.started[rows]),
        "chunks": messages.chunks[rows],
        "chars": messages.chars[rows],
        "words": np.array([word_count(text) for text in texts], dtype=np.int64),
        "text": text_column(texts),
    }


@from_sources
def messages_df(events: Any) -> pd.DataFrame:
    """One row per text or reasoning message: timing, chunks, length, the text itself and the user's rating.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.messages_df("run.jsonl").query("kind == 'text'")[["duration_s", "chars"]]  # doctest: +SKIP
    """
    ev = event_frame(events)
    messages = Messages(ev, Chunks.of(ev))
    rows = np.arange(messages.size)
    columns = message_columns(ev, messages, rows)
    columns["role"] = messages.role
    columns["kind"] = pd.Categorical.from_codes(
        messages.reasoning.astype(np.int8), categories=["text", "reasoning"]
    )
    columns.update(feedback_columns(ev, messages))
    return ev.finished(pd.DataFrame(columns)[names(MESSAGE_COLUMNS)], "messages_df")
