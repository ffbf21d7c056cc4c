"""Reading event logs in batches: JSONL (bare events or recorder records), SSE captures, JSON arrays, lists.

A JSONL log is read in ~1 MB slices, each decoded by one msgspec call into small structs holding only the
fields the loader reads (the rest of each line is validated and skipped, never built into dicts). A slice
that needs whole events (legacy THINKING_* events, AI SDK chunks) is parsed into dicts by one ``orjson``
call instead, and one that does not parse either way (a broken or blank line) is read again line by line to
say which lines are bad. Every batch keeps the buffer its events were read from, so the table's ``event``
column can decode them later without holding a million dicts.
"""

from __future__ import annotations

import json
import math
import mmap
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import Any

import msgspec
import numpy as np
import orjson
from pydantic import BaseModel

from agui_notebook._errors import EventLogWarning, check_error_mode, warn
from agui_notebook.agui._compat import LEGACY_EVENT_TYPES, LegacyEventUpgrader
from agui_notebook.agui._intake import EVENT_TYPES, EventParseError, to_wire_event
from agui_notebook.ui._chunk_types import classify_type
from agui_notebook.wire._json import JSONDecodeError, decode_json, json_error_text
from agui_notebook.wire._reader import BOM, Frame, WireReader, frame_of_value, text_frames
from agui_notebook.wire._records import is_recorded

from ._aisdk import UIChunkConverter, is_ui_chunk_type
from ._event_array import EventBlob
from ._file_map import FileMap
from ._odd_values import odd_problem

__all__ = ["NO_TIME", "Batch", "Problems", "made_batch", "read_buffer", "read_items"]

NO_TIME = np.iinfo(np.int64).min
"""``received_ns`` of an event that was not recorded (numpy's NaT)."""
MAX_TIMESTAMP_MS = (2**63 - 1) / 1e6
"""The last millisecond a ``datetime64[ns]`` holds (April 2262); a ``timestamp`` beyond it is odd."""

_SLICE_BYTES = 1 << 20
Buffer = bytes | mmap.mmap
"""A whole log in memory (anonymous ``mmap`` memory when a ``FileBuffer`` reads it)."""
Ready = Callable[[int], int]


class Problems:
    """Unreadable input: raised at once (``errors="raise"``) or collected for ``df.attrs["errors"]``."""

    def __init__(self, errors: str) -> None:
        self.collect = check_error_mode(errors, ("raise", "collect")) == "collect"
        self.items: list[dict[str, Any]] = []

    def add(self, source: str, line: int | None, message: str, text: Any = None) -> None:
        where = f"{source}:{line}" if line is not None else source
        if not self.collect:
            raise EventParseError(f"{where}: {message}", source=source, line=line, index=None)
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        snippet = None if text is None else str(text)[:200]
        self.items.append({"source": source, "line": line, "error": message, "text": snippet})

    def warn(self) -> None:
        if self.items:
            first = "; ".join(f"{p['source']}:{p['line']}: {p['error']}" for p in self.items[:3])
            more = f" (and {len(self.items) - 3} more)" if len(self.items) > 3 else ""
            warn(
                f"skipped {len(self.items)} unreadable event(s), listed in df.attrs['errors']: {first}{more}",
                EventLogWarning,
            )


class LineFields(msgspec.Struct, gc=False):
    """The fields of an event that the loader reads; a JSONL line is decoded into this and nothing more."""

    type: Any = None
    messageId: Any = None
    delta: Any = msgspec.UNSET
    """UNSET when absent, told apart from a ``null`` delta."""
    timestamp: float | None = math.nan
    """Epoch milliseconds; a line whose timestamp is not a number (or null) leaves the struct path."""
    toolCallId: Any = None
    threadId: Any = None
    runId: Any = None
    toolCallName: Any = None
    parentMessageId: Any = None
    role: Any = None
    stepName: Any = None
    subagentRunId: Any = None


class RecordFields(msgspec.Struct, gc=False, forbid_unknown_fields=True):
    """A recorder line (``{"received_ns": ..., "event": {...}}``) decoded the same way.

    Any other key sends the slice to the dict path, where each line is told apart: a bare RAW event among
    records also has an ``event``, but a ``type`` beside it.
    """

    event: LineFields
    received_ns: int = NO_TIME


