"""Reads AG-UI events from whatever holds them (models, dicts, JSON, JSONL, SSE captures, files) as wire dicts.

The wire form is the event exactly as on the wire: a plain dict with camelCase keys, ``type`` a string and
absent optionals left out. Readers upgrade pre-1.0 shapes and expand ``*_CHUNK`` events by default, the way
@ag-ui/client's ``runAgent`` does before its reducer sees them.

>>> [e["type"] for e in iter_wire_events(b'{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"Hi"}\\n')]
['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT']
"""

from __future__ import annotations

import os
from collections.abc import (
    AsyncGenerator,
    AsyncIterable,
    AsyncIterator,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, NoReturn

from ag_ui.core import Event, EventType
from pydantic import BaseModel, TypeAdapter, ValidationError

from agui_notebook._errors import (
    EventParseError,
    InputTypeError,
    JsonValueError,
    internal_failure,
    no_unraisable_reports,
)
from agui_notebook._options import keyword_options
from agui_notebook._shown import shown
from agui_notebook._types import EventLike, EventSource, WireEvent
from agui_notebook.wire._reader import (
    ITEMS_SOURCE,
    Frame,
    aiter_frames,
    frame_of_value,
    iter_frames,
    read_text_source,
    text_frames,
    whole_jsonl_values,
)
from agui_notebook.wire._records import is_recorded, recorded_events
from agui_notebook.wire._values import json_error

from ._compat import UPGRADED_TYPES, LegacyEventUpgrader
from ._expand import CHUNK_TYPES, ChunkExpander, ChunkExpansionError

__all__ = [
    "CHUNK_TYPES",
    "EVENT_TYPES",
    "ChunkExpander",
    "ChunkExpansionError",
    "EventParseError",
    "EventRecord",
    "aiter_event_records",
    "aiter_wire_events",
    "aparse_events",
    "events_as_read",
    "iter_event_records",
    "iter_wire_events",
    "parse_events",
    "to_wire_event",
]

EVENT_TYPES = frozenset(member.value for member in EventType)
"""Every event ``type`` AG-UI 1.0 defines."""


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One event read from a source, or why it could not be read.

    ``index`` is the event's 0-based position in the input (events expanded from one chunk share it),
    ``line`` its 1-based line in a text source, ``event`` the wire dict (``None`` when ``error`` is set).
    """

    index: int
    source: str
    line: int | None
    event: dict[str, Any] | None
    error: str | None

    @property
    def location(self) -> str:
        """Where the record is, e.g. ``events.jsonl:17`` or ``<events>: event 3``."""
        if self.line is not None:
            return f"{self.source}:{self.line}"
        return f"{self.source}: event {self.index}"

    def raise_error(self) -> None:
        """Raise the record's error as an :class:`EventParseError` (no-op for a good record)."""
        if self.error is not None:
            self.raise_now()

    def wire_event(self) -> dict[str, Any]:
        """The record's event; a bad record raises its error as an :class:`EventParseError`."""
        if self.event is None:
            self.raise_now()
        return self.event

    def raise_now(self) -> NoReturn:
        """Raise the record's error (a record without one is a record of no event) as an EventParseError."""
        error = self.error or "no event"
        where = self.location
        if self.line is None and error.startswith((f"event {self.index} ", f"event {self.index}:")):
            where = self.source  # the error already names the event
        raise EventParseError(f"{where}: {error}", source=self.source, line=self.line, index=self.index)


def to_wire_event(obj: EventLike) -> WireEvent:
    """Return the wire dict of an ``ag_ui.core`` event model or an event dict (dicts come back as they are).

    >>> from ag_ui.core import TextMessageContentEvent
    >>> to_wire_event(TextMessageContentEvent(message_id="m1", delta="Hi"))
    {'type': 'TEXT_MESSAGE_CONTENT', 'messageId': 'm1', 'delta': 'Hi'}
    """
    if type(obj) is dict:
        event_type = obj.get("type")
        if event_type is None or type(event_type) is str:
            return obj
        return {**obj, "type": event_type.value if isinstance(event_type, Enum) else str(event_type)}
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json", by_alias=True)
    if isinstance(obj, Mapping):
        return to_wire_event(dict(obj))
    raise InputTypeError(f"expected an AG-UI event model or dict, got {type(obj).__name__}")


# -- frames to events ---------------------------------------------------------------------------------------------


def _checked(frame: Frame) -> Frame:
    """The frame with its value as an event wire dict, or with the reason it is no event."""
    if frame.error is not None:
        return frame
    value = frame.value
    if frame.line is None:  # an item given as an object, not read from text
        if type(value) is not dict:
            try:
                value = to_wire_event(value)
            except TypeError:
                return Frame(None, None, f"expected an event, JSON text or line, got {type(value).__name__}")
        if is_recorded(value):
            frame = frame_of_value(value, None)
            if frame.error is not None:
                return frame
            value = frame.value
    if type(value.get("type")) is not str:
        return Frame(frame.line, None, "event has no string 'type'")
    if value is not frame.value:
        return Frame(frame.line, value, None, frame.received_ns)
    return frame


def _source_frames(source: Any) -> tuple[str, Iterator[Frame]]:
    """Name the source and iterate its frames."""
    text = read_text_source(source)
    if text is not None:
        return text[0], text_frames(text[1])
    if type(source) is dict or isinstance(source, (BaseModel, Mapping)):
        return ITEMS_SOURCE, iter([Frame(None, source)])
    if isinstance(source, Iterable):
        return ITEMS_SOURCE, iter_frames(source)
    raise InputTypeError(f"cannot read AG-UI events from {type(source).__name__}")


# -- the pipeline: legacy upgrade, chunk expansion, records ----------------------------------------------------


class _Stages:
    """Per-stream legacy upgrade and chunk expansion, shared by the sync and async readers."""

    __slots__ = ("expander", "name", "upgrader")

    def __init__(self, name: str, expand_chunks: bool, upgrade_legacy: bool) -> None:
        self.name = name
        self.upgrader = LegacyEventUpgrader() if upgrade_legacy else None
        self.expander = ChunkExpander() if expand_chunks else None

    def records(self, index: int, frame: Frame) -> list[EventRecord]:
        name = self.name
        frame = _checked(frame)
        line, event = frame.line, frame.value
        if event is None:
            return [EventRecord(index, name, line, None, frame.error)]
        upgrader = self.upgrader
        expander = self.expander
        try:
            if upgrader is not None and upgrader.needs_upgrade(event):
                event = upgrader.upgrade(event)
            if expander is not None and (expander.has_open_streams or event["type"] in CHUNK_TYPES):
                expanded = expander.feed(event)
                return [EventRecord(index, name, line, e, None) for e in expanded]
        except Exception as exc:
            reason = str(exc) if isinstance(exc, ChunkExpansionError) else internal_failure(exc)
            return [EventRecord(index, name, line, None, f"event {index} ({event['type']}): {reason}")]
        return [EventRecord(index, name, line, event, None)]


def iter_event_records(
    source: Any, *, expand_chunks: bool = True, upgrade_legacy: bool = True
) -> Iterator[EventRecord]:
    """Read events leniently: one :class:`EventRecord` per event (or per unreadable one), never raising on bad input.

    >>> records = iter_event_records('{"type":"RUN_STARTED","threadId":"t","runId":"r"}\\n{oops}\\n')
    >>> [(r.location, r.error is None) for r in records]
    [('<text>:1', True), ('<text>:2', False)]
    """
    name, frames = _source_frames(source)
    stages = _Stages(name, expand_chunks, upgrade_legacy)
    for index, frame in enumerate(frames):
        yield from stages.records(index, frame)


async def aiter_event_records(
    source: Any, *, expand_chunks: bool = True, upgrade_legacy: bool = True
) -> AsyncGenerator[EventRecord, None]:
    """Async :func:`iter_event_records`; also reads async iterables (of models, dicts, JSON texts or lines)."""
    if not isinstance(source, AsyncIterable):
        for record in iter_event_records(source, expand_chunks=expand_chunks, upgrade_legacy=upgrade_legacy):
            yield record
        return
    stages = _Stages(ITEMS_SOURCE, expand_chunks, upgrade_legacy)
    index = 0
    async for frame in aiter_frames(source):
        for record in stages.records(index, frame):
            yield record
        index += 1


@keyword_options
def iter_wire_events(
    source: EventSource, *, expand_chunks: bool = True, upgrade_legacy: bool = True
) -> Iterator[WireEvent]:
    """Iterate the wire dicts of AG-UI events from any source; bad input raises :class:`EventParseError`.

    ``source`` may be an event model or dict, an iterable of those or of JSON texts or JSONL/SSE lines,
    JSON/JSONL/SSE text or bytes (gzip-compressed bytes too), a path or an open file (a recorder log, a chat's log
    among them). The format is detected from the first characters.
    """
    if isinstance(source, (bytes, bytearray, memoryview, str, os.PathLike)) or hasattr(source, "read"):
        yield from wire_event_list(source, expand_chunks=expand_chunks, upgrade_legacy=upgrade_legacy)
        return
    for record in iter_event_records(source, expand_chunks=expand_chunks, upgrade_legacy=upgrade_legacy):
        yield record.wire_event()


async def aiter_wire_events(
    source: EventSource, *, expand_chunks: bool = True, upgrade_legacy: bool = True
) -> AsyncIterator[WireEvent]:
    """Async :func:`iter_wire_events`; also reads async iterables (of models, dicts, JSON texts or lines)."""
    async for record in aiter_event_records(
        source, expand_chunks=expand_chunks, upgrade_legacy=upgrade_legacy
    ):
        yield record.wire_event()


def wire_event_list(
    source: Any, *, expand_chunks: bool = True, upgrade_legacy: bool = True
) -> list[dict[str, Any]]:
    """All wire events of a source as a list, raising :class:`EventParseError` on bad input.

    JSONL bytes/text and files take a fast path: one comprehension of ``orjson.loads``, then only the events
    that need it go through the legacy upgrade and chunk expansion.
    """
    text = read_text_source(source)
    if text is not None:
        name, data = text
        parsed = whole_jsonl_values(data)
        if parsed is not None:
            return _finish_parsed(recorded_events(parsed), name, expand_chunks, upgrade_legacy, parsed)
        records: Iterable[EventRecord] = _text_records(name, data, expand_chunks, upgrade_legacy)
    else:
        if type(source) is list and all(type(e) is dict and type(e.get("type")) is str for e in source):
            # Wire dicts already: the same finishing pass as parsed JSONL. A problem it meets is reported by
            # the record path below, which names events by index rather than by line.
            try:
                return _finish_parsed(list(source), ITEMS_SOURCE, expand_chunks, upgrade_legacy)
            except EventParseError:
                pass
        records = iter_event_records(source, expand_chunks=expand_chunks, upgrade_legacy=upgrade_legacy)
    return [record.wire_event() for record in records]


def events_as_read(source: Any) -> Sequence[Any] | Iterator[EventRecord]:
    """A source's events as read (neither upgraded nor expanded), for a consumer that passes over the bad ones.

    A whole JSONL text, bytes, path or open file comes back as one list (the reader's fast path, recorder
    records unwrapped), and a list or tuple of event dicts and models as it is; anything else, or a text the fast
    path declines, as the reader's records one by one, each with its index and the bad ones with their error.

    >>> events_as_read(b'{"received_ns": 5, "event": {"type": "RUN_STARTED"}}\\n')
    [{'type': 'RUN_STARTED'}]
    """
    if isinstance(source, (list, tuple)) and all(
        (type(item) is dict and "type" in item) or isinstance(item, BaseModel) for item in source
    ):
        return source
    text = read_text_source(source)
    if text is None:
        return iter_event_records(source, expand_chunks=False, upgrade_legacy=False)
    name, data = text
    parsed = whole_jsonl_values(data)
    if parsed is not None:
        events = recorded_events(parsed)
        # Lines none of which is an event (a trace export's JSON) go by the records, which say what each is.
        if not events or any(type(event) is dict and type(event.get("type")) is str for event in events):
            return events
    return _text_records(name, data, expand_chunks=False, upgrade_legacy=False)


def _text_records(
    name: str, data: bytes | str, expand_chunks: bool, upgrade_legacy: bool
) -> Iterator[EventRecord]:
    """The records of a whole text already read (never taken for a path again)."""
    stages = _Stages(name, expand_chunks, upgrade_legacy)
    for index, frame in enumerate(text_frames(data)):
        yield from stages.records(index, frame)


def _finish_parsed(
    parsed: list[Any], name: str, expand_chunks: bool, upgrade_legacy: bool, lines: list[Any] | None = None
) -> list[dict[str, Any]]:
    """Upgrade and expand parsed events; ``lines`` are the values as read (records not yet unwrapped)."""
    upgrader = LegacyEventUpgrader() if upgrade_legacy else None
    expander = ChunkExpander() if expand_chunks else None
    lanes = expander._lanes if expander is not None else {}
    # Event types that may need the upgrade or the expansion; anything else passes untouched unless a
    # chunk stream is open or it carries a (possibly null) rawEvent.
    special = (UPGRADED_TYPES if upgrader is not None else frozenset()) | (
        CHUNK_TYPES if expander else frozenset()
    )
    out: list[dict[str, Any]] | None = None
    for index, event in enumerate(parsed):
        try:
            event_type = event["type"]
            if type(event_type) is not str:
                raise TypeError
        except (TypeError, KeyError, IndexError):
            error = _checked(frame_of_value(event if lines is None else lines[index], index + 1)).error
            # Blank lines were rejected by the fast path, so the line is the index + 1.
            raise EventParseError(
                f"{name}:{index + 1}: {error}", source=name, line=index + 1, index=index
            ) from None
        if not (event_type in special or lanes or (upgrader is not None and "rawEvent" in event)):
            if out is not None:
                out.append(event)
            continue
        if upgrader is not None:
            upgraded = upgrader.upgrade(event)
            if upgraded is not event:
                event, event_type = upgraded, upgraded["type"]
                if out is None:
                    out = parsed[:index]
        if expander is not None and (lanes or event_type in CHUNK_TYPES):
            try:
                expanded = expander.feed(event)
            except ChunkExpansionError as exc:
                raise EventParseError(
                    f"{name}:{index + 1}: event {index} ({event_type}): {exc}",
                    source=name,
                    line=index + 1,
                    index=index,
                ) from None
            if out is None:
                out = parsed[:index]
            out.extend(expanded)
        elif out is not None:
            out.append(event)
    return parsed if out is None else out


# -- validated models -------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _event_adapter() -> TypeAdapter[Any]:
    return TypeAdapter(Event)


def _validation_summary(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    # The first location element is the union tag; the rest is the field path inside the event.
    path = ".".join(str(part) for part in error["loc"][1:])
    more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{path}: {error['msg']}{more}" if path else f"{error['msg']}{more}"


def unprocessable_event(
    event: Any, exc: BaseException, *, index: int, source: str = ITEMS_SOURCE, line: int | None = None
) -> EventParseError | JsonValueError:
    """The error for an event a consumer could not process: where it is and what is wrong with it.

    What is wrong is the event's schema problem when it has one (``messageId: Field required``), else what the
    consumer met. Built only once something failed, so the consumer's hot path validates nothing. A value with
    no JSON form stays a :class:`JsonValueError`, now naming the event; the error of a consumer that already
    named the event (by another count) is located again, not wrapped in a second message.

    >>> str(unprocessable_event({"type": "TEXT_MESSAGE_START"}, KeyError("messageId"), index=3))
    '<events>: event 3 (TEXT_MESSAGE_START): messageId: Field required'
    """
    if isinstance(exc, EventParseError) and exc.__cause__ is not None:
        exc = exc.__cause__  # what the consumer met, which it had already located
    event_type = event.get("type") if type(event) is dict else None
    reason = None
    if type(event_type) is str and event_type in EVENT_TYPES:
        try:
            with no_unraisable_reports():
                _event_adapter().validate_python(event)
        except ValidationError as error:
            reason = _validation_summary(error)
        except Exception:
            pass
    if reason is None:
        reason = f"cannot be processed ({internal_failure(exc)})"
    shown_type = event_type if type(event_type) is str else shown(event_type)
    where = source if line is None else f"{source}:{line}"
    if isinstance(exc, JsonValueError) and reason.startswith("cannot be processed"):
        return json_error(f"{where}: event {index} ({shown_type})", exc.path, exc.reason)
    return EventParseError(
        f"{where}: event {index} ({shown_type}): {reason}", source=source, line=line, index=index
    )


def event_model(record: EventRecord) -> Any:
    """Validate a good record's wire dict into its ``ag_ui.core`` event model, raising :class:`EventParseError`."""
    event = record.event
    assert event is not None
    event_type = event["type"]
    if event_type not in EVENT_TYPES:
        error = f"event {record.index}: unknown event type {event_type!r}"
    else:
        try:
            with no_unraisable_reports():
                return _event_adapter().validate_python(event)
        except ValidationError as exc:
            error = f"event {record.index} ({event_type}): {_validation_summary(exc)}"
    EventRecord(record.index, record.source, record.line, None, error).raise_now()


@keyword_options
def parse_events(
    source: EventSource, *, expand_chunks: bool = False, upgrade_legacy: bool = True
) -> list[Event]:
    """Read and validate AG-UI events into ``ag_ui.core`` models; bad or unknown events raise :class:`EventParseError`.

    Chunk events are kept as they were sent unless ``expand_chunks=True``.

    >>> [type(e).__name__ for e in parse_events('{"type":"RUN_STARTED","threadId":"t","runId":"r"}')]
    ['RunStartedEvent']
    """
    models = []
    for record in iter_event_records(source, expand_chunks=expand_chunks, upgrade_legacy=upgrade_legacy):
        record.raise_error()
        models.append(event_model(record))
    return models


@keyword_options
async def aparse_events(
    source: EventSource, *, expand_chunks: bool = False, upgrade_legacy: bool = True
) -> list[Event]:
    """Async :func:`parse_events`, for async iterables as well."""
    models = []
    async for record in aiter_event_records(
        source, expand_chunks=expand_chunks, upgrade_legacy=upgrade_legacy
    ):
        record.raise_error()
        models.append(event_model(record))
    return models
