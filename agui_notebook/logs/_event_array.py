"""The ``event`` column: every event's raw JSON kept once (in memory, or in its log file) and decoded to a dict on access.

A million events as dicts would take several times the log's size; as raw JSON they take 6 bytes an event
(which buffer, which line) and the buffer: a large log file's own mapping (``_file_map``: read back from the
file, checked against what was loaded, never held twice), else the bytes the log was read into. A line is
found on first access (one pass over the buffer for its newlines) and decoded with orjson each time it is
read, so a dict taken from the column is a fresh copy: changing it does not change the table.

>>> arr = EventArray.from_events([{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}])
>>> arr[0]["runId"]
'r'
"""

from __future__ import annotations

import builtins
import mmap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import pandas as pd
from pandas.api.extensions import ExtensionArray, ExtensionDtype, register_extension_dtype, take
from pandas.api.indexers import check_array_indexer

from agui_notebook.wire._json import decode_json
from agui_notebook.wire._reader import BOM
from agui_notebook.wire._records import recorded_event

from ._file_map import FileMap

if TYPE_CHECKING:
    from pandas._typing import TakeIndexer

__all__ = ["EventArray", "EventBlob", "EventDtype"]


class EventBlob:
    """A buffer of JSON lines (a whole log file, or events serialized for the table) and its line offsets.

    ``mapped`` is the file mapping ``data`` is when the log is read from its file (``_file_map``): what is read
    of it is checked against what was loaded.
    """

    __slots__ = ("_starts", "data", "mapped")

    def __init__(self, data: bytes | mmap.mmap, mapped: FileMap | None = None) -> None:
        self.data = data
        self.mapped = mapped
        self._starts: np.ndarray | None = None

    @classmethod
    def from_events(cls, events: Iterable[Any]) -> EventBlob:
        """Serialize events (dicts) one per line; line ``i`` holds the ``i``-th event."""
        return cls(b"\n".join(map(orjson.dumps, events)))

    def _index(self) -> np.ndarray:
        """Where each line starts, and one past the end (line ``i`` ends one byte before line ``i + 1``)."""
        if self._starts is None:
            data = np.frombuffer(self.data, dtype=np.uint8)
            dtype = np.uint32 if len(data) < 2**32 - 1 else np.int64
            # In slices so that a large log needs no second buffer-sized temporary (nor a mapped file's pages).
            step = 1 << 24
            parts = [np.zeros(1, dtype=dtype)]
            for at in range(0, len(data), step):
                if self.mapped is not None:
                    self.mapped.verify(at, min(at + step, len(data)))
                newlines = np.flatnonzero(data[at : at + step] == 10)
                newlines += at + 1
                parts.append(newlines.astype(dtype))
                if self.mapped is not None:
                    self.mapped.drop(at, at + step)
            parts.append(np.array([len(data) + 1], dtype=dtype))
            self._starts = np.concatenate(parts)
        return self._starts

    @property
    def nbytes(self) -> int:
        """The memory the blob holds: its buffer, or a mapped file's line offsets only (its pages are the file's)."""
        if self.mapped is None:
            return len(self.data)
        return 0 if self._starts is None else int(self._starts.nbytes)

    def raw(self, line: int) -> bytes:
        """The bytes of 0-based ``line``."""
        starts = self._index()
        if line < 0:
            line += len(starts) - 1
        start, end = int(starts[line]), int(starts[line + 1]) - 1
        if self.mapped is not None:
            self.mapped.verify(start, end)
        return self.data[start:end]

    def decode(self, line: int) -> Any:
        """The event on 0-based ``line``: its JSON, unwrapped from an SSE ``data:`` field or a recorder record."""
        raw = self.raw(line)
        if line == 0 and raw[:3] == BOM:
            raw = raw[3:]
        if raw[:5] == b"data:":
            raw = raw[5:]
        return recorded_event(decode_json(raw))

    def decode_lines(self, lines: list[int]) -> list[Any]:
        """The events on the given 0-based lines, as ``decode`` reads each (a bad one raises)."""
        starts = self._index()
        at = np.asarray(lines, dtype=np.int64)
        data = self.data
        out: list[Any] = []
        append = out.append
        ends_array = starts[at + 1].astype(np.int64) - 1
        if self.mapped is not None:
            self.mapped.verify(starts[at], ends_array)
        ends = ends_array.tolist()
        mapped, dropped = self.mapped, 0
        for line, start, end in zip(lines, starts[at].tolist(), ends, strict=True):
            if mapped is not None and start - dropped > _DROP_BEHIND:
                mapped.drop(dropped, start)  # a mapped file's pages, once they are passed
                dropped = start
            raw = data[start:end]
            if raw[:1] != b"{" or (line == 0 and raw[:3] == BOM):
                append(self.decode(line))
                continue
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError:
                value = decode_json(raw)
            append(recorded_event(value))
        if self.mapped is not None:
            self.mapped.drop()
        return out

    def raw_lines(self, lines: list[int]) -> list[bytes]:
        """The bytes of the given 0-based lines, as ``raw`` reads each (a mapped file checked once)."""
        starts = self._index()
        at = np.asarray(lines, dtype=np.int64)
        ends = starts[at + 1].astype(np.int64) - 1
        if self.mapped is not None:
            self.mapped.verify(starts[at], ends)
        data, mapped, dropped = self.data, self.mapped, 0
        out = []
        for start, end in zip(starts[at].tolist(), ends.tolist(), strict=True):
            if mapped is not None and start - dropped > _DROP_BEHIND:
                mapped.drop(dropped, start)
                dropped = start
            out.append(data[start:end])
        if mapped is not None:
            mapped.drop()
        return out

    def __getstate__(self) -> bytes:
        if self.mapped is not None:
            self.mapped.verify(0, len(self.data))
        return self.data if isinstance(self.data, bytes) else self.data[:]

    def __setstate__(self, state: bytes) -> None:
        self.__init__(state)  # type: ignore[misc]  # unpickling rebuilds the buffer as the constructor does


