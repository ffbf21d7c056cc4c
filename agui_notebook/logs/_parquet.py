"""``to_parquet``: the events table (or any logs table) as Parquet with Arrow types, and reading it back.

Ids and types are Arrow dictionaries, times ``timestamp[ns, UTC]``, text ``string``; the events table's
``event`` column (and any column of dicts or lists, such as ``tool_calls_df``'s ``args``) is stored as JSON
text, so DuckDB, polars or Spark read it with their JSON functions, and an events table gets a ``position``
column (its row number) so that a partitioned folder reads back in order.

``load_events`` reads a ``.parquet`` file or a folder of them (``partition_cols`` writes hive folders,
``run_key=.../part-0.parquet``) back into the same events table: each source's events are handed to the
loader as the log they were read from (each event on its original line, with its receive time), so every
table built from the Parquet equals the one built from the original logs.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import orjson
import pandas as pd

from agui_notebook._errors import OptionalDependencyError, OptionError
from agui_notebook._options import keyword_options
from agui_notebook.wire._json import decode_json
from agui_notebook.wire._reader import BOM
from agui_notebook.wire._records import is_recorded

from ._event_array import EventDtype

__all__ = ["parquet_logs", "to_parquet"]

_METADATA_KEY = b"agui_notebook"
POSITION = "position"
"""The column an events table gets in Parquet: each event's 0-based row in the table written."""
_RECORD = re.compile(rb'\{"received_ns":-?\d+,"event":')


def _arrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise OptionalDependencyError("Parquet needs pyarrow: pip install 'agui-notebook[parquet]'") from None
    return pa, pq


def _is_events_table(table: pd.DataFrame) -> bool:
    return "event" in table.columns and isinstance(table["event"].dtype, EventDtype)


def _event_text(raw: bytes) -> str:
    """An event's JSON text from the line it was read from: the line itself for a bare event (exactly as
    written: numbers such as ``1e400`` kept), the event inside a recorder record."""
    raw = raw.removeprefix(BOM).strip()
    if raw[:5] == b"data:":
        raw = raw[5:].strip()
    if raw[:8] == b'{"type":':
        return raw.decode("utf-8")
    found = _RECORD.match(raw)
    if found is not None and raw[-1:] == b"}":
        inner = raw[found.end() : -1]
        try:
            if isinstance(decode_json(inner), dict):
                return inner.decode("utf-8")
        except ValueError:
            pass
    value = decode_json(raw)
    event = value["event"] if is_recorded(value) else value
    try:
        return orjson.dumps(event).decode()
    except TypeError:  # nested deeper than orjson writes
        return json.dumps(event)


def _json_text(value: Any) -> Any:
    if value is None or (isinstance(value, float) and value != value):
        return None
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, default=str)


@keyword_options
def to_parquet(
    table: pd.DataFrame, path: str | os.PathLike[str], *, partition_cols: Sequence[str] | None = None
) -> None:
    """Write an events table (from ``load_events``) or any logs table to Parquet, with Arrow types.

    ``partition_cols`` (``["source"]``, ``["run_key"]``) writes a folder of hive partitions instead of
    one file. ``load_events(path)`` reads an events table back as it was; other tables read back with
    ``pandas.read_parquet`` (their dict and list columns as JSON text). Needs pyarrow
    (``pip install 'agui-notebook[parquet]'``).

    >>> from agui_notebook import load_events, logs  # doctest: +SKIP
    >>> logs.to_parquet(load_events("logs/"), "events.parquet")  # doctest: +SKIP
    >>> load_events("events.parquet")  # doctest: +SKIP
    """
    pa, pq = _arrow()
    if not isinstance(table, pd.DataFrame):
        raise OptionError(
            f"to_parquet writes a DataFrame (an events table or a logs table), not {type(table).__name__}"
        )
    out = table.copy(deep=False)
    json_columns = []
    kind = "table"
    if _is_events_table(table):
        kind = "events"
        events = table["event"].array
        out["event"] = pd.array(
            [None if raw is None else _event_text(raw) for raw in events.raw_rows(list(range(len(events))))],
            dtype=object,
        )
        out[POSITION] = np.arange(len(table), dtype=np.int64)
        json_columns.append("event")
    for name in out.columns:
        if name in json_columns or out[name].dtype != object:
            continue
        sample = out[name].dropna()
        if len(sample) and any(isinstance(v, (dict, list)) for v in sample.iloc[:1000]):
            out[name] = pd.array([_json_text(v) for v in out[name]], dtype=object)
            json_columns.append(name)
    arrow = pa.Table.from_pandas(out, preserve_index=False)
    attrs = {
        key: value
        for key, value in table.attrs.items()
        if key in ("errors", "skipped", "odd_values", "unpriced_models")
    }
    metadata = {"table": kind, "json_columns": json_columns, "attrs": attrs}
    arrow = arrow.replace_schema_metadata(
        {**(arrow.schema.metadata or {}), _METADATA_KEY: json.dumps(metadata, default=str).encode()}
    )
    if partition_cols:
        missing = [name for name in partition_cols if name not in out.columns]
        if missing:
            raise OptionError(f"partition_cols names columns the table does not have: {missing}")
        pq.write_to_dataset(arrow, root_path=os.fspath(path), partition_cols=list(partition_cols))
    else:
        pq.write_table(arrow, os.fspath(path))


