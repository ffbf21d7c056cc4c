"""The one reader of wire text: JSON, JSONL and SSE, whole or in slices cut anywhere, into frames.

A *frame* is one JSON object read from the text (an AG-UI event or an AI SDK chunk), with the 1-based line it
starts on and, for a recorder record, its receive time; or the reason a line could not be read. The rules, each
written here once:

- **Lines** end at ``\\n``, ``\\r\\n`` or ``\\r`` (as SSE defines them). A line whose first non-blank character is
  ``{`` or ``[`` is a JSON value; when a text's first value is an array, its elements are the frames. ``data:``, ``event:``, ``id:``,
  ``retry:`` and ``:`` (comment) lines are SSE fields; the ``data:`` lines of an event (up to a blank line) are
  joined with ``\\n`` and read as one JSON value. ``data: [DONE]`` is skipped, as the AI SDK does. Any other line
  is reported.
- **A JSON document may span lines** only as the first value of a text (a pretty-printed array or object);
  every later line stands alone, so one broken line never swallows the lines after it.
- **BOM**: one UTF-8 byte-order mark at the very start is skipped (browsers' ``TextDecoder`` does the same).
- **Numbers** are read as ``JSON.parse`` reads them (:func:`~agui_notebook.wire._json.decode_json`).
- **Slices**: bytes and text may be cut anywhere, even inside a UTF-8 sequence or a ``\\r\\n``. A slice that ends
  with a complete JSON object (or a ``data:`` line holding one) completes its line without waiting for the line
  break, so streams of whole JSON texts or SSE lines (as ``aiter_lines()`` yields them) are read as they come.
- **Recorder records** (``{"received_ns": ..., "event": {...}}``) are unwrapped into their event and time.
- **Gzip**: a whole source (bytes, a path, an open file) that starts with gzip's two magic bytes is read
  decompressed, every member in turn (``gzip -c part >> run.jsonl.gz`` is one log), as ``load_events`` reads it.

>>> reader = WireReader()
>>> frames = reader.feed(b'data: {"type":"RUN_STA') + reader.feed(b'RTED"}\\n\\n{"type":"X"}\\n') + reader.close()
>>> [(f.line, f.value) for f in frames]
[(1, {'type': 'RUN_STARTED'}), (3, {'type': 'X'})]
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from agui_notebook._errors import (
    EventParseError,
    InputTypeError,
    SourceError,
    SourceFolderError,
    SourceNotFoundError,
)
from agui_notebook._shown import json_kind

from ._json import JSONDecodeError, decode_json, json_error_text
from ._records import is_recorded, recorded_time

__all__ = [
    "BOM",
    "GZIP_MAGIC",
    "ITEMS_SOURCE",
    "TEXT_SOURCE",
    "UNFINISHED_LAST_LINE",
    "Frame",
    "WireReader",
    "aiter_frames",
    "frame_of_value",
    "iter_frames",
    "looks_like_text",
    "missing_path",
    "read_text_source",
    "text_frames",
    "unreadable",
    "whole_jsonl_values",
]

BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark, skipped once at the start of a text."""

GZIP_MAGIC = b"\x1f\x8b"
"""How gzip data starts (RFC 1952); no JSON, JSONL or SSE text can start so."""

TEXT_SOURCE = "<text>"
"""The source name of text or bytes given directly (a path's name is the path)."""

ITEMS_SOURCE = "<events>"
"""The source name of an iterable of events or text slices."""

UNFINISHED_LAST_LINE = "; it is the last line and has no newline: is the log still being written?"
"""Added to the error of a text's last line when no line break ends it (a recorder may still be writing it)."""

SSE_FIELDS = (b"data:", b"event:", b"id:", b"retry:", b":")
"""How an SSE line starts (``:`` opens a comment)."""

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_DONE = b"[DONE]"
_SWALLOW_BREAK, _SWALLOW_LF = 1, 2
_JSON_HEADS = frozenset(bytes([c]) for c in b'{["-0123456789')


@dataclass(slots=True)
class Frame:
    """One JSON object read from the wire, or why a line could not be read.

    ``line`` is the 1-based line the value starts on (``None`` for an object given as an item), ``value`` the
    object (``None`` when ``error`` is set), ``received_ns`` a recorder record's receive time.
    """

    line: int | None
    value: Any
    error: str | None = None
    received_ns: int | None = None


