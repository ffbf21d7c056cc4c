"""The events table, built column by column from batches of parsed events (the heart of ``load_events``).

Columns are built batch by batch straight from the parsed dicts, never row by row: ids become categorical
codes (consecutive events mostly share an id, so only the places where it changes are hashed), ``delta``
lengths come from one ``map(len, ...)``, and the fields that only a few event types carry are read from
those events alone.
"""

from __future__ import annotations

from typing import Any

import msgspec
import numpy as np
import pandas as pd

from ._columns import EVENT_COLUMNS, names
from ._event_array import EventArray
from ._kinds import (
    CHUNK_ID_KEYS,
    CONTENT_TYPES,
    DELTA_TYPES,
    EVENT_TYPES,
    FIELD_TYPES,
    HOT_TYPES,
    MESSAGE_TYPES,
    REQUIRED_IDS,
)
from ._odd_values import OddValues, id_text, odd_problem
from ._read import MAX_TIMESTAMP_MS, NO_TIME, Batch, value_runs
from ._run_assignment import assign_runs, run_keys

__all__ = ["EventTableBuilder"]

_SPARSE_KEYS = ("threadId", "runId", "toolCallName", "parentMessageId", "role", "stepName")


class _Codes:
    """Integer codes for the values of one categorical column, shared by every source of a load.

    Every value is kept as a string: an id that is not one (a number, a list) is read as its text
    (``id_text``) and counted in ``odd``.
    """

    __slots__ = ("field", "index", "odd", "values")

    def __init__(self, field: str = "") -> None:
        self.field = field
        self.index: dict[str, int] = {}
        self.values: list[str] = []
        self.odd = 0

    def code(self, value: Any) -> int:
        if type(value) is not str:
            if value is None or (type(value) is float and value != value) or value is msgspec.UNSET:
                return -1  # absent: None, NaN or unset
            if isinstance(value, str):  # a str subclass (an enum member given in memory)
                value = str.__str__(value)
            else:
                self.odd += 1
                value = id_text(value)
        found = self.index.get(value)
        if found is not None:
            return found
        found = len(self.values)
        self.index[value] = found
        self.values.append(value)
        return found

    def dense(self, values: np.ndarray, rows: np.ndarray | int, odd: OddValues) -> np.ndarray:
        """Codes of an object array; only where a value differs from the one before is it looked up.

        ``rows`` is where the values are in the events table (the first row, when they are consecutive);
        odd values are reported there.
        """
        starts, distinct = value_runs(values)
        values_list = distinct.tolist()
        try:
            found = list(map(self.index.get, values_list))
        except TypeError:  # an unhashable id: code() keeps it as its text
            found = [None] * len(values_list)
        if None in found:
            before = self.odd
            found = [self.code(v) if f is None else f for v, f in zip(values_list, found, strict=True)]
            if self.odd != before:
                ends = np.append(starts[1:], len(values)).tolist()
                for value, start, end in zip(values_list, starts.tolist(), ends, strict=True):
                    if _is_odd_id(value):
                        problem = odd_problem(self.field, value, read_as=id_text(value))
                        for position in range(start, end):
                            odd.add(_row(rows, position), self.field, problem)
        codes = np.array(found, dtype=np.int32)
        return np.repeat(codes, np.diff(np.append(starts, len(values))))

    def categorical(self, codes: np.ndarray) -> pd.Categorical:
        return pd.Categorical.from_codes(codes, categories=pd.Index(self.values, dtype=object).astype(str))


def _is_odd_id(value: Any) -> bool:
    """Whether a value of an id field is neither a string nor absent."""
    return not (
        isinstance(value, str)
        or value is None
        or value is msgspec.UNSET
        or (type(value) is float and value != value)
    )


def _row(rows: np.ndarray | int, position: int) -> int:
    return rows + position if isinstance(rows, int) else int(rows[position])


try:  # one C loop: are all values str
    from pandas._libs.lib import is_string_array as _is_string_array  # type: ignore[attr-defined]  # private: not in pandas-stubs
except ImportError:  # pragma: no cover - a pandas without it
    _is_string_array = None