def parquet_logs(path: str) -> list[tuple[str, bytes]]:
    """An events table stored by ``to_parquet`` as the logs it was read from: each original source's name and
    its JSONL text (events on their lines, recorded ones with their receive time), for ``load_events`` to
    read as it read the originals."""
    _, pq = _arrow()
    try:
        schema = pq.read_schema(path) if os.path.isfile(path) else None
    except Exception as error:  # pyarrow's errors: not a Parquet file
        raise OptionError(f"{path!r} is not a Parquet file: {error}") from None
    wanted = ["source", "line", "time", "event", POSITION]
    table = pq.read_table(path, columns=wanted) if schema is None or POSITION in schema.names else None
    if table is None or POSITION not in table.column_names:
        raise OptionError(
            f"{path!r} holds no events table written by to_parquet (a logs table reads with pandas.read_parquet)"
        )
    return _logs_of(table.sort_by(POSITION))


def _logs_of(table: Any) -> list[tuple[str, bytes]]:
    """Each run of consecutive rows of one source, with rising lines, as the JSONL log it was read from:
    blank lines before each event up to its line, recorded events (a ``time``) as recorder records."""
    pa, _ = _arrow()
    import pyarrow.compute as pc

    table = table.filter(pc.is_valid(table["event"]))
    n = table.num_rows
    if not n:
        return []
    names = table["source"].combine_chunks()
    if not pa.types.is_dictionary(names.type):
        names = pc.dictionary_encode(names)
    codes = names.indices.to_numpy(zero_copy_only=False)
    lines = table["line"].to_numpy().astype(np.int64)
    starts = np.flatnonzero(np.r_[True, (codes[1:] != codes[:-1]) | (lines[1:] <= lines[:-1])])
    previous = np.r_[0, lines[:-1]]
    previous[starts] = 0
    pads = pc.binary_repeat(
        pa.scalar("\n", type=pa.large_string()), pa.array(np.maximum(lines - previous - 1, 0))
    )
    event = pc.cast(table["event"], pa.large_string())
    ns = pc.cast(pc.cast(table["time"], pa.timestamp("ns", tz="UTC")), pa.int64())
    text = pa.large_string()

    def literal(value: str) -> Any:
        return pa.scalar(value, type=text)

    recorded = pc.binary_join_element_wise(
        literal('{"received_ns":'), pc.cast(ns, text), literal(',"event":'), event, literal("}"), literal("")
    )
    body = pc.if_else(pc.is_valid(ns), recorded, event)
    rows = pc.binary_join_element_wise(pc.cast(pads, text), body, literal("\n"), literal("")).combine_chunks()
    offsets = np.frombuffer(rows.buffers()[1], dtype=np.int64)[rows.offset : rows.offset + n + 1]
    data = memoryview(rows.buffers()[2])
    ends = np.r_[starts[1:], n]
    dictionary = names.dictionary.to_pylist()
    return [
        (str(dictionary[codes[a]]), bytes(data[offsets[a] : offsets[b]]))
        for a, b in zip(starts.tolist(), ends.tolist(), strict=True)
    ]
