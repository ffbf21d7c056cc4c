"""Where a chat's records live: a JSONL log on disk (the recorder's format), or nowhere but memory.

One log holds every thread of a chat. A line belongs to the thread the last ``thread`` record before it named
(``new``, ``switch`` or ``continue``: a thread not shown writing the end of its run); a ``rename`` belongs to the
thread it names; lines before any ``thread`` record belong to the log's first thread (a plain recorder log opened
as a chat is one thread). The thread to show when the log opens is the last one a ``new`` or ``switch`` named. Each record is written with one ``write`` and
flushed, so a kernel killed mid-stream leaves every line but perhaps the last whole: opening the log drops a torn
last line (a warning says so, once) and cuts the file back to its last whole line, so the next record starts
on a line of its own. A line in the middle that is not JSON is skipped with a warning and left in the file.

Two kernels must not write one log: the first to open it holds an advisory lock (``<log>.lock``, released when its
process ends); another kernel opening it gets it read-only. Deleting a thread rewrites the log without its lines
(write to a temporary file, then replace), so its messages and events are gone from the file.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "chat.jsonl"
>>> log = ChatLog(path)
>>> _ = log.append("t1", {"received_ns": 1, "event": {"type": "CUSTOM", "name": "agui-notebook/thread",
...             "value": {"action": "new", "threadId": "t1"}}})
>>> log.close()
>>> reopened = ChatLog(path)
>>> [t.id for t in reopened.threads], len(reopened.records("t1"))
(['t1'], 1)
"""

from __future__ import annotations

import contextlib
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson

from agui_notebook._errors import ChatLogError, ChatStateError, EventLogWarning, warn
from agui_notebook.chat._recorder import RecordedEvent
from agui_notebook.chat._records import chat_record, record_kind
from agui_notebook.wire._json import decode_json, encode_json
from agui_notebook.wire._records import is_recorded

LOCK_SUFFIX = ".lock"
"""A log's lock file is the log's name and this (``trip.jsonl.lock``); ``load_events`` of a folder passes over it."""

try:  # POSIX; elsewhere a log is not locked (two kernels on one log are the user's to avoid)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["ChatLog", "ThreadLines", "encode_record"]


def encode_record(entry: RecordedEvent) -> bytes:
    """One log line (with its newline): orjson's bytes, or the JSON-as-JavaScript writer's for what orjson
    refuses (a lone surrogate, an integer beyond 64 bits)."""
    try:
        return orjson.dumps(entry) + b"\n"
    except (TypeError, orjson.JSONEncodeError):
        return encode_json(entry).encode() + b"\n"


def _decoded(raw: bytes) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return decode_json(raw)  # JSON.parse's reading of what orjson refuses, or its error


@dataclass
class ThreadLines:
    """A thread's lines of the log: its records, and what the thread list shows of it."""

    id: str
    records: list[RecordedEvent] = field(default_factory=list)
    title: str | None = None
    """The title a ``rename`` record gave it (None: named by its first question)."""
    bytes: int = 0
    first_question: str | None = None

    @property
    def updated_ns(self) -> int:
        for record in reversed(self.records):
            ns = record.get("received_ns")
            if type(ns) is int:
                return ns
        return 0

    @property
    def turns(self) -> int:
        return sum(1 for r in self.records if record_kind(r["event"]) == "send")


_OWNING = ("new", "switch", "continue")
"""The ``thread`` actions after which the lines belong to the thread they name."""
_SHOWING = ("new", "switch")
"""The ``thread`` actions that make their thread the one shown."""


def _thread_action(event: Any) -> tuple[str, str] | None:
    """``(action, thread id)`` of a ``thread`` record, else None."""
    if record_kind(event) != "thread":
        return None
    value = event["value"]
    action, thread_id = value.get("action"), value.get("threadId")
    if type(action) is str and type(thread_id) is str and thread_id:
        return action, thread_id
    return None


def _implicit_thread(records: list[RecordedEvent], path: Path | None) -> str:
    """The id of the thread of lines written before any ``thread`` record: the first run's thread id, else one
    made from the file's name (stable across opens: appended lines come later)."""
    for record in records:
        event = record["event"]
        if type(event) is dict and type(event.get("threadId")) is str and event["threadId"]:
            return event["threadId"]
    return f"log-{path.stem}" if path is not None else uuid.uuid4().hex


