"""A log file read into memory by a background thread while the loader decodes what has already arrived.

Large logs are read from their mapping (``_file_map``); this is for those that cannot be mapped (no
``madvise``: Windows; no file descriptors left).

Copying a large file out of the page cache takes about a tenth of a load; the copy runs on another core (file
reads release the GIL) so the decoding does not wait for it. The buffer is anonymous memory from ``mmap``
(not a mapping of the file, which would change under the table if the file did): its pages are zeroed by the
kernel as the reading thread first writes them, not up front by the loading thread as a ``bytearray``'s are.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "log.jsonl")
>>> _ = open(path, "wb").write(b'{"type":"RUN_STARTED"}\\n')
>>> buffer = FileBuffer(path)
>>> buffer.ready(5), buffer.data[:]
(23, b'{"type":"RUN_STARTED"}\\n')
"""

from __future__ import annotations

import io
import mmap
import os
import threading

from agui_notebook._errors import SourceError
from agui_notebook.wire._reader import unreadable

__all__ = ["FileBuffer"]

_CHUNK_BYTES = 4 << 20


class FileBuffer:
    """The bytes of one file in anonymous memory of its size, filled front to back by a daemon thread.

    ``data`` supports what the readers use of ``bytes`` (``len``, indexing, slicing to ``bytes``, ``find``,
    the buffer protocol); a file of zero bytes gets an empty ``bytes``.
    """

    __slots__ = ("_condition", "_error", "_filled", "data", "path")

    def __init__(self, path: str) -> None:
        self.path = path
        handle = open(path, "rb", buffering=0)  # noqa: SIM115 - closed by the reading thread
        try:
            size = os.fstat(handle.fileno()).st_size
            self.data: mmap.mmap | bytes = mmap.mmap(-1, size) if size else b""
        except BaseException:
            handle.close()
            raise
        self._filled = 0
        self._error: BaseException | None = None
        self._condition = threading.Condition()
        threading.Thread(
            target=self._read, args=(handle,), name="agui-notebook log reader", daemon=True
        ).start()

    def _read(self, handle: io.FileIO) -> None:
        view = memoryview(self.data)
        size = len(view)
        position = 0
        try:
            with handle:
                while position < size:
                    count = handle.readinto(view[position : position + _CHUNK_BYTES])
                    if not count:
                        raise SourceError(
                            f"{self.path!r} got shorter while it was being read", path=self.path
                        )
                    position += count
                    with self._condition:
                        self._filled = position
                        self._condition.notify_all()
        except BaseException as exc:  # handed to the loading thread, which raises it
            with self._condition:
                self._error = exc
                self._condition.notify_all()
        finally:
            view.release()

    def ready(self, count: int) -> int:
        """Wait until the first ``count`` bytes (at most the file's size) have arrived; return how many have."""
        target = min(count, len(self.data))
        with self._condition:
            while self._filled < target and self._error is None:
                self._condition.wait(0.5)
            if self._filled < target and self._error is not None:
                error = self._error
                raise unreadable(self.path, error) if isinstance(error, OSError) else error
            return self._filled
