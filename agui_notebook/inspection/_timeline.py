"""The conversation after any event of a recorded run, reached fast: checkpoints of the assembler every
``every`` events, and a replay from the nearest one.

``EventTimeline(events).messages_after(n)`` is ``ui_message_dicts_from_events(events[:n + 1])`` (the inspector's
``seek(n)``); building the timeline costs one pass over the events, a seek one unpickled checkpoint and at most
``every`` replayed events. Each event's changes (``MessageChange``) say which part it touched.

Checkpoints share structure (``_SharedCheckpoints``): a message, and a block of parts, that no event changed
since the checkpoint before is not pickled again but referred to, so a checkpoint costs what changed since the
last one (and a few bytes per message), not the whole conversation so far. The tables that grow with the log
(the translator's tool calls and message ids, a reducer's tool inputs, the assembler's streams) are stored in
blocks the same way: a block is stored again when an event named one of its entries (``_KEYED_EVENTS``).

``conversation_after(n)`` reads a checkpoint lazily (the inspector's window): a message, a block of a long
message's parts, a block of a table and a stream are read when the replay or the reader first uses them, so a
seek costs the events replayed and what is looked at, not the conversation so far.

>>> timeline = EventTimeline([
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"},
...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": " there"},
... ], every=2)
>>> timeline.messages_after(2)[0]["parts"][1]["text"], timeline.touched[3]
('Hi', ((0, 1),))
>>> timeline.events_of_part(0, 1)  # the text part: its first delta adds it
[2, 3]
"""

from __future__ import annotations

import bisect
import contextlib
import copyreg
import io
import operator
import pickle
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agui_notebook._errors import OptionError, SeekError
from agui_notebook._gc import collections_paused
from agui_notebook._shown import shown
from agui_notebook._types import JSON
from agui_notebook.agui._patch import apply_json_patch
from agui_notebook.bridge._assemble import StreamedMessage, UIMessageAssembler, merge_consecutive_deltas
from agui_notebook.bridge._event_chunks import EventChunkTranslator
from agui_notebook.bridge._messages import to_agui_messages_wire, to_ui_messages
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._reducer import UIMessageStreamReducer
from agui_notebook.wire._json import copy_json

__all__ = ["CHECKPOINT_EVERY", "EventTimeline", "RunStart", "StateAt", "run_starts"]

CHECKPOINT_EVERY = 512
"""Events between two checkpoints (each a pickle of the assembler): a seek unpickles one and replays at most this
many events, their consecutive deltas merged (bench/bench_inspect.py)."""

MESSAGE_BLOCK = 64
"""Messages per shared block of a checkpoint's message list."""
PART_BLOCK = 32
"""Parts per shared block of a checkpoint's parts list."""
TABLE_BLOCK = 64
"""Entries per shared block of a big table (the translator's tool calls and message ids, a reducer's tool
inputs, the assembler's streams); a smaller table is written whole into each checkpoint."""

_ID_FIELDS = ("messageId", "toolCallId", "parentMessageId", "entityId")
"""The fields naming the table entries an event may change (a message, a tool call)."""
_KEYED_EVENTS = frozenset(
    {
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "TOOL_CALL_RESULT",
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_END",
        "REASONING_ENCRYPTED_VALUE",
        "STEP_STARTED",
        "STEP_FINISHED",
        "STATE_SNAPSHOT",
        "STATE_DELTA",
        "RUN_STARTED",
        "RUN_FINISHED",
        "RUN_ERROR",
        "CUSTOM",
        "RAW",
    }
)
"""Events that change a big table's entries only where they name them (``_ID_FIELDS``; a run input's messages,
tool calls and resumed interrupts), or the entries of a held tool result (it lands on its call at a later
event), and otherwise only add entries. Any other event (a messages snapshot, a chunk, an activity), a run input
of another shape, or an event the assembler refused makes the next checkpoint write every table again."""


@dataclass(frozen=True, slots=True)
class RunStart:
    """What a run started from that its events may not say: the conversation (AG-UI messages, as a run input
    holds them) and the state the client sent (a ChatWidget's run inputs: the user's turns are there, not in
    the events). The conversation replaces the one so far only where it differs from it (a new turn, an edit,
    another branch); a run that resumes the same conversation (an approval answered) goes on from it."""

    messages: list[dict[str, JSON]]
    state: JSON = None


def run_starts(inputs: Mapping[int, Mapping[str, Any]]) -> dict[int, RunStart]:
    """``RunStart``s from run inputs (AG-UI wire ``RunAgentInput``s) by the event index where each run begins."""
    return {
        index: RunStart(list(run_input.get("messages") or []), run_input.get("state"))
        for index, run_input in inputs.items()
    }


@dataclass(frozen=True, slots=True)
class StateAt:
    """The shared state right after an event, and the JSON Pointer paths the last state event changed."""

    state: JSON
    paths: tuple[str, ...]
    """The paths of the last ``STATE_DELTA``'s operations (``("",)`` for a ``STATE_SNAPSHOT``)."""
    changed_at: int | None
    """The index of that last state event (``None`` before any)."""


