"""The ``feedback`` columns of ``messages_df``: the user's ratings, from a ChatWidget's feedback records.

A ChatWidget records each rating as a CUSTOM event named ``FEEDBACK_EVENT_NAME`` (``_kinds.py``; built by
``chat/_records.feedback_event``). A record rates one UIMessage: the rows it reaches are the messages whose
``message_id`` is one of its ``messageIds`` (the AG-UI text and reasoning messages of the answer) or its
``messageId``; when none of them is in the log (an AI SDK stream, whose text ids the UIMessage does not keep),
the assistant and reasoning messages of the run whose ``run_id`` is its ``messageId`` (an AI SDK stream's run is
named after its message, an AG-UI answer after its run). Records apply in log order within their source: the last
one wins, and one with ``rating: null`` takes the rating back.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._kinds import FEEDBACK_EVENT_NAME
from ._frame import EventFrame, text_column
from ._message_groups import Messages

__all__ = ["RATINGS", "feedback_columns"]

RATINGS = ("up", "down")
"""The ``feedback`` column's categories."""


def _codes_at(column: pd.Series, rows: np.ndarray) -> list[Any]:
    """The values of a categorical column at ``rows`` (None where missing)."""
    categories = column.cat.categories
    codes = column.cat.codes.to_numpy()[rows]
    return [categories[c] if c >= 0 else None for c in codes.tolist()]


def feedback_columns(ev: EventFrame, messages: Messages) -> dict[str, Any]:
    """``feedback`` (categorical ``up``/``down``, NaN when unrated) and ``feedback_comment`` per message."""
    size = messages.size
    ratings: list[str | None] = [None] * size
    comments: list[str | None] = [None] * size
    records = np.flatnonzero(ev.mask(frozenset({"CUSTOM"})))
    if len(records) and size:
        _apply(ev, messages, records, ratings, comments)
    return {
        "feedback": pd.Categorical(ratings, categories=list(RATINGS)),
        "feedback_comment": text_column(comments),
    }


def _apply(
    ev: EventFrame,
    messages: Messages,
    records: np.ndarray,
    ratings: list[str | None],
    comments: list[str | None],
) -> None:
    frame = ev.frame
    first = messages.first_row
    sources = ev.col("source").codes
    message_ids = _codes_at(frame["message_id"], first)
    run_ids = _codes_at(frame["run_id"], first)
    roles = [str(r) if r is not None else None for r in messages.role]
    by_id: dict[tuple[int, Any], list[int]] = {}
    by_run: dict[tuple[int, Any], list[int]] = {}
    for key in range(messages.size):
        source = int(sources[first[key]])
        by_id.setdefault((source, message_ids[key]), []).append(key)
        if roles[key] != "user":
            by_run.setdefault((source, run_ids[key]), []).append(key)
    for row, event in zip(records.tolist(), ev.decode(records), strict=True):
        if event is None or event.get("name") != FEEDBACK_EVENT_NAME:
            continue
        value = event.get("value")
        if type(value) is not dict or type(value.get("messageId")) is not str:
            ev.odd.add(row, "value", "a feedback record without a string messageId (ignored)")
            continue
        rating = value.get("rating")
        if rating not in (*RATINGS, None):
            ev.odd.add(row, "value.rating", f"a rating of {rating!r}, not 'up', 'down' or null (ignored)")
            continue
        comment = value.get("comment") if type(value.get("comment")) is str else None
        source = int(sources[row])
        listed = value.get("messageIds")
        ids: list[Any] = listed if type(listed) is list else []
        targets: list[int] = []
        for message_id in [*ids, value["messageId"]]:
            if type(message_id) is str:
                targets += by_id.get((source, message_id), [])
        if not targets:
            targets = by_run.get((source, value["messageId"]), [])
        for key in targets:
            ratings[key] = rating
            comments[key] = comment if rating is not None else None