def frame_of_value(value: Any, line: int | None) -> Frame:
    """The frame of one decoded value: an object as it is, a recorder record unwrapped, anything else reported.

    >>> frame_of_value({"received_ns": 7, "event": {"type": "X"}}, 3)
    Frame(line=3, value={'type': 'X'}, error=None, received_ns=7)
    >>> frame_of_value([1], 4).error
    'expected a JSON object, got an array'
    """
    if type(value) is dict:
        if is_recorded(value):
            event = value["event"]
            if type(event) is not dict:
                return Frame(line, None, f"recorded event is {json_kind(event)}, not an object")
            return Frame(line, event, None, recorded_time(value))
        return Frame(line, value)
    return Frame(line, None, f"expected a JSON object, got {json_kind(value)}")


def _depth(line: bytes) -> int | None:
    """How many brackets a line leaves open (strings skipped); None when a string is left open (not JSON)."""
    bare = _STRINGS.sub(b"", line)
    if b'"' in bare:
        return None
    return bare.count(b"{") + bare.count(b"[") - bare.count(b"}") - bare.count(b"]")


class WireReader:
    """Incremental reader: ``feed`` slices of bytes or text, then ``close``; each returns the frames completed.

    The same frames come out however the text is cut (see the module docstring for the rules).
    """

    __slots__ = (
        "_data",
        "_data_line",
        "_document",
        "_document_depth",
        "_line",
        "_pending",
        "_recognized",
        "_rejected",
        "_seen_value",
        "_started",
        "_swallow_break",
    )

    def __init__(self, *, first_line: int = 1, start_of_text: bool = True) -> None:
        """``first_line`` numbers the first line; ``start_of_text=False`` reads a slice from inside a text
        (a log read in slices): no BOM is looked for and no value may span lines."""
        self._pending = b""  # the text after the last line break
        self._line = first_line - 1  # lines completed so far
        self._started = not start_of_text  # past a possible BOM
        self._swallow_break = 0  # a line completed early: its line break (or the \n of \r\n) may still arrive
        self._data: list[bytes] = []  # the data lines of the SSE event being read
        self._data_line = 0
        self._document: list[bytes] | None = None  # the lines of a first JSON value spanning lines
        self._document_depth = 0
        self._seen_value = (
            not start_of_text
        )  # a JSON line has been read (only the first value may span lines)
        self._recognized = False  # a JSON or SSE line has been read
        self._rejected = False  # the text does not start as JSON or SSE: said once, the rest is not read

    @property
    def line(self) -> int:
        """How many lines have been completed."""
        return self._line

    def feed(self, piece: bytes | bytearray | memoryview | str) -> list[Frame]:
        """Read the next slice of the text; returns the frames it completes."""
        data = piece.encode("utf-8", "surrogatepass") if isinstance(piece, str) else bytes(piece)
        if not data:
            return []
        if not self._started:
            data = self._pending + data
            self._pending = b""
            if len(data) < len(BOM) and BOM.startswith(data):
                self._pending = data  # too short to tell a BOM from text
                return []
            self._started = True
            if data.startswith(BOM):
                data = data[len(BOM) :]
        if self._swallow_break:
            data = self._after_early_line(data)
            if not data:
                return []
        frames: list[Frame] = []
        text = self._pending + data if self._pending else data
        if b"\r" in text:
            if text.endswith(b"\r"):  # it may be the first half of \r\n
                lines = _LINE_BREAK.split(text[:-1])
                lines[-1] += b"\r"
            else:
                lines = _LINE_BREAK.split(text)
        else:
            lines = text.split(b"\n")
        self._pending = lines.pop()
        for line in lines:
            self._line += 1
            self._read_line(line, frames)
        if self._pending and self._complete_early(frames):
            self._pending = b""
        return frames

    def close(self) -> list[Frame]:
        """End the text: read its last line (no line break needed) and anything still open."""
        frames: list[Frame] = []
        rest = self._pending
        self._pending = b""
        if not self._started and BOM.startswith(rest):
            rest = b""
        if rest.endswith(b"\r"):
            rest = rest[:-1]
        if rest:
            self._line += 1
            self._read_line(rest, frames, last=True)
        if self._document is not None:
            self._reread_document(frames, unfinished=bool(rest.strip()))
        self._dispatch(frames)
        return frames

    # -- lines -------------------------------------------------------------------------------------------------

    def _read_line(self, line: bytes, frames: list[Frame], last: bool = False) -> None:
        if self._document is not None:
            self._continue_document(line, frames)
            return
        if self._rejected:
            return
        head = line.lstrip()[:1]
        if head in _JSON_HEADS:
            self._recognized = True
            self._read_json_line(line, self._line, frames, last)
        elif not line.strip(b" \t"):
            self._dispatch(frames)
        elif line.startswith(SSE_FIELDS):
            self._recognized = True
            if line.startswith(b"data:"):
                self._data_line = self._data_line or self._line
                self._data.append(_data_value(line))
                self._dispatch_if_whole(frames)
        elif line == b"data":  # a field with no colon has an empty value
            self._data_line = self._data_line or self._line
            self._data.append(b"")
        else:
            head_text = line.strip()[:8].decode("utf-8", "replace")
            frames.append(Frame(self._line, None, f"not JSON, JSONL or SSE (starts with {head_text!r})"))
            self._rejected = not self._recognized

    def _read_json_line(self, line: bytes, number: int, frames: list[Frame], last: bool) -> None:
        try:
            value = decode_json(line)
        except JSONDecodeError as exc:
            if not self._seen_value and not last:
                depth = _depth(line)
                if depth is not None and depth > 0:  # the first value may span lines (pretty-printed)
                    self._document = [line]
                    self._document_depth = depth
                    self._data_line = 0
                    return
            self._seen_value = True
            frames.append(Frame(number, None, json_error_text(exc) + (UNFINISHED_LAST_LINE if last else "")))
            return
        first = not self._seen_value
        self._seen_value = True
        self._emit(value, number, frames, first)

    def _emit(self, value: Any, line: int, frames: list[Frame], first: bool) -> None:
        if first and type(value) is list:  # a JSON-array text: one frame per element
            frames.extend(frame_of_value(item, line) for item in value)
        else:
            frames.append(frame_of_value(value, line))

    def _continue_document(self, line: bytes, frames: list[Frame]) -> None:
        document = self._document
        assert document is not None
        document.append(line)
        depth = _depth(line)
        if depth is None:
            self._reread_document(frames)
            return
        self._document_depth += depth
        if self._document_depth > 0:
            return
        try:
            value = decode_json(b"\n".join(document))
        except JSONDecodeError:
            self._reread_document(frames)
            return
        self._document = None
        self._seen_value = True
        self._emit(value, self._line - len(document) + 1, frames, True)

    def _reread_document(self, frames: list[Frame], unfinished: bool = False) -> None:
        """The lines thought to be one document are not: read each on its own, reporting the bad ones."""
        document = self._document or []
        self._document = None
        self._seen_value = True
        first = self._line - len(document) + 1
        for offset, line in enumerate(document):
            if not line.strip():
                continue
            last = unfinished and offset == len(document) - 1
            if line.lstrip()[:1] in _JSON_HEADS:
                self._read_json_line(line, first + offset, frames, last)
            else:
                saved, self._line = self._line, first + offset
                self._read_line(line, frames, last)
                self._line = saved

    # -- SSE events --------------------------------------------------------------------------------------------

    def _dispatch(self, frames: list[Frame]) -> None:
        if not self._data:
            return
        payload = b"\n".join(self._data)
        line = self._data_line
        self._data = []
        self._data_line = 0
        if not payload or payload.strip() == _DONE:
            return
        try:
            value = decode_json(payload)
        except JSONDecodeError as exc:
            frames.append(Frame(line, None, json_error_text(exc)))
            return
        if type(value) is list:  # an SSE event carries one object; only JSON lines may hold arrays
            frames.append(Frame(line, None, f"expected a JSON object, got {json_kind(value)}"))
        else:
            frames.append(frame_of_value(value, line))

    def _dispatch_if_whole(self, frames: list[Frame]) -> None:
        """Dispatch an event whose data is already a whole object: no later data line could extend it."""
        data = self._data
        payload = data[0] if len(data) == 1 else b"\n".join(data)
        if payload.rstrip()[-1:] != b"}":
            return
        try:
            value = decode_json(payload)
        except JSONDecodeError:
            return
        self._data = []
        self._data_line, line = 0, self._data_line
        frames.append(frame_of_value(value, line))

    # -- slices that end without a line break ------------------------------------------------------------------

    def _complete_early(self, frames: list[Frame]) -> bool:
        """Read the pending line now if it is complete by itself: a whole JSON value or ``data:`` object."""
        pending = self._pending
        if self._document is not None or pending.rstrip()[-1:] not in (b"}", b"]"):
            return False
        if pending.startswith(b"data:"):
            payload = _data_value(pending)
            candidate = b"\n".join([*self._data, payload]) if self._data else payload
        elif pending.lstrip()[:1] in (b"{", b"["):
            candidate = pending
        else:
            return False
        try:
            decode_json(candidate)
        except JSONDecodeError:
            return False
        self._line += 1
        if pending.endswith(b"\r"):  # the line break came already; only its \n half may follow
            self._read_line(pending[:-1], frames)
            self._swallow_break = _SWALLOW_LF
        else:
            self._read_line(pending, frames)
            self._swallow_break = _SWALLOW_BREAK
        return True

    def _after_early_line(self, data: bytes) -> bytes:
        """Drop the blanks and the one line break that end a line already read early."""
        if self._swallow_break == _SWALLOW_LF:
            self._swallow_break = 0
            return data[1:] if data[:1] == b"\n" else data
        stripped = data.lstrip(b" \t")
        if not stripped:
            return b""  # still only blanks: the line break may come in the next slice
        if stripped == b"\r":  # the line break, whose \n half may come in the next slice
            self._swallow_break = _SWALLOW_LF
            return b""
        self._swallow_break = 0
        if stripped.startswith(b"\r\n"):
            return stripped[2:]
        if stripped[:1] in (b"\r", b"\n"):
            return stripped[1:]
        return data


