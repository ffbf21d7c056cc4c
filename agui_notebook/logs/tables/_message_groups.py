"""The text and reasoning messages of an events frame, grouped: what ``messages_df``, ``reasoning_df`` and the
feedback columns read."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from .._kinds import MESSAGE_END_TYPES, MESSAGE_TYPES, REASONING_TYPES
from ._chunks import Chunks
from ._frame import (
    NAT,
    EventFrame,
    category_values,
    compact,
    delta_texts,
    first_in_group,
    group_count,
    group_max,
    group_min,
    join_by_key,
)

__all__ = ["MessageParts", "Messages"]


class Messages:
    """Per text/reasoning message: its events' times, chunks and text."""

    def __init__(self, ev: EventFrame, chunks: Chunks, *, reasoning_only: bool = False) -> None:
        """``reasoning_only``: only the messages with a reasoning event (``reasoning_df``'s), in the same order."""
        in_message = np.flatnonzero(ev.mask(MESSAGE_TYPES))
        owners = ev.owner("message_id", in_message)
        if reasoning_only:
            reasoning = np.unique(owners[ev.mask(REASONING_TYPES)[in_message] & (owners >= 0)])
            # A lookup by owner code, not np.isin (which sorts a million-row copy: the peak of summarize);
            # the last slot, never set, is what an owner of -1 reads.
            lookup = np.zeros(int(owners.max(initial=-1)) + 2, dtype=bool)
            lookup[reasoning] = True
            kept = lookup[owners]
            in_message, owners = in_message[kept], owners[kept]
            del kept, reasoning, lookup
        owner = np.full(ev.n, -1, dtype=np.int64)
        owner[in_message] = owners
        del owners, in_message  # freed before the next million-row arrays (the peak of summarize)
        self.first_row, key = compact(owner)
        del owner
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


class MessageParts:
    """What ``MESSAGE_COLUMNS`` and ``REASONING_COLUMNS`` are made of, for the messages at ``rows``: each part
    computed when a column first reads it (``_columns.py`` says which column is made of what)."""

    def __init__(self, ev: EventFrame, messages: Messages, rows: np.ndarray) -> None:
        self.ev = ev
        self.messages = messages
        self.rows = rows
        self.first = messages.first_row[rows]

    @functools.cached_property
    def texts(self) -> list[str]:
        return self.messages.texts(self.rows)

    @functools.cached_property
    def message_ids(self) -> pd.Categorical:
        return category_values(self.ev.col("message_id"), self.first)
