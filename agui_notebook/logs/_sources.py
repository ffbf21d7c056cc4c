"""What ``load_events`` reads: its input (paths, globs, folders, text, files, lists, recorders) as sources.

A source has a name (the path, or ``<text>``, ``<file>``, ``<events>``, ``<recorder>``) and is read either as
bytes (JSONL, JSON or SSE) or as in-memory items.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterator
from typing import Any

from agui_notebook.wire._reader import looks_like_text

from ._file_buffer import FileBuffer
from ._read import Batch, Problems, read_buffer, read_items

__all__ = ["Source", "sources"]

_THREADED_READ_BYTES = 8 << 20
"""Files from this size on are read on another thread while they are decoded (a thread costs more for less)."""
_LOG_SUFFIXES = (".jsonl", ".ndjson", ".json", ".sse", ".txt", ".log")


def _paths(pattern: str) -> list[str]:
    if os.path.isdir(pattern):
        found = [
            os.path.join(pattern, name)
            for name in sorted(os.listdir(pattern))
            if name.endswith(_LOG_SUFFIXES) and os.path.isfile(os.path.join(pattern, name))
        ]
        if not found:
            raise FileNotFoundError(f"no event logs ({', '.join(_LOG_SUFFIXES)}) in folder {pattern!r}")
        return found
    if any(char in pattern for char in "*?["):
        found = sorted(path for path in glob.glob(pattern, recursive=True) if os.path.isfile(path))
        if not found:
            raise FileNotFoundError(f"no files match {pattern!r}")
        return found
    if not os.path.exists(pattern):
        raise FileNotFoundError(f"{pattern!r} is neither an existing file nor JSONL, JSON or SSE text")
    return [pattern]


class Source:
    """One named input: a buffer to read, or in-memory items."""

    __slots__ = ("data", "items", "name", "path", "size")

    def __init__(self, name: str, *, data: bytes | None = None, path: str | None = None, items: Any = None):
        self.name = name
        self.data = data
        self.path = path
        self.items = items
        self.size = len(data) if data is not None else (os.path.getsize(path) if path is not None else 0)

    def batches(self, problems: Problems) -> Iterator[Batch]:
        """The source's events in batches (large files read on another thread while they are decoded)."""
        if self.items is not None:
            return read_items(self.name, self.items, problems)
        if self.data is None and self.size >= _THREADED_READ_BYTES:
            buffer = FileBuffer(self.path)  # type: ignore[arg-type]
            return read_buffer(self.name, buffer.data, problems, buffer.ready)
        if self.data is None:
            with open(self.path, "rb") as handle:  # type: ignore[arg-type]
                return read_buffer(self.name, handle.read(), problems)
        return read_buffer(self.name, self.data, problems)


def sources(source: Any) -> list[Source]:
    """The sources of a ``load_events`` input: one per file for paths, globs and folders, else one.

    >>> [(s.name, s.size) for s in sources('{"type": "RUN_STARTED"}')]
    [('<text>', 23)]
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return [Source("<text>", data=bytes(source))]
    if isinstance(source, str):
        if looks_like_text(source):
            return [Source("<text>", data=source.encode())]
        return [Source(path, path=path) for path in _paths(source)]
    if isinstance(source, os.PathLike):
        return [Source(path, path=path) for path in _paths(os.fspath(source))]
    if hasattr(source, "read"):
        data = source.read()
        name = getattr(source, "name", None)
        return [
            Source(
                name if isinstance(name, str) else "<file>",
                data=data.encode() if isinstance(data, str) else data,
            )
        ]
    if hasattr(source, "events") and not isinstance(source, (list, tuple, dict)):
        return [Source("<recorder>", items=list(source.events))]
    if isinstance(source, dict):
        return [Source("<events>", items=[source])]
    if (
        isinstance(source, (list, tuple))
        and source
        and all(isinstance(s, (str, os.PathLike)) for s in source)
        and not any(isinstance(s, str) and looks_like_text(s) for s in source)
    ):
        return [found for item in source for found in sources(item)]
    if hasattr(source, "__iter__"):
        return [Source("<events>", items=list(source))]
    raise TypeError(f"cannot load events from {type(source).__name__}")
