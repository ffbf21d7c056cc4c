"""Reading a whole UI message stream: ``read_ui_message_stream`` and ``ui_message_from_chunks``.

Both read chunks through ``iter_ui_chunks``/``aiter_ui_chunks`` (any text, bytes, path, or sync or async
iterable) and apply them with the reducer, as the AI SDK's ``readUIMessageStream`` does.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterable, AsyncIterator, Callable, Coroutine, Iterable, Iterator
from typing import Any, overload

from pydantic import BaseModel

from agui_notebook._errors import UIMessageValidationError
from agui_notebook._options import keyword_options

from ._chunk_source import ChunkSource, aiter_ui_chunks, iter_ui_chunks
from ._parts import MessageT, UIMessage
from ._reducer import UIMessageStreamError, UIMessageStreamErrorChunk, UIMessageStreamReducer
from ._snapshots import SnapshotBuilder
from ._validate import model_of

__all__ = ["read_ui_message_stream", "ui_message_from_chunks"]


def _starting_message(message: UIMessage | dict[str, Any] | None) -> dict[str, Any] | None:
    if message is None or isinstance(message, dict):
        return message
    if isinstance(message, BaseModel):
        return message.model_dump(mode="json")
    raise UIMessageValidationError(
        "message", f"expected a UIMessage (a model or a dict), not {type(message).__name__}"
    )


def _error_reporter(
    on_error: Callable[[Exception], None] | None, terminate_on_error: bool
) -> Callable[[UIMessageStreamErrorChunk], None]:
    def report(error: UIMessageStreamErrorChunk) -> None:
        if on_error is not None:
            on_error(error)
        if terminate_on_error:
            raise error

    return report


def _read_sync(
    source: Any,
    reducer: UIMessageStreamReducer,
    message_type: type[UIMessage],
    on_error: Callable[[Exception], None] | None,
    terminate_on_error: bool,
) -> Iterator[UIMessage]:
    snapshots = SnapshotBuilder(reducer, message_type)
    for chunk in iter_ui_chunks(source):
        snapshot = _step(chunk, reducer, snapshots, on_error, terminate_on_error)
        if snapshot is _STOP:
            return
        if snapshot is not None:
            yield snapshot


async def _read_async(
    source: AsyncIterable[Any],
    reducer: UIMessageStreamReducer,
    message_type: type[UIMessage],
    on_error: Callable[[Exception], None] | None,
    terminate_on_error: bool,
) -> AsyncIterator[UIMessage]:
    snapshots = SnapshotBuilder(reducer, message_type)
    async for chunk in aiter_ui_chunks(source):
        snapshot = _step(chunk, reducer, snapshots, on_error, terminate_on_error)
        if snapshot is _STOP:
            return
        if snapshot is not None:
            yield snapshot


_STOP: Any = object()
"""What ``_step`` returns when the stream must stop being read."""


def _step(
    chunk: Any,
    reducer: UIMessageStreamReducer,
    snapshots: SnapshotBuilder,
    on_error: Callable[[Exception], None] | None,
    terminate_on_error: bool,
) -> Any:
    """One chunk of either reader: the snapshot the AI SDK would emit for it, None, or ``_STOP``."""
    try:
        changes = reducer.push(chunk)
        if changes:
            snapshots.apply(changes)
    except UIMessageStreamError as error:
        if on_error is not None:
            on_error(error)
        if terminate_on_error:
            raise
        return _STOP  # the AI SDK stops reading a malformed stream
    # The AI SDK adds the step boundary without an update.
    return snapshots.snapshot() if changes and chunk.get("type") != "start-step" else None


@overload
def read_ui_message_stream(
    chunks: AsyncIterable[Any],
    *,
    message: UIMessage | dict[str, Any] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    terminate_on_error: bool = False,
    on_data: Callable[[dict[str, Any]], None] | None = None,
    message_type: type[MessageT] = ...,  # pyright: ignore[reportInvalidTypeVarUse] - MessageT has a default
) -> AsyncIterator[MessageT]: ...
@overload
def read_ui_message_stream(
    chunks: str | bytes | os.PathLike[str] | Iterable[Any],
    *,
    message: UIMessage | dict[str, Any] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    terminate_on_error: bool = False,
    on_data: Callable[[dict[str, Any]], None] | None = None,
    message_type: type[MessageT] = ...,  # pyright: ignore[reportInvalidTypeVarUse]
) -> Iterator[MessageT]: ...
@keyword_options
def read_ui_message_stream(
    chunks: ChunkSource,
    *,
    message: UIMessage | dict[str, Any] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    terminate_on_error: bool = False,
    on_data: Callable[[dict[str, Any]], None] | None = None,
    message_type: type[UIMessage] = UIMessage,
) -> Iterator[UIMessage] | AsyncIterator[UIMessage]:
    """Read a UI message stream, yielding the assistant message after every update, as ``readUIMessageStream``.

    ``chunks`` are dicts, JSON texts, SSE (``data: {...}`` lines) or pydantic chunk models, from a sync or an
    async iterable, or one SSE / JSON-lines text (see ``iter_ui_chunks``). A sync source gives a generator, an
    async source an async generator::

        for message in read_ui_message_stream(sse_text):
            print(message.parts[-1])

        async for message in read_ui_message_stream(response.aiter_bytes()):
            ...

    A snapshot is yielded whenever the AI SDK would emit one (not for ``start-step``, ``finish-step`` or
    ``error``, nor for chunks that change nothing). Snapshots are ``message_type`` models built cheaply:
    only the parts a chunk changed are validated again and the others are shared with the previous
    snapshot, so treat snapshots as read-only. ``message`` continues an earlier assistant message.

    Errors follow the AI SDK: ``error`` chunks and malformed streams (``UIMessageStreamError``) go to
    ``on_error``; a malformed stream then ends the iteration quietly unless ``terminate_on_error``, which
    raises the error (an ``error`` chunk raises ``UIMessageStreamErrorChunk``). ``on_data`` receives every
    ``data-*`` chunk, including transient ones that are not added to the message.
    """
    reducer = UIMessageStreamReducer(
        _starting_message(message), on_data=on_data, on_error=_error_reporter(on_error, terminate_on_error)
    )
    if hasattr(chunks, "__aiter__"):
        # An async iterable of chunks (hasattr tells; the source type names sync and async sources together).
        return _read_async(chunks, reducer, message_type, on_error, terminate_on_error)  # type: ignore[arg-type]
    return _read_sync(chunks, reducer, message_type, on_error, terminate_on_error)


@overload
def ui_message_from_chunks(
    chunks: AsyncIterable[Any],
    *,
    message: UIMessage | dict[str, Any] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    on_data: Callable[[dict[str, Any]], None] | None = None,
    message_type: type[MessageT] = ...,  # pyright: ignore[reportInvalidTypeVarUse]
) -> Coroutine[Any, Any, MessageT]: ...
@overload
def ui_message_from_chunks(
    chunks: str | bytes | os.PathLike[str] | Iterable[Any],
    *,
    message: UIMessage | dict[str, Any] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    on_data: Callable[[dict[str, Any]], None] | None = None,
    message_type: type[MessageT] = ...,  # pyright: ignore[reportInvalidTypeVarUse]
) -> MessageT: ...
@keyword_options
def ui_message_from_chunks(
    chunks: ChunkSource,
    *,
    message: UIMessage | dict[str, Any] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    on_data: Callable[[dict[str, Any]], None] | None = None,
    message_type: type[UIMessage] = UIMessage,
) -> UIMessage | Coroutine[Any, Any, UIMessage]:
    """The assistant message a whole UI message stream builds (a coroutine for an async source).

    >>> ui_message_from_chunks([
    ...     {"type": "start", "messageId": "m1"},
    ...     {"type": "text-start", "id": "t"},
    ...     {"type": "text-delta", "id": "t", "delta": "Hi"},
    ...     {"type": "text-end", "id": "t"},
    ... ]).model_dump()
    {'id': 'm1', 'role': 'assistant', 'parts': [{'type': 'text', 'text': 'Hi', 'state': 'done'}]}

    A malformed stream raises ``UIMessageStreamError``; ``error`` chunks go to ``on_error`` (ignored
    without it). Accepts the same sources as ``read_ui_message_stream``.
    """
    reducer = UIMessageStreamReducer(_starting_message(message), on_data=on_data, on_error=on_error)
    if hasattr(chunks, "__aiter__"):
        # An async iterable, as above.
        return _message_from_async(chunks, reducer, message_type)  # type: ignore[arg-type]
    push = reducer.push
    for chunk in iter_ui_chunks(chunks):
        push(chunk)
    return model_of(message_type, reducer.message, "message")


async def _message_from_async(
    chunks: AsyncIterable[Any], reducer: UIMessageStreamReducer, message_type: type[UIMessage]
) -> UIMessage:
    push = reducer.push
    async for chunk in aiter_ui_chunks(chunks):
        push(chunk)
    return model_of(message_type, reducer.message, "message")
