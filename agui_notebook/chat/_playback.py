"""Playing a recorded or prepared stream into a ChatWidget: reading the log and keeping its pace.

``ChatWidget.play`` takes AG-UI events or AI SDK chunks as an iterable, an async iterable, bytes or a log path
(JSONL, SSE, a JSON array, or an EventRecorder log with receive times), and replays them at their recorded pace
divided by ``speed`` (receive times, else the events' millisecond timestamps), or at once.

>>> import asyncio
>>> async def played():
...     return [pair async for pair in playback_items([{"received_ns": 5, "event": {"type": "start"}}], None)]
>>> asyncio.run(played())
[(5, {'type': 'start'})]
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncGenerator, AsyncIterable, Iterable, Mapping
from typing import Any

from agui_notebook._errors import EventParseError, InputTypeError
from agui_notebook.wire._reader import Frame, read_text_source, text_frames
from agui_notebook.wire._records import is_recorded, recorded_time

__all__ = ["playback_items"]


def playback_items(stream: Any, speed: float | None) -> AsyncGenerator[tuple[int | None, Any], None]:
    """``(received_ns | None, item)`` pairs of ``stream``, as a run's source, spaced by their times / ``speed``.

    A log path or bytes is read here, at once, so a log that cannot be read fails before a run starts.
    ``speed=None`` yields every item at once.
    """
    return _paced(_timed_items(stream), speed)


def _timed_items(stream: Any) -> Any:
    """``(received_ns | None, item)`` pairs from a log (path, text, bytes) or a (sync/async) iterable of events,
    chunks or records; a log is read by the wire reader, and its first bad line raises, naming the line."""
    text = read_text_source(stream) if isinstance(stream, (str, os.PathLike, bytes, bytearray)) else None
    if text is not None:
        name, data = text
        return [_log_item(frame, name, index) for index, frame in enumerate(text_frames(data))]
    if isinstance(stream, AsyncIterable):
        return _atimed(stream)
    if not isinstance(stream, Iterable) or isinstance(stream, Mapping):
        raise InputTypeError(
            "play takes a log (a path, text or bytes) or a stream of events, chunks or records (an iterable or "
            f"async iterable), not {type(stream).__name__}"
        )
    return (_timed(item) for item in stream)


def _log_item(frame: Frame, source: str, index: int) -> tuple[int | None, Any]:
    if frame.error is not None:
        raise EventParseError(
            f"{source}:{frame.line}: {frame.error}", source=source, line=frame.line, index=index
        )
    return frame.received_ns, frame.value


async def _atimed(stream: AsyncIterable[Any]) -> AsyncGenerator[tuple[int | None, Any], None]:
    async for item in stream:
        yield _timed(item)


def _timed(item: Any) -> tuple[int | None, Any]:
    if is_recorded(item):
        return recorded_time(item), item["event"]
    return None, item


async def _paced(items: Any, speed: float | None) -> AsyncGenerator[tuple[int | None, Any], None]:
    """Yield items, sleeping between them to keep their recorded spacing divided by ``speed``."""
    first_time: float | None = None
    started = time.monotonic()
    if isinstance(items, AsyncIterable):
        iterator: Any = items
    else:

        async def from_sync() -> AsyncGenerator[tuple[int | None, Any], None]:
            for pair in items:
                yield pair

        iterator = from_sync()
    async for received_ns, item in iterator:
        if speed is not None:
            at = _item_time(received_ns, item)
            if at is not None:
                if first_time is None:
                    first_time = at
                wait = (at - first_time) / speed - (time.monotonic() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
        else:
            await asyncio.sleep(0)  # let the loop breathe between items
        yield received_ns, item


def _item_time(received_ns: int | None, item: Any) -> float | None:
    """Seconds on the recording's clock: the receive time, else the event's millisecond timestamp."""
    if received_ns is not None:
        return received_ns / 1e9
    timestamp = item.get("timestamp") if isinstance(item, Mapping) else getattr(item, "timestamp", None)
    return timestamp / 1e3 if isinstance(timestamp, (int, float)) else None
