"""One large JSONL log as slices, so the tables of a single file are built slice by slice (out of core).

The tables from sources (``_by_file``) hold one file's events at a time; a log of millions of events is one
file too. :func:`split_large_files` cuts every plain JSONL log (bare events or recorder lines) larger than
``slice_bytes`` into byte ranges that begin at a run's first line (a ``RUN_STARTED`` event of a top-level
run or an AI SDK ``start`` chunk), each a :class:`FileSlice` that ``load_events`` reads as that part of the file, with the file's
name and its real line numbers. A range holds whole runs, so memory holds one slice's events, and slices go to
the workers or the cluster as files do; a run that still spans two slices (runs interleaved in one log) has its
slices read together, as runs cut across files are.

Compressed logs and other formats (SSE, a JSON array, OTLP/JSON spans, whose traces cross lines) are not cut:
they are read whole.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
>>> run = b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\\n{"type":"RUN_FINISHED","threadId":"t","runId":"r"}\\n'
>>> _ = open(path, "wb").write(run * 3)
>>> [(s.start, s.length, s.first_line) for s in split_large_files([path], slice_bytes=100)]
[(0, 101, 1), (101, 101, 3), (202, 101, 5)]
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import BinaryIO

import orjson

from agui_notebook._errors import SourceError
from agui_notebook.wire._reader import BOM

from ._span_input import is_otlp_json

__all__ = ["MIN_SPLIT_BYTES", "SLICE_BYTES", "FileSlice", "piece_size", "split_large_files"]

SLICE_BYTES = 64 << 20
"""Logs larger than this are cut into slices of about this size (a slice ends where a run starts)."""

MIN_SPLIT_BYTES = 8 << 20
"""Logs from this size on are cut for the workers even when smaller than a slice (a smaller one is read alone)."""

_COUNT_BYTES = 8 << 20
_RUN_STARTS = (b'"RUN_STARTED"', b'"start"')


class FileSlice(os.PathLike[str]):
    """Bytes ``start`` to ``start + length`` of the JSONL log ``path``, whose first line is ``first_line``."""

    __slots__ = ("first_line", "length", "path", "start")

    def __init__(self, path: str, start: int, length: int, first_line: int) -> None:
        self.path = path
        self.start = start
        self.length = length
        self.first_line = first_line

    def __fspath__(self) -> str:
        return self.path

    def __reduce__(self) -> tuple[type[FileSlice], tuple[str, int, int, int]]:
        return FileSlice, (self.path, self.start, self.length, self.first_line)

    def __repr__(self) -> str:
        return f"FileSlice({self.path!r}, start={self.start}, length={self.length}, first_line={self.first_line})"

    def read(self) -> bytes:
        """The slice's bytes."""
        with open(self.path, "rb") as handle:
            data = os.pread(handle.fileno(), self.length, self.start)
        if len(data) < self.length:
            raise SourceError(f"{self.path!r} got shorter while it was being read", path=self.path)
        return data


def split_large_files(
    paths: list[str], slice_bytes: int | None = None, *, workers: int = 1
) -> list[str | FileSlice]:
    """``paths`` with each plain JSONL log larger than ``slice_bytes`` (:data:`SLICE_BYTES`) replaced by its
    slices, in order.

    With fewer files than ``workers``, a log of at least ``MIN_SPLIT_BYTES`` is cut into at least ``workers``
    slices of about equal size, so that one large log keeps every worker busy.
    """
    slice_bytes = SLICE_BYTES if slice_bytes is None else slice_bytes
    out: list[str | FileSlice] = []
    for path in paths:
        size = piece_size(path)
        pieces = -(-size // slice_bytes)
        if len(paths) < workers and size >= MIN_SPLIT_BYTES:
            pieces = max(pieces, workers)
        if pieces <= 1 or not _is_plain_jsonl(path):
            out.append(path)
        else:
            out.extend(_slices(path, size, -(-size // pieces)))
    return out


def piece_size(path: str | FileSlice) -> int:
    """The bytes a file or slice holds (0 for a file that cannot be read: its error comes when it is read)."""
    if isinstance(path, FileSlice):
        return path.length
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _is_plain_jsonl(path: str) -> bool:
    """A log whose first value starts a JSON object on its own line (not gzip, SSE, a JSON array or spans)."""
    with open(path, "rb") as handle:
        head = handle.read(4096)
    head = head.removeprefix(BOM).lstrip(b" \t\r\n")
    return head[:1] == b"{" and not is_otlp_json(head)


def _slices(path: str, size: int, slice_bytes: int) -> Iterator[FileSlice]:
    """The slices of ``path``: each ends at the first line past ``slice_bytes`` on which a run starts."""
    start, first_line = 0, 1
    with open(path, "rb") as handle:
        while start < size:
            end = _run_start_after(handle, start + slice_bytes, size)
            yield FileSlice(path, start, end - start, first_line)
            if end >= size:  # the last slice: its lines need no counting
                break
            first_line += _count_lines(handle.fileno(), start, end)
            start = end


def _run_start_after(handle: BinaryIO, offset: int, size: int) -> int:
    """The offset of the first line after ``offset`` that starts a run; ``size`` when none does."""
    if offset >= size:
        return size
    handle.seek(offset)
    handle.readline()  # the rest of the line ``offset`` falls in
    while True:
        line_start = handle.tell()
        line = handle.readline()
        if not line:
            return size
        if any(token in line for token in _RUN_STARTS) and _starts_a_run(line):
            return line_start


def _starts_a_run(line: bytes) -> bool:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    if not isinstance(value, dict):
        return False
    event = value.get("event") if "received_ns" in value else value
    # A subagent's run starts inside its parent's: cutting there would split the parent's run.
    return (
        isinstance(event, dict)
        and event.get("type") in ("RUN_STARTED", "start")
        and not event.get("parentRunId")
    )


def _count_lines(fd: int, start: int, end: int) -> int:
    count = 0
    while start < end:
        block = os.pread(fd, min(_COUNT_BYTES, end - start), start)
        if not block:
            break
        count += block.count(b"\n")
        start += len(block)
    return count