class EventTimeline:
    """The UIMessages (and the shared state) after each event of ``events`` (AG-UI wire dicts).

    An event the assembler cannot take is kept in ``failures`` (its index and the error) and left out, here and
    in every replay, so a broken log stays inspectable up to its end.
    """

    def __init__(
        self,
        events: Sequence[dict[str, JSON]],
        *,
        every: int = CHECKPOINT_EVERY,
        starts: Mapping[int, RunStart] | None = None,
    ) -> None:
        if every < 1:
            raise OptionError(f"every={shown(every)}: a checkpoint needs at least one event between")
        self.events = events
        self.every = every
        self.starts = dict(sorted((starts or {}).items()))
        """Event index -> the conversation and state its run started from, put in place before that event."""
        self._anew: dict[int, list[dict[str, JSON]]] = {}
        """The starts whose conversation replaced the one so far, as UIMessages."""
        self._stated = {index: begun.state for index, begun in self.starts.items() if begun.state is not None}
        """The starts that put a state in place."""
        self.failures: dict[int, str] = {}
        """Event index -> why the assembler could not take it."""
        self.touched: list[tuple[tuple[int, int], ...]] = []
        """Per event, the ``(message index, part index)`` pairs it changed, in order (part ``-1``: the message as a
        whole, its metadata, or a message list cut short)."""
        self._checkpoints: list[bytes] = []
        self._shared = _SharedCheckpoints()
        self._states: list[tuple[JSON, tuple[str, ...], int | None]] = []
        self._unkeyed: list[int] = []
        """The events that are not ``_KEYED_EVENTS`` (a lazy reading is not replayed over them)."""
        with collections_paused():  # one pass that keeps what it makes: a collection would find nothing
            self._build()

    def __len__(self) -> int:
        return len(self.events)

    def _build(self) -> None:
        assembler = UIMessageAssembler()
        state: JSON = {}
        paths: tuple[str, ...] = ()
        changed_at: int | None = None
        touched = self.touched
        held: set[tuple[int, int]] = set()
        starts = self.starts
        shared = self._shared
        for index, event in enumerate(self.events):
            if index in starts:
                begun = starts[index]
                if _message_ids(begun.messages) != _message_ids(to_agui_messages_wire(assembler.messages)):
                    self._anew[index] = to_ui_messages(begun.messages)
                    assembler = UIMessageAssembler(copy_json(self._anew[index]))
                    held = set()
                    shared.forget()
                if begun.state is not None:
                    state, paths, changed_at = copy_json(begun.state), (), None
            if index % self.every == 0:
                self._checkpoints.append(shared.frozen(assembler))
                self._states.append((copy_json(state), paths, changed_at))
            if not shared.mention(event, assembler):
                self._unkeyed.append(index)
            try:
                changes = assembler.push(event)
            except Exception as exc:
                self.failures[index] = str(exc)
                changes = []
                shared.forget()  # what it changed before it failed is not known
            shared.note(changes)
            assembler.chunks.clear()  # only the messages are needed; the chunks would be copied at every checkpoint
            pairs: dict[tuple[int, int], None] = {}
            for change in changes:
                pair = (change.message_index, change.part_index if change.kind in ("part", "text") else -1)
                if pair not in held:
                    pairs[pair] = None
            held = set()
            if not pairs and event.get("type") == "TOOL_CALL_RESULT":
                # A result waits for the next event (an outcome claim) before it reaches its part; a seek shows
                # it at once (the end of the input flushes it), so it is this event's change, not the next one's.
                result_pair = _tool_part(assembler.messages, event.get("toolCallId"))
                if result_pair is not None:
                    pairs[result_pair] = None
                    held = {pair}
            touched.append(tuple(pairs))
            stepped = _state_step(state, event)
            if stepped is not None:
                state, paths = stepped
                changed_at = index

    def messages_after(self, n: int) -> list[dict[str, JSON]]:
        """The UIMessages after ``events[:n + 1]`` (a copy, yours to keep); ``n = -1`` gives no messages."""
        n = self._checked(n)
        if n < 0:
            return []
        start = (n // self.every) * self.every
        begun = self._start_within(self._anew, start, n)
        if begun is None:
            assembler = self._shared.thawed(n // self.every, self._checkpoints[n // self.every])
        else:  # a run started from its own conversation since the checkpoint: from there
            start, assembler = begun, UIMessageAssembler(copy_json(self._anew[begun]))
        segment = self.events[start : n + 1]
        if any(start <= i <= n for i in self.failures):
            for index, event in enumerate(segment, start):
                if index not in self.failures:
                    assembler.push(event)
        else:
            for event in merge_consecutive_deltas(segment):
                assembler.push(event)
        with contextlib.suppress(
            Exception
        ):  # a held-back result that cannot be placed: the messages as they are
            assembler.close()
        return assembler.messages

    def conversation_after(self, n: int) -> Sequence[dict[str, JSON]]:
        """``messages_after(n)`` read lazily: a message, and a block of a long message's parts, is read from its
        checkpoint when first asked for, so what is not looked at costs nothing (the inspector's window of the
        conversation). The list is the timeline's, not a copy; read it, do not keep it.

        >>> timeline = EventTimeline([{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}])
        >>> [m["id"] for m in timeline.conversation_after(0)]
        ['r']
        """
        n = self._checked(n)
        if n < 0:
            return []
        number = n // self.every
        start = number * self.every
        unkeyed = self._unkeyed
        at = bisect.bisect_left(unkeyed, start)
        if (
            (at < len(unkeyed) and unkeyed[at] <= n)
            or self._start_within(self._anew, start, n) is not None
            or any(start <= i <= n for i in self.failures)
        ):
            return self.messages_after(n)  # events that may reach any message: read it all
        assembler = self._shared.thawed(number, self._checkpoints[number], lazy=True)
        for event in merge_consecutive_deltas(self.events[start : n + 1]):
            assembler.push(event)
        with contextlib.suppress(Exception):  # a held-back result that cannot be placed: as they are
            assembler.close()
        return assembler.messages

    def checkpoint_bytes(self) -> int:
        """The bytes the checkpoints hold, the structure they share counted once."""
        return sum(map(len, self._checkpoints)) + self._shared.size()

    def state_after(self, n: int) -> StateAt:
        """The shared state after ``events[:n + 1]`` (a copy) and what its last state event changed."""
        n = self._checked(n)
        if n < 0:
            return StateAt({}, (), None)
        start = (n // self.every) * self.every
        state, paths, changed_at = self._states[n // self.every]
        begun = self._start_within(self._stated, start, n)
        if begun is not None:
            start, state, paths, changed_at = begun, self._stated[begun], (), None
        state = copy_json(state)
        for index in range(start, n + 1):
            stepped = _state_step(state, self.events[index])
            if stepped is not None:
                state, paths = stepped
                changed_at = index
        return StateAt(state, paths, changed_at)

    def events_of_part(self, message_index: int, part_index: int, *, upto: int | None = None) -> list[int]:
        """The events (up to event ``upto``, default the last) that changed part ``part_index`` of message
        ``message_index``; for a part no event names (a whole message put at once), the events that put it."""
        last = len(self.events) - 1 if upto is None else self._checked(upto)
        touched = self.touched
        exact = [i for i in range(last + 1) if (message_index, part_index) in touched[i]]
        if exact or part_index < 0:
            return exact
        return [i for i in range(last + 1) if (message_index, -1) in touched[i]]

    @staticmethod
    def _start_within(starts: Mapping[int, Any], checkpoint: int, n: int) -> int | None:
        """The last of ``starts`` after event ``checkpoint`` (whose checkpoint holds any start there) up to
        ``n``."""
        begun = None
        for index in starts:
            if index > n:
                break
            if index > checkpoint:
                begun = index
        return begun

    def _checked(self, n: int) -> int:
        if not -1 <= n < len(self.events):
            raise SeekError(f"event {n}: the run has {len(self.events)} events (0 to {len(self.events) - 1})")
        return n


def _message_ids(messages: list[dict[str, JSON]]) -> list[Any]:
    """The ids of a run input's messages, in order (activity messages stay on the client: not in an input)."""
    return [m.get("id") for m in messages if m.get("role") != "activity"]


def _tool_part(messages: list[dict[str, JSON]], tool_call_id: Any) -> tuple[int, int] | None:
    """Where the tool part of call ``tool_call_id`` is, the newest message first."""
    for message_index in range(len(messages) - 1, -1, -1):
        parts = messages[message_index].get("parts") or ()
        for part_index in range(
            len(parts) - 1, -1, -1
        ):  # the newest first: a result follows its call closely
            if parts[part_index].get("toolCallId") == tool_call_id:
                return message_index, part_index
    return None


def _mention_input(event: dict[str, JSON], assembler: UIMessageAssembler, mentioned: set[Any]) -> bool:
    """Add the ids a run input names to ``mentioned``: its messages (the history the run adds), their tool calls,
    and the calls its resumed interrupts answer. ``False``: an input of another shape (any entry may change)."""
    run_input = event.get("input")
    if not isinstance(run_input, dict):
        return False
    messages = run_input.get("messages") or []
    resume = run_input.get("resume") or []
    if not isinstance(messages, list) or not isinstance(resume, list):
        return False
    for message in messages:
        if not isinstance(message, dict):
            return False
        mentioned.add(message.get("id"))
        mentioned.add(message.get("toolCallId"))
        for call in message.get("toolCalls") or ():
            if isinstance(call, dict):
                mentioned.add(call.get("id"))
    pending = assembler._translator._pending_interrupts
    for entry in resume:
        if isinstance(entry, dict):
            interrupt = entry.get("interruptId")
            mentioned.add(interrupt)
            if isinstance(interrupt, str):
                mentioned.add(pending.get(interrupt))
    return True


class _Ref:
    """A shared object (the message list, a message, a parts list) in a checkpoint: its place in the store."""

    __slots__ = ("place",)

    def __init__(self, place: int) -> None:
        self.place = place

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return _shared_at, (self.place,)


_FREEZING: list[dict[int, int]] = []
"""While a checkpoint is written: ``id`` -> place of the shared objects it refers to."""
_THAWING: list[_Thaw] = []
"""While a checkpoint is read: the reading that builds its shared objects."""


def _shared_at(place: int) -> Any:
    return _THAWING[-1].load(place)


def _ref(obj: Any) -> Any:
    """``obj`` as a reference when the checkpoint being written shares it, else itself."""
    place = _FREEZING[-1].get(id(obj)) if _FREEZING else None
    return obj if place is None else _Ref(place)


def _reduce_sentinel(obj: object) -> Any:
    index = _sentinels()[1].get(id(obj))
    if index is None:
        return object, ()
    return _sentinel_at, (index,)


def _sentinel_at(index: int) -> object:
    return _sentinels()[0][index]


def _reduce_reducer(reducer: UIMessageStreamReducer) -> Any:
    fields = dict(vars(reducer))
    del fields["_handlers"]  # bound methods: rebuilt when read
    for name in ("_message", "_parts"):
        if name in fields:
            fields[name] = _ref(fields[name])
    _shared_tables(fields, _REDUCER_TABLES)
    return _reducer_from, (fields,)


_REDUCER_TABLES = ("_partial_tool_calls", "_last_tool", "_step_static", "_step_dynamic", "_data_by_id")
_TRANSLATOR_TABLES = ("_known", "_owner", "_tools", "_customs")
_ASSEMBLER_TABLES = ("_index", "_streams")


def _shared_tables(fields: dict[str, Any], names: tuple[str, ...]) -> None:
    """Write the big tables among ``fields`` as references to their blocks in the store being written to."""
    store = _STORING[-1] if _STORING else None
    if store is None:
        return
    for name in names:
        table = fields.get(name)
        if (type(table) is dict or type(table) is set) and len(table) >= TABLE_BLOCK:
            fields[name] = _Ref(store.table_place(table))


def _reduce_translator(translator: EventChunkTranslator) -> Any:
    fields = dict(vars(translator))
    _shared_tables(fields, _TRANSLATOR_TABLES)
    return _translator_from, (fields,)


def _translator_from(fields: dict[str, Any]) -> EventChunkTranslator:
    translator: EventChunkTranslator = EventChunkTranslator.__new__(EventChunkTranslator)
    vars(translator).update(fields)
    return translator


def _reducer_from(fields: dict[str, Any]) -> UIMessageStreamReducer:
    reducer: UIMessageStreamReducer = UIMessageStreamReducer.__new__(UIMessageStreamReducer)
    vars(reducer).update(fields)
    reducer._handlers = _Handlers(reducer)
    return reducer


class _Handlers(dict):  # type: ignore[type-arg]
    """A read reducer's handlers, bound when first asked for (most read reducers never take another chunk)."""

    __slots__ = ("_reducer",)

    def __init__(self, reducer: UIMessageStreamReducer) -> None:
        super().__init__()
        self._reducer = reducer

    def get(self, kind: str, default: Any = None) -> Any:
        found = dict.get(self, kind)
        if found is None:
            name = _handler_names().get(kind)
            if name is None:
                return default
            found = self[kind] = getattr(self._reducer, name)
        return found


def _handler_names() -> dict[str, str]:
    """The reducer's chunk types and the names of the methods that handle them."""
    global _HANDLERS
    if _HANDLERS is None:
        _HANDLERS = {kind: method.__name__ for kind, method in UIMessageStreamReducer()._handlers.items()}
    return _HANDLERS


_HANDLERS: dict[str, str] | None = None


def _reduce_stream(stream: StreamedMessage) -> Any:
    store = _STORING[-1] if _STORING else None
    if store is None or stream.messages is not store.messages_now:
        return _stream_from, (_ref(stream.messages), stream.index, stream.reducer)
    if _INLINE and _INLINE[-1] is stream:  # the stream's own entry in the store
        return _stream_from, (_TheMessages(), stream.index, stream.reducer)
    return _shared_at, (store.stream_place(stream),)


class _TheMessages:
    """The assembler's message list, in a stream stored once for many checkpoints (its place changes with each)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _the_messages, ()


def _the_messages() -> Any:
    thaw = _THAWING[-1]
    return thaw.load(thaw.messages_place)


_STORING: list[_SharedCheckpoints] = []
"""While a checkpoint is written: the store it writes to."""
_INLINE: list[StreamedMessage] = []
"""While a stream's own entry is written: that stream."""


def _stream_from(
    messages: list[dict[str, JSON]], index: int, reducer: UIMessageStreamReducer
) -> StreamedMessage:
    stream: StreamedMessage = StreamedMessage.__new__(StreamedMessage)
    stream.messages, stream.index, stream.reducer = messages, index, reducer
    return stream


def _reduce_assembler(assembler: UIMessageAssembler) -> Any:
    fields = dict(vars(assembler))
    fields["messages"] = _ref(fields["messages"])
    _shared_tables(fields, _ASSEMBLER_TABLES)
    return _assembler_from, (fields,)


def _assembler_from(fields: dict[str, Any]) -> UIMessageAssembler:
    assembler: UIMessageAssembler = UIMessageAssembler.__new__(UIMessageAssembler)
    vars(assembler).update(fields)
    return assembler


_DISPATCH: dict[type, Any] = {
    object: _reduce_sentinel,
    UIMessageStreamReducer: _reduce_reducer,
    StreamedMessage: _reduce_stream,
    UIMessageAssembler: _reduce_assembler,
    EventChunkTranslator: _reduce_translator,
}


def _pickled(obj: Any, shared: dict[int, int] | None = None) -> bytes:
    """``obj`` as bytes; the objects ``shared`` names (``id`` -> place) as references to their place. No hook
    runs per object (a ``persistent_id`` would, for every string): the classes that hold shared objects, and the
    package's ``object()`` sentinels (compared with ``is``), have their own reductions."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, **_DISPATCH}
    _FREEZING.append(shared or {})
    try:
        pickler.dump(obj)
    finally:
        _FREEZING.pop()
    return buffer.getvalue()


def _unpickled(data: bytes, thaw: _Thaw | None = None) -> Any:
    if thaw is not None:
        _THAWING.append(thaw)
    try:
        return pickle.loads(data)
    finally:
        if thaw is not None:
            _THAWING.pop()


def _frozen(assembler: UIMessageAssembler) -> bytes:
    """A checkpoint with nothing shared: the assembler as bytes (smaller than a deep copy, faster both ways)."""
    return _pickled(assembler)


def _thawed(checkpoint: bytes) -> UIMessageAssembler:
    assembler: UIMessageAssembler = _unpickled(checkpoint)
    return assembler


class _Message:
    """A message as stored: its fields, its parts list a place in the store (kept in its key order)."""

    __slots__ = ("fields", "parts")

    def __init__(self, message: dict[str, JSON], parts: int | None) -> None:
        self.fields = message if parts is None else {**message, "parts": None}
        self.parts = parts

    def built(self, thaw: _Thaw) -> dict[str, JSON]:
        if self.parts is not None:
            self.fields["parts"] = thaw.load(self.parts)
        return self.fields


@dataclass(frozen=True, slots=True)
class _Joined:
    """A stored list made of the lists stored at ``places``, one after the other (of ``lengths`` items, when
    known: a lazy reading reads a block when one of its items is first asked for)."""

    places: tuple[int, ...]
    lengths: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class _Items:
    """A stored list whose items are the objects stored at ``places``."""

    places: tuple[int, ...]


@dataclass(slots=True)
class _Block:
    """A block of a list as a checkpoint stored it: its items (kept, so their ``id`` stays theirs) and where."""

    items: list[Any]
    place: int


@dataclass(frozen=True, slots=True)
class _Table:
    """A stored table (a dict, or a set when ``is_set``) made of the blocks stored at ``places``, in order: the
    key at ``positions[key]`` is in block ``positions[key] // block`` (a table only grows at its end, so the map
    of the table as stored last holds this one's keys where they were)."""

    places: tuple[int, ...]
    is_set: bool
    positions: dict[Any, int] = field(default_factory=dict, compare=False)
    block: int = TABLE_BLOCK


@dataclass(slots=True)
class _StoredTable:
    """A table as the checkpoints stored it: the object, its keys in stored order, and its blocks' places."""

    table: dict[Any, Any] | set[Any]
    keys: list[Any]
    positions: dict[Any, int]
    blocks: list[int]


@dataclass(slots=True)
class _StoredMessage:
    message: dict[str, JSON]
    parts: Any
    place: int
    part_blocks: list[_Block]


class _SharedCheckpoints:
    """Checkpoints of one assembler that share what did not change between them.

    A checkpoint is a pickle of the assembler in which the message list, each message and each message's parts
    list are references into this store. A message no event changed since the checkpoint before (``note``) and
    that is still the same object keeps its stored copy; a changed one is stored again, its blocks of parts that
    did not change kept. Reading a checkpoint (``thawed``) builds fresh objects, shared where the assembler
    shares them (a stream's message is the list's).
    """

    def __init__(self) -> None:
        self.stored: list[bytes | _Joined | _Items | _Table] = []
        self._size = 0
        self.message_bytes = 0
        """The bytes of the stored messages, parts and lists."""
        self.table_bytes = 0
        """The bytes of the stored tables' blocks and lists (the rest: the streams' entries)."""
        self._messages: list[_StoredMessage] = []
        self._message_blocks: list[_Block] = []
        self._places: dict[int, int] = {}
        """``id`` -> place of the objects the last checkpoint stored (message list, messages, parts lists)."""
        self._changed: set[int] = set()
        self._changed_parts: dict[int, set[int] | None] = {}
        self._all_changed = True
        self._streams: dict[int, tuple[StreamedMessage, tuple[Any, ...], int, Any]] = {}
        """``id`` of a stream -> the stream, what its entry was written from, its place."""
        self.list_places: list[int] = []
        """Per checkpoint, the place of the message list."""
        self.messages_now: Any = None
        self._tables: dict[int, _StoredTable] = {}
        """``id`` -> a big table as stored so far."""
        self.stream_places: set[int] = set()
        """The places of the streams' entries (a lazy reading reads one when it is first used)."""
        self._mentioned: set[Any] = {""}
        """The ids the events since the last checkpoint named (``_ID_FIELDS``)."""
        self._dirty: set[Any] = set()
        """While a checkpoint is written: the table keys whose entries may have changed since the last one."""
        self._tables_changed = True
        self._mentioned_before: set[Any] = set()

    def size(self) -> int:
        return self._size

    def forget(self) -> None:
        """Share nothing with the checkpoints before (the assembler was replaced, or changed unseen)."""
        self._all_changed = True
        self._tables_changed = True

    def mention(self, event: dict[str, JSON], assembler: UIMessageAssembler) -> bool:
        """Note which table entries ``event`` may change (before ``assembler`` takes it); ``False`` when it may
        change any (``_KEYED_EVENTS``)."""
        kind = event.get("type")
        keyed = not (
            kind not in _KEYED_EVENTS
            or (
                "input" in event
                and (kind != "RUN_STARTED" or not _mention_input(event, assembler, self._mentioned))
            )
            or assembler._expander.has_open_streams
        )
        if not keyed:
            self._tables_changed = True
        mentioned = self._mentioned
        pending = assembler._translator._pending_result
        if pending is not None:  # a held tool result: the event lands it on its call
            mentioned.add(pending.tool_call_id)
        for name in _ID_FIELDS:
            value = event.get(name)
            if type(value) is str:
                mentioned.add(value)
        return keyed

    def note(self, changes: list[MessageChange]) -> None:
        """What an event changed, for the next checkpoint."""
        for change in changes:
            kind = change.kind
            index = change.message_index
            if kind == "part" or kind == "text":
                self._changed.add(index)
                parts = self._changed_parts.get(index, set())
                if parts is not None:
                    parts.add(change.part_index)
                    self._changed_parts[index] = parts
            elif kind == "metadata":
                self._changed.add(index)
                self._changed_parts.setdefault(index, set())
            elif kind == "message":
                self._changed.add(index)
                self._changed_parts[index] = None
            else:  # the list cut short: nothing is assumed
                self._all_changed = True

    def _store(self, value: bytes | _Joined | _Items | _Table, kind: str = "message") -> int:
        self.stored.append(value)
        size = len(value) if isinstance(value, bytes) else 8 * len(value.places) + 16
        self._size += size
        if kind == "message":
            self.message_bytes += size
        elif kind == "table":
            self.table_bytes += size
        return len(self.stored) - 1

    def frozen(self, assembler: UIMessageAssembler) -> bytes:
        """A checkpoint of ``assembler``, sharing what did not change since the last one."""
        messages = assembler.messages
        if self._all_changed:
            self._messages, self._message_blocks, self._places = [], [], {}
        places = self._places
        stored = self._messages
        del stored[len(messages) :]
        blocks = self._message_blocks
        del blocks[(len(messages) + MESSAGE_BLOCK - 1) // MESSAGE_BLOCK :]
        changed_blocks = {index // MESSAGE_BLOCK for index in self._changed}
        block_places = []
        for number, start in enumerate(range(0, len(messages), MESSAGE_BLOCK)):
            block = blocks[number] if number < len(blocks) else None
            if (
                block is not None
                and number not in changed_blocks
                and len(block.items) == min(MESSAGE_BLOCK, len(messages) - start)
            ):
                # No event changed a message of it (a message replaced or moved is a change): as it was stored.
                block_places.append(block.place)
                continue
            items = messages[start : start + MESSAGE_BLOCK]
            message_places = []
            for index, message in enumerate(items, start):
                message_places.append(self._message_place(index, message))
            block = _Block(items, self._store(_Items(tuple(message_places))))
            if number < len(blocks):
                blocks[number] = block
            else:
                blocks.append(block)
            block_places.append(block.place)
        places[id(messages)] = self._store(_Joined(tuple(block_places)))
        self.list_places.append(places[id(messages)])
        if self._all_changed:
            self._streams = {}
        changed_indexes = self._changed
        self._changed, self._changed_parts, self._all_changed = set(), {}, False
        self.messages_now = messages
        if self._tables_changed:
            self._tables = {}
        # A held result lands at the event after it: the ids named before the last checkpoint count too.
        dirty = self._dirty = self._mentioned | self._mentioned_before
        dirty.update(messages[i].get("id") for i in changed_indexes if i < len(messages))
        translator = assembler._translator
        dirty.add(translator.run_message_id)
        dirty.add(translator._last_assistant_id)
        self._mentioned_before, self._mentioned, self._tables_changed = self._mentioned, {""}, False
        _STORING.append(self)
        try:
            return _pickled(assembler, places)  # streams and reducers refer to the shared messages
        finally:
            _STORING.pop()
            self.messages_now = None

    def table_place(self, table: dict[Any, Any] | set[Any]) -> int:
        """Where a big table is stored for this checkpoint: its blocks that hold no changed entry are the ones
        stored before (a table only grows at its end, and changes where the events named it: ``_KEYED_EVENTS``);
        anything else (a table shorter, or reordered) stores it all again."""
        stored = self._tables.get(id(table))
        dirty = self._dirty
        if stored is not None and stored.table is table:
            keys, positions = stored.keys, stored.positions
            if type(table) is dict:
                new: list[Any] = []
                for key in reversed(table):
                    if key in positions:
                        in_order = positions[key] == len(keys) - 1
                        break
                    new.append(key)
                else:
                    in_order = not keys
                new.reverse()
            else:
                new = [key for key in dirty if key in table and key not in positions]
                in_order = True
            if in_order and len(keys) + len(new) == len(table):
                changed = (
                    {positions[key] // TABLE_BLOCK for key in dirty if key in positions}
                    if type(table) is dict
                    else set()
                )
                for key in new:
                    positions[key] = len(keys)
                    changed.add(len(keys) // TABLE_BLOCK)
                    keys.append(key)
                return self._table_stored(stored, changed)
        keys = list(table)
        stored = _StoredTable(table, keys, {key: i for i, key in enumerate(keys)}, [])
        self._tables[id(table)] = stored
        return self._table_stored(stored, set(range((len(keys) + TABLE_BLOCK - 1) // TABLE_BLOCK)))

    def _table_stored(self, stored: _StoredTable, changed: set[int]) -> int:
        table, keys, blocks = stored.table, stored.keys, stored.blocks
        for number in sorted(changed):
            block_keys = keys[number * TABLE_BLOCK : (number + 1) * TABLE_BLOCK]
            if type(table) is dict:
                block: Any = {key: table[key] for key in block_keys}
            else:
                block = block_keys
            place = self._store(_pickled(block, self._places), kind="table")
            if number < len(blocks):
                blocks[number] = place
            else:
                blocks.append(place)
        return self._store(
            _Table(tuple(blocks), type(table) is set, stored.positions, TABLE_BLOCK), kind="table"
        )

    def stream_place(self, stream: StreamedMessage) -> int:
        """Where a message's stream is stored: its entry from before while it took no chunk and its message and
        parts are stored where they were, else a new one."""
        reducer = stream.reducer
        message = getattr(reducer, "_message", None)
        key = (
            stream.index,
            reducer.chunk_count,
            self._places.get(id(message)),
            self._places.get(id(getattr(reducer, "_parts", None))),
            id(message),
        )
        known = self._streams.get(id(stream))
        if known is not None and known[0] is stream and known[1] == key and known[3] is message:
            return known[2]
        _INLINE.append(stream)
        try:
            place = self._store(_pickled(stream, self._places), kind="stream")
            self.stream_places.add(place)
        finally:
            _INLINE.pop()
        self._streams[id(stream)] = (stream, key, place, message)
        return place

    def _message_place(self, index: int, message: dict[str, JSON]) -> int:
        stored = self._messages
        old = stored[index] if index < len(stored) else None
        parts = message.get("parts")
        if old is not None and old.message is message and old.parts is parts and index not in self._changed:
            return old.place
        if old is not None:
            self._places.pop(id(old.message), None)
            self._places.pop(id(old.parts), None)
        self._places.pop(id(message), None)  # (stored before at another index)
        part_blocks = old.part_blocks if old is not None and old.parts is parts else []
        if type(parts) is list:
            changed = self._changed_parts.get(index, set())
            self._places[id(parts)] = self._parts_place(parts, part_blocks, changed)
        place = self._store(_pickled(_Message(message, self._places.get(id(parts)))))
        self._places[id(message)] = place
        entry = _StoredMessage(message, parts, place, part_blocks)
        if index < len(stored):
            stored[index] = entry
        else:
            stored.append(entry)
        return place

    def _parts_place(self, parts: list[Any], blocks: list[_Block], changed: set[int] | None) -> int:
        lengths = []
        del blocks[(len(parts) + PART_BLOCK - 1) // PART_BLOCK :]
        changed_blocks = None if changed is None else {index // PART_BLOCK for index in changed}
        places = []
        for number, start in enumerate(range(0, len(parts), PART_BLOCK)):
            items = parts[start : start + PART_BLOCK]
            block = blocks[number] if number < len(blocks) else None
            if (
                block is None
                or changed_blocks is None
                or number in changed_blocks
                or len(block.items) != len(items)
                or not all(map(operator.is_, items, block.items))
            ):
                block = _Block(items, self._store(_pickled(items)))
                if number < len(blocks):
                    blocks[number] = block
                else:
                    blocks.append(block)
            places.append(block.place)
            lengths.append(len(items))
        return self._store(_Joined(tuple(places), tuple(lengths)))

    def thawed(self, number: int, checkpoint: bytes, *, lazy: bool = False) -> UIMessageAssembler:
        """The assembler checkpoint ``number`` holds, as fresh objects (``lazy``: its messages, a long message's
        blocks of parts and its streams read when first used; see ``_LazyList``)."""
        thaw = _Thaw(self.stored, self.list_places[number], self.stream_places if lazy else None)
        with collections_paused():  # thousands of objects at once, none of them garbage
            assembler: UIMessageAssembler = _unpickled(checkpoint, thaw)
        return assembler


class _Thaw:
    """One reading of a checkpoint: each stored object built once, so what the assembler shares stays shared."""

    def __init__(
        self,
        stored: list[bytes | _Joined | _Items | _Table],
        messages_place: int,
        stream_places: set[int] | None = None,
    ) -> None:
        self.stored = stored
        self.messages_place = messages_place
        self.built: dict[int, Any] = {}
        self.lazy = stream_places is not None
        self.stream_places = stream_places or set()

    def load(self, place: int) -> Any:
        built = self.built.get(place)
        if built is not None:
            return built
        value = self.stored[place]
        if self.lazy:
            lazy = self._lazy(place, value)
            if lazy is not None:
                self.built[place] = lazy
                return lazy
        return self.read(place, value)

    def _lazy(self, place: int, value: Any) -> Any:
        """What a lazy reading puts at ``place`` until it is used (``None``: the object itself, read now)."""
        if place in self.stream_places:
            return _LazyStream(self, place)
        if type(value) is _Table and len(value.places) > 1:
            return _LazySet(self, value) if value.is_set else _LazyDict(self, value)
        if type(value) is _Joined:
            if place == self.messages_place:
                blocks = [self.stored[block] for block in value.places]
                if len(blocks) > 1 and all(type(block) is _Items for block in blocks):
                    places = [item for block in blocks for item in block.places]  # type: ignore[union-attr]
                    return _LazyList(self, places, None)
            elif len(value.lengths) > 2:  # a long message's parts
                return _LazyList(self, value.places, value.lengths)
        return None

    def read(self, place: int, value: Any) -> Any:
        """The object stored at ``place``, read now."""
        if isinstance(value, bytes):
            result = _unpickled(value, self)
            if isinstance(result, _Message):
                result = result.built(self)
        elif isinstance(value, _Table):
            table: Any = set() if value.is_set else {}
            for block in value.places:
                table.update(_unpickled(self.stored[block], self))  # type: ignore[arg-type]
            result = table
        else:
            result = []
            self.built[place] = result
            if isinstance(value, _Items):
                result.extend(self.load(item) for item in value.places)
            else:
                for block in value.places:
                    result.extend(self._block(block))
            return result
        self.built[place] = result
        return result

    def _block(self, place: int) -> list[Any]:
        value = self.stored[place]
        if isinstance(value, bytes):
            block: list[Any] = _unpickled(value, self)
            return block
        return list(self.load(place))


_UNREAD = object()
"""An item of a ``_LazyList`` not read yet."""


class _LazyList(list):  # type: ignore[type-arg]
    """A list of a lazy reading (the message list, a long message's parts) whose items are read from the store
    when first asked for: by index, by slice, by iterating, or all of them to compare, search or show the list
    (a lazy reading is replayed only over events that use these lists no other way, ``_KEYED_EVENTS``).

    Items are read one message at a time (``places``: each item's place) or a block of parts at a time
    (``lengths``: the blocks' lengths). The list may grow at its end, and be cut at its end; its items before stay
    where they were."""

    __slots__ = ("_places", "_starts", "_thaw")

    def __init__(self, thaw: _Thaw, places: Sequence[int], lengths: tuple[int, ...] | None) -> None:
        self._thaw = thaw
        self._places = places
        if lengths is None:
            super().__init__([_UNREAD] * len(places))
            self._starts: list[int] | None = None
        else:
            self._starts = [0]
            for length in lengths:
                self._starts.append(self._starts[-1] + length)
            super().__init__([_UNREAD] * self._starts[-1])

    def _read(self, index: int) -> Any:
        thaw = self._thaw
        starts = self._starts
        if starts is None:
            value = thaw.load(self._places[index])
            list.__setitem__(self, index, value)
            return value
        block = bisect.bisect_right(starts, index) - 1
        start = starts[block]
        for offset, item in enumerate(thaw._block(self._places[block])):
            if start + offset < len(self) and list.__getitem__(self, start + offset) is _UNREAD:
                list.__setitem__(self, start + offset, item)
        return list.__getitem__(self, index)

    def __getitem__(self, index: Any) -> Any:
        value = list.__getitem__(self, index)
        if type(index) is slice:
            if any(item is _UNREAD for item in value):
                for at in range(*index.indices(len(self))):
                    if list.__getitem__(self, at) is _UNREAD:
                        self._read(at)
                value = list.__getitem__(self, index)
            return value
        if value is _UNREAD:
            value = self._read(index if index >= 0 else index + len(self))
        return value

    def __iter__(self) -> Any:
        for index in range(len(self)):
            yield self[index]

    def _read_all(self) -> None:
        for index in range(len(self)):
            if list.__getitem__(self, index) is _UNREAD:
                self._read(index)

    def __eq__(self, other: object) -> bool:
        self._read_all()
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __contains__(self, value: object) -> bool:
        self._read_all()
        return list.__contains__(self, value)

    def __repr__(self) -> str:
        self._read_all()
        return list.__repr__(self)

    def copy(self) -> list[Any]:
        return list(self)

    def __reduce__(self) -> Any:
        return list, (list(self),)

    # Anything that moves items reads them all first (their places are by index).
    def insert(self, index: Any, value: Any) -> None:
        self._read_all()
        list.insert(self, index, value)

    def pop(self, index: Any = -1) -> Any:
        self._read_all()
        return list.pop(self, index)

    def remove(self, value: Any) -> None:
        self._read_all()
        list.remove(self, value)

    def __delitem__(self, index: Any) -> None:
        self._read_all()
        list.__delitem__(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        if type(index) is slice:
            self._read_all()
        list.__setitem__(self, index, value)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._read_all()
        list.sort(self, *args, **kwargs)

    def reverse(self) -> None:
        self._read_all()
        list.reverse(self)


class _LazyTable:
    """What the lazy tables share: the stored table, and its blocks not read yet."""

    __slots__ = ()

    def _setup(self, thaw: _Thaw, table: _Table) -> None:
        # (the slots are the subclasses': a dict or set subclass and a slotted base cannot share a layout)
        object.__setattr__(self, "_thaw", thaw)
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_unread", set(range(len(table.places))))

    def _read_key(self, key: Any) -> None:
        if self._unread:
            try:
                position = self._table.positions.get(key)
            except TypeError:  # unhashable: not a key of the table
                return
            if position is not None and position // self._table.block in self._unread:
                self._read_block(position // self._table.block)

    def _read_all(self) -> None:
        for block in sorted(self._unread):
            self._read_block(block)

    def _read_block(self, block: int) -> None:
        self._unread.discard(block)
        self._take(_unpickled(self._thaw.stored[self._table.places[block]], self._thaw))  # type: ignore[arg-type]

    _take: Callable[[Any], None]
    """Put a block's entries in the table (the dict's and the set's own)."""
    _thaw: _Thaw
    _table: _Table
    _unread: set[int]


class _LazyDict(_LazyTable, dict):  # type: ignore[type-arg]
    """A big table of a lazy reading: a block of entries is read when one of its keys is first asked for; a
    lazy reading is replayed only over events that look tables up by key (``_KEYED_EVENTS``), and anything else
    reads it all (its order then: the entries set since first)."""

    __slots__ = ("_table", "_thaw", "_unread")

    def __init__(self, thaw: _Thaw, table: _Table) -> None:
        dict.__init__(self)
        self._setup(thaw, table)

    def _take(self, items: Any) -> None:
        for key, value in items.items():
            if not dict.__contains__(self, key):  # set since: the newer value
                dict.__setitem__(self, key, value)

    def __getitem__(self, key: Any) -> Any:
        self._read_key(key)
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._read_key(key)
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self._read_key(key)
        return dict.__contains__(self, key)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._read_key(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        self._read_key(key)
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        self._read_key(key)
        return dict.pop(self, key, *default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._read_key(key)
        return dict.setdefault(self, key, default)

    def __iter__(self) -> Any:
        self._read_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._read_all()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._read_all()
        return dict.keys(self)

    def values(self) -> Any:
        self._read_all()
        return dict.values(self)

    def items(self) -> Any:
        self._read_all()
        return dict.items(self)

    def __reduce__(self) -> Any:
        return dict, (dict(self.items()),)


class _LazySet(_LazyTable, set):  # type: ignore[type-arg]
    """A big set of a lazy reading (the translator's known message ids), read a block at a time (``_LazyDict``)."""

    __slots__ = ("_table", "_thaw", "_unread")

    def __init__(self, thaw: _Thaw, table: _Table) -> None:
        set.__init__(self)
        self._setup(thaw, table)

    def _take(self, items: Any) -> None:
        set.update(self, items)

    def __contains__(self, key: object) -> bool:
        self._read_key(key)
        return set.__contains__(self, key)

    def discard(self, key: Any) -> None:
        self._read_key(key)
        set.discard(self, key)

    def remove(self, key: Any) -> None:
        self._read_key(key)
        set.remove(self, key)

    def __iter__(self) -> Any:
        self._read_all()
        return set.__iter__(self)

    def __len__(self) -> int:
        self._read_all()
        return set.__len__(self)

    def __reduce__(self) -> Any:
        return set, (set(iter(self)),)


class _LazyStream:
    """A stream of a lazy reading: read from the store when first used."""

    __slots__ = ("_place", "_real", "_thaw")

    def __init__(self, thaw: _Thaw, place: int) -> None:
        object.__setattr__(self, "_thaw", thaw)
        object.__setattr__(self, "_place", place)
        object.__setattr__(self, "_real", None)

    def _stream(self) -> StreamedMessage:
        real = self._real
        if real is None:
            real = self._thaw.read(self._place, self._thaw.stored[self._place])
            object.__setattr__(self, "_real", real)
        return real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._stream(), name, value)


def _sentinels() -> tuple[list[object], dict[int, int]]:
    """The package's bare ``object()`` sentinels, and their places in that list by ``id``."""
    global _SENTINELS
    if _SENTINELS is None:
        values = list(
            {
                id(value): value
                for name, module in list(sys.modules.items())
                if name.startswith("agui_notebook.")
                for value in vars(module).values()
                if type(value) is object
            }.values()
        )
        _SENTINELS = values, {id(value): i for i, value in enumerate(values)}
    return _SENTINELS


_SENTINELS: tuple[list[object], dict[int, int]] | None = None


def _state_step(state: JSON, event: dict[str, JSON]) -> tuple[JSON, tuple[str, ...]] | None:
    """The state after a state event and the paths it changed; ``None`` for any other event (or a delta that
    does not apply: the client keeps the old state)."""
    kind = event.get("type")
    if kind == "STATE_SNAPSHOT":
        return copy_json(event.get("snapshot")), ("",)
    if kind == "STATE_DELTA":
        operations: JSON = event.get("delta")
        try:
            state = apply_json_patch(state, operations)
        except Exception:
            return None
        paths = tuple(
            op["path"] for op in operations if isinstance(op, dict) and isinstance(op.get("path"), str)
        )
        return state, paths
    return None