class ChatLog:
    """The records of every thread of one chat, and the file they are appended to (``path=None``: memory only)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = None if path is None else Path(path)
        self.read_only = False
        """True when another process holds the log: nothing is written, the chat refuses changes."""
        self._file: IO[bytes] | None = None
        self._lock: IO[bytes] | None = None
        self._threads: dict[str, ThreadLines] = {}
        self._current: str | None = None
        self._owner: str | None = None  # the thread the last line written belongs to
        self._implicit: str | None = None  # the thread of the lines written before any ``thread`` record
        self._deferred: list[bytes] = []
        if self.path is not None and self.path.exists():
            self._take_lock()  # an existing log is held (or found held) from the start
            self._read()

    # ------------------------------------------------------------------------------------------ reading
    @property
    def threads(self) -> list[ThreadLines]:
        """The threads in the order they were first written."""
        return list(self._threads.values())

    @property
    def current(self) -> str | None:
        """The thread the log's last ``thread`` record switched to (the one to show when the log opens)."""
        return self._current

    def records(self, thread_id: str) -> list[RecordedEvent]:
        lines = self._threads.get(thread_id)
        return lines.records if lines is not None else []

    def _read(self) -> None:
        assert self.path is not None
        where = str(self.path)
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise ChatLogError(f"{where}: cannot read the chat log ({exc.strerror or exc})") from None
        if self.path.is_dir():
            raise ChatLogError(f"{where}: a folder, not a chat log")
        end = data.rfind(b"\n") + 1
        tail = data[end:]
        lines = data[:end].split(b"\n")[:-1]
        torn = False
        if tail.strip():
            try:
                value = _decoded(tail)
                if not is_recorded(value):
                    raise ValueError
                lines.append(tail)
                self._repair(end, tail + b"\n")  # whole, only its newline lost: put it back
            except ValueError:
                torn = True
                self._repair(end, b"")
        elif tail:
            self._repair(end, b"")
        bad: list[int] = []
        records: list[tuple[RecordedEvent, int]] = []
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                value = _decoded(raw)
            except ValueError:
                bad.append(number)
                continue
            if not is_recorded(value) or type(value.get("event")) is not dict:
                bad.append(number)
                continue
            records.append((value, len(raw) + 1))
        if torn:
            shown = tail[:80].decode("utf-8", "replace")
            warn(
                f"{where}: the last line was cut off ({len(tail)} bytes: {shown!r}…), most likely by a kernel "
                "that stopped mid-write; it is dropped and the log goes on from the line before",
                EventLogWarning,
            )
        if bad:
            listed = ", ".join(map(str, bad[:5])) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
            warn(
                f"{where}: skipped {len(bad)} lines that are not recorder records (line {listed})",
                EventLogWarning,
            )
        self._attribute(records)

    def _repair(self, end: int, rest: bytes) -> None:
        """Cut the file back to its last whole line (then append ``rest``), unless another process holds it."""
        assert self.path is not None
        if not self._take_lock():
            return
        with open(self.path, "r+b") as file:
            file.truncate(end)
            if rest:
                file.seek(end)
                file.write(rest)

    def _attribute(self, records: list[tuple[RecordedEvent, int]]) -> None:
        """Give every record to its thread (see the module docstring)."""
        implicit: list[tuple[RecordedEvent, int]] = []
        current: str | None = None
        for record, size in records:
            event = record["event"]
            action = _thread_action(event)
            if action is not None:
                kind, thread_id = action
                target = self._lines(thread_id)
                if kind in _OWNING:
                    current = thread_id
                if kind in _SHOWING:
                    self._current = thread_id
                if kind == "rename":
                    title = event["value"].get("title")
                    target.title = title if isinstance(title, str) and title else None
                target.records.append(record)
                target.bytes += size
                continue
            if current is None:
                implicit.append((record, size))
                continue
            lines = self._threads[current]
            lines.records.append(record)
            lines.bytes += size
        if implicit:
            thread_id = _implicit_thread([r for r, _ in implicit], self.path)
            lines = ThreadLines(thread_id)
            lines.records = [r for r, _ in implicit] + self.records(thread_id)
            lines.bytes = sum(s for _, s in implicit) + (
                self._threads[thread_id].bytes if thread_id in self._threads else 0
            )
            self._threads = {thread_id: lines, **{k: v for k, v in self._threads.items() if k != thread_id}}
            self._implicit = thread_id
            if self._current is None:
                self._current = thread_id
        self._owner = current

    def _lines(self, thread_id: str) -> ThreadLines:
        lines = self._threads.get(thread_id)
        if lines is None:
            lines = self._threads[thread_id] = ThreadLines(thread_id)
        return lines

    # ------------------------------------------------------------------------------------------ writing
    def _take_lock(self) -> bool:
        """Hold the log's lock (True), or find it held by another process (False: read-only from now on)."""
        if self.path is None or self._lock is not None:
            return True
        if self.read_only:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(self.path.with_name(self.path.name + LOCK_SUFFIX), "ab")  # noqa: SIM115 - held while open
        if fcntl is not None:
            try:
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                lock.close()
                self.read_only = True
                warn(
                    f"{self.path}: the chat log is open in another kernel; it is read-only here "
                    "(close that chat, or its kernel, to write to it)",
                    EventLogWarning,
                )
                return False
        self._lock = lock
        return True

    def append(self, thread_id: str, entry: RecordedEvent, *, deferred: bool = False) -> list[RecordedEvent]:
        """Write ``entry`` of thread ``thread_id`` as one line (flushed at once); a ``continue`` record goes first
        when the last line was another thread's. A ``deferred`` entry waits for the next one that is not: a chat
        nobody used leaves no file behind. Returns the records written before it (a ``continue``)."""
        event = entry["event"]
        action = _thread_action(event)
        if action is not None and action[0] in _SHOWING:
            self._current = action[1]
        before: list[RecordedEvent] = []
        if action is None and thread_id != self._owner:
            value = {"action": "continue", "threadId": thread_id}
            before.append({"received_ns": entry["received_ns"], "event": chat_record("thread", value)})
        if action is None or action[0] in _OWNING:
            self._owner = thread_id
        lines = [encode_record(record) for record in (*before, entry)]
        self._lines(thread_id).bytes += sum(len(line) for line in lines)
        if self.path is not None:
            if deferred:
                self._deferred.extend(lines)
            else:
                self._write(b"".join(lines))
        return before

    def _write(self, line: bytes) -> None:
        if self._file is None:
            if not self._take_lock():
                raise ChatStateError(f"{self.path}: the chat log is open in another kernel (read-only here)")
            assert self.path is not None
            self._file = open(self.path, "ab")  # noqa: SIM115 - kept open across records
        if self._deferred:
            self._file.write(b"".join(self._deferred))
            self._deferred.clear()
        self._file.write(line)
        self._file.flush()

    def delete_thread(self, thread_id: str) -> None:
        """Remove the thread and, for a log on disk, every line of it from the file."""
        self._threads.pop(thread_id, None)
        if self.path is None or not self.path.exists():
            return
        if not self._take_lock():
            raise ChatStateError(f"{self.path}: the chat log is open in another kernel (read-only here)")
        if self._file is not None:
            self._file.close()
            self._file = None
        kept = self._lines_without(thread_id)
        temporary = self.path.with_name(self.path.name + ".tmp")
        with open(temporary, "wb") as file:
            file.write(b"".join(kept))
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.path)

    def _lines_without(self, thread_id: str) -> list[bytes]:
        """The log's lines (as bytes) but those of ``thread_id``, attributed as ``_attribute`` does."""
        assert self.path is not None
        kept = []
        current: str | None = None
        for raw in self.path.read_bytes().splitlines(keepends=True):
            try:
                value = _decoded(raw)
            except ValueError:
                kept.append(raw)
                continue
            event = value.get("event") if isinstance(value, dict) else None
            action = _thread_action(event)
            owner = current if current is not None else self._implicit
            if action is not None:
                owner = action[1]
                if action[0] in _OWNING:
                    current = action[1]
            if owner != thread_id:
                kept.append(raw)
        return kept

    def close(self) -> None:
        """Close the file and give up the lock (a later write opens and locks it again)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._lock is not None:
            with contextlib.suppress(OSError):
                if fcntl is not None:
                    fcntl.flock(self._lock.fileno(), fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def __repr__(self) -> str:
        where = "memory" if self.path is None else str(self.path)
        return f"ChatLog({where}, threads={len(self._threads)}{', read-only' if self.read_only else ''})"
