"""Incremental assembly of UIMessages from AG-UI events, and the public one-shot conversions.

Data flows one way: AG-UI wire events -> :class:`EventChunkTranslator` (routed AI SDK chunks) -> one
:class:`StreamedMessage` (a :class:`UIMessageStreamReducer` and its place in the list) per assistant UIMessage ->
UIMessage dicts, with a :class:`MessageChange` for every change so a live view can patch instead of re-render.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from agui_notebook._errors import MessageValidationError, UIMessageStreamErrorChunk
from agui_notebook._options import keyword_options, listed
from agui_notebook._types import JSON, EventSource
from agui_notebook.agui._expand import ChunkExpander
from agui_notebook.agui._intake import (
    aiter_event_records,
    iter_event_records,
    to_wire_event,
    unprocessable_event,
    wire_event_list,
)
from agui_notebook.agui._reducer import EventReducer
from agui_notebook.agui._tool_outcome import FAILED_CLOSEOUT, failed_call
from agui_notebook.bridge._event_chunks import (
    EventChunkTranslator,
    MessageInfo,
    MessagesSnapshot,
    PartInfo,
    Routed,
    RoutedChunk,
    TextAppend,
    WholeMessage,
)
from agui_notebook.bridge._located import conversion_errors, locate_event_failure
from agui_notebook.bridge._messages import (
    AGUI_KEY,
    ASSISTANT_SIDE,
    to_agui_messages_wire,
    to_ui_messages,
    turn_groups,
)
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._reducer import UIMessageStreamReducer
from agui_notebook.wire._json import js_concat

if TYPE_CHECKING:
    from agui_notebook.ui._parts import UIMessage


def tool_call_ended(part: Mapping[str, Any]) -> str | None:
    """How the client ended a tool call the agent did not finish: ``"cancelled"``, ``"stopped"`` or None."""
    metadata = part.get("callProviderMetadata")
    ours = metadata.get(AGUI_KEY) if type(metadata) is dict else None
    return ours.get("ended") if type(ours) is dict else None


def ended_as(part: dict[str, JSON], how: str) -> dict[str, JSON]:
    """``part`` marked as ended by the client (``callProviderMetadata["ag-ui"]["ended"]``, read by the front end)."""
    metadata = dict(part.get("callProviderMetadata") or {})
    metadata[AGUI_KEY] = {**(metadata.get(AGUI_KEY) or {}), "ended": how}
    return {**part, "callProviderMetadata": metadata}


class StreamedMessage:
    """An assistant UIMessage that one AI SDK chunk stream builds in place in a message list.

    ``push(chunk)`` applies a chunk and returns its changes, indexed by the message's place in ``messages``. A
    ``start`` chunk naming another message id begins a separate message, as the AI SDK chat does: it takes the
    place of the message while that has no parts, and is appended after it otherwise.

    >>> messages = [{"id": "u1", "role": "user", "parts": []}, {"id": "a1", "role": "assistant", "parts": []}]
    >>> stream = StreamedMessage(messages, 1)
    >>> changes = stream.push({"type": "text-start", "id": "t"})
    >>> changes += stream.push({"type": "text-delta", "id": "t", "delta": "Hi"})
    >>> messages[1]["parts"]
    [{'type': 'text', 'text': 'Hi', 'state': 'streaming'}]
    >>> changes
    [MessageChange(kind='part', message_index=1, part_index=0, delta=''),
     MessageChange(kind='text', message_index=1, part_index=0, delta='Hi')]
    """

    __slots__ = ("index", "messages", "reducer")

    def __init__(
        self,
        messages: list[dict[str, JSON]],
        index: int,
        *,
        on_error: Callable[[UIMessageStreamErrorChunk], None] | None = None,
        defer_tool_input: bool = False,
    ) -> None:
        self.messages = messages
        self.index = index
        self.reducer = UIMessageStreamReducer(
            message=messages[index], on_error=on_error, defer_tool_input=defer_tool_input
        )
        # The reducer works on a copy of the message; the list holds that copy from now on.
        messages[index] = self.reducer.message

    def push(self, chunk: dict[str, JSON]) -> list[MessageChange]:
        """Apply one chunk; returns what changed (the whole message when the chunk began a new one)."""
        reducer = self.reducer
        changes = reducer.push(chunk)
        message = reducer.message
        messages = self.messages
        index = self.index
        if message is messages[index]:
            return [MessageChange(c.kind, index, c.part_index, c.delta) for c in changes]
        if message.get("id") != messages[index].get("id") and messages[index].get("parts"):
            messages.append(message)
            index = self.index = len(messages) - 1
        else:
            messages[index] = message
        return [MessageChange("message", index)]


class UIMessageAssembler:
    """Build UIMessages from AG-UI events one event at a time, reporting what changed.

    ``messages`` holds UIMessage dicts (AI SDK JSON) and is updated in place.

    >>> assembler = UIMessageAssembler()
    >>> changes = assembler.push({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"})
    >>> changes += assembler.push({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"})
    >>> changes += assembler.push({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"})
    >>> [p["type"] for p in assembler.messages[0]["parts"]]
    ['step-start', 'text']
    >>> changes[-1].kind, changes[-1].delta
    ('text', 'Hi')
    """

    @conversion_errors("ui", method=True)
    @keyword_options
    def __init__(self, messages: Iterable[dict[str, JSON]] = (), *, defer_tool_input: bool = False) -> None:
        self.defer_tool_input = defer_tool_input
        """Leave streamed tool inputs unparsed until ``settle()`` (see ``UIMessageStreamReducer``)."""
        self.messages: list[dict[str, JSON]] = _continued(messages)
        self._index: dict[str, int] = {m["id"]: i for i, m in enumerate(self.messages)}
        known = {m["id"] for m in to_agui_messages_wire(self.messages)} | set(self._index)
        self._translator = EventChunkTranslator(known_message_ids=known)
        self._translator.continue_from(self.messages)
        self._streams: dict[str, StreamedMessage] = {}
        self._expander = ChunkExpander()
        self.chunks: list[dict[str, JSON]] = []
        """Every AI SDK chunk produced so far, in order (the assistant messages' chunk streams, interleaved)."""
        self._pushed = 0
        self._snapshot_in_run = False  # a MESSAGES_SNAPSHOT changed the messages since the run started

    def push(self, event: Any) -> list[MessageChange]:
        """Apply one AG-UI event (wire dict or ``ag_ui.core`` model); returns the changes it made.

        ``*_CHUNK`` events are expanded here, so a live agent's raw events can be pushed as they come. An event
        it cannot take raises :class:`EventParseError` naming it by its position among the pushed events.
        """
        index = self._pushed
        self._pushed = index + 1
        wire = event if type(event) is dict else to_wire_event(event)
        try:
            kind = wire.get("type")
            if self._expander.has_open_streams or (type(kind) is str and kind.endswith("_CHUNK")):
                changes: list[MessageChange] = []
                for expanded in self._expander.feed(wire):
                    changes.extend(self._apply(self._translator.push(expanded)))
                return changes
            run_message_id = self._translator.run_message_id
            if kind == "RUN_STARTED":
                self._snapshot_in_run = False
            changes = self._apply(self._translator.push(wire))
            if kind == "RUN_ERROR" and run_message_id is not None:
                changes += self._blame_closed_calls(run_message_id, str(wire.get("message", "")))
            elif kind == "RUN_FINISHED" and run_message_id is not None and self._snapshot_in_run:
                changes += self._drop_if_empty(run_message_id, wire)
            return changes
        except Exception as exc:
            raise unprocessable_event(wire, exc, index=index) from exc

    def settle(self) -> None:
        """Parse the deferred tool inputs into ``messages`` (a no-op unless ``defer_tool_input``)."""
        if self.defer_tool_input:
            for stream in self._streams.values():
                stream.reducer.settle()

    def close(self) -> list[MessageChange]:
        """Flush what is held back at the end of a stream (a tool result awaiting an outcome claim).

        Like ``@ag-ui/client``, the end of the input closes nothing else: a message cut off mid-stream stays
        in its streaming state.
        """
        return self._apply(self._translator.close())

    def _apply(self, routed: list[Routed]) -> list[MessageChange]:
        changes: list[MessageChange] = []
        for item in routed:
            if isinstance(item, RoutedChunk):
                self.chunks.append(item.chunk)
                stream = self._streams.get(item.message_id)
                if stream is None:
                    stream = self._open(item.message_id, changes)
                changes.extend(stream.push(item.chunk))
            elif isinstance(item, WholeMessage):
                changes.extend(self._put(item.message, item.before))
            elif isinstance(item, TextAppend):
                changes.extend(self._append_text(item))
            elif isinstance(item, MessageInfo):
                changes.extend(self._message_info(item))
            elif isinstance(item, PartInfo):
                changes.extend(self._part_info(item))
            elif isinstance(item, MessagesSnapshot):
                changes.extend(self._snapshot(item.event))
        return changes

    def _open(self, message_id: str, changes: list[MessageChange]) -> StreamedMessage:
        """The chunk stream of message ``message_id``, which is added (empty) when it is new."""
        index = self._index.get(message_id)
        if index is None:
            changes.extend(self._put({"id": message_id, "role": "assistant", "parts": []}))
            index = self._index[message_id]
        stream = self._streams[message_id] = StreamedMessage(
            self.messages, index, defer_tool_input=self.defer_tool_input
        )
        return stream

    def _put(self, message: dict[str, JSON], before: str | None = None) -> list[MessageChange]:
        index = self._index.get(message["id"])
        if index is not None:
            self.messages[index] = message
            self._streams.pop(message["id"], None)
            return [MessageChange("message", index)]
        at = self._index.get(before) if before is not None else None
        if at is None:
            self._index[message["id"]] = len(self.messages)
            self.messages.append(message)
            return [MessageChange("message", len(self.messages) - 1)]
        # History that precedes what was streamed: every message from here on moves one place down.
        self.messages.insert(at, message)
        for i in range(at, len(self.messages)):
            self._index[self.messages[i]["id"]] = i
        for message_id, stream in self._streams.items():
            stream.index = self._index[message_id]
        return [MessageChange("message", i) for i in range(at, len(self.messages))]

    def _snapshot(self, event: dict[str, JSON]) -> list[MessageChange]:
        """Replace the messages as ``@ag-ui/client`` does with a ``MESSAGES_SNAPSHOT``.

        The client keeps the messages it has in their order, each replaced by the snapshot's copy or dropped when
        the snapshot lacks it (unless it is a reasoning or activity message the snapshot does not speak for), and
        appends the snapshot's new messages. That rule is applied to the AG-UI form of the UIMessages (the
        reference reducer's, so it is the client's rule exactly), and the result is grouped into UIMessages as
        ``to_ui_messages`` groups it: consecutive assistant, tool, reasoning and activity messages are one turn.
        A turn takes the place of the first UIMessage that showed one of its messages: unchanged, that UIMessage
        stays as it is (same dict, its stream going on); changed, it is rebuilt from the turn keeping its id, its
        run metadata and its approvals. The open run's message, while it shows nothing the snapshot speaks for,
        becomes the snapshot's last turn when that turn is new (an answer that arrives only in a snapshot), and
        otherwise waits at the end for the run's output.
        """
        self.settle()
        old = self.messages
        forms = [to_agui_messages_wire([m]) for m in old]
        current = [message for form in forms for message in form]
        reducer = EventReducer(messages=current)
        reducer.feed(event)
        merged = reducer.result(copy=False).message_dicts
        if merged == current:
            return []
        origin = {message["id"]: i for i, form in enumerate(forms) for message in form}
        groups = turn_groups(merged)
        owners: list[int | None] = []
        taken: set[int] = set()
        for group in groups:
            owner = next(
                (i for m in group if (i := origin.get(m.get("id"))) is not None and i not in taken), None
            )
            if owner is not None:
                taken.add(owner)
            owners.append(owner)
        run_index = self._index.get(self._translator.run_message_id or "")
        waiting: int | None = None  # the open run's message, placed after everything
        if run_index is not None and run_index not in taken:
            shows_nothing = all(p.get("type") == "step-start" for p in old[run_index].get("parts") or ())
            last = groups[-1] if groups else None
            if last is not None and owners[-1] is None and last[0].get("role") in ASSISTANT_SIDE:
                if shows_nothing or forms[run_index]:
                    owners[-1] = run_index
                    taken.add(run_index)
            elif shows_nothing and not forms[run_index]:
                waiting = run_index
        result: list[dict[str, JSON]] = []
        rebuilt: set[str] = set()
        placed: set[int] = set(taken)
        if waiting is not None:
            placed.add(waiting)

        def place_formless(after: int) -> None:
            # UIMessages with no AG-UI form (parts AG-UI messages cannot carry) stay behind the one before them.
            i = after + 1
            while i < len(old) and not forms[i]:
                if i not in placed:
                    placed.add(i)
                    result.append(old[i])
                i += 1

        place_formless(-1)
        holders: dict[int, str] = {}  # an old UIMessage's index -> the UIMessage that shows its messages now
        for group, owner in zip(groups, owners, strict=True):
            if owner is None:
                shown = to_ui_messages(group)
                rebuilt.update(m["id"] for m in shown)
            elif group == forms[owner]:
                shown = [old[owner]]
            else:
                shown = _rebuilt(old[owner], group)
                rebuilt.update(m["id"] for m in shown)
            result.extend(shown)
            for message in group:
                source = origin.get(message.get("id"))
                if source is not None:
                    holders.setdefault(source, shown[-1]["id"])
            if owner is not None:
                holders[owner] = shown[-1]["id"]
                place_formless(owner)
        if waiting is not None:
            result.append(old[waiting])
            holders[waiting] = old[waiting]["id"]
        run_holder = holders.get(run_index) if run_index is not None else None
        first = next(
            (i for i, (a, b) in enumerate(zip(old, result, strict=False)) if a is not b),
            min(len(old), len(result)),
        )
        changes: list[MessageChange] = []
        if len(result) < len(old):
            changes.append(MessageChange("length", len(result)))
        changes.extend(MessageChange("message", i) for i in range(first, len(result)))
        old[:] = result
        self._index = {m["id"]: i for i, m in enumerate(old)}
        for message_id in list(self._streams):
            index = self._index.get(message_id)
            if index is None or message_id in rebuilt:
                del self._streams[message_id]
            else:
                self._streams[message_id].index = index
        self._translator.after_snapshot(old, rebuilt, run_holder=run_holder)
        self._snapshot_in_run = True
        return changes

    def _drop_if_empty(self, message_id: str, finished: dict[str, JSON]) -> list[MessageChange]:
        """Remove the run's message if it shows nothing once the run is over: its snapshot put the run's output
        in an earlier turn (``to_ui_messages`` joins consecutive assistant messages). A run that ended waiting
        for the user (an interrupt) keeps its message, which holds the question."""
        index = self._index.get(message_id)
        outcome = finished.get("outcome")
        if (
            index is None
            or any(p.get("type") != "step-start" for p in self.messages[index].get("parts") or ())
            or (isinstance(outcome, dict) and outcome.get("type") == "interrupt")
        ):
            return []
        del self.messages[index]
        self._streams.pop(message_id, None)
        self._index = {m["id"]: i for i, m in enumerate(self.messages)}
        for stream_id, stream in self._streams.items():
            stream.index = self._index[stream_id]
        self._translator.forget(message_id, self.messages)
        changes = [MessageChange("length", len(self.messages))]
        changes.extend(MessageChange("message", i) for i in range(index, len(self.messages)))
        return changes

    def _blame_closed_calls(self, message_id: str, run_error: str) -> list[MessageChange]:
        """The calls pydantic-ai closed when the run failed (``FAILED_CLOSEOUT``): the one that failed shows the
        RUN_ERROR's message, the others are marked ``ended: "cancelled"`` (their card says "Cancelled"), as
        ``tool_calls_df`` reads them (``failed_call``). When the error does not tell which call failed, each shows
        the message. Only the failed run's message (``message_id``) is looked at."""
        index = self._index.get(message_id)
        if index is None:
            return []
        self.settle()
        parts = self.messages[index].get("parts") or []
        closed = [
            pi
            for pi, part in enumerate(parts)
            if part.get("state") == "output-error"
            and part.get("errorText") == FAILED_CLOSEOUT
            and not tool_call_ended(part)
        ]
        if not closed:
            return []
        calls = []
        for pi in closed:
            kind = str(parts[pi].get("type", ""))
            name = parts[pi].get("toolName") if kind == "dynamic-tool" else kind.removeprefix("tool-")
            calls.append((str(parts[pi].get("toolCallId")), name if isinstance(name, str) else None))
        culprit = failed_call(calls, run_error)
        names = dict(calls)
        for pi, (call_id, _) in zip(closed, calls, strict=True):
            # In place: the message's stream reducer holds its parts.
            if culprit is None or call_id == culprit:
                parts[pi]["errorText"] = run_error
            else:
                parts[pi].update(ended_as(parts[pi], "cancelled"))
                parts[pi]["errorText"] = f"Cancelled: {names[culprit] or 'another tool'} failed"
        return [MessageChange("part", index, pi) for pi in closed]

    def _message_info(self, item: MessageInfo) -> list[MessageChange]:
        index = self._index[item.message_id]
        message = self.messages[index]
        metadata = dict(message.get("metadata") or {})
        metadata[AGUI_KEY] = {**(metadata.get(AGUI_KEY) or {}), **item.info}
        message["metadata"] = metadata
        return [MessageChange("metadata", index)]

    def _part_info(self, item: PartInfo) -> list[MessageChange]:
        index = self._index.get(item.message_id)
        if index is None:
            return []
        parts = self.messages[index].get("parts") or []
        for part_index in range(len(parts) - 1, -1, -1):
            part = parts[part_index]
            if part.get("type") == item.part_type and part.get("id") == item.part_id:
                provider_metadata = dict(part.get("providerMetadata") or {})
                provider_metadata[AGUI_KEY] = {**(provider_metadata.get(AGUI_KEY) or {}), **item.info}
                part["providerMetadata"] = provider_metadata
                return [MessageChange("part", index, part_index)]
        return []

    def _append_text(self, item: TextAppend) -> list[MessageChange]:
        index = self._index[item.message_id]
        parts = self.messages[index]["parts"]
        at = len(parts) - 1
        if item.text_id is not None:
            at = next(
                (
                    i
                    for i in range(len(parts) - 1, -1, -1)
                    if parts[i].get("type") == "text"
                    and ((parts[i].get("providerMetadata") or {}).get(AGUI_KEY) or {}).get("messageId")
                    == item.text_id
                ),
                at,
            )
        parts[at]["text"] = js_concat([parts[at]["text"], item.delta])
        return [MessageChange("text", index, at, item.delta)]


def _rebuilt(previous: dict[str, JSON], agui_messages: list[dict[str, JSON]]) -> list[dict[str, JSON]]:
    """UIMessages for ``agui_messages``, the snapshot's version of ``previous``: its id, metadata and approvals kept."""
    fresh = to_ui_messages(agui_messages)
    if len(fresh) != 1 or fresh[0].get("role") != previous.get("role"):
        return fresh
    (message,) = fresh
    message["id"] = previous["id"]
    if message["role"] == "assistant" and previous.get("metadata") is not None:
        message["metadata"] = previous["metadata"]  # the run's facts, which AG-UI messages do not carry
    asked = {
        part.get("toolCallId"): part
        for part in previous.get("parts") or ()
        if part.get("state") in ("approval-requested", "approval-responded")
    }
    for index, part in enumerate(message["parts"]):
        before = asked.get(part.get("toolCallId"))
        if (
            before is not None
            and part.get("state") == "input-available"
            and part.get("input") == before.get("input")
        ):
            message["parts"][index] = {**part, "state": before["state"], "approval": before.get("approval")}
    return [message]


@keyword_options
def ui_messages_from_events(
    events: EventSource, *, messages: Iterable[Any] = (), message_type: Any = None
) -> list[UIMessage]:
    """Assemble AG-UI events into UIMessages: one assistant UIMessage per run, user/system messages as given.

    ``events`` is anything :func:`parse_events` accepts; ``messages`` are UIMessages (dicts or models) to
    continue from. ``message_type`` (a typed ``UIMessage[Metadata, DataParts, Tools]``, e.g. with
    ``ui_tools(...)``) is what each message is validated as and returned as; one that does not validate raises
    :class:`~agui_notebook.UIMessageValidationError` naming it: ``messages[1].parts[1].input.tz: ...``.

    >>> events = [
    ...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
    ...     {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
    ...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hello"},
    ...     {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
    ...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
    ... ]
    >>> [part.type for part in ui_messages_from_events(events)[0].parts]
    ['step-start', 'text']
    """
    from agui_notebook.ui._parts import UIMessage
    from agui_notebook.ui._validate import model_of

    dicts = ui_message_dicts_from_events(events, messages=messages)
    model = UIMessage if message_type is None else message_type
    return [model_of(model, m, f"messages[{i}]") for i, m in enumerate(dicts)]


def ui_message_dicts_from_events(events: Any, *, messages: Iterable[Any] = ()) -> list[dict[str, JSON]]:
    """Like :func:`ui_messages_from_events`, returning UIMessage dicts (AI SDK JSON) without model validation."""
    starting = _as_dicts(messages)
    assembler = UIMessageAssembler(starting)
    push = assembler.push
    event_list = wire_event_list(events)
    try:
        for event in merge_consecutive_deltas(event_list):
            push(event)
        assembler.close()
    except Exception as exc:  # find the event, and say what is wrong with it
        raise locate_event_failure(
            events, event_list, exc, lambda: UIMessageAssembler(starting).push
        ) from None
    return assembler.messages


_DELTA_KEYS: dict[JSON, str] = {
    "TEXT_MESSAGE_CONTENT": "messageId",
    "REASONING_MESSAGE_CONTENT": "messageId",
    "TOOL_CALL_ARGS": "toolCallId",
}


def merge_consecutive_deltas(events: Iterable[dict[str, JSON]]) -> Iterator[dict[str, JSON]]:
    """Merge runs of consecutive content deltas of one message (or tool call) into a single delta.

    Appending deltas one by one and appending their concatenation build the same UIMessage (tool input is
    re-parsed from the whole argument text either way), so a one-shot conversion does the per-delta work once per
    run of deltas. A delta with ``metadata`` is never merged (the metadata reaches the message); other fields of the
    merged events (timestamps) do not reach a UIMessage.

    >>> [e["delta"] for e in merge_consecutive_deltas([
    ...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hel"},
    ...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "lo"},
    ...     {"type": "TEXT_MESSAGE_END", "messageId": "m"},
    ... ]) if "delta" in e]
    ['Hello']
    """
    keys = _DELTA_KEYS
    held: dict[str, JSON] | None = None  # the first delta of the current run
    pieces: list[str] = []
    held_type: JSON = None
    held_key = ""
    held_id: JSON = None
    for event in events:
        event_type = event.get("type")
        if held is not None:
            if event_type == held_type and event.get(held_key) == held_id and "metadata" not in event:
                pieces.append(event.get("delta", ""))
                continue
            yield (
                held
                if len(pieces) == 1
                else {"type": held_type, held_key: held_id, "delta": js_concat(pieces)}
            )
            held = None
        key = keys.get(event_type)
        if key is None or "metadata" in event:
            yield event  # metadata folds into the message event by event: such a delta stays whole
            continue
        held, held_type, held_key, held_id = event, event_type, key, event.get(key)
        pieces = [event.get("delta", "")]
    if held is not None:
        yield held if len(pieces) == 1 else {"type": held_type, held_key: held_id, "delta": js_concat(pieces)}


def ui_chunks_from_events(events: EventSource) -> Iterator[dict[str, JSON]]:
    """Translate AG-UI events into AI SDK UI-message chunks: a ``start`` ... ``finish`` stream per run.

    User, system and developer messages have no chunk form and are not part of the result.

    >>> events = [{"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
    ...           {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}]
    >>> [chunk["type"] for chunk in ui_chunks_from_events(events)]
    ['start', 'finish']
    """
    translator = EventChunkTranslator()
    for record in iter_event_records(events):
        event = record.wire_event()
        try:
            routed = translator.push(event)
        except Exception as exc:
            raise unprocessable_event(
                record.event, exc, index=record.index, source=record.source, line=record.line
            ) from None
        for item in routed:
            if isinstance(item, RoutedChunk):
                yield item.chunk
    for item in translator.close():
        if isinstance(item, RoutedChunk):
            yield item.chunk


async def aui_chunks_from_events(events: EventSource) -> AsyncIterator[dict[str, JSON]]:
    """Async :func:`ui_chunks_from_events`, for async event sources (a live agent)."""
    translator = EventChunkTranslator()
    async for record in aiter_event_records(events):
        event = record.wire_event()
        try:
            routed = translator.push(event)
        except Exception as exc:
            raise unprocessable_event(
                record.event, exc, index=record.index, source=record.source, line=record.line
            ) from None
        for item in routed:
            if isinstance(item, RoutedChunk):
                yield item.chunk
    for item in translator.close():
        if isinstance(item, RoutedChunk):
            yield item.chunk


def _continued(messages: Any) -> list[dict[str, JSON]]:
    """Copies of the UIMessages an assembler continues from: objects with a string ``id`` (their other fields
    are the widget's and the bridge's to read)."""
    out = []
    for index, message in enumerate(listed(messages, "messages", "UIMessages (dicts)")):
        if not isinstance(message, Mapping) or type(message.get("id")) is not str:
            raise MessageValidationError(
                f"messages[{index}]", "expected a UIMessage (an object with a string id)"
            )
        out.append(dict(message))
    return out


def _as_dicts(messages: Iterable[Any]) -> list[dict[str, JSON]]:
    return [
        m.model_dump(mode="json") if isinstance(m, BaseModel) else m
        for m in listed(messages, "messages", "UIMessages")
    ]