# -- whole texts and sources -----------------------------------------------------------------------------------


def _data_value(line: bytes) -> bytes:
    """The value of a ``data:`` line: what follows the colon, less one leading space (the SSE rule)."""
    value = line[5:]
    return value[1:] if value[:1] == b" " else value


def _first_significant(data: bytes) -> tuple[int, bytes]:
    """Where the first non-blank byte after a BOM is, and the 8 bytes from there."""
    start = len(BOM) if data.startswith(BOM) else 0
    stripped = data[start:].lstrip()
    start = len(data) - len(stripped)
    return start, stripped[:8]


def whole_jsonl_values(data: bytes | str) -> list[Any] | None:
    """Every line of a JSONL text decoded in one tight pass, or ``None`` when any line needs the full reader.

    This is the reader's fast path: when it returns a list, it holds exactly the values :class:`WireReader`
    would read (objects, one per line, blank lines at the end ignored); anything unusual (a blank or broken
    line, an array, a ``\\r`` line break, a BOM) returns ``None``.

    >>> whole_jsonl_values(b'{"type":"A"}\\n{"type":"B"}\\n'), whole_jsonl_values(b'{"type":"A"}\\n\\n{"a":1}')
    ([{'type': 'A'}, {'type': 'B'}], None)
    """
    lines: list[str] | list[bytes]
    if isinstance(data, str):
        if not data.startswith("{") or "\r" in data:
            return None
        lines = data.rstrip().split("\n")
    else:
        if not data.startswith(b"{") or b"\r" in data:
            return None
        lines = data.rstrip().split(b"\n")
    try:
        values = list(map(orjson.loads, lines))
    except ValueError:
        return None
    if values and set(map(type, values)) != {dict}:  # one C-level pass; a generator costs half as much again
        return None
    return values


