"""``reasoning_df``: one row per reasoning message (or span), with its encryption and token count."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .._columns import REASONING_COLUMNS, names
from ._chunks import Chunks
from ._frame import EventFrame, from_sources
from ._message_groups import Messages
from ._messages import message_columns
from ._shared import event_frame
from ._tool_calls import outcome_markers

__all__ = ["reasoning_df", "reasoning_table"]


@from_sources
def reasoning_df(events: Any, *, tokenizer: Callable[[str], Any] | None = None) -> pd.DataFrame:
    """One row per reasoning message (or span): duration, chunks, length, whether it came encrypted.

    ``tokenizer`` (text -> token count or token list) adds a ``tokens`` column.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.reasoning_df("run.jsonl", tokenizer=lambda s: len(s.split())).tokens.sum()  # doctest: +SKIP
    """
    ev = event_frame(events)
    if tokenizer is not None:
        return reasoning_table(ev, Chunks.of(ev), tokenizer)
    return kept_reasoning_table(ev, Chunks.of(ev))


def kept_reasoning_table(ev: EventFrame, chunks: Chunks) -> pd.DataFrame:
    """``reasoning_table`` without tokens, built once per unchanged frame (``EventFrame.kept_table``)."""
    return ev.kept_table(("reasoning_df",), lambda: reasoning_table(ev, chunks))


def reasoning_table(
    ev: EventFrame, chunks: Chunks, tokenizer: Callable[[str], Any] | None = None
) -> pd.DataFrame:
    """``reasoning_df`` of an events frame whose chunks are already found."""
    messages = Messages(ev, chunks, reasoning_only=True)
    rows = np.flatnonzero(messages.reasoning)
    columns = message_columns(ev, messages, rows)
    _, encrypted_ids = outcome_markers(ev, ev.odd)
    sources = ev.col("source").codes[messages.first_row[rows]]
    columns["encrypted"] = np.array(
        [(int(s), m) in encrypted_ids for s, m in zip(sources, columns["message_id"], strict=True)],
        dtype=bool,
    )
    wanted = names(REASONING_COLUMNS)
    if tokenizer is not None:
        counts = []
        for text in messages.texts(rows):
            tokens = tokenizer(text)
            counts.append(tokens if isinstance(tokens, (int, np.integer)) else len(tokens))
        columns["tokens"] = np.array(counts, dtype=np.int64)
    else:
        wanted.remove("tokens")
    return ev.finished(pd.DataFrame(columns)[wanted], "reasoning_df")
