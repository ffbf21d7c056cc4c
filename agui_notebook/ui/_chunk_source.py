"""Turn what a UI message stream arrives as into chunk dicts.

A source is one of: an iterable (or async iterable) of chunk dicts, pydantic models (such as pydantic-ai's
Vercel AI chunks), JSON texts, SSE lines or any fragments of an SSE or JSON-lines byte stream (as an HTTP
client yields them; an open file works too); or one whole text, bytes object or file path holding an SSE
stream, JSON lines or a JSON array.
SSE comments and non-``data`` fields are skipped; ``data: [DONE]`` ends the stream.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeAlias

import orjson

__all__ = ["ChunkDecodeError", "ChunkSource", "aiter_ui_chunks", "iter_ui_chunks"]

ChunkItem: TypeAlias = "dict[str, Any] | str | bytes | Any"
ChunkSource: TypeAlias = "str | bytes | os.PathLike[str] | Iterable[ChunkItem] | AsyncIterable[ChunkItem]"
"""Anything ``read_ui_message_stream`` accepts as chunks."""


class ChunkDecodeError(ValueError):
    """Part of a chunk source is not a JSON chunk; the message says which item and line."""


class _ChunkDecoder:
    """Incremental decoder: items in, chunk dicts out; text is split into lines across item boundaries."""

    __slots__ = ("_event_data", "_item_index", "_pending", "_utf8", "done")

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")()  # a byte fragment may end inside a character
        self._pending = ""  # an incomplete line carried over to the next text item
        self._event_data: list[str] = []  # the data lines of the SSE event being read
        self._item_index = -1
        self.done = False

    def feed(self, item: Any) -> list[dict[str, Any]]:
        self._item_index += 1
        if type(item) is dict:
            return [item]
        if isinstance(item, (bytes, bytearray, memoryview)):
            try:
                item = self._utf8.decode(bytes(item))
            except UnicodeDecodeError as error:
                raise ChunkDecodeError(f"item {self._item_index}: not UTF-8 ({error})") from None
        if isinstance(item, str):
            return self._feed_text(item)
        if isinstance(item, dict):
            return [dict(item)]
        model_dump = getattr(item, "model_dump", None)
        if model_dump is not None:
            return [model_dump(mode="json", by_alias=True, exclude_none=True)]
        raise ChunkDecodeError(f"item {self._item_index}: cannot read a chunk from {type(item).__name__}")

    def close(self) -> list[dict[str, Any]]:
        try:
            rest = self._utf8.decode(b"", final=True)
        except UnicodeDecodeError as error:
            raise ChunkDecodeError(
                f"item {self._item_index}: ends inside a UTF-8 character ({error})"
            ) from None
        chunks: list[dict[str, Any]] = self._feed_text(rest) if rest else []
        if self._pending:
            line, self._pending = self._pending, ""
            self._line(line, chunks)
        if self._event_data:
            self._dispatch(chunks, final=True)
        return chunks

    def _feed_text(self, text: str) -> list[dict[str, Any]]:
        chunks: list[dict[str, Any]] = []
        if self._pending:
            text = self._pending + text
            self._pending = ""
        lines = text.splitlines(keepends=True)
        for line in lines:
            if line.endswith(("\n", "\r")):
                self._line(line.rstrip("\r\n"), chunks)
            else:
                self._pending = line
        # An item that is one whole JSON object or SSE data line needs no newline to be complete: objects
        # cannot be prefixes of longer objects, so a parsable rest of line is a whole chunk.
        pending = self._pending
        if pending.rstrip().endswith("}") and not self.done:
            stripped = pending.strip()
            payload = stripped[5:] if stripped.startswith("data:") else stripped
            try:
                value = orjson.loads(payload)
            except orjson.JSONDecodeError:
                return chunks
            if type(value) is dict and not self._event_data:
                self._pending = ""
                chunks.append(value)
        return chunks

    def _line(self, line: str, chunks: list[dict[str, Any]]) -> None:
        if self.done:
            return
        if not line.strip():
            if self._event_data:
                self._dispatch(chunks, final=True)
            return
        if line.startswith(":"):
            return  # an SSE comment (keep-alive)
        if line.startswith("data:"):
            data = line[6:] if line.startswith("data: ") else line[5:]
            if not self._event_data and data.strip() == "[DONE]":
                self.done = True
                return
            self._event_data.append(data)
            self._dispatch(chunks, final=False)
            return
        if line.startswith(("event:", "id:", "retry:")):
            return
        stripped = line.strip()
        if stripped.startswith("["):
            value = self._parse(stripped)
            if not isinstance(value, list):
                raise ChunkDecodeError(f"item {self._item_index}: expected a JSON array of chunks")
            chunks.extend(value)
            return
        chunks.append(self._object(stripped))

    def _dispatch(self, chunks: list[dict[str, Any]], *, final: bool) -> None:
        data = "\n".join(self._event_data)
        if not final:
            # Most events are one data line: emit as soon as it parses rather than waiting for the blank line.
            try:
                value = orjson.loads(data)
            except orjson.JSONDecodeError:
                return
            if type(value) is not dict:
                return
            self._event_data = []
            chunks.append(value)
            return
        self._event_data = []
        chunks.append(self._object(data))

    def _object(self, text: str) -> dict[str, Any]:
        value = self._parse(text)
        if type(value) is not dict:
            raise ChunkDecodeError(f"item {self._item_index}: expected a JSON object, got {text[:80]!r}")
        return value

    def _parse(self, text: str) -> Any:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError as error:
            raise ChunkDecodeError(f"item {self._item_index}: not JSON ({error}): {text[:80]!r}") from None


def iter_ui_chunks(source: str | bytes | os.PathLike[str] | Iterable[ChunkItem]) -> Iterator[dict[str, Any]]:
    """Chunk dicts from a sync source.

    >>> list(iter_ui_chunks('data: {"type":"start"}\\n\\ndata: {"type":"finish"}\\n\\ndata: [DONE]\\n\\n'))
    [{'type': 'start'}, {'type': 'finish'}]
    """
    if isinstance(source, dict):
        raise TypeError("pass an iterable of chunks, not one chunk dict")
    if isinstance(source, os.PathLike):
        source = Path(source).read_bytes()
    decoder = _ChunkDecoder()
    if isinstance(source, (bytes, bytearray)):
        source = bytes(source).decode("utf-8")
    if isinstance(source, str) and source.lstrip().startswith("["):
        value = decoder._parse(source.strip())  # a whole JSON array of chunks
        if not isinstance(value, list):
            raise ChunkDecodeError("item 0: expected a JSON array of chunks")
        source = value
    items: Iterable[Any] = [source] if isinstance(source, str) else source
    for item in items:
        if type(item) is dict:  # the common case: pre-parsed chunks
            if not decoder.done:
                yield item
            continue
        yield from decoder.feed(item)
        if decoder.done:
            return
    yield from decoder.close()


async def aiter_ui_chunks(source: AsyncIterable[ChunkItem]) -> AsyncIterator[dict[str, Any]]:
    """Chunk dicts from an async source, such as ``response.aiter_bytes()`` of an HTTP client."""
    decoder = _ChunkDecoder()
    async for item in source:
        for chunk in decoder.feed(item):
            yield chunk
        if decoder.done:
            return
    for chunk in decoder.close():
        yield chunk