def text_frames(data: bytes | str) -> Iterator[Frame]:
    """The frames of a whole text (bytes or str): a JSON document, JSONL or SSE.

    >>> [f.value for f in text_frames('[{"type": "A"},\\n {"type": "B"}]')]
    [{'type': 'A'}, {'type': 'B'}]
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    start, head = _first_significant(raw)
    if head[:1] in (b"{", b"["):
        try:
            whole = decode_json(raw[start:])
        except JSONDecodeError:
            pass
        else:  # one document: a pretty-printed array or object, or a one-line JSONL text
            line = raw[:start].count(b"\n") + 1
            if type(whole) is list:
                return iter([frame_of_value(item, line) for item in whole])
            return iter([frame_of_value(whole, line)])
    reader = WireReader()
    return iter(reader.feed(raw) + reader.close())


def iter_frames(items: Iterable[Any]) -> Iterator[Frame]:
    """The frames of an iterable of text slices (bytes or str, cut anywhere); other items pass as they are.

    An item that is neither text nor bytes (an event dict or model) comes out as a frame with ``line=None``
    and the item as its value, for the caller to convert; a recorder record is unwrapped, as in a text.

    >>> [(f.value, f.received_ns) for f in iter_frames([{"received_ns": 7, "event": {"type": "X"}}])]
    [({'type': 'X'}, 7)]
    """
    reader = WireReader()
    for item in items:
        if isinstance(item, (bytes, bytearray, memoryview, str)):
            yield from reader.feed(item)
        else:
            yield _item_frame(item)
    yield from reader.close()


def _item_frame(item: Any) -> Frame:
    return frame_of_value(item, None) if is_recorded(item) else Frame(None, item)


async def aiter_frames(items: AsyncIterable[Any]) -> AsyncIterator[Frame]:
    """Async :func:`iter_frames`, for an HTTP body (``aiter_bytes()``, ``aiter_text()``, ``aiter_lines()``)."""
    if not hasattr(items, "__aiter__"):
        raise InputTypeError(f"cannot read {type(items).__name__} as an async stream (it has no __aiter__)")
    reader = WireReader()
    async for item in items:
        if isinstance(item, (bytes, bytearray, memoryview, str)):
            for frame in reader.feed(item):
                yield frame
        else:
            yield _item_frame(item)
    for frame in reader.close():
        yield frame


# -- what a source is --------------------------------------------------------------------------------------------


def looks_like_text(source: str) -> bool:
    """Whether a ``str`` source is the text itself rather than a path: the one path-vs-text rule.

    Text is empty, has a line break, or starts (after a BOM and blanks) with ``{``, ``[`` or an SSE field.

    >>> looks_like_text('{"type": "RUN_STARTED"}'), looks_like_text("logs/run.jsonl"), looks_like_text(": ping")
    (True, False, True)
    """
    stripped = source.lstrip("\ufeff \t\r\n")
    if not stripped or "\n" in source or "\r" in source:
        return True
    return stripped[:1] in ("{", "[") or stripped.encode("utf-8", "surrogatepass").startswith(SSE_FIELDS)


def missing_path(path: str) -> SourceNotFoundError:
    """The error for a string that names no file (and is not JSON, JSONL or SSE text either), or a path that
    names none: the one wording of every reader.

    >>> str(missing_path("hello"))
    "'hello' is neither an existing file nor JSON, JSONL or SSE text"
    """
    if os.path.islink(path):
        return SourceNotFoundError(
            f"{path!r} is a symbolic link to nothing readable (a loop, or a missing target)", path=path
        )
    return SourceNotFoundError(f"{path!r} is neither an existing file nor JSON, JSONL or SSE text", path=path)


def unreadable(path: str, error: OSError) -> SourceError:
    """The error for a file the system would not read (a folder, no permission, gone since it was listed).

    >>> str(unreadable("run.jsonl", PermissionError(13, "Permission denied")))
    "'run.jsonl' cannot be read: Permission denied"
    """
    if isinstance(error, SourceError):
        return error
    if isinstance(error, FileNotFoundError):
        return missing_path(path)
    return SourceError(f"{path!r} cannot be read: {error.strerror or error}", path=path)


def _read_path(path: str) -> bytes:
    if os.path.isdir(path):
        raise SourceFolderError(f"{path!r} is a folder, not a file of events", path=path)
    if not os.path.isfile(path):
        raise missing_path(path)
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise unreadable(path, exc) from exc


def read_text_source(source: Any) -> tuple[str, bytes | str] | None:
    """The name and whole text of a text-like source (bytes, text, path, open file); ``None`` for others.

    Gzip-compressed bytes come back decompressed.

    >>> read_text_source(b'{"type":"X"}')
    ('<text>', b'{"type":"X"}')
    >>> read_text_source(gzip.compress(b'{"type":"X"}'))
    ('<text>', b'{"type":"X"}')
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return TEXT_SOURCE, _gunzipped(TEXT_SOURCE, bytes(source))
    if isinstance(source, str):
        if looks_like_text(source):
            return TEXT_SOURCE, source
        return source, _gunzipped(source, _read_path(source))
    if isinstance(source, os.PathLike):
        path = str(os.fspath(source))
        return path, _gunzipped(path, _read_path(path))
    read = getattr(source, "read", None)
    if callable(read) and not isinstance(source, AsyncIterable) and not hasattr(source, "model_dump"):
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else "<file>"
        data = read()
        return name, _gunzipped(name, data) if isinstance(data, bytes) else data
    return None


def _gunzipped(name: str, data: bytes) -> bytes:
    """``data`` decompressed when it is gzip data, else as it is."""
    if data[:2] != GZIP_MAGIC:
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:  # a file cut short (or still being written), or corrupt
        raise EventParseError(
            f"{name}: not readable gzip data ({exc})", source=name, line=None, index=None
        ) from None
