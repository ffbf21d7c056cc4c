"""Applying a whole AG-UI stream: ``apply_events`` and ``aapply_events``, skipping or raising on errors.

Skipping (the default), the events go straight to the reducer, as @ag-ui/client's reducer takes them; raising,
through the checker first (``verify_events``'s rules), stopping at the first error.

>>> thread = apply_events(
...     b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\\n'
...     b'{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"Hi"}\\n'
...     b'{"type":"RUN_FINISHED","threadId":"t","runId":"r"}\\n'
... )
>>> thread.message_dicts
[{'id': 'm1', 'role': 'assistant', 'content': 'Hi'}]
>>> thread.runs[0].outcome
'success'
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Iterator
from typing import Any, Literal

from agui_notebook._errors import EventLogWarning, ProtocolError, check_error_mode, warn
from agui_notebook._options import keyword_options
from agui_notebook._types import JSON, EventSource

from ._intake import EventRecord, aiter_event_records, events_as_read, iter_event_records
from ._reducer import EventReducer
from ._thread import ThreadState
from ._verify import EventChecker

__all__ = ["ProtocolError", "aapply_events", "apply_events"]

_MODES = ("skip", "raise")


@keyword_options
def apply_events(
    events: EventSource,
    *,
    messages: Iterable[Any] | None = None,
    state: JSON = None,
    errors: Literal["skip", "raise"] = "skip",
) -> ThreadState:
    """Apply AG-UI events (models, dicts, JSONL, recorder or SSE text or bytes, gzip, a path, a file) to messages.

    ``messages`` and ``state`` are where the thread starts (default: no messages, ``{}`` like the client).
    ``errors="skip"`` (the default, like the client's reducer) skips an event that cannot apply and ignores
    unreadable input lines (a source of which not one line is an event, a Parquet table or an OpenTelemetry
    export, gives an empty thread and an :class:`EventLogWarning`); ``errors="raise"`` checks every event as
    :func:`verify_events` does and raises :class:`ProtocolError` (or :class:`EventParseError`) at the first error.
    """
    if check_error_mode(errors, _MODES) == "raise":
        return _apply_checked(events, messages=messages, state=state)
    reducer = EventReducer(messages=messages, state=state)
    _feed(reducer, events)
    return reducer.result(copy=False)


@keyword_options
async def aapply_events(
    events: EventSource,
    *,
    messages: Iterable[Any] | None = None,
    state: JSON = None,
    errors: Literal["skip", "raise"] = "skip",
) -> ThreadState:
    """Async :func:`apply_events`, for async iterables (e.g. a live SSE response) as well."""
    if not isinstance(events, AsyncIterable):
        return apply_events(events, messages=messages, state=state, errors=errors)
    if check_error_mode(errors, _MODES) == "raise":
        return await _aapply_checked(events, messages=messages, state=state)
    reducer = EventReducer(messages=messages, state=state)
    unread = _Unread()
    async for record in aiter_event_records(events, expand_chunks=False, upgrade_legacy=False):
        if unread.passes(record):
            reducer.feed_all((record.event,), start=record.index)
    unread.finish()
    return reducer.result(copy=False)


def _feed(reducer: EventReducer, source: Any) -> None:
    """Feed a source's events as the intake reads them, without expansion or upgrade: the reducer does both inline.

    A whole JSONL text (a recorder log among them) or a list of events goes in one call; anything else record by
    record, each at its index. The reducer skips what is no event, and a skipping replay skips what it cannot
    read: verify_events says what and where.
    """
    read = events_as_read(source)
    if not isinstance(read, Iterator):
        reducer.feed_all(read, start=0)
        return
    unread = _Unread()
    for record in read:
        if unread.passes(record):
            reducer.feed_all((record.event,), start=record.index)
    unread.finish()


class _Unread:
    """The lines a skipping replay passed over: when nothing else was read, it says so (an empty thread from a
    Parquet table or a trace export is no stream of events, and would otherwise pass unnoticed)."""

    __slots__ = ("first", "read")

    def __init__(self) -> None:
        self.first: EventRecord | None = None
        self.read = False

    def passes(self, record: EventRecord) -> bool:
        """Whether the record holds an event to apply; the first that does not is kept."""
        if record.event is not None:
            self.read = True
            return True
        if self.first is None:
            self.first = record
        return False

    def finish(self) -> None:
        first = self.first
        if first is not None and not self.read:
            warn(
                f"apply_events: no AG-UI event could be read ({first.location}: {first.error}); the thread is "
                "empty (verify_events lists each line it could not read)",
                EventLogWarning,
            )


def _apply_checked(events: Any, *, messages: Any = None, state: Any = None) -> ThreadState:
    """Apply events, raising :class:`ProtocolError` at the first error-severity problem (``errors="raise"``)."""
    checker = EventChecker(messages=messages, state=state)
    for record in iter_event_records(events, expand_chunks=False, upgrade_legacy=False):
        if record.error is not None:
            record.raise_error()
        seen = len(checker.problems)
        checker.check_record(record)
        _raise_first_error(checker, seen)
    seen = len(checker.problems)
    checker.finish()
    _raise_first_error(checker, seen)
    return checker.reducer.result(copy=False)


async def _aapply_checked(events: Any, *, messages: Any = None, state: Any = None) -> ThreadState:
    """Async :func:`_apply_checked`."""
    checker = EventChecker(messages=messages, state=state)
    async for record in aiter_event_records(events, expand_chunks=False, upgrade_legacy=False):
        if record.error is not None:
            record.raise_error()
        seen = len(checker.problems)
        checker.check_record(record)
        _raise_first_error(checker, seen)
    seen = len(checker.problems)
    checker.finish()
    _raise_first_error(checker, seen)
    return checker.reducer.result(copy=False)


def _raise_first_error(checker: EventChecker, start: int) -> None:
    """Raise the first error-severity problem found since ``start`` (warnings pass)."""
    for problem in checker.problems[start:]:
        if problem.severity == "error":
            raise ProtocolError(problem)
