"""Recording event streams: each event with its receive time, appended to a JSONL log as it arrives.

A log line is one :class:`RecordedEvent`, ``{"received_ns": <int>, "event": <the event's wire form>}``.
The event is written exactly as it was received (AG-UI models as their wire dicts, dicts as they are); the
receive time is ``time.time_ns()`` at arrival, so timings keep sub-millisecond precision even where the
producer stamps milliseconds or nothing. :func:`load_events` reads these logs (and ``recorder.events``).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
>>> events = [{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}]
>>> [e["type"] for e in record(events, path)]
['RUN_STARTED']
>>> open(path).read().count("received_ns")
1
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import Any, TypedDict, TypeVar, overload

import orjson
from pydantic import BaseModel

from agui_notebook._errors import EventLogWarning, InputTypeError, SourceError, warn
from agui_notebook._options import callback, file_path, keyword_options, typed
from agui_notebook._shown import shown
from agui_notebook.wire._json import encode_json
from agui_notebook.wire._reader import Frame, WireReader
from agui_notebook.wire._values import json_value

T = TypeVar("T")

__all__ = ["EventRecorder", "RecordedEvent", "record"]


class RecordedEvent(TypedDict):
    """One recorded event: when it arrived and what it was (one line of a recorder log)."""

    received_ns: int
    """Receive time in nanoseconds since the Unix epoch (``time.time_ns()``)."""
    event: dict[str, Any]
    """The event in its wire form (camelCase keys, ``type`` a string), unaltered."""


def _model_wire(item: BaseModel) -> dict[str, Any]:
    from agui_notebook.agui._intake import to_wire_event

    if type(item).__module__.startswith("ag_ui."):
        return to_wire_event(item)
    # Other protocol models (pydantic-ai's AI SDK chunks, say) use the same camelCase-without-nulls wire form.
    return item.model_dump(mode="json", by_alias=True, exclude_none=True)


class EventRecorder:
    """Records events with their receive times, in memory (``events``) and/or appended to a JSONL log.

    Works around any stream of AG-UI events (``ag_ui.core`` models or dicts), AI SDK UI-message chunks, or
    the SSE/JSONL text an endpoint sends; the items are passed on unchanged.

    >>> recorder = EventRecorder()
    >>> item = {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"}
    >>> [r["event"] is item for r in recorder.add(item)]
    [True]
    >>> len(recorder.events)
    1
    """

    @keyword_options
    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        keep: bool = True,
        clock: Callable[[], int] = time.time_ns,
    ) -> None:
        self.path = None if path is None else file_path(path, "path")
        self.keep = typed(keep, "keep", bool, "True or False")
        self.events: list[RecordedEvent] = []
        self._clock = callback(clock, "clock") or time.time_ns
        self._file: Any = None
        self._lock = threading.Lock()
        self._reader = WireReader()  # text items (SSE or JSONL in any slices) through the one wire reader
        self._warned = False

    def add(self, item: Any) -> list[RecordedEvent]:
        """Record one stream item now; returns its records (none for SSE comments or ``[DONE]``)."""
        received_ns = self._clock()
        return [self._store(received_ns, event) for event in self._wire_events(item)]

    def _wire_events(self, item: Any) -> list[dict[str, Any]]:
        if type(item) is dict:
            return [item]
        if isinstance(item, BaseModel):
            return [_model_wire(item)]
        if isinstance(item, (bytes, bytearray, memoryview, str)):
            return self._decoded(self._reader.feed(item))
        if isinstance(item, dict):
            return [dict(item)]
        self._warn(f"cannot record a {type(item).__name__}")
        return []

    def _decoded(self, frames: list[Frame]) -> list[dict[str, Any]]:
        events = []
        for frame in frames:
            if frame.error is None:
                events.append(frame.value)
            else:
                self._warn(f"skipped text that is not an event (line {frame.line}: {frame.error})")
        return events

    def _warn(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            warn(f"EventRecorder: {message}", EventLogWarning)

    def _store(self, received_ns: int, event: dict[str, Any]) -> RecordedEvent:
        entry: RecordedEvent = {"received_ns": received_ns, "event": event}
        with self._lock:
            if self.keep:
                self.events.append(entry)
            if self.path is not None:
                if self._file is None:
                    self._file = _opened(self.path)
                self._file.write(_entry_line(entry))
                # Flushed per event so that a crashed or interrupted run still leaves its log behind.
                self._file.flush()
        return entry

    def wrap(self, stream: Iterable[Any] | AsyncIterable[Any]) -> Any:
        """Pass a sync or async stream through unchanged, recording each item as it arrives."""
        if isinstance(stream, AsyncIterable):
            return self._wrap_async(stream)
        return self._wrap_sync(stream)

    def _wrap_sync(self, stream: Iterable[Any]) -> Iterator[Any]:
        for item in stream:
            self.add(item)
            yield item
        self._flush_text()

    async def _wrap_async(self, stream: AsyncIterable[Any]) -> AsyncIterator[Any]:
        async for item in stream:
            self.add(item)
            yield item
        self._flush_text()

    def _flush_text(self) -> None:
        received_ns = self._clock()
        for event in self._decoded(self._reader.close()):
            self._store(received_ns, event)

    def close(self) -> None:
        """Close the log file (recording again reopens it for appending)."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def __enter__(self) -> EventRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EventRecorder(path={self.path!r}, events={len(self.events)})"


@overload
def record(stream: AsyncIterable[T], path: str | os.PathLike[str]) -> AsyncIterator[T]: ...
@overload
def record(stream: Iterable[T], path: str | os.PathLike[str]) -> Iterator[T]: ...
def record(
    stream: Iterable[T] | AsyncIterable[T], path: str | os.PathLike[str]
) -> Iterator[T] | AsyncIterator[T]:
    """Pass ``stream`` through unchanged while appending each event, with its receive time, to ``path``.

    Returns an iterator of the same kind (sync or async); the log is closed when the stream ends.

    >>> async def run(adapter):  # doctest: +SKIP
    ...     async for event in record(adapter.run_stream(), "run.jsonl"):
    ...         ...
    """
    recorder = EventRecorder(path, keep=False)
    if isinstance(stream, AsyncIterable):
        return _closing_async(recorder, stream)
    if not isinstance(stream, Iterable) or isinstance(stream, (str, bytes, bytearray, Mapping)):
        raise InputTypeError(
            f"record takes a stream of events (an iterable or async iterable), not {shown(stream)}"
        )
    return _closing_sync(recorder, stream)


def _opened(path: str) -> Any:
    """The log file, opened for appending (its folder made: ``record(..., "logs/run.jsonl")``)."""
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        return open(path, "ab")
    except OSError as exc:
        raise SourceError(f"{path}: cannot write the log ({exc.strerror or exc})", path=path) from None


def _entry_line(entry: RecordedEvent) -> bytes:
    try:
        return orjson.dumps(entry) + b"\n"
    except (
        TypeError
    ):  # a value orjson does not write (an int past 64 bits, a lone surrogate): JavaScript's JSON
        return (encode_json(json_value(entry, "event")) + "\n").encode()


def _closing_sync(recorder: EventRecorder, stream: Iterable[T]) -> Iterator[T]:
    with recorder:
        yield from recorder.wrap(stream)


async def _closing_async(recorder: EventRecorder, stream: AsyncIterable[T]) -> AsyncIterator[T]:
    with recorder:
        async for item in recorder.wrap(stream):
            yield item