_LINE_DECODER = msgspec.json.Decoder(LineFields)
_RECORD_DECODER = msgspec.json.Decoder(RecordFields)
_TYPE, _MESSAGE_ID, _DELTA, _TIMESTAMP = map(attrgetter, ("type", "messageId", "delta", "timestamp"))


def gather(items: list[Any], rows: np.ndarray) -> list[Any]:
    """``items`` at ``rows`` (all of them, unchanged, when every row is asked for)."""
    if len(rows) == len(items):
        return items
    if len(rows) <= 1:
        return [items[row] for row in rows.tolist()]
    return list(itemgetter(*rows.tolist())(items))


@dataclass
class Batch:
    """Consecutive events of one source, in the wire form, with where each came from.

    The events are dicts, or ``LineFields`` structs when the batch came from the struct path (``structs``);
    ``field`` reads either kind.
    """

    events: list[Any]
    message_ids: np.ndarray
    """Object array of each event's ``messageId`` (None or NaN where absent)."""
    deltas: np.ndarray
    """Object array of each event's ``delta``: ``msgspec.UNSET`` (structs) or NaN (dicts) where absent, None
    where null."""
    timestamps: np.ndarray
    """float64 epoch milliseconds of each event, NaN where absent or not a number."""
    type_starts: np.ndarray
    """Positions where the event type differs from the previous event's."""
    type_values: np.ndarray
    """The (string) type of each run of equal types."""
    lines: np.ndarray
    """int64 1-based line (or position) of each event in its source."""
    received_ns: np.ndarray | None
    """int64 receive time of each event (NO_TIME where not recorded); None when none was recorded."""
    blob: EventBlob
    blob_lines: np.ndarray
    """int64 0-based line of each event in ``blob``."""
    nbytes: int
    structs: bool = False
    odd: list[tuple[int, str, str]] = dataclass_field(default_factory=list)
    """Odd values the reader met: (row in the batch, field, problem)."""

    def field(self, key: str, rows: np.ndarray | None = None) -> Iterator[Any]:
        """The value of ``key`` (None where absent) of every event, or of the events at ``rows``."""
        items = self.events if rows is None else gather(self.events, rows)
        if self.structs:
            return map(attrgetter(key), items)
        return map(dict.get, items, repeat(key))


def _timestamps(column: np.ndarray, odd: list[tuple[int, str, str]] | None = None) -> np.ndarray:
    """Milliseconds as float64, NaN where absent or not a number (a bool is not one); each value that is
    present and not a number goes to ``odd``."""
    values = column.tolist()
    if set(map(type, values)) <= {int, float}:
        try:
            return np.array(values, dtype=np.float64)
        except OverflowError:  # an integer beyond float range, given in memory
            pass
    out = np.full(len(column), np.nan)
    for i, value in enumerate(values):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                out[i] = value
            except OverflowError:
                out[i] = math.inf if value > 0 else -math.inf
        elif value is not None and not (type(value) is float and value != value) and odd is not None:
            odd.append((i, "timestamp", odd_problem("timestamp", value)))
    return out


def dict_batch(
    events: list[dict[str, Any]],
    lines: np.ndarray,
    received_ns: np.ndarray | None,
    blob: EventBlob,
    blob_lines: np.ndarray,
    nbytes: int,
) -> Batch:
    """A batch of events as dicts; TypeError when one is not a dict."""
    table = key_table(events)
    type_starts, type_values = value_runs(table[:, 0])
    odd: list[tuple[int, str, str]] = []
    return Batch(
        events=events,
        message_ids=table[:, 1],
        deltas=np.ascontiguousarray(table[:, 2]),
        timestamps=_timestamps(table[:, 3], odd),
        odd=odd,
        type_starts=type_starts,
        type_values=type_values,
        lines=lines,
        received_ns=received_ns,
        blob=blob,
        blob_lines=blob_lines,
        nbytes=nbytes,
    )


def _event_problem(frame: Frame) -> str | None:
    """Why a frame holds no event (None when it does): the reader's error, or an object with no string type."""
    if frame.error is not None:
        return frame.error
    if type(frame.value.get("type")) is not str:
        return "event has no string 'type'"
    return None


