"""``messages_df``: one row per text or reasoning message."""

from __future__ import annotations

import functools
from typing import Any, Literal, overload

import numpy as np
import pandas as pd

from agui_notebook._options import keyword_options
from agui_notebook._types import EventsOrSource, LazyTable, ReadErrorMode

from .._columns import MESSAGE_COLUMNS, columns_of
from ._chunks import Chunks
from ._feedback import feedback_columns
from ._frame import (
    read_table,
    reading_documented,
)
from ._message_groups import MessageParts, Messages
from ._shared import event_frame

__all__ = ["messages_df"]


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
    parts = _TableParts(ev, messages, np.arange(messages.size))
    return ev.finished(pd.DataFrame(columns_of(MESSAGE_COLUMNS, parts)), "messages_df")


class _TableParts(MessageParts):
    @functools.cached_property
    def feedback(self) -> dict[str, Any]:
        return feedback_columns(self.ev, self.messages)
