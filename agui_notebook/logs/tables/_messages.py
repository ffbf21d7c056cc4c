"""``messages_df``: one row per text or reasoning message."""

from __future__ import annotations

from typing import Any, Literal, overload

import numpy as np
import pandas as pd

from agui_notebook._options import keyword_options
from agui_notebook._types import EventsOrSource, LazyTable, ReadErrorMode

from .._columns import MESSAGE_COLUMNS, names
from ._chunks import Chunks
from ._feedback import feedback_columns
from ._frame import (
    EventFrame,
    category_values,
    read_table,
    reading_documented,
    seconds_between,
    text_column,
    utc,
    word_count,
)
from ._message_groups import Messages
from ._shared import event_frame

__all__ = ["message_columns", "messages_df"]


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


@overload
def messages_df(
    events: EventsOrSource,
    *,
    workers: int | None = None,
    client: Any = None,
    lazy: Literal[False] = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame: ...
@overload
def messages_df(
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
def messages_df(
    events: EventsOrSource,
    *,
    workers: int | None = None,
    client: Any = None,
    lazy: bool = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame | LazyTable:
    """One row per text or reasoning message: timing, chunks, length, the text itself and the user's rating.

    Parameters
    ----------

    Returns
    -------
    DataFrame
        One row per message, the columns of ``MESSAGE_COLUMNS`` (docs/metrics.md); a Dask DataFrame with ``lazy=True``.

    Examples
    --------
    >>> from agui_notebook import logs  # doctest: +SKIP
    >>> logs.messages_df("run.jsonl").query("kind == 'text'")[["duration_s", "chars"]]  # doctest: +SKIP
    """
    return read_table(
        "messages_df",
        _messages_of,
        events,
        {},
        workers=workers,
        client=client,
        lazy=lazy,
        progress=progress,
        errors=errors,
    )


def _messages_of(events: Any) -> pd.DataFrame:
    ev = event_frame(events)
    messages = Messages(ev, Chunks.of(ev))
    rows = np.arange(messages.size)
    columns = message_columns(ev, messages, rows)
    columns["role"] = messages.role
    columns["kind"] = pd.Categorical.from_codes(
        messages.reasoning.astype(np.int8), dtype=pd.CategoricalDtype(["text", "reasoning"])
    )
    columns.update(feedback_columns(ev, messages))
    return ev.finished(pd.DataFrame(columns)[names(MESSAGE_COLUMNS)], "messages_df")