class _Collected:
    """Events gathered one by one (the slow paths), turned into a Batch."""

    __slots__ = ("events", "lines", "odd", "received")

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.lines: list[int] = []
        self.received: list[int] = []
        self.odd: list[tuple[int, str, str]] = []

    def add(self, event: dict[str, Any], line: int, received: int) -> None:
        if not NO_TIME <= received < 2**63:  # beyond int64: no datetime holds it
            self.odd.append((len(self.events), "received_ns", "received_ns is out of range (read as none)"))
            received = NO_TIME
        self.events.append(event)
        self.lines.append(line)
        self.received.append(received)

    def add_frames(
        self, name: str, frames: Iterable[Frame], problems: Problems, text: bytes, first_line: int = 1
    ) -> None:
        """Add the events of frames the wire reader read from ``text`` (whose first line is ``first_line``);
        report the rest with their lines and text."""
        for frame in frames:
            error = _event_problem(frame)
            if error is not None:
                line = frame.line
                problems.add(
                    name, line, error, None if line is None else _line_text(text, line - first_line + 1)
                )
                continue
            received = frame.received_ns
            # A frame read from text always has its line (only in-memory items have none).
            self.add(frame.value, frame.line, NO_TIME if received is None else received)  # type: ignore[arg-type]

    def batch(
        self,
        name: str,
        problems: Problems,
        blob: EventBlob | None,
        blob_lines: list[int] | None,
        nbytes: int,
        *,
        infinities: bool = False,
    ) -> Batch:
        """The gathered events as a batch; without a ``blob`` they are serialized into one (an event that
        cannot be is reported and dropped; see ``serialized``)."""
        odd = self.odd
        if blob is None:
            blob, kept = serialized(self.events, name, self.lines, problems, infinities=infinities)
            if kept is not None:
                self.events = [self.events[i] for i in kept]
                self.lines = [self.lines[i] for i in kept]
                self.received = [self.received[i] for i in kept]
                position = {old: new for new, old in enumerate(kept)}
                odd = [(position[row], f, p) for row, f, p in odd if row in position]
            blob_lines = list(range(len(self.events)))
        received = np.array(self.received, dtype=np.int64)
        batch = dict_batch(
            self.events,
            np.array(self.lines, dtype=np.int64),
            received if (received != NO_TIME).any() else None,
            blob,
            np.array(blob_lines, dtype=np.int64),
            nbytes,
        )
        batch.odd.extend(odd)
        return batch


def serialized(
    events: list[Any], name: str, lines: list[int], problems: Problems, *, infinities: bool = False
) -> tuple[EventBlob, list[int] | None]:
    """Events written one per line into a buffer for the ``event`` column, and which were kept (None: all).

    An event orjson cannot write (nested more than 255 levels, an integer beyond 64 bits) is written by the
    standard library (read back as ``JSON.parse`` reads it); one neither writes (a value that is not JSON,
    nesting beyond Python's recursion limit) is reported at its line and left out. ``infinities``: numbers
    beyond float range, which orjson writes as ``null``, are written as ``1e400`` so that they read back
    infinite, as the text had them.
    """
    dumps = _dumps_keeping_infinities if infinities else orjson.dumps
    try:
        return EventBlob(b"\n".join(map(dumps, events))), None
    except (TypeError, ValueError, RecursionError):  # orjson.JSONEncodeError and the like: find which event
        pass
    parts: list[bytes] = []
    kept: list[int] = []
    for i, event in enumerate(events):
        try:
            parts.append(dumps(event))
        except TypeError as exc:
            try:  # an integer beyond 64 bits, or nesting orjson does not write: the standard library does
                parts.append(_dumps_keeping_infinities(event))
            except (TypeError, ValueError, RecursionError):
                problems.add(name, lines[i], _unwritable(exc))
                continue
        except (ValueError, RecursionError) as exc:
            problems.add(name, lines[i], _unwritable(exc))
            continue
        kept.append(i)
    return EventBlob(b"\n".join(parts)), (None if len(kept) == len(events) else kept)


def _unwritable(exc: BaseException) -> str:
    reason = str(exc)
    if "Recursion" in reason or isinstance(exc, RecursionError):
        return "the event is nested too deeply to keep"
    return f"the event cannot be kept as JSON ({reason})"


_INFINITIES = re.compile(rb'"(?:[^"\\]|\\.)*"|(-?)Infinity')