def _all_strings(values: np.ndarray) -> bool:
    if _is_string_array is not None:
        return bool(_is_string_array(values, skipna=False))
    return all(type(value) is str for value in values)  # pragma: no cover


def _text_array(values: np.ndarray) -> Any:
    """pandas' ``str`` column (NaN for missing) over the object array, which is checked, not copied."""
    try:
        dtype = pd.StringDtype("python", na_value=np.nan)
    except TypeError:  # pandas before 2.3 has no NaN-semantics string dtype: plain objects
        return values
    string_array: Any = pd.arrays.StringArray  # its dtype= and internal constructor are not in pandas-stubs
    template = string_array(np.array(["", np.nan], dtype=object), dtype=dtype)
    try:
        # Every value is a str or NaN by construction: skip the scan the public constructor makes.
        return template._from_backing_data(values)
    except AttributeError:  # pragma: no cover - a pandas without the internal constructor
        return string_array(values, dtype=dtype)


def _utc(ns: np.ndarray) -> pd.DatetimeIndex:
    return pd.DatetimeIndex(ns.view("M8[ns]")).tz_localize("UTC")


class EventTableBuilder:
    """Accumulates the columns of the events table batch by batch."""

    def __init__(self) -> None:
        self.sources = _Codes()
        self.types = _Codes()
        self.ids = {key: _Codes(key) for key in ("messageId", "toolCallId", "subagentRunId", *_SPARSE_KEYS)}
        self.odd = OddValues()
        self.odd_entries: list[dict[str, Any]] = []
        self.parts: dict[str, list[np.ndarray]] = {
            name: []
            for name in (
                "line", "type", "received", "timestamp", "messageId", "toolCallId", "subagentRunId", "delta",
                "chars", "blob_line",
            )
        }  # fmt: skip
        self.sparse: dict[str, tuple[list[np.ndarray], list[np.ndarray]]] = {
            key: ([], []) for key in _SPARSE_KEYS
        }
        self.blobs: list[Any] = []
        self.batch_sources: list[int] = []
        self.batch_blobs: list[int] = []
        self.batch_sizes: list[int] = []
        self.blob_positions: dict[int, int] = {}
        self.rows = 0
        self._luts: dict[str, np.ndarray] = {}
        self._lut_size = -1

    # -- type lookups ------------------------------------------------------------------------------------------

    def _lut(self, name: str) -> np.ndarray:
        """Boolean lookup by type code: does the type carry field ``name`` (unknown types carry all)."""
        if self._lut_size != len(self.types.values):
            self._luts = {}
            self._lut_size = len(self.types.values)
        lut = self._luts.get(name)
        if lut is None:
            known = [t in EVENT_TYPES for t in self.types.values]
            if name == "text_delta":
                flags = [t in DELTA_TYPES for t in self.types.values]
            elif name == "content":
                flags = [t in CONTENT_TYPES for t in self.types.values]
            elif name == "unknown":
                flags = [not k for k in known]
            elif name == "not_hot":
                flags = [t not in HOT_TYPES for t in self.types.values]
            else:
                wanted = FIELD_TYPES[name]
                flags = [t in wanted or not k for t, k in zip(self.types.values, known, strict=True)]
            lut = np.array(flags, dtype=bool)
            self._luts[name] = lut
        return lut

    # -- one batch ---------------------------------------------------------------------------------------------

    def add(self, source: int, batch: Batch) -> None:
        """Add one batch of a source's events (``source`` is the source's code)."""
        n = len(batch.events)
        parts = self.parts
        run_types = np.fromiter(
            map(self.types.code, batch.type_values), dtype=np.int16, count=len(batch.type_values)
        )
        run_starts = batch.type_starts
        run_ends = np.append(run_starts[1:], n)
        runs = (run_types, run_starts, run_ends)
        parts["type"].append(np.repeat(run_types, run_ends - run_starts))
        self.batch_sources.append(source)
        self.batch_sizes.append(n)
        parts["line"].append(batch.lines.astype(np.int32))
        blob_id = self.blob_positions.get(id(batch.blob))
        if blob_id is None:
            blob_id = self.blob_positions[id(batch.blob)] = len(self.blobs)
            self.blobs.append(batch.blob)
        self.batch_blobs.append(blob_id)
        parts["blob_line"].append(batch.blob_lines.astype(np.int32))
        if batch.received_ns is not None or parts["received"]:
            if not parts["received"] and self.rows:  # the first recorded batch: earlier ones had none
                parts["received"].append(np.full(self.rows, NO_TIME, dtype=np.int64))
            parts["received"].append(
                batch.received_ns if batch.received_ns is not None else np.full(n, NO_TIME)
            )
        for row, field, problem in batch.odd:
            self.odd.add(self.rows + row, field, problem)
        if batch.received_ns is not None:
            self._check_received(batch.received_ns)
        parts["timestamp"].append(self._checked_timestamps(batch.timestamps))
        parts["messageId"].append(self.ids["messageId"].dense(batch.message_ids, self.rows, self.odd))
        self._subagents(batch, runs, n)
        self._delta(batch.deltas, runs, n)
        self._tool_call_ids(batch, runs, n)
        for key in _SPARSE_KEYS:
            self._sparse(key, batch, runs)
        self.rows += n

    def _checked_timestamps(self, stamps: np.ndarray) -> np.ndarray:
        """``timestamp`` values as epoch milliseconds: those in seconds (``SECONDS_RANGE``) times 1000, those
        no datetime can hold (negative, beyond the year 2262) read as missing."""
        ms = in_milliseconds(stamps)
        with np.errstate(invalid="ignore"):
            bad = (ms < 0) | (ms > MAX_TIMESTAMP_MS)
        if not bad.any():
            return ms
        ms = ms.copy()
        for row in np.flatnonzero(bad).tolist():
            value = float(ms[row])
            reason = "negative" if value < 0 else "infinite" if value == np.inf else "beyond the year 2262"
            self.odd.add(self.rows + row, "timestamp", f"timestamp is {reason} (read as none)")
        ms[bad] = np.nan
        return ms

    def _check_received(self, received: np.ndarray) -> None:
        """Receive times before 1970 are read as missing (in place: the batch's own array)."""
        bad = (received < 0) & (received != NO_TIME)
        if bad.any():
            for row in np.flatnonzero(bad).tolist():
                self.odd.add(self.rows + row, "received_ns", "received_ns is negative (read as none)")
            received[bad] = NO_TIME

    def _rows(self, lut_name: str, runs: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
        """Rows of the batch whose type is flagged in a lookup (found from the runs of equal types)."""
        run_types, run_starts, run_ends = runs
        selected = self._lut(lut_name)[run_types]
        starts = run_starts[selected]
        lengths = run_ends[selected] - starts
        if not len(lengths):
            return np.empty(0, dtype=np.int64)
        offsets = starts - np.concatenate([[0], np.cumsum(lengths)[:-1]])
        return np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(offsets, lengths)

    def _delta(self, column: np.ndarray, runs: Any, n: int) -> None:
        """Lengths of the text deltas; other values (absent, STATE_DELTA's patch) are blanked in finish().

        A text delta that is not a string (a number, a list, null) counts as none and is reported; so is a
        missing one on the events that must carry one (TEXT_MESSAGE_CONTENT and the like).
        """
        chars = np.zeros(n, dtype=np.int32)
        rows = self._rows("text_delta", runs)
        if len(rows):
            picked = column[rows]
            if _all_strings(picked):
                chars[rows] = np.fromiter(map(len, picked), dtype=np.int32, count=len(rows))
            else:
                chars[rows] = self._odd_deltas(picked, rows, runs)
        unknown = self._rows("unknown", runs)
        if len(unknown):
            chars[unknown] = [len(v) if isinstance(v, str) else 0 for v in column[unknown]]
        self.parts["delta"].append(column)
        self.parts["chars"].append(chars)

    def _odd_deltas(self, picked: np.ndarray, rows: np.ndarray, runs: Any) -> list[int]:
        required = np.isin(rows, self._rows("content", runs))
        lengths = []
        for value, row, must in zip(picked.tolist(), rows.tolist(), required.tolist(), strict=True):
            if isinstance(value, str):
                lengths.append(len(value))
                continue
            lengths.append(0)
            if value is msgspec.UNSET or (type(value) is float and value != value):  # absent
                if must:
                    self.odd.add(self.rows + row, "delta", "delta is missing")
            elif value is not None or must:
                self.odd.add(self.rows + row, "delta", odd_problem("delta", value))
        return lengths

    def _subagents(self, batch: Batch, runs: Any, n: int) -> None:
        """``subagentRunId`` of every event, read once a non-streaming event has carried one.

        A subagent's work always starts with events other than deltas (SUBAGENT_STARTED, a message start),
        so the deltas of a log without subagents are never looked at for it.
        """
        parts = self.parts["subagentRunId"]
        if not parts:
            found = batch.field("subagentRunId", self._rows("not_hot", runs))
            if all(value is None for value in found):
                return
            if self.rows:
                parts.append(np.full(self.rows, -1, dtype=np.int32))
        values = np.fromiter(batch.field("subagentRunId"), dtype=object, count=n)
        parts.append(self.ids["subagentRunId"].dense(values, self.rows, self.odd))

    def _tool_call_ids(self, batch: Batch, runs: Any, n: int) -> None:
        """``toolCallId`` of the tool events (arguments included: they can be the bulk of a log)."""
        rows = self._rows("toolCallId", runs)
        column = np.full(n, -1, dtype=np.int32)
        if len(rows):
            found = np.fromiter(batch.field("toolCallId", rows), dtype=object, count=len(rows))
            column[rows] = self.ids["toolCallId"].dense(found, rows + self.rows, self.odd)
        self.parts["toolCallId"].append(column)

    def _sparse(self, key: str, batch: Batch, runs: Any) -> None:
        """A field only some event types carry, read from those events and kept as (row, code) pairs."""
        rows = self._rows(key, runs)
        if not len(rows):
            return
        codes = self.ids[key]
        before = codes.odd
        values = np.fromiter(map(codes.code, batch.field(key, rows)), dtype=np.int32, count=len(rows))
        if codes.odd != before:
            for row, value in zip(rows.tolist(), batch.field(key, rows), strict=True):
                if _is_odd_id(value):
                    self.odd.add(self.rows + row, key, odd_problem(key, value, read_as=id_text(value)))
        present = values >= 0
        if present.any():
            positions, found = self.sparse[key]
            positions.append(rows[present] + self.rows)
            found.append(values[present])

    # -- the table ---------------------------------------------------------------------------------------------

    def _take(self, name: str) -> np.ndarray:
        """A column's parts joined into one array, released from the builder."""
        parts = self.parts[name]
        self.parts[name] = []
        if not parts:
            return np.empty(0, dtype=np.int64)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def _sparse_lookup(self, key: str) -> dict[int, int]:
        """The codes of a sparse field by row, for fields only a few events carry."""
        positions, found = self.sparse[key]
        if not positions:
            return {}
        return dict(zip(np.concatenate(positions).tolist(), np.concatenate(found).tolist(), strict=True))

    def _sparse_column(self, key: str) -> np.ndarray:
        column = np.full(self.rows, -1, dtype=np.int32)
        positions, found = self.sparse[key]
        if positions:
            column[np.concatenate(positions)] = np.concatenate(found)
        return column

    def finish(self) -> pd.DataFrame:
        """The events table; the accumulated parts are released as each column is built."""
        n = self.rows
        ids = self.ids
        sizes = np.array(self.batch_sizes, dtype=np.int64)
        batch_sources = np.array(self.batch_sources, dtype=np.int32)
        source = np.repeat(batch_sources, sizes)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        changes = (
            np.flatnonzero(np.diff(batch_sources, prepend=-1)) if len(sizes) else np.empty(0, dtype=np.int64)
        )
        source_starts = offsets[changes]
        types = self._take("type").astype(np.int16, copy=False)
        type_names = self.types.values
        type_index = {name: code for code, name in enumerate(type_names)}

        message = self._take("messageId").astype(np.int32, copy=False)
        tool_call = self._take("toolCallId").astype(np.int32, copy=False)
        self._fill_chunk_ids(types, type_index, source, {"messageId": message, "toolCallId": tool_call})
        run_ids = self._sparse_lookup("runId")
        segments = assign_runs(types, type_index, source_starts, run_ids, self._sparse_lookup("threadId"))
        self._missing_ids(types, type_names, {"messageId": message, "toolCallId": tool_call})
        if len(self.odd):
            line_column = np.concatenate(self.parts["line"])
            source_names, source_codes, type_codes = self.sources.values, source, types
            self.odd_entries = self.odd.entries(
                lambda row: source_names[source_codes[row]],
                lambda row: int(line_column[row]),
                lambda row: type_names[type_codes[row]],
            )
            del line_column

        stamp_ns = _milliseconds_to_ns(self._take("timestamp"))
        received = self._take("received") if self.parts["received"] else None
        time_ns = stamp_ns if received is None else np.where(received != NO_TIME, received, stamp_ns)
        del received

        columns: dict[str, Any] = {}
        columns["source"] = self.sources.categorical(source)
        columns["line"] = self._take("line").astype(np.int32, copy=False)
        columns["seq"] = segments.positions(source)
        columns["thread_id"] = ids["threadId"].categorical(segments.spread(segments.thread_codes))
        columns["run_id"] = ids["runId"].categorical(segments.spread(segments.run_codes))
        run_id_names = ids["runId"].values
        keys = run_keys(
            [run_id_names[code] if code >= 0 else "" for code in segments.run_codes[:-1].tolist()]
        )
        run_numbers = np.append(np.arange(len(keys), dtype=np.int32), -1)
        columns["run_key"] = pd.Categorical.from_codes(
            segments.spread(run_numbers), categories=pd.Index(keys, dtype=object).astype(str)
        )
        t = segments.since_start(time_ns, types, type_index.get("RUN_STARTED", -1))
        in_message = _lookup(type_names, MESSAGE_TYPES)[types] if n else np.zeros(0, dtype=bool)
        columns["type"] = self.types.categorical(types)
        del types
        columns["time"] = _utc(time_ns)
        columns["timestamp"] = _utc(stamp_ns)
        del time_ns, stamp_ns
        columns["t"] = t
        sources = len(self.sources.values)
        role = _fill_by_owner(self._sparse_column("role"), message, in_message, source, sources)
        del in_message
        columns["message_id"] = ids["messageId"].categorical(message)
        del message
        tool_name = _fill_by_owner(
            self._sparse_column("toolCallName"), tool_call, tool_call >= 0, source, sources
        )
        del source
        columns["tool_call_id"] = ids["toolCallId"].categorical(tool_call)
        del tool_call
        columns["tool_call_name"] = ids["toolCallName"].categorical(tool_name)
        del tool_name
        columns["parent_message_id"] = ids["parentMessageId"].categorical(
            self._sparse_column("parentMessageId")
        )
        columns["role"] = ids["role"].categorical(role)
        del role
        chars = self._take("chars").astype(np.int32, copy=False)
        deltas = self._take("delta").astype(object, copy=False)
        deltas[chars == 0] = np.nan
        columns["delta"] = _text_array(deltas)
        del deltas
        columns["chars"] = chars
        columns["step_name"] = ids["stepName"].categorical(self._sparse_column("stepName"))
        subagent = (
            self._take("subagentRunId") if self.parts["subagentRunId"] else np.full(n, -1, dtype=np.int8)
        )
        columns["subagent_run_id"] = ids["subagentRunId"].categorical(subagent)
        blob = np.repeat(
            np.array(self.batch_blobs, dtype=np.int16), np.array(self.batch_sizes, dtype=np.int64)
        )
        columns["event"] = EventArray(
            tuple(self.blobs), blob, self._take("blob_line").astype(np.int32, copy=False)
        )
        frame = pd.DataFrame(columns, copy=False)
        assert list(frame.columns) == names(EVENT_COLUMNS)
        return frame

    def _missing_ids(self, types: np.ndarray, type_names: list[str], ids: dict[str, np.ndarray]) -> None:
        """Report the events that lack the id the tables group them by (a chunk's is filled in first)."""
        for field, column in ids.items():
            lacking = _lookup(type_names, REQUIRED_IDS[field])[types] & (column < 0) if len(types) else []
            for row in np.flatnonzero(lacking).tolist():
                self.odd.add(row, field, f"{field} is missing")

    def _fill_chunk_ids(
        self, types: np.ndarray, type_index: dict[str, int], source: np.ndarray, ids: dict[str, np.ndarray]
    ) -> None:
        """A *_CHUNK event without an id continues the previous chunk's message or tool call (same source)."""
        for chunk_type, key in CHUNK_ID_KEYS.items():
            code = type_index.get(chunk_type)
            if code is None:
                continue
            rows = np.flatnonzero(types == code)
            column = ids[key]
            values = column[rows]
            if (values >= 0).all():
                continue
            filled = pd.Series(np.where(values >= 0, values, np.nan)).groupby(source[rows]).ffill()
            column[rows] = filled.fillna(-1).to_numpy(dtype=np.int32)


def _lookup(type_names: list[str], wanted: frozenset[str]) -> np.ndarray:
    return np.fromiter((name in wanted for name in type_names), dtype=bool, count=len(type_names))


def _fill_by_owner(
    values: np.ndarray, owner: np.ndarray, eligible: np.ndarray, source: np.ndarray, sources: int
) -> np.ndarray:
    """Fill missing codes from another event of the same owner (message or tool call) that has one, in the
    same source (so a file's table never depends on another file)."""
    known = (values >= 0) & (owner >= 0)
    if not known.any():
        return values
    if sources > 1:
        combined = np.where(owner >= 0, owner.astype(np.int64) * sources + source, -1)
        owner = np.full(len(owner), -1, dtype=np.int64)
        rows = np.flatnonzero(combined >= 0)
        owner[rows] = pd.factorize(combined[rows])[0]
    table = np.full(int(owner.max()) + 1, -1, dtype=np.int32)
    table[owner[known]] = values[known]
    fill = (values < 0) & (owner >= 0) & eligible
    out = values.copy()
    out[fill] = table[owner[fill]]
    return out


SECONDS_RANGE = (1e9, 1e11)
"""The ``timestamp`` values read as epoch seconds, not milliseconds: from 1e9 (September 2001 in seconds) up to
1e11 (the year 5138 in seconds). AG-UI says milliseconds, but some producers send seconds (LlamaIndex's
integration sends ``int(time())``); in milliseconds the same values would be January 12, 1970 to March 3, 1973,
before any AG-UI log. Values below 1e9 stay milliseconds: they are small offsets from the epoch (hand-written
logs count from 0), which read as seconds would be no likelier."""


def in_milliseconds(stamps: np.ndarray) -> np.ndarray:
    """Epoch ``timestamp`` values (float64, NaN where absent) as milliseconds, each told apart by its size
    (``SECONDS_RANGE``); the same array when none is in seconds.

    >>> in_milliseconds(np.array([1_700_000_000.0, 1_700_000_000_000.0, 250.0])).tolist()
    [1700000000000.0, 1700000000000.0, 250.0]
    """
    low, high = SECONDS_RANGE
    with np.errstate(invalid="ignore"):
        seconds = (stamps >= low) & (stamps < high)
    if not seconds.any():
        return stamps
    return np.where(seconds, stamps * 1000.0, stamps)


def _milliseconds_to_ns(ms: np.ndarray) -> np.ndarray:
    """Epoch milliseconds (float64, NaN where absent) as int64 nanoseconds, NaT where absent."""
    present = ~np.isnan(ms)
    if present.all():  # the usual log: every event stamped in whole milliseconds
        whole = ms.astype(np.int64)
        if np.array_equal(whole, ms):
            whole *= 1_000_000
            return whole
    out = np.full(len(ms), NO_TIME, dtype=np.int64)
    whole = ms[present].astype(np.int64)
    if np.array_equal(whole, ms[present]):
        out[present] = whole * 1_000_000
    else:  # fractional milliseconds: exact to the microsecond
        out[present] = np.round(ms[present] * 1000).astype(np.int64) * 1000
    return out
