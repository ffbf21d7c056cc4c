"""What ``load_events`` reads: its input (paths, globs, folders, text, files, lists, recorders) as sources.

A source has a name (the path, or ``<text>``, ``<file>``, ``<events>``, ``<recorder>``) and is read either as
bytes (JSONL, JSON or SSE) or as in-memory items.
"""

from __future__ import annotations

import glob
import io
import os
from collections.abc import Iterator
from typing import Any

from agui_notebook._errors import InputTypeError, SourceNotFoundError
from agui_notebook.chat._store import LOCK_SUFFIX
from agui_notebook.wire._reader import looks_like_text, missing_path

from ._file_buffer import FileBuffer
from ._file_map import FileMap
from ._file_slices import FileSlice
from ._gzip import gunzip_bytes, gunzip_path, gzip_size_hint, is_gzip
from ._parquet import parquet_logs
from ._read import Batch, Problems, read_buffer, read_items
from ._span_input import OTLP_HEAD_BYTES, is_otlp_json, span_items

__all__ = ["LOG_SUFFIXES", "Source", "is_log_name", "is_parquet_path", "sources"]

_THREADED_READ_BYTES = 8 << 20
"""Files from this size on are read from their mapping (``_file_map``: the table keeps no copy of them), or where
they cannot be mapped on another thread while they are decoded; smaller ones are read whole (less to gain)."""
LOG_SUFFIXES = (".jsonl", ".ndjson", ".json", ".sse", ".txt", ".log")
"""The file names a folder's logs end with (in any case), each also followed by ``.gz``."""
_NOT_A_LOG_NAME = f"not a log file name ({', '.join(LOG_SUFFIXES)}, each optionally .gz)"
_A_FOLDER = "a folder (folders are not read recursively)"


def is_log_name(name: str) -> bool:
    """Whether a folder entry's name is a log's: one of ``LOG_SUFFIXES``, in any case, optionally ``.gz``.

    >>> is_log_name("run.JSONL"), is_log_name("run.jsonl.gz"), is_log_name("notes.md")
    (True, True, False)
    """
    lower = name.lower()
    return lower.removesuffix(".gz").endswith(LOG_SUFFIXES)


def is_parquet_path(path: str) -> bool:
    """A ``.parquet`` file, or a folder holding ``.parquet`` files (in hive subfolders too) and no logs."""
    if os.path.isfile(path):
        return path.lower().endswith(".parquet")
    if not os.path.isdir(path):
        return False
    if any(is_log_name(name) for name in os.listdir(path) if os.path.isfile(os.path.join(path, name))):
        return False
    return any(name.lower().endswith(".parquet") for _, _, files in os.walk(path) for name in files)


def _paths(pattern: str, skipped: list[dict[str, str]]) -> list[str]:
    """The files a path, glob or folder names; a folder's entries that are not logs go to ``skipped``."""
    if os.path.isdir(pattern):
        found = []
        names = sorted(os.listdir(pattern))
        for name in names:
            path = os.path.join(pattern, name)
            if name.endswith(LOCK_SUFFIX) and name.removesuffix(LOCK_SUFFIX) in names:
                continue  # a chat log's lock, beside its log: the chat's, not a file the user left here
            if os.path.isdir(path):
                skipped.append({"path": path, "reason": _A_FOLDER})
            elif is_log_name(name) and os.path.isfile(path):
                found.append(path)
            else:
                skipped.append({"path": path, "reason": _NOT_A_LOG_NAME})
        if not found:
            raise SourceNotFoundError(
                f"no event logs ({', '.join(LOG_SUFFIXES)}, each optionally .gz) in folder {pattern!r}",
                path=pattern,
            )
        return found
    if any(char in pattern for char in "*?["):
        found = sorted(path for path in glob.glob(pattern, recursive=True) if os.path.isfile(path))
        if not found:
            raise SourceNotFoundError(f"no files match {pattern!r}", path=pattern)
        return found
    if not os.path.exists(pattern):
        raise missing_path(pattern)
    return [pattern]


def _head(path: str, size: int = 2) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(size)


def _spans_read(name: str, data: bytes | list[Any], problems: Problems) -> Iterator[Batch]:
    """Spans (OTLP/JSON text, or in-memory spans) read as events, by their one reader (``_traces``)."""
    from ._traces import span_batches  # needs OpenTelemetry's conventions packages: only for spans

    return span_batches(name, data, problems)


def _buffer_read(name: str, data: Any, problems: Problems) -> Iterator[Batch]:
    if is_otlp_json(bytes(data[:OTLP_HEAD_BYTES])):
        return _spans_read(name, bytes(data), problems)
    return read_buffer(name, data, problems)