def _dumps_keeping_infinities(event: Any) -> bytes:
    """JSON of an event with infinite numbers as ``1e400``/``-1e400`` (which JSON.parse reads back infinite)."""
    text = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode()
    return _INFINITIES.sub(lambda m: m[0] if m[0][:1] == b'"' else m[1] + b"1e400", text)


# -- JSONL ---------------------------------------------------------------------------------------------------


def value_runs(values: list[Any] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where a run of equal consecutive values starts, and its value (consecutive events mostly share ids)."""
    array = values if isinstance(values, np.ndarray) else np.fromiter(values, dtype=object, count=len(values))
    changed = np.empty(len(array), dtype=bool)
    changed[:1] = True
    np.not_equal(array[1:], array[:-1], out=changed[1:])
    starts = np.flatnonzero(changed)
    return starts, array[starts]


TABLE_KEYS = ("type", "messageId", "delta", "timestamp")
"""Fields read from every event, into ``Batch.table`` (the rest only from the events that carry them)."""

try:  # one C loop over the dicts for all keys; pandas' own DataFrame-from-dicts path
    from pandas._libs.lib import dicts_to_array as _dicts_to_array  # type: ignore[attr-defined]  # private: not in pandas-stubs
except ImportError:  # pragma: no cover - a pandas without it
    _dicts_to_array = None


def key_table(events: list[dict[str, Any]]) -> np.ndarray:
    """An events x TABLE_KEYS object array of the events' fields (NaN where absent); TypeError for a non-dict."""
    if _dicts_to_array is not None:
        return _dicts_to_array(events, list(TABLE_KEYS))
    table = np.empty((len(events), len(TABLE_KEYS)), dtype=object)
    for j, key in enumerate(TABLE_KEYS):
        table[:, j] = list(map(dict.get, events, repeat(key), repeat(np.nan)))
    return table


def _line_count_matches(count: int, piece: bytes | memoryview) -> bool:
    """Whether a slice decoded into one value per line (two values on one line would shift every line after it)."""
    return count == int(np.count_nonzero(np.frombuffer(piece, dtype=np.uint8) == 10)) + 1


def _is_record(piece: bytes | memoryview) -> bool:
    """Whether the slice's first line is a recorder record rather than a bare event."""
    view = memoryview(piece)
    size = 1024
    while True:
        head = bytes(view[:size])
        end = head.find(b"\n")
        if end != -1 or size >= len(view):
            break
        size *= 16
    try:
        first = orjson.loads(head if end == -1 else head[:end])
    except orjson.JSONDecodeError:
        return False
    return is_recorded(first)


def _needs_dicts(types: Iterable[Any]) -> bool:
    """Whether events of these types are rewritten (legacy THINKING_*, AI SDK chunks), which needs them whole."""
    return any(t in LEGACY_EVENT_TYPES or is_ui_chunk_type(t) for t in types)


def _struct_slice(
    piece: bytes | memoryview, first_line: int, blob: EventBlob, *, ascii: bool = False
) -> Batch | None:
    """Decode a slice of whole lines into ``LineFields`` in one call; None when it needs the dict path.

    ``ascii`` says the caller already knows the slice is ASCII; otherwise its UTF-8 is checked here, since
    msgspec skips the fields it does not read without checking theirs.
    """
    if not ascii:
        try:
            str(piece, "utf-8")
        except UnicodeDecodeError:
            return None
    received = None
    try:
        if _is_record(piece):
            records = _RECORD_DECODER.decode_lines(piece)
            count = len(records)
            received = np.fromiter(map(attrgetter("received_ns"), records), np.int64, count)
            events = list(map(attrgetter("event"), records))
            del records
        else:
            events = _LINE_DECODER.decode_lines(piece)
            count = len(events)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, OverflowError):
        return None  # a deeply nested line, a received_ns beyond int64 among them: the slow path reports it
    if not _line_count_matches(count, piece):
        return None
    types = np.fromiter(map(_TYPE, events), dtype=object, count=count)
    type_starts, type_values = value_runs(types)
    try:
        distinct = set(type_values.tolist())
    except TypeError:  # a list or object as the type
        return None
    if not distinct <= EVENT_TYPES and (any(type(t) is not str for t in distinct) or _needs_dicts(distinct)):
        return None  # the slow path names the line of a missing or non-string type
    try:
        timestamps = np.fromiter(map(_TIMESTAMP, events), dtype=np.float64, count=count)
    except TypeError:  # a null timestamp
        timestamps = _timestamps(np.fromiter(map(_TIMESTAMP, events), dtype=object, count=count))
    lines = np.arange(first_line, first_line + count, dtype=np.int64)
    return Batch(
        events=events,
        message_ids=np.fromiter(map(_MESSAGE_ID, events), dtype=object, count=count),
        deltas=np.fromiter(map(_DELTA, events), dtype=object, count=count),
        timestamps=timestamps,
        type_starts=type_starts,
        type_values=type_values,
        lines=lines,
        received_ns=received,
        blob=blob,
        blob_lines=lines - 1,
        nbytes=len(piece) + 1,
        structs=True,
    )


