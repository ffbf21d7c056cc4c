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
from collections.abc import AsyncIterable, AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import orjson

from agui_notebook.wire._records import is_recorded, recorded_time

__all__ = ["playback_items"]


def playback_items(stream: Any, speed: float | None) -> AsyncIterator[tuple[int | None, Any]]:
    """``(received_ns | None, item)`` pairs of ``stream``, as a run's source, spaced by their times / ``speed``.

    A log path or bytes is read here, at once, so a log that cannot be read fails before a run starts.
    ``speed=None`` yields every item at once.
    """
    return _paced(_timed_items(stream), speed)


def _timed_items(stream: Any) -> Any:
    """``(received_ns | None, item)`` pairs from a log path or a (sync/async) iterable of events, chunks or records."""
    if isinstance(stream, (str, os.PathLike)):
        return [_timed(item) for item in _read_log(Path(stream))]
    if isinstance(stream, AsyncIterable):
        return _atimed(stream)
    if isinstance(stream, (bytes, bytearray)):
        return [_timed(item) for item in _parse_log(bytes(stream), "<bytes>")]
    return (_timed(item) for item in stream)


async def _atimed(stream: AsyncIterable[Any]) -> AsyncIterator[tuple[int | None, Any]]:
    async for item in stream:
        yield _timed(item)


def _timed(item: Any) -> tuple[int | None, Any]:
    if is_recorded(item):
        return recorded_time(item), item["event"]
    return None, item


def _read_log(path: Path) -> list[Any]:
    return _parse_log(path.read_bytes(), os.fspath(path))


def _parse_log(data: bytes, source: str) -> list[Any]:
    """Items of a JSON array, JSONL, or SSE log (``data: [DONE]`` and SSE comments skipped)."""
    stripped = data.lstrip()
    if stripped[:1] == b"[":
        try:
            items = orjson.loads(stripped)
        except orjson.JSONDecodeError:
            items = None
        if isinstance(items, list):
            return items
    items = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        line = raw.strip()
        if not line or line.startswith((b":", b"event:", b"id:", b"retry:")):
            continue
        if line.startswith(b"data:"):
            line = line[5:].strip()
            if line == b"[DONE]":
                continue
        try:
            items.append(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            raise ValueError(f"{source}:{number}: invalid JSON ({exc.msg} at column {exc.colno})") from None
    return items


async def _paced(items: Any, speed: float | None) -> AsyncIterator[tuple[int | None, Any]]:
    """Yield items, sleeping between them to keep their recorded spacing divided by ``speed``."""
    first_time: float | None = None
    started = time.monotonic()
    if isinstance(items, AsyncIterable):
        iterator: Any = items
    else:

        async def from_sync() -> AsyncIterator[tuple[int | None, Any]]:
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
