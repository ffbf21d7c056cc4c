"""A large log file mapped read-only: the ``event`` column reads events back from the file, not from a copy.

The loader reads the mapping front to back and drops the pages behind it from the process as it goes
(``madvise(MADV_DONTNEED)``: they stay in the system's page cache), so a loaded table holds its columns and the
events' places, not the log. A later event cell faults in the page or two it lies in.

A file that changes after the load cannot change what an event cell gives: a CRC-32 of every block
(``BLOCK_BYTES``) is taken as the load reads it, and once the file's size, time or identity differ from the
load's, the blocks an event lies in are checked before it is decoded; a block that differs raises
:class:`SourceError` (load the file again). A log that only grew (a recorder still appending) keeps giving its
events, and so does one replaced by another file (the mapping keeps the old one).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "log.jsonl")
>>> _ = open(path, "wb").write(b'{"type":"RUN_STARTED"}\\n')
>>> mapped = FileMap.open(path)
>>> mapped.ready(5), mapped.data[:22]
(23, b'{"type":"RUN_STARTED"}')
>>> mapped.verify(0, 22)  # unchanged: nothing to check
"""

from __future__ import annotations

import mmap
import os
import zlib

import numpy as np

from agui_notebook._errors import SourceError

__all__ = ["BLOCK_BYTES", "FileMap"]

BLOCK_BYTES = 1 << 20
"""The bytes each CRC-32 covers: what a changed file costs to check per event read (about half a millisecond)."""

_DROP_BEHIND = 4 << 20
"""Pages read in order are dropped once the reader is this far past them (the loader's slices are 1 MiB)."""


class FileMap:
    """A file mapped read-only (``data``), with the CRC-32 of each block as the load read it."""

    __slots__ = ("_dropped", "_stamp", "_summed", "_sums", "data", "path", "size")

    def __init__(self, path: str, data: mmap.mmap, stamp: tuple[int, ...]) -> None:
        self.path = path
        self.data = data
        self.size = len(data)
        self._stamp = stamp
        self._sums = np.zeros(-(-self.size // BLOCK_BYTES), dtype=np.uint32)
        self._summed = 0
        self._dropped = 0

    @classmethod
    def open(cls, path: str) -> FileMap | None:
        """The file mapped; None where it cannot be (no ``madvise``: Windows; an empty file; no descriptors left)."""
        if not hasattr(mmap.mmap, "madvise"):
            return None
        try:
            with open(path, "rb") as handle:
                stat = os.fstat(handle.fileno())
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)  # keeps its own descriptor
        except (OSError, ValueError):  # ValueError: an empty file
            return None
        if hasattr(mmap, "MADV_SEQUENTIAL"):
            data.madvise(mmap.MADV_SEQUENTIAL)
        # Checked later by its absolute path: a notebook's working folder may change.
        return cls(os.path.abspath(path), data, _stamp(stat))

    def ready(self, count: int) -> int:
        """Take the sums of the blocks up to byte ``count`` and drop the pages well behind it; the whole file is
        there (the reader's ``ready``)."""
        target = min(count, self.size)
        if self._summed < target:
            with memoryview(self.data) as view:
                while self._summed < target:
                    end = min(self._summed + BLOCK_BYTES, self.size)
                    self._sums[self._summed // BLOCK_BYTES] = zlib.crc32(view[self._summed : end])
                    self._summed = end
        behind = (target - _DROP_BEHIND) // mmap.PAGESIZE * mmap.PAGESIZE
        if behind > self._dropped:
            self.data.madvise(mmap.MADV_DONTNEED, self._dropped, behind - self._dropped)
            self._dropped = behind
        return self.size

    def loaded(self) -> None:
        """The load is over: every block summed, every page dropped."""
        self.ready(self.size)
        self.drop()
        if hasattr(mmap, "MADV_NORMAL"):
            self.data.madvise(mmap.MADV_NORMAL)

    def drop(self, start: int = 0, end: int | None = None) -> None:
        """Drop the pages of bytes ``start`` to ``end`` (all) from the process; they are read again from the page
        cache when needed."""
        start = start // mmap.PAGESIZE * mmap.PAGESIZE
        end = self.size if end is None else min(end, self.size)
        if end > start:
            self.data.madvise(mmap.MADV_DONTNEED, start, end - start)

    def verify(self, start: int | np.ndarray, end: int | np.ndarray) -> None:
        """Raise :class:`SourceError` unless bytes ``start`` to ``end`` (or each such pair) are those the load read."""
        try:
            unchanged = _stamp(os.stat(self.path)) == self._stamp
        except OSError:
            unchanged = False
        if unchanged:
            return
        starts = np.atleast_1d(np.asarray(start, dtype=np.int64))
        ends = np.maximum(np.atleast_1d(np.asarray(end, dtype=np.int64)), starts + 1)
        covered = np.zeros(len(self._sums) + 1, dtype=np.int64)
        np.add.at(covered, starts // BLOCK_BYTES, 1)
        np.add.at(covered, (ends - 1) // BLOCK_BYTES + 1, -1)
        blocks = np.flatnonzero(np.cumsum(covered[:-1]) > 0)
        if not len(blocks):
            return
        # The mapped file's size now: reading a page past its end would kill the process.
        try:
            available = self.data.size()
        except OSError:
            available = 0
        if available < min(self.size, (int(blocks[-1]) + 1) * BLOCK_BYTES):
            raise self._changed()
        with memoryview(self.data) as view:
            for block in blocks.tolist():
                at = block * BLOCK_BYTES
                if zlib.crc32(view[at : min(at + BLOCK_BYTES, self.size)]) != int(self._sums[block]):
                    raise self._changed()

    def _changed(self) -> SourceError:
        return SourceError(
            f"{self.path!r} changed since it was loaded: its events can no longer be read from it (load it again)",
            path=self.path,
        )


def _stamp(stat: os.stat_result) -> tuple[int, ...]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