def _dict_slice(piece: bytes, first_line: int, blob: EventBlob) -> Batch | None:
    """Parse a slice of whole lines into dicts in one call; None when any line is off."""
    try:
        values = orjson.loads(b"".join((b"[", piece.replace(b"\n", b","), b"]")))
    except orjson.JSONDecodeError:
        return None
    count = len(values)
    if not _line_count_matches(count, piece):
        return None
    received = None
    try:
        first = values[0]
        if is_recorded(first):
            if not all(map(is_recorded, values)):  # a bare event among the records: the slow path
                return None
            times = list(map(dict.get, values, repeat("received_ns"), repeat(NO_TIME)))
            if set(map(type, times)) != {int}:  # the slow path reads a time that is no integer as none
                return None
            received = np.array(times, dtype=np.int64)
            values = list(map(dict.get, values, repeat("event")))
        lines = np.arange(first_line, first_line + count, dtype=np.int64)
        batch = dict_batch(values, lines, received, blob, lines - 1, len(piece) + 1)
    except (TypeError, ValueError, OverflowError):
        return None
    # The slow path names the line of a missing or non-string type.
    if not all(type(t) is str for t in batch.type_values):
        return None
    return batch


def _slow_slice(
    name: str, piece: bytes, first_line: int, blob: EventBlob, problems: Problems, *, open_end: bool = False
) -> Batch:
    """The slice read by the wire reader, each bad line reported; ``open_end``: the log ends inside its last line."""
    reader = WireReader(first_line=first_line, start_of_text=first_line == 1)
    frames = reader.feed(piece) + ([] if open_end else reader.feed(b"\n")) + reader.close()
    collected = _Collected()
    collected.add_frames(name, frames, problems, piece, first_line)
    if reader.line != first_line + piece.count(b"\n") or any(f.line is None for f in frames):
        # Lines other than the buffer's: serialize them.
        return collected.batch(name, problems, None, None, len(piece) + 1)
    return collected.batch(name, problems, blob, [line - 1 for line in collected.lines], len(piece) + 1)


def _jsonl_batches(
    name: str,
    data: Buffer,
    start: int,
    problems: Problems,
    ready: Ready,
    first_line: int = 1,
    mapped: FileMap | None = None,
) -> Iterator[Batch]:
    blob = EventBlob(data, mapped)
    size = len(data)
    # Lines before `start` (blank ones, or a byte-order mark) still count for the line numbers.
    blob_offset = first_line - 1  # the line numbers are the file's; the blob is ``data`` (a slice: its own)
    first_line += data[:start].count(b"\n")
    # Once a source has events that are rewritten whole, the rest of it is read as dicts (see normalized()).
    as_dicts = False
    view = memoryview(data)
    while True:
        end = _slice_end(data, start, ready)
        if end <= start:
            break
        piece_view = view[start:end]
        ascii = _is_ascii(piece_view)
        batch = None if as_dicts else _struct_slice(piece_view, first_line, blob, ascii=ascii)
        if batch is None:
            piece = bytes(piece_view)
            batch = _dict_slice(piece, first_line, blob)
            if batch is None:
                batch = _slow_slice(name, piece, first_line, blob, problems, open_end=end == size)
                count = piece.count(b"\n") + 1
            else:
                count = len(batch.events)
            as_dicts = as_dicts or _needs_dicts(batch.type_values.tolist())
        else:
            count = len(batch.events)
        if batch.events:
            if blob_offset:
                batch.blob_lines = batch.blob_lines - blob_offset
            yield batch
        del batch  # freed before the next slice is decoded (see normalized())
        first_line += count
        start = end + 1
        if start >= size:
            break