def _mapped_read(name: str, mapped: FileMap, problems: Problems) -> Iterator[Batch]:
    """A large log read from its file's mapping; once read, its pages are dropped and its sums complete (a load
    that stopped only drops them: no table will read it)."""
    try:
        yield from read_buffer(name, mapped.data, problems, mapped.ready, mapped=mapped)
    except BaseException:
        mapped.drop()
        raise
    mapped.loaded()


class Source:
    """One named input: a buffer to read, a file (plain or gzip), or in-memory items."""

    __slots__ = ("data", "first_line", "gzip", "items", "name", "path", "size", "slice", "spans")

    def __init__(
        self,
        name: str,
        *,
        data: bytes | None = None,
        path: str | None = None,
        items: Any = None,
        part: FileSlice | None = None,
        spans: bool = False,
    ):
        self.name = name
        self.spans = spans  # items that are spans (or OTLP/JSON export objects)
        self.data = data
        self.path = path
        self.items = items
        self.slice = part
        self.first_line = 1
        if part is not None:  # a slice of a plain JSONL log (never gzip): its bytes and where they start
            self.gzip = False
            self.size = part.length
            self.first_line = part.first_line
            return
        self.gzip = is_gzip(data[:2] if data is not None else _head(path) if path is not None else b"")
        if self.gzip:  # the progress bar counts decompressed bytes
            if data is not None:
                self.size = gzip_size_hint(io.BytesIO(data), len(data))
            elif path is not None:
                with open(path, "rb") as handle:
                    self.size = gzip_size_hint(handle, os.fstat(handle.fileno()).st_size)
        else:
            self.size = len(data) if data is not None else (os.path.getsize(path) if path is not None else 0)

    def batches(self, problems: Problems) -> Iterator[Batch]:
        """The source's events in batches (large files read on another thread while they are decoded)."""
        if self.items is not None:
            return (
                _spans_read(self.name, self.items, problems)
                if self.spans
                else read_items(self.name, self.items, problems)
            )
        if self.slice is not None:
            return read_buffer(self.name, self.slice.read(), problems, first_line=self.first_line)
        if self.gzip:
            # A source with neither data nor items has a path (every constructor case below gives one of them).
            data, problem = gunzip_path(self.path) if self.data is None else gunzip_bytes(self.data)  # type: ignore[arg-type]
            self.data = None  # the compressed bytes are not needed any more
            if problem is not None:
                problems.add(self.name, None, problem)
            return _buffer_read(self.name, data, problems)
        if (
            self.data is None
            and self.size >= _THREADED_READ_BYTES
            and not is_otlp_json(_head(self.path, OTLP_HEAD_BYTES))  # type: ignore[arg-type]  # a path, as below
        ):
            mapped = FileMap.open(self.path)  # type: ignore[arg-type]  # a path, as above
            if mapped is not None:
                return _mapped_read(self.name, mapped, problems)
            buffer = FileBuffer(self.path)  # type: ignore[arg-type]  # a path, as above
            return read_buffer(self.name, buffer.data, problems, buffer.ready)
        if self.data is None:
            with open(self.path, "rb") as handle:  # type: ignore[arg-type]  # a path, as above
                return _buffer_read(self.name, handle.read(), problems)
        return _buffer_read(self.name, self.data, problems)


def sources(source: Any, skipped: list[dict[str, str]] | None = None) -> list[Source]:
    """The sources of a ``load_events`` input: one per file for paths, globs and folders, else one.

    The entries of a folder that are not logs are added to ``skipped`` (``{"path", "reason"}`` each).

    >>> [(s.name, s.size) for s in sources('{"type": "RUN_STARTED"}')]
    [('<text>', 23)]
    """
    if skipped is None:
        skipped = []
    if isinstance(source, (bytes, bytearray, memoryview)):
        return [Source("<text>", data=bytes(source))]
    if isinstance(source, str) and looks_like_text(source):
        return [Source("<text>", data=source.encode())]
    if isinstance(source, FileSlice):
        return [Source(source.path, path=source.path, part=source)]
    if isinstance(source, (str, os.PathLike)):
        if is_parquet_path(os.fspath(source)):  # an events table stored by to_parquet
            return [Source(name, data=data) for name, data in parquet_logs(os.fspath(source))]
        return [Source(path, path=path) for path in _paths(os.fspath(source), skipped)]
    spans = span_items(source)
    if spans is not None:
        return [Source("<spans>", items=spans, spans=True)]
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
        return [found for item in source for found in sources(item, skipped)]
    if hasattr(source, "__iter__"):
        return [Source("<events>", items=list(source))]
    raise InputTypeError(f"cannot load events from {type(source).__name__}")
