"""Reading event logs in batches: JSONL (bare events or recorder records), SSE captures, JSON arrays, lists.

A JSONL log is read in ~1 MB slices, each parsed by one ``orjson.loads`` call on the slice with its newlines
turned into commas; a slice that does not parse that way (a broken or blank line) is read again line by line
to say which lines are bad. Every batch keeps the buffer its events were read from, so the table's ``event``
column can decode them later without holding a million dicts.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np
import orjson
from pydantic import BaseModel

from agui_notebook.agui._compat import LEGACY_EVENT_TYPES, LegacyEventUpgrader
from agui_notebook.agui._intake import EventParseError, json_error_text, json_kind, to_wire_event

from ._aisdk import UIChunkConverter, is_ui_chunk_type
from ._errors import EventLogWarning
from ._event_array import EventBlob

__all__ = ["NO_TIME", "Batch", "Problems", "read_buffer", "read_items"]

NO_TIME = np.iinfo(np.int64).min
"""``received_ns`` of an event that was not recorded (numpy's NaT)."""

_SLICE_BYTES = 1 << 20
_SSE_PREFIXES = (b"data:", b"event:", b"id:", b"retry:", b":")


class Problems:
    """Unreadable input: raised at once (``errors="raise"``) or collected for ``df.attrs["errors"]``."""

    def __init__(self, errors: str) -> None:
        if errors not in ("raise", "collect"):
            raise ValueError(f"errors must be 'raise' or 'collect', not {errors!r}")
        self.collect = errors == "collect"
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
            warnings.warn(
                f"skipped {len(self.items)} unreadable event(s), listed in df.attrs['errors']: {first}{more}",
                EventLogWarning,
                stacklevel=3,
            )


@dataclass
class Batch:
    """Consecutive events of one source, in the wire form, with where each came from."""

    events: list[dict[str, Any]]
    table: np.ndarray
    """``key_table(events)``: the fields every event is read for."""
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


def _unwrap(value: Any) -> tuple[dict[str, Any] | None, int, str | None]:
    """The event in a decoded line or item (a recorder record is unwrapped), its receive time, or the problem."""
    if type(value) is not dict:
        return None, NO_TIME, f"expected a JSON object, got {json_kind(value)}"
    received = NO_TIME
    if "type" not in value and "event" in value:
        received_ns = value.get("received_ns")
        if type(received_ns) is int:
            received = received_ns
        value = value["event"]
        if type(value) is not dict:
            return None, NO_TIME, f"recorded event is {json_kind(value)}, not an object"
    if type(value.get("type")) is not str:
        return None, NO_TIME, "event has no string 'type'"
    return value, received, None


class _Collected:
    """Events gathered one by one (the slow paths), turned into a Batch."""

    __slots__ = ("events", "lines", "received")

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.lines: list[int] = []
        self.received: list[int] = []

    def add(self, event: dict[str, Any], line: int, received: int) -> None:
        self.events.append(event)
        self.lines.append(line)
        self.received.append(received)

    def decode(self, name: str, line: int, raw: bytes, problems: Problems) -> None:
        """Add the event of one JSON line (or SSE payload), or record why it is not one."""
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            problems.add(name, line, json_error_text(exc), raw)
            return
        event, received, error = _unwrap(value)
        if error is not None:
            problems.add(name, line, error, raw)
            return
        self.add(event, line, received)  # type: ignore[arg-type]

    def batch(self, blob: EventBlob | None, blob_lines: list[int] | None, nbytes: int) -> Batch:
        received = np.array(self.received, dtype=np.int64)
        lines = np.array(self.lines, dtype=np.int64)
        if blob is None:
            blob = EventBlob.from_events(self.events)
            blob_lines = list(range(len(self.events)))
        table = key_table(self.events)
        type_starts, type_values = value_runs(table[:, 0])
        return Batch(
            events=self.events,
            table=table,
            type_starts=type_starts,
            type_values=type_values,
            lines=lines,
            received_ns=received if (received != NO_TIME).any() else None,
            blob=blob,
            blob_lines=np.array(blob_lines, dtype=np.int64),
            nbytes=nbytes,
        )


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
    from pandas._libs.lib import dicts_to_array as _dicts_to_array
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


def _fast_slice(piece: bytes, first_line: int, blob: EventBlob) -> Batch | None:
    """Parse a slice of whole lines in one call; None when any line is off (then the slow path says which)."""
    try:
        values = orjson.loads(b"".join((b"[", piece.replace(b"\n", b","), b"]")))
    except orjson.JSONDecodeError:
        return None
    count = len(values)
    # Two values on one line would shift every line number after it.
    if count != int(np.count_nonzero(np.frombuffer(piece, dtype=np.uint8) == 10)) + 1:
        return None
    received = None
    try:
        first = values[0]
        if type(first) is dict and "type" not in first and "event" in first:
            received = np.fromiter(
                map(dict.get, values, repeat("received_ns"), repeat(NO_TIME)), np.int64, count
            )
            values = list(map(dict.get, values, repeat("event")))
        table = key_table(values)
        type_starts, type_values = value_runs(table[:, 0])
    except (TypeError, ValueError, OverflowError):
        return None
    # The slow path names the line of a missing or non-string type.
    if not all(type(t) is str for t in type_values):
        return None
    lines = np.arange(first_line, first_line + count, dtype=np.int64)
    return Batch(
        events=values,
        table=table,
        type_starts=type_starts,
        type_values=type_values,
        lines=lines,
        received_ns=received,
        blob=blob,
        blob_lines=lines - 1,
        nbytes=len(piece) + 1,
    )


def _slow_slice(name: str, piece: bytes, first_line: int, blob: EventBlob, problems: Problems) -> Batch:
    collected = _Collected()
    for offset, raw in enumerate(piece.split(b"\n")):
        line = first_line + offset
        if not raw.strip():
            continue
        collected.decode(name, line, raw, problems)
    return collected.batch(blob, [line - 1 for line in collected.lines], len(piece) + 1)


def _jsonl_batches(name: str, data: bytes, start: int, problems: Problems) -> Iterator[Batch]:
    blob = EventBlob(data)
    stop = len(data)
    while stop > start and data[stop - 1] in b" \t\r\n":
        stop -= 1
    # Lines before `start` (blank ones, or a byte-order mark) still count for the line numbers.
    first_line = data.count(b"\n", 0, start) + 1
    while start < stop:
        end = data.find(b"\n", min(start + _SLICE_BYTES, stop), stop)
        if end == -1:
            end = stop
        piece = data[start:end]
        batch = _fast_slice(piece, first_line, blob)
        if batch is not None:
            count = len(batch.events)
        else:
            count = piece.count(b"\n") + 1
            batch = _slow_slice(name, piece, first_line, blob, problems)
        if batch.events:
            yield batch
        first_line += count
        start = end + 1


# -- SSE -----------------------------------------------------------------------------------------------------


def _sse_batches(name: str, data: bytes, problems: Problems) -> Iterator[Batch]:
    payloads: list[tuple[int, bytes]] = []
    pending: list[bytes] = []
    pending_line = 0
    single_line = True
    for number, raw in enumerate(data.split(b"\n"), 1):
        raw = raw.rstrip(b"\r")
        if not raw:
            if pending:
                single_line &= len(pending) == 1
                payloads.append((pending_line, b"\n".join(pending)))
                pending = []
            continue
        if raw[:5] == b"data:":
            value = raw[5:]
            if value[:1] == b" ":
                value = value[1:]
            if not pending:
                pending_line = number
            pending.append(value)
    if pending:
        single_line &= len(pending) == 1
        payloads.append((pending_line, b"\n".join(pending)))
    collected = _Collected()
    for line, payload in payloads:
        if payload.strip() == b"[DONE]":
            continue
        collected.decode(name, line, payload, problems)
    if collected.events:
        if single_line:
            yield collected.batch(EventBlob(data), [line - 1 for line in collected.lines], len(data))
        else:
            yield collected.batch(None, None, len(data))


# -- JSON arrays and in-memory items ---------------------------------------------------------------------------


def _item_event(item: Any) -> tuple[dict[str, Any] | None, int, str | None]:
    if type(item) is dict:
        return _unwrap(item)
    if isinstance(item, BaseModel) or hasattr(item, "keys"):
        try:
            return _unwrap(to_wire_event(item))
        except TypeError as exc:
            return None, NO_TIME, str(exc)
    return None, NO_TIME, f"expected an event (a dict or an ag_ui.core model), got {type(item).__name__}"


def read_items(
    name: str, items: Iterable[Any], problems: Problems, batch_size: int = 50_000
) -> Iterator[Batch]:
    """Batches of in-memory events: dicts, ``ag_ui.core`` models or recorder records."""
    collected = _Collected()
    position = 0
    for position, item in enumerate(items, 1):
        event, received, error = _item_event(item)
        if error is not None:
            problems.add(
                name, position, error, None if type(item) is not dict else orjson.dumps(item, default=str)
            )
            continue
        collected.add(event, position, received)  # type: ignore[arg-type]
        if len(collected.events) >= batch_size:
            yield collected.batch(None, None, 0)
            collected = _Collected()
    if collected.events:
        yield collected.batch(None, None, 0)


# -- buffers ---------------------------------------------------------------------------------------------------


def read_buffer(name: str, data: bytes, problems: Problems) -> Iterator[Batch]:
    """Batches of a whole log read into memory; the format is told from its first characters."""
    start = 3 if data[:3] == b"\xef\xbb\xbf" else 0
    length = len(data)
    while start < length and data[start] in b" \t\r\n":
        start += 1
    if start == length:
        return iter(())
    head = data[start : start + 8]
    if head[:1] == b"{":
        return _jsonl_batches(name, data, start, problems)
    if head[:1] == b"[":
        return _array_batches(name, data, problems)
    if head.startswith(_SSE_PREFIXES):
        return _sse_batches(name, data, problems)
    problems.add(
        name, data.count(b"\n", 0, start) + 1, f"not JSONL, JSON or SSE (starts with {head!r})", head
    )
    return iter(())


def _array_batches(name: str, data: bytes, problems: Problems) -> Iterator[Batch]:
    try:
        values = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        # A JSONL log whose events are arrays is no log; report where the JSON broke.
        problems.add(name, exc.lineno, json_error_text(exc), None)
        return
    if not isinstance(values, list):
        problems.add(name, 1, f"expected a JSON array of events, got {json_kind(values)}", None)
        return
    for batch in read_items(name, values, problems):
        batch.nbytes = len(data) * len(batch.events) // max(len(values), 1)
        yield batch


# -- normalising: legacy THINKING_* events and AI SDK chunks -----------------------------------------------------


def normalized(batches: Iterator[Batch]) -> Iterator[Batch]:
    """Upgrade pre-1.0 THINKING_* events and convert AI SDK UI-message chunks, per source, batch by batch.

    Both keep the table's ``event`` column true to what the tables read: converted batches are serialized
    into a buffer of their own (the original chunk stays in each event's ``rawEvent``).
    """
    converter: UIChunkConverter | None = None
    upgrader: LegacyEventUpgrader | None = None
    first = True
    for batch in batches:
        if first:
            first = False
            if is_ui_chunk_type(batch.type_values[0]):
                converter = UIChunkConverter()
        if converter is not None:
            yield _converted(batch, converter)
            continue
        if upgrader is None and not LEGACY_EVENT_TYPES.isdisjoint(batch.type_values.tolist()):
            upgrader = LegacyEventUpgrader()
        if upgrader is not None:
            yield _upgraded(batch, upgrader)
            continue
        yield batch


def _rebuilt(batch: Batch, events: list[dict[str, Any]], origin: list[int]) -> Batch:
    index = np.array(origin, dtype=np.int64)
    table = key_table(events)
    type_starts, type_values = value_runs(table[:, 0])
    return Batch(
        events=events,
        table=table,
        type_starts=type_starts,
        type_values=type_values,
        lines=batch.lines[index],
        received_ns=None if batch.received_ns is None else batch.received_ns[index],
        blob=EventBlob.from_events(events),
        blob_lines=np.arange(len(events), dtype=np.int64),
        nbytes=batch.nbytes,
    )


def _converted(batch: Batch, converter: UIChunkConverter) -> Batch:
    events: list[dict[str, Any]] = []
    origin: list[int] = []
    for i, chunk in enumerate(batch.events):
        produced = converter.feed(chunk)
        events.extend(produced)
        origin.extend(repeat(i, len(produced)))
    return _rebuilt(batch, events, origin)


def _upgraded(batch: Batch, upgrader: LegacyEventUpgrader) -> Batch:
    needs = upgrader.needs_upgrade
    if not any(map(needs, batch.events)):
        return batch
    events = [upgrader.upgrade(event) if needs(event) else event for event in batch.events]
    return _rebuilt(batch, events, list(range(len(events))))