def _slice_end(data: Buffer, start: int, ready: Ready) -> int:
    """Where the slice from ``start`` ends: the first line end past ``_SLICE_BYTES``, waiting for the bytes.

    The last slice stops before the log's trailing whitespace.
    """
    size = len(data)
    target = start + _SLICE_BYTES
    if target < size:
        filled = ready(target + 1)
        while True:
            end = data.find(b"\n", target, filled)
            if end != -1:
                return end
            if filled >= size:
                break
            filled = ready(filled + _SLICE_BYTES)
    ready(size)
    stop = size
    while stop > start and data[stop - 1] in b" \t\r\n":
        stop -= 1
    end = data.find(b"\n", min(target, stop), stop)
    return stop if end == -1 else end


def _is_ascii(piece: memoryview) -> bool:
    return not len(piece) or int(np.frombuffer(piece, dtype=np.uint8).max()) < 0x80


# -- SSE -----------------------------------------------------------------------------------------------------


def _text_batches(name: str, data: bytes, problems: Problems) -> Iterator[Batch]:
    """A whole SSE capture or JSON document, read by the wire reader (events serialized for the table).

    The events of a JSON array are numbered by their position in it, as in-memory lists are.
    """
    document = data[len(BOM) :] if data.startswith(BOM) else data
    if document.lstrip(b" \t\r\n")[:1] == b"[":
        infinities = False
        try:
            values = orjson.loads(document)
        except orjson.JSONDecodeError as exc:
            infinities = "infinity" in str(exc)
            try:
                values = decode_json(document) if infinities else None
            except JSONDecodeError:
                values = None
        if type(values) is list:
            for batch in read_items(name, values, problems, infinities=infinities):
                batch.nbytes = len(data) * len(batch.events) // max(len(values), 1)
                yield batch
            return
        elements = _array_elements(document)
        if elements is not None:  # one bad element (too deep, broken): the others are kept
            yield from _element_batches(name, document, elements, problems)
            return
    collected = _Collected()
    collected.add_frames(name, text_frames(data), problems, data)
    if not collected.events:
        return
    blob = EventBlob(data)
    if data.count(b"\r") == data.count(b"\r\n") and all(
        _one_data_line(blob, line) for line in collected.lines
    ):
        # The table's event column decodes straight from the capture, as read (numbers beyond float range
        # stay infinite, which no serializer writes back).
        yield collected.batch(name, problems, blob, [line - 1 for line in collected.lines], len(data))
    else:
        yield collected.batch(name, problems, None, None, len(data))


_ARRAY_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{},]')


def _array_elements(document: bytes) -> list[tuple[int, int]] | None:
    """The byte spans of a JSON array's elements, found from its brackets and commas (strings skipped).

    For an array that does not parse as a whole; None when its brackets do not close it, or text follows it.

    >>> _array_elements(b'[{"a": "],"}, [[1]] ,{}]')
    [(1, 12), (13, 20), (21, 23)]
    """
    depth = 0
    begin = 0
    spans: list[tuple[int, int]] = []
    for match in _ARRAY_TOKENS.finditer(document):
        token = match[0]
        if token[:1] == b'"':
            continue
        if token in (b"[", b"{"):
            depth += 1
            if depth == 1:
                begin = match.end()
        elif token in (b"]", b"}"):
            depth -= 1
            if depth == 0:
                if document[begin : match.start()].strip():
                    spans.append((begin, match.start()))
                return spans if not document[match.end() :].strip() else None
        elif depth == 1:
            spans.append((begin, match.start()))
            begin = match.end()
    return None


