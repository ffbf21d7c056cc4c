"""``reasoning_df``: one row per reasoning message (or span), with its encryption and token count."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, cast, overload

import numpy as np
import pandas as pd

from agui_notebook._options import callback, keyword_options
from agui_notebook._types import EventsOrSource, LazyTable, ReadErrorMode

from .._columns import REASONING_COLUMNS, columns_of
from ._chunks import Chunks
from ._frame import EventFrame, read_table, reading_documented
from ._message_groups import MessageParts, Messages
from ._shared import event_frame
from ._tool_calls import outcome_markers

__all__ = ["reasoning_df", "reasoning_table"]


@overload
def reasoning_df(
    events: EventsOrSource,
    *,
    tokenizer: Callable[[str], Any] | None = None,
    workers: int | None = None,
    client: Any = None,
    lazy: Literal[False] = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame: ...
@overload
def reasoning_df(
    events: EventsOrSource,
    *,
    tokenizer: Callable[[str], Any] | None = None,
    workers: int | None = None,
    client: Any,
    lazy: Literal[True],
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> LazyTable: ...
@reading_documented
@keyword_options
def reasoning_df(
    events: EventsOrSource,
    *,
    tokenizer: Callable[[str], Any] | None = None,
    workers: int | None = None,
    client: Any = None,
    lazy: bool = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame | LazyTable:
    """One row per reasoning message (or span): duration, chunks, length, whether it came encrypted.

    Parameters
    ----------
    tokenizer : callable, optional
        Text to a token count or a list of tokens: adds a ``tokens`` column.

    Returns
    -------
    DataFrame
        One row per reasoning message, the columns of ``REASONING_COLUMNS`` (docs/metrics.md; ``tokens`` only
        with ``tokenizer=``); a Dask DataFrame with ``lazy=True``.

    Examples
    --------
    >>> from agui_notebook import logs  # doctest: +SKIP
    >>> logs.reasoning_df("run.jsonl", tokenizer=lambda s: len(s.split())).tokens.sum()  # doctest: +SKIP
    """
    return read_table(
        "reasoning_df",
        _reasoning_of,
        events,
        {"tokenizer": callback(tokenizer, "tokenizer")},
        workers=workers,
        client=client,
        lazy=lazy,
        progress=progress,
        errors=errors,
    )


def _reasoning_of(events: Any, *, tokenizer: Callable[[str], Any] | None) -> pd.DataFrame:
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
    parts = _ReasoningParts(ev, messages, np.flatnonzero(messages.reasoning), tokenizer)
    given = ("tokenizer=",) if tokenizer is not None else ()
    return ev.finished(pd.DataFrame(columns_of(REASONING_COLUMNS, parts, given)), "reasoning_df")


class _ReasoningParts(MessageParts):
    def __init__(
        self, ev: EventFrame, messages: Messages, rows: np.ndarray, tokenizer: Callable[[str], Any] | None
    ) -> None:
        super().__init__(ev, messages, rows)
        self.tokenizer = tokenizer

    @property
    def encrypted(self) -> np.ndarray:
        _, encrypted_ids = outcome_markers(self.ev, self.ev.odd)
        sources = self.ev.col("source").codes[self.first]
        return np.array(
            [(int(s), m) in encrypted_ids for s, m in zip(sources, self.message_ids, strict=True)], dtype=bool
        )

    @property
    def tokens(self) -> np.ndarray:
        tokenizer = cast(Callable[[str], Any], self.tokenizer)  # the column comes with tokenizer= only
        counts = []
        for text in self.texts:
            tokens = tokenizer(text)
            counts.append(tokens if isinstance(tokens, (int, np.integer)) else len(tokens))
        return np.array(counts, dtype=np.int64)