@register_extension_dtype
class EventDtype(ExtensionDtype):
    """dtype of the ``event`` column: AG-UI events as dicts, stored as raw JSON."""

    name = "agui_event"
    type = dict
    kind = "O"
    na_value = None

    @classmethod
    def construct_array_type(cls) -> builtins.type[EventArray]:  # `type` is the dtype's scalar type here
        return EventArray


def _short(value: Any) -> str:
    if value is None:
        return "None"
    try:
        text = orjson.dumps(value).decode()
    except TypeError:  # nested more than orjson writes (255 levels)
        kind = value.get("type") if isinstance(value, dict) else None
        return f"{{type: {kind}, …}} (too deeply nested to show)"
    return text if len(text) <= 72 else text[:71] + "…"


class EventArray(ExtensionArray):
    """A pandas array of AG-UI events backed by raw JSON lines; ``arr[i]`` decodes event ``i`` to a dict."""

    _dtype = EventDtype()

    def __init__(self, blobs: tuple[EventBlob, ...], blob: np.ndarray, line: np.ndarray) -> None:
        self._blobs = blobs
        self._blob = blob  # int16 index into _blobs, -1 for a missing event
        self._line = line  # int64 0-based line in that blob

    # -- construction ------------------------------------------------------------------------------------------

    @classmethod
    def from_blob(cls, blob: EventBlob, lines: np.ndarray) -> EventArray:
        """Events on the given 0-based lines of one blob."""
        return cls((blob,), np.zeros(len(lines), dtype=np.int16), np.asarray(lines, dtype=np.int64))

    @classmethod
    def from_events(cls, events: Sequence[Any]) -> EventArray:
        """Events from dicts (``None`` for a missing one)."""
        present = [event for event in events if event is not None]
        blob = EventBlob.from_events(present)
        flags = np.fromiter((event is not None for event in events), dtype=bool, count=len(events))
        line = np.full(len(events), -1, dtype=np.int64)
        line[flags] = np.arange(len(present))
        return cls((blob,), np.where(flags, 0, -1).astype(np.int16), line)

    @classmethod
    def _from_sequence(cls, scalars: Any, *, dtype: Any = None, copy: bool = False) -> EventArray:
        if isinstance(scalars, EventArray):
            return scalars.copy() if copy else scalars
        values = [None if _is_missing(value) else value for value in scalars]
        return cls.from_events([orjson.loads(v) if isinstance(v, (str, bytes)) else v for v in values])

    @classmethod
    def _from_factorized(cls, values: np.ndarray, original: EventArray) -> EventArray:
        return cls._from_sequence(values)

    @classmethod
    def _concat_same_type(cls, to_concat: Sequence[EventArray]) -> EventArray:
        blobs: list[EventBlob] = []
        positions: dict[int, int] = {}
        blob_parts = []
        for array in to_concat:
            lookup = np.empty(len(array._blobs) + 1, dtype=np.int16)
            lookup[-1] = -1
            for i, blob in enumerate(array._blobs):
                if id(blob) not in positions:
                    positions[id(blob)] = len(blobs)
                    blobs.append(blob)
                lookup[i] = positions[id(blob)]
            blob_parts.append(lookup[array._blob])
        if len(blobs) > np.iinfo(np.int16).max:
            raise ValueError("too many distinct event buffers in one column")
        empty_blob = np.empty(0, dtype=np.int16)
        empty_line = np.empty(0, dtype=np.int64)
        return cls(
            tuple(blobs),
            np.concatenate(blob_parts or [empty_blob]),
            np.concatenate([array._line for array in to_concat] or [empty_line]),
        )

    # -- the ExtensionArray interface --------------------------------------------------------------------------

    @property
    def dtype(self) -> EventDtype:
        return self._dtype

    def __len__(self) -> int:
        return len(self._blob)

    def _decode(self, i: int) -> Any:
        blob = self._blob[i]
        if blob < 0:
            return None
        return self._blobs[blob].decode(int(self._line[i]))

    def __getitem__(self, item: Any) -> Any:
        if isinstance(item, (int, np.integer)):
            return self._decode(int(item))
        if isinstance(item, tuple) and len(item) == 1:
            item = item[0]
        if not isinstance(item, slice):
            item = check_array_indexer(self, item)
        return type(self)(self._blobs, self._blob[item], self._line[item])

    def __iter__(self) -> Iterator[Any]:
        # In runs of rows decoded together: a mapped file is checked once a run, not once an event.
        for at in range(0, len(self), _RUN_ROWS):
            yield from self.decode_rows(list(range(at, min(at + _RUN_ROWS, len(self)))))

    def __setitem__(self, key: Any, value: Any) -> None:
        key = check_array_indexer(self, key) if not isinstance(key, (int, np.integer, slice)) else key
        if isinstance(value, EventArray):
            new = value
        elif isinstance(value, dict) or _is_missing(value):
            count = len(np.arange(len(self))[key]) if not isinstance(key, (int, np.integer)) else 1
            new = EventArray.from_events([None if _is_missing(value) else value] * count)
        else:
            new = EventArray._from_sequence(value)
        merged = EventArray._concat_same_type([self, new])
        blob = merged._blob[: len(self)].copy()
        line = merged._line[: len(self)].copy()
        if isinstance(key, (int, np.integer)):
            blob[key] = merged._blob[len(self)]
            line[key] = merged._line[len(self)]
        else:
            blob[key] = merged._blob[len(self) :]
            line[key] = merged._line[len(self) :]
        self._blobs, self._blob, self._line = merged._blobs, blob, line

    def isna(self) -> np.ndarray:
        return self._blob < 0

    def take(self, indices: TakeIndexer, *, allow_fill: bool = False, fill_value: Any = None) -> EventArray:
        if allow_fill and not _is_missing(fill_value):
            raise ValueError("an event column can only be filled with None")
        blob = np.asarray(take(self._blob, indices, allow_fill=allow_fill, fill_value=-1))
        line = np.asarray(take(self._line, indices, allow_fill=allow_fill, fill_value=-1))
        return type(self)(self._blobs, blob, line)

    def copy(self) -> EventArray:
        return type(self)(self._blobs, self._blob.copy(), self._line.copy())

    @property
    def nbytes(self) -> int:
        return int(self._blob.nbytes + self._line.nbytes + sum(b.nbytes for b in self._blobs))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = np.empty(len(self), dtype=object)
        for at, event in enumerate(self):
            out[at] = event
        return out

    # pandas' ExtensionArray protocol: == compares element-wise into a boolean array, not one bool.
    def __eq__(self, other: Any) -> np.ndarray:  # type: ignore[override]
        mine = np.asarray(self)
        if isinstance(other, (EventArray, list, np.ndarray, pd.Series)):
            theirs = np.asarray(other, dtype=object)
            return np.fromiter(
                (a == b for a, b in zip(mine, theirs, strict=True)), dtype=bool, count=len(mine)
            )
        return np.fromiter((a == other for a in mine), dtype=bool, count=len(mine))

    def _values_for_factorize(self) -> tuple[np.ndarray, Any]:
        out = np.empty(len(self), dtype=object)
        for i in range(len(self)):
            value = self._decode(i)
            out[i] = None if value is None else _factorize_key(value, self, i)
        return out, None

    def _formatter(self, boxed: bool = False) -> Callable[[Any], str]:
        return _short

    def decode_rows(self, rows: list[int]) -> list[Any]:
        """The events at ``rows`` (None for a missing one), decoded buffer by buffer in one pass each.

        Raises as ``arr[i]`` would for the first event that does not decode; ``decode_row`` reads one.
        """
        return self._by_buffer(rows, EventBlob.decode_lines)

    def raw_rows(self, rows: list[int]) -> list[bytes | None]:
        """The raw JSON bytes of the events at ``rows`` (None for a missing one), as ``raw`` reads each."""
        return self._by_buffer(rows, EventBlob.raw_lines)

    def _by_buffer(self, rows: list[int], read: Callable[[EventBlob, list[int]], list[Any]]) -> list[Any]:
        """``read`` of the lines of ``rows``, buffer by buffer, back in the order of ``rows``."""
        if not rows:
            return []
        index = np.asarray(rows, dtype=np.int64)
        blobs = self._blob[index]
        lines = self._line[index]
        out: list[Any] = [None] * len(rows)
        for blob in np.unique(blobs).tolist():
            if blob < 0:
                continue
            at = np.flatnonzero(blobs == blob)
            for position, value in zip(at.tolist(), read(self._blobs[blob], lines[at].tolist()), strict=True):
                out[position] = value
        return out

    def raw(self, i: int) -> bytes:
        """The raw JSON bytes of event ``i`` as read (an SSE ``data:`` line or a recorder record included)."""
        blob = self._blob[i]
        if blob < 0:
            raise KeyError(i)
        return self._blobs[blob].raw(int(self._line[i]))


_RUN_ROWS = 4096
"""Rows decoded together when the column is iterated (a mapped file is checked once for them)."""
_DROP_BEHIND = 8 << 20


def _factorize_key(value: Any, array: EventArray, i: int) -> str:
    """The text equal events share: sorted-key JSON, else (too deeply nested to write) the raw JSON read."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return array.raw(i).decode("utf-8", "replace")


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value) or value is pd.NA