def _element_batches(
    name: str, document: bytes, elements: list[tuple[int, int]], problems: Problems
) -> Iterator[Batch]:
    """The events of a JSON array read element by element, each bad one reported at its position."""
    collected = _Collected()
    raws: list[bytes] = []
    for position, (begin, end) in enumerate(elements, 1):
        raw = document[begin:end]
        try:
            frame = frame_of_value(decode_json(raw), position)
        except JSONDecodeError as exc:
            frame = Frame(position, None, json_error_text(exc))
        error = _event_problem(frame)
        if error is not None:
            problems.add(name, position, error, raw.strip()[:200])
            continue
        received = frame.received_ns
        collected.add(frame.value, position, NO_TIME if received is None else received)
        # JSON has line breaks only between tokens: the element stays one line of the blob as it was read.
        raws.append(raw.replace(b"\n", b" ").replace(b"\r", b" "))
    if collected.events:
        blob = EventBlob(b"\n".join(raws))
        yield collected.batch(name, problems, blob, list(range(len(raws))), len(document))


def _one_data_line(blob: EventBlob, line: int) -> bool:
    """Whether the SSE event on 1-based ``line`` is that one ``data:`` line alone."""
    raw = blob.raw(line - 1)
    if not (raw[len(BOM) :] if line == 1 and raw.startswith(BOM) else raw).startswith(b"data:"):
        return False
    try:
        return not blob.raw(line).startswith(b"data")
    except IndexError:
        return True


def _line_text(data: bytes, line: int | None) -> bytes | None:
    """The text of a 1-based line of ``data`` (for a problem's snippet), split as ``\n`` splits it."""
    if line is None:
        return None
    start = 0
    for _ in range(line - 1):
        start = data.find(b"\n", start) + 1
        if start == 0:
            return None
    end = data.find(b"\n", start)
    return data[start : end if end != -1 else len(data)][:200]


# -- JSON arrays and in-memory items ---------------------------------------------------------------------------


def _item_frame(item: Any, position: int) -> Frame:
    if type(item) is not dict:
        if not isinstance(item, BaseModel) and not hasattr(item, "keys"):
            return Frame(
                position,
                None,
                f"expected an event (a dict or an ag_ui.core model), got {type(item).__name__}",
            )
        try:
            item = to_wire_event(item)
        except TypeError as exc:
            return Frame(position, None, str(exc))
    return frame_of_value(item, position)


def _snippet(item: Any) -> bytes | None:
    """The start of an in-memory item's JSON, for a problem's text (None when it has none)."""
    if type(item) is not dict:
        return None
    try:
        return orjson.dumps(item, default=str)[:200]
    except TypeError:  # nested too deeply, or an integer beyond 64 bits
        return None


def read_items(
    name: str,
    items: Iterable[Any],
    problems: Problems,
    batch_size: int = 50_000,
    *,
    infinities: bool = False,
) -> Iterator[Batch]:
    """Batches of in-memory events: dicts, ``ag_ui.core`` models or recorder records.

    ``infinities``: the items were read from a text with numbers beyond float range, which the table keeps
    infinite (see ``serialized``).
    """
    collected = _Collected()
    position = 0
    for position, item in enumerate(items, 1):
        frame = _item_frame(item, position)
        error = _event_problem(frame)
        if error is not None:
            problems.add(name, position, error, _snippet(item))
            continue
        received = frame.received_ns
        collected.add(frame.value, position, NO_TIME if received is None else received)
        if len(collected.events) >= batch_size:
            yield collected.batch(name, problems, None, None, 0, infinities=infinities)
            collected = _Collected()
    if collected.events:
        yield collected.batch(name, problems, None, None, 0, infinities=infinities)


def made_batch(
    name: str,
    events: list[dict[str, Any]],
    lines: list[int],
    received: list[int],
    problems: Problems,
    nbytes: int,
) -> Batch | None:
    """A batch of events made from another format (spans), each with the line it came from and its time
    (``NO_TIME`` for none); None when there are none."""
    collected = _Collected()
    for event, line, time in zip(events, lines, received, strict=True):
        collected.add(event, line, time)
    return collected.batch(name, problems, None, None, nbytes) if collected.events else None


# -- buffers ---------------------------------------------------------------------------------------------------


def _all_there(data: Buffer) -> Ready:
    return lambda count: len(data)


