"""AI SDK UI-message chunks from whatever holds them, read by the one wire reader.

A source is one of: an iterable (or async iterable) of chunk dicts, pydantic models (such as pydantic-ai's
Vercel AI chunks), or slices of an SSE or JSON-lines text cut anywhere (as an HTTP client yields them; an open
file works too); or one whole text, bytes object or file path holding an SSE stream, JSON lines or a JSON array.
SSE comments and non-``data`` fields are skipped, and so is ``data: [DONE]``, as the AI SDK does.

>>> list(iter_ui_chunks(['data: {"type":"st', 'art"}\\n\\n', {"type": "finish"}]))
[{'type': 'start'}, {'type': 'finish'}]
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, TypeAlias

from agui_notebook._errors import ChunkDecodeError, InputTypeError
from agui_notebook._types import TextSource
from agui_notebook.wire._reader import (
    ITEMS_SOURCE,
    Frame,
    aiter_frames,
    iter_frames,
    read_text_source,
    text_frames,
)

__all__ = ["ChunkDecodeError", "ChunkSource", "aiter_ui_chunks", "iter_ui_chunks"]

ChunkItem: TypeAlias = "dict[str, Any] | str | bytes | Any"
ChunkSource: TypeAlias = "TextSource | Iterable[ChunkItem] | AsyncIterable[ChunkItem]"
"""Anything ``read_ui_message_stream`` accepts as chunks."""


def _chunk(frame: Frame, source: str, index: int) -> dict[str, Any]:
    """The chunk dict of a frame, or :class:`ChunkDecodeError` saying where it broke."""
    value = frame.value
    if frame.error is None:
        if type(value) is dict:
            return value
        if isinstance(value, dict):
            return dict(value)
        model_dump = getattr(value, "model_dump", None)
        if model_dump is not None:
            return model_dump(mode="json", by_alias=True, exclude_none=True)
        error = f"cannot read a chunk from {type(value).__name__}"
    else:
        error = frame.error
    where = f"{source}:{frame.line}" if frame.line is not None else f"{source}: item {index}"
    raise ChunkDecodeError(f"{where}: {error}", source=source, line=frame.line, index=index)


def iter_ui_chunks(source: ChunkSource) -> Iterator[dict[str, Any]]:
    """Chunk dicts from a sync source; bad input raises :class:`ChunkDecodeError`.

    >>> list(iter_ui_chunks('data: {"type":"start"}\\n\\ndata: {"type":"finish"}\\n\\ndata: [DONE]\\n\\n'))
    [{'type': 'start'}, {'type': 'finish'}]
    """
    if isinstance(source, dict):
        raise InputTypeError("pass an iterable of chunks, not one chunk dict")
    text = read_text_source(source)
    if text is not None:
        name, frames = text[0], text_frames(text[1])
    elif isinstance(source, Iterable):
        if type(source) is list and all(type(item) is dict and "type" in item for item in source):
            yield from source  # the common case: pre-parsed chunks (recorder records go through the reader)
            return
        name, frames = ITEMS_SOURCE, iter_frames(source)
    else:
        raise InputTypeError(f"cannot read UI chunks from {type(source).__name__}")
    for index, frame in enumerate(frames):
        yield _chunk(frame, name, index)


async def aiter_ui_chunks(source: AsyncIterable[ChunkItem]) -> AsyncIterator[dict[str, Any]]:
    """Chunk dicts from an async source, such as ``response.aiter_bytes()`` of an HTTP client."""
    index = 0
    async for frame in aiter_frames(source):
        yield _chunk(frame, ITEMS_SOURCE, index)
        index += 1
