"""Names for the shapes the public API takes and returns, written once.

>>> from agui_notebook._types import JSON
>>> value: JSON = {"type": "RUN_STARTED"}
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from pydantic import BaseModel

if TYPE_CHECKING:
    import dask.dataframe
    import pandas as pd

__all__ = [
    "JSON",
    "ErrorMode",
    "EventLike",
    "EventSource",
    "EventsOrSource",
    "LazyTable",
    "LogSource",
    "ReadErrorMode",
    "TextSource",
    "WireEvent",
]

JSON: TypeAlias = Any
"""A JSON value as ``orjson`` reads it (dict, list, str, int, float, bool or None)."""

WireEvent: TypeAlias = "dict[str, Any]"
"""An AG-UI event or AI SDK chunk in wire form: a plain dict with camelCase keys and a string ``type``."""

EventLike: TypeAlias = "BaseModel | Mapping[str, Any]"
"""One event: an ``ag_ui.core`` (or other protocol) pydantic model, or a dict in wire form."""

TextSource: TypeAlias = "str | bytes | bytearray | memoryview | os.PathLike[str]"
"""A whole text held in memory (JSON, JSONL, SSE or recorder lines) or the path of a file holding one."""

EventSource: TypeAlias = (
    "TextSource | EventLike | Iterable[EventLike | str | bytes] | AsyncIterable[EventLike | str | bytes]"
)
"""Anything the readers take: a text or path, one event, or a (sync or async) stream of events or of text slices
cut anywhere (an HTTP body as ``aiter_bytes()`` yields it, an open file, lines)."""

LogSource: TypeAlias = "TextSource | Iterable[TextSource] | Iterable[EventLike] | Any"
"""What ``load_events`` reads: a path, glob or folder, several of them, text or bytes, an open file, a list of
events or recorder records, or an ``EventRecorder``."""

EventsOrSource: TypeAlias = "pd.DataFrame | LogSource"
"""What the log tables and plots take: the frame ``load_events`` returns, or anything it reads."""

LazyTable: TypeAlias = "dask.dataframe.DataFrame"
"""What a logs table function returns with ``lazy=True``: a Dask DataFrame whose partitions stay on the cluster."""

ErrorMode: TypeAlias = Literal["raise", "collect", "skip"]
"""What a function does with bad input, always spelled ``errors=``: ``"raise"`` the package's error (with its
location) at the first problem, ``"collect"`` the problems (each with its location) where the result lists them
and go on, or ``"skip"`` what cannot apply and go on (``verify_events`` then says what and where). Each function
takes the modes that fit it, and defaults to what its reference does: ``apply_events`` skips like
``@ag-ui/client``'s reducer, the UI stream reducer raises like the AI SDK's, ``load_events`` raises."""

ReadErrorMode: TypeAlias = Literal["raise", "collect"]
"""The ``errors=`` of the log readers (``load_events``, the tables, ``summarize``): raise at an unreadable line,
or skip it and list it in ``attrs["errors"]``."""