def read_buffer(
    name: str,
    data: Buffer,
    problems: Problems,
    ready: Ready | None = None,
    *,
    first_line: int = 1,
    mapped: FileMap | None = None,
) -> Iterator[Batch]:
    """Batches of a log read into memory; the format is told from its first characters.

    ``ready(n)`` waits until the first ``n`` bytes of ``data`` have arrived (a ``FileBuffer`` still being
    filled) and returns how many have; without it the whole buffer is there. ``first_line`` is the line
    number of ``data``'s first line (a slice of a JSONL log: ``_file_slices``). ``mapped`` is the file mapping
    ``data`` is, kept by a JSONL log's ``event`` column.
    """
    ready = ready or _all_there(data)
    length = len(data)
    ready(4096)
    start = len(BOM) if data[: len(BOM)] == BOM else 0
    while start < length and data[start] in b" \t\r\n":
        start += 1
        if start % 4096 == 0:
            ready(start + 4096)
    if start == length:
        return iter(())
    head = bytes(data[start : start + 8])
    if head[:1] == b"{":
        return _jsonl_batches(name, data, start, problems, ready, first_line, mapped)
    ready(length)  # the other formats are read whole, as bytes
    return _text_batches(name, data if isinstance(data, bytes) else data[:], problems)


# -- normalising: legacy THINKING_* events and AI SDK chunks -----------------------------------------------------


def normalized(batches: Iterator[Batch], name: str, problems: Problems) -> Iterator[Batch]:
    """Upgrade pre-1.0 THINKING_* events and convert AI SDK UI-message chunks, per source, batch by batch.

    Both keep the table's ``event`` column true to what the tables read: converted batches are serialized
    into a buffer of their own (the original chunk stays in each event's ``rawEvent``).
    """
    converter: UIChunkConverter | None = None
    upgrader: LegacyEventUpgrader | None = None
    for batch in batches:
        if converter is None:
            types = set(batch.type_values.tolist())
            # A chat's log may open with its own CUSTOM records, and go on with a chunk stream.
            if any(is_ui_chunk_type(t) for t in types if isinstance(t, str)):
                converter = UIChunkConverter()
            elif upgrader is None and not LEGACY_EVENT_TYPES.isdisjoint(types):
                upgrader = LegacyEventUpgrader()
        if converter is not None:
            out = _converted(batch, converter, name, problems)
        elif upgrader is not None:
            out = _upgraded(batch, upgrader, name, problems)
        else:
            out = batch
        # Hold no batch while the next one is read: its objects are freed before the next ones are made.
        del batch
        if out is not None:
            yield out
        del out


def _rebuilt(
    batch: Batch, events: list[dict[str, Any]], origin: list[int], name: str, problems: Problems
) -> Batch | None:
    """A batch of rewritten events, ``origin`` giving the row of the batch each came from."""
    lines = batch.lines[np.array(origin, dtype=np.int64)].tolist()
    blob, kept = serialized(events, name, lines, problems)
    if kept is not None:
        events = [events[i] for i in kept]
        origin = [origin[i] for i in kept]
    if not events:
        return None
    index = np.array(origin, dtype=np.int64)
    out = dict_batch(
        events,
        batch.lines[index],
        None if batch.received_ns is None else batch.received_ns[index],
        blob,
        np.arange(len(events), dtype=np.int64),
        batch.nbytes,
    )
    if batch.odd:  # each odd value stays with the first event made from its event
        first: dict[int, int] = {}
        for new, old in enumerate(origin):
            first.setdefault(old, new)
        out.odd.extend((first[row], f, p) for row, f, p in batch.odd if row in first)
    return out


def _converted(batch: Batch, converter: UIChunkConverter, name: str, problems: Problems) -> Batch | None:
    events: list[dict[str, Any]] = []
    origin: list[int] = []
    for i, chunk in enumerate(batch.events):
        kind = chunk.get("type") if isinstance(chunk, dict) else None
        # AG-UI events among the chunks (a chat whose agent changed) stay as they are.
        if isinstance(kind, str) and kind != "CUSTOM" and classify_type(kind) == "event":
            produced = [chunk]
        else:
            produced = converter.feed(chunk)
        events.extend(produced)
        origin.extend(repeat(i, len(produced)))
    return _rebuilt(batch, events, origin, name, problems)


def _upgraded(batch: Batch, upgrader: LegacyEventUpgrader, name: str, problems: Problems) -> Batch | None:
    needs = upgrader.needs_upgrade
    if not any(map(needs, batch.events)):
        return batch
    events = [upgrader.upgrade(event) if needs(event) else event for event in batch.events]
    return _rebuilt(batch, events, list(range(len(events))), name, problems)
