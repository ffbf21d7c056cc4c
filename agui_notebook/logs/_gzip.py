"""Gzip-compressed logs, decompressed as they are read into one buffer of the log's decompressed size.

A ``.gz`` log is told by its first two bytes (whatever its name). It is read 1 MB of compressed bytes at a
time and decompressed straight into anonymous memory sized by the size the gzip trailer records, so the
decompressed log is held once (no list of pieces joined at the end, no compressed copy of the whole file).
Concatenated members (``gzip -c part >> log.gz``) are one log; the trailer then records only the last
member's size and the buffer grows as needed.

>>> import gzip
>>> data, problem = gunzip(io.BytesIO(gzip.compress(b'{"type":"RUN_STARTED"}\\n')), size_hint=23)
>>> data[:], problem
(b'{"type":"RUN_STARTED"}\\n', None)
"""

from __future__ import annotations

import io
import mmap
import os
import zlib
from typing import BinaryIO

from agui_notebook.wire._reader import GZIP_MAGIC

__all__ = ["GZIP_MAGIC", "gunzip", "gunzip_bytes", "gunzip_path", "gzip_size_hint", "is_gzip"]

_READ_BYTES = 1 << 20
_OUT_BYTES = 8 << 20
"""At most this much decompressed output per call, so a small input of highly compressed text stays bounded."""
_MAX_RATIO = 1032
"""Deflate expands at most about 1032 times: caps a trailer's size claim (a corrupt one could claim 4 GB)."""


def is_gzip(head: bytes) -> bool:
    """Whether bytes start a gzip stream."""
    return head[:2] == GZIP_MAGIC


def gzip_size_hint(handle: BinaryIO, compressed_size: int) -> int:
    """The decompressed size the gzip trailer records (exact for one member under 4 GB); leaves ``handle`` at 0."""
    if compressed_size < 18:  # header (10) + trailer (8)
        return 0
    handle.seek(compressed_size - 4)
    recorded = int.from_bytes(handle.read(4), "little")
    handle.seek(0)
    return min(recorded, compressed_size * _MAX_RATIO)


class _Output:
    """Anonymous memory filled front to back, grown (doubling) when the size hint was short, then trimmed."""

    __slots__ = ("buffer", "filled")

    def __init__(self, size: int) -> None:
        self.buffer = mmap.mmap(-1, max(size, 1))
        self.filled = 0

    def write(self, data: bytes) -> None:
        end = self.filled + len(data)
        if end > len(self.buffer):
            # A new map and one copy: growing shared anonymous memory in place (mremap) faults on access.
            grown = mmap.mmap(-1, max(end, 2 * len(self.buffer)))
            grown[: self.filled] = self.buffer[: self.filled]
            self.buffer.close()
            self.buffer = grown
        self.buffer[self.filled : end] = data
        self.filled = end

    def _shrink(self) -> None:
        try:
            self.buffer.resize(self.filled)
        except (OSError, SystemError, ValueError):  # a platform without mremap: a map of the exact size
            exact = mmap.mmap(-1, self.filled)
            exact[:] = self.buffer[: self.filled]
            self.buffer.close()
            self.buffer = exact

    def result(self) -> mmap.mmap | bytes:
        if not self.filled:
            self.buffer.close()
            return b""
        if self.filled != len(self.buffer):
            self._shrink()
        return self.buffer


def gunzip(handle: BinaryIO, size_hint: int) -> tuple[mmap.mmap | bytes, str | None]:
    """The decompressed bytes of a gzip stream, and what was wrong with it (None when nothing was).

    A stream cut short or broken gives the bytes decompressed before the problem, and the problem.
    """
    out = _Output(size_hint)
    decompressor = None  # None between members
    problem = None
    chunk = b""
    try:
        while True:
            if not chunk:
                chunk = handle.read(_READ_BYTES)
                if not chunk:
                    break
            if decompressor is None:
                chunk = chunk.lstrip(b"\0")  # zero padding after a member (block-oriented tools)
                if not chunk:
                    continue
                if len(chunk) < 2:
                    chunk += handle.read(1)
                if not is_gzip(chunk):
                    problem = "not readable gzip data (bytes that start no gzip member follow a member)"
                    break
                decompressor = zlib.decompressobj(wbits=31)
            out.write(decompressor.decompress(chunk, _OUT_BYTES))
            if decompressor.eof:
                chunk = decompressor.unused_data
                decompressor = None
            else:
                chunk = decompressor.unconsumed_tail
        if problem is None and decompressor is not None:
            out.write(decompressor.flush())
            if not decompressor.eof:
                problem = "the gzip data ends early: the file is cut short (or still being written)"
    except zlib.error as exc:
        problem = f"not readable gzip data ({exc})"
    return out.result(), problem


def gunzip_path(path: str | os.PathLike[str]) -> tuple[mmap.mmap | bytes, str | None]:
    """:func:`gunzip` of a file."""
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        return gunzip(handle, gzip_size_hint(handle, size))


def gunzip_bytes(data: bytes) -> tuple[mmap.mmap | bytes, str | None]:
    """:func:`gunzip` of bytes in memory."""
    handle = io.BytesIO(data)
    return gunzip(handle, gzip_size_hint(handle, len(data)))
