"""The reference reducer: AG-UI events applied to messages, state, pending interrupts and run records.

Gives the same messages, state and pending interrupts as @ag-ui/client 1.0's ``defaultApplyEvents`` behind the
client's compatibility boundary and chunk expansion (what ``runAgent`` feeds it), without its per-event deep
copies: messages are indexed by id, tool calls by id, and streamed deltas are collected in lists and joined
when the result is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from agui_notebook._errors import internal_failure
from agui_notebook._options import callback, keyword_options, listed
from agui_notebook._types import JSON
from agui_notebook.wire._json import JSONDecodeError, decode_json, js_concat

from ._compat import LEGACY_EVENT_TYPES, LegacyEventUpgrader, upgrade_inbound_message
from ._expand import CHUNK_TYPES, ChunkExpander, ChunkExpansionError
from ._intake import to_wire_event
from ._metadata import spread_merge_metadata
from ._patch import JsonPatchError, apply_json_patch
from ._thread import RunInfo, StepInfo, SubagentInfo, ThreadState

__all__ = ["ACTIVITY_HISTORY_METADATA_KEY", "EventReducer", "Reporter"]

ACTIVITY_HISTORY_METADATA_KEY = "@ag-ui/client"
"""MESSAGES_SNAPSHOT metadata key under which a producer declares which activity types it owns."""

Reporter = Callable[[int, str, str], None]
"""Called with ``(event index, rule, message)`` for each event the reducer skips or cannot fully apply."""


def _fold_metadata(target: dict[str, Any], event: dict[str, Any]) -> None:
    """Fold an event's ``metadata`` (present, possibly null) into the message or tool call it builds."""
    target["metadata"] = spread_merge_metadata(target.get("metadata"), event["metadata"])


def _js_truthy(value: Any) -> bool:
    return not (
        value is None or value is False or value == "" or (type(value) in (int, float) and value == 0)
    )


def _message_key(message: Any) -> Any:
    return message.get("id") if type(message) is dict else None


def _hashable(value: Any) -> bool:
    """Whether a JSON value can be a dict key: an id of any other kind (a list, an object) matches nothing,
    as a fresh JavaScript object is never ``===`` another."""
    return value is None or type(value) in (str, int, float, bool)


def _own_message(message: Any) -> Any:
    """A copy of an incoming message that the reducer may change without touching the caller's event."""
    if type(message) is not dict:
        return message
    shell = dict(message)
    if shell.get("subagentRunId", 0) is None:
        del shell["subagentRunId"]
    tool_calls = shell.get("toolCalls")
    if type(tool_calls) is list:
        shell["toolCalls"] = [_own_tool_call(tc) for tc in tool_calls]
    return shell


def _own_tool_call(tool_call: Any) -> Any:
    if type(tool_call) is not dict:
        return tool_call
    shell = dict(tool_call)
    if type(shell.get("function")) is dict:
        shell["function"] = dict(shell["function"])
    return shell


def _authoritative_activity_types(event: dict[str, Any]) -> Any:
    """``None`` (absent: infer), ``_ALL`` (explicit null: owns every type) or the list of owned types."""
    metadata = event.get("metadata")
    if type(metadata) is not dict or ACTIVITY_HISTORY_METADATA_KEY not in metadata:
        return None
    value = metadata[ACTIVITY_HISTORY_METADATA_KEY]
    if not value or type(value) is not dict:
        return []
    if "authoritativeActivityTypes" not in value:
        return None
    types = value["authoritativeActivityTypes"]
    if types is None:
        return _ALL
    if type(types) is list and all(isinstance(t, str) for t in types):
        return types
    return []


_ALL = object()


# -- the reducer ------------------------------------------------------------------------------------------------


class EventReducer:
    """Applies AG-UI wire events one by one (or in bulk); read the result with :meth:`result`.

    Usable on a live stream: :meth:`feed` takes one event (model, wire dict, chunk or legacy shape) and
    :meth:`result` may be called at any point.

    >>> reducer = EventReducer()
    >>> reducer.feed({"type": "TEXT_MESSAGE_START", "messageId": "m1"})
    >>> reducer.feed({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi"})
    >>> reducer.result().message_dicts
    [{'id': 'm1', 'role': 'assistant', 'content': 'Hi'}]
    """

    @keyword_options
    def __init__(
        self, *, messages: Iterable[Any] | None = None, state: Any = None, report: Reporter | None = None
    ) -> None:
        # Called with (index, rule, message) for each event the reducer has to skip or cannot fully apply.
        self._report = callback(report, "report")
        self._messages: list[dict[str, Any]] = []
        self._by_id: dict[Any, dict[str, Any]] = {}
        # tool call id -> (message holding it first, the tool call)
        self._tool_calls: dict[Any, tuple[dict[str, Any], dict[str, Any]]] = {}
        # Streamed text/arguments, joined when read: id -> [target, part, part, ...]. The target is the
        # message (content) or the tool call's function (arguments).
        self._text: dict[Any, list[Any]] = {}
        self._args: dict[Any, list[Any]] = {}
        self.state: Any = {} if state is None else state
        self._state_unset = False  # a STATE_SNAPSHOT without a snapshot left the working state undefined
        self._interrupts: list[dict[str, Any]] = []
        self.runs: list[RunInfo] = []
        self._run: RunInfo | None = None
        # The reducer is lenient (behind the client's compatibility boundary): ids are JSON values of any kind.
        self._run_tool_call_ids: list[JSON] = []
        self._run_tool_call_set: set[JSON] = set()
        self._answered: set[Any] = set()
        self._expander = ChunkExpander()
        self._upgrader = LegacyEventUpgrader()
        self._index = 0
        self._aliased = False
        for message in listed(messages or (), "messages", "AG-UI messages"):
            if isinstance(message, BaseModel):
                message = message.model_dump(mode="json", by_alias=True)
            self._append(_own_message(message))
        self._handlers: dict[JSON, Callable[[dict[str, Any], int], None]] = {
            "TEXT_MESSAGE_START": self._text_start,
            "TEXT_MESSAGE_CONTENT": self._text_content,
            "TEXT_MESSAGE_END": self._text_end,
            "REASONING_MESSAGE_START": self._reasoning_start,
            "REASONING_MESSAGE_CONTENT": self._text_content,
            "REASONING_MESSAGE_END": self._text_end,
            "TOOL_CALL_START": self._tool_start,
            "TOOL_CALL_ARGS": self._tool_args,
            "TOOL_CALL_END": self._tool_end,
            "TOOL_CALL_RESULT": self._tool_result,
            "STATE_SNAPSHOT": self._state_snapshot,
            "STATE_DELTA": self._state_delta,
            "MESSAGES_SNAPSHOT": self._messages_snapshot,
            "ACTIVITY_SNAPSHOT": self._activity_snapshot,
            "ACTIVITY_DELTA": self._activity_delta,
            "REASONING_ENCRYPTED_VALUE": self._encrypted_value,
            "RUN_STARTED": self._run_started,
            "RUN_FINISHED": self._run_finished,
            "RUN_ERROR": self._run_error,
            "STEP_STARTED": self._step_started,
            "STEP_FINISHED": self._step_finished,
            "SUBAGENT_STARTED": self._subagent_started,
            "SUBAGENT_FINISHED": self._subagent_finished,
            "SUBAGENT_ERROR": self._subagent_finished,
        }
        for chunk_type in CHUNK_TYPES:
            self._handlers[chunk_type] = self._chunk
        for legacy_type in LEGACY_EVENT_TYPES:
            self._handlers[legacy_type] = self._legacy

    # -- feeding -------------------------------------------------------------------------------------------------

    def feed(self, event: Any, index: int | None = None) -> None:
        """Apply one event (an ``ag_ui.core`` model or a wire dict; chunk and legacy events are translated)."""
        self.feed_all((event,), start=self._index if index is None else index)

    def feed_all(self, events: Iterable[Any], *, start: int | None = None) -> None:
        """Apply events in order; their indexes (for run records) count from ``start``."""
        handlers = self._handlers
        text = self._text
        args = self._args
        lanes = self._expander._lanes
        run = self._run
        index = self._index if start is None else start
        for event in events:
            try:
                if type(event) is not dict:
                    event = to_wire_event(event)
                event_type = event.get("type")
                if lanes:
                    self._through_expander(event, index)
                    run = self._run
                # The three streaming deltas take the inline path once their target has a buffer.
                elif event_type == "TEXT_MESSAGE_CONTENT" or event_type == "REASONING_MESSAGE_CONTENT":
                    buffer = text.get(event.get("messageId"))
                    if buffer is None:
                        self._text_content(event, index)
                    else:
                        buffer.append(event.get("delta"))
                        if "metadata" in event:
                            _fold_metadata(buffer[0], event)
                elif event_type == "TOOL_CALL_ARGS":
                    buffer = args.get(event.get("toolCallId"))
                    if buffer is None:
                        self._tool_args(event, index)
                    else:
                        buffer.append(event.get("delta"))
                        if "metadata" in event:
                            _fold_metadata(buffer[0], event)
                else:
                    handler = handlers.get(event_type)
                    if handler is not None:
                        handler(event, index)
                        run = self._run
            except Exception as exc:
                # A malformed event (a value of the wrong type, nested too deeply...) the reference would fail
                # the run on: skipped, and said where.
                if self._report is not None:
                    self._report(
                        index, "malformed-event", f"the event cannot be applied ({internal_failure(exc)})"
                    )
            if run is not None:
                run.event_count += 1
            index += 1
        self._index = index

    def _through_expander(self, event: dict[str, Any], index: int) -> None:
        if event.get("type") in LEGACY_EVENT_TYPES:
            # The client upgrades legacy events before it expands chunks, so they close lanes as 1.0 ones do.
            event = self._upgrader.upgrade(event)
        try:
            expanded = self._expander.feed(event)
        except ChunkExpansionError:
            # The reference's run fails here; a lenient replay skips the chunk it cannot place.
            return
        handlers = self._handlers
        for item in expanded:
            handler = handlers.get(item.get("type"))
            if handler is not None and item.get("type") not in CHUNK_TYPES:
                handler(item, index)

    def _chunk(self, event: dict[str, Any], index: int) -> None:
        self._through_expander(event, index)

    def _legacy(self, event: dict[str, Any], index: int) -> None:
        upgraded = self._upgrader.upgrade(event)
        handler = self._handlers.get(upgraded.get("type"))
        if handler is not None and handler != self._legacy:
            handler(upgraded, index)

    # -- reading ------------------------------------------------------------------------------------------------

    def _flush(self) -> None:
        for buffer in self._text.values():
            buffer[0]["content"] = js_concat(buffer[1:])
        self._text.clear()
        for buffer in self._args.values():
            buffer[0]["function"]["arguments"] = js_concat(buffer[1:])
        self._args.clear()

    def result(self, *, copy: bool = True) -> ThreadState:
        """The messages, state, pending interrupts and runs so far; the reducer can keep going after.

        With ``copy=False`` the result shares the reducer's own message dicts, which later events change.
        """
        self._flush()
        messages, interrupts, runs = self._messages, self._interrupts, self.runs
        if copy:
            messages = [_own_message(m) for m in messages]
            interrupts, runs = list(interrupts), list(runs)
        return ThreadState(message_dicts=messages, state=self.state, interrupt_dicts=interrupts, runs=runs)

    # -- message index ------------------------------------------------------------------------------------------

    def _append(self, message: dict[str, Any]) -> None:
        self._messages.append(message)
        message_id = message.get("id") if type(message) is dict else None
        if _hashable(message_id) and message_id not in self._by_id:
            self._by_id[message_id] = message
        tool_calls = message.get("toolCalls") if type(message) is dict else None
        if type(tool_calls) is list:
            for tool_call in tool_calls:
                tool_call_id = tool_call.get("id") if type(tool_call) is dict else None
                if _hashable(tool_call_id) and tool_call_id not in self._tool_calls:
                    self._tool_calls[tool_call_id] = (message, tool_call)

    def _reindex(self) -> None:
        """Rebuild the id indexes after messages were replaced or reordered (flushes the buffers first)."""
        self._flush()
        messages = self._messages
        self._messages = []
        self._by_id = {}
        self._tool_calls = {}
        for message in messages:
            self._append(message)

    def _position(self, message: dict[str, Any]) -> int:
        """Where ``message`` first appears in the list."""
        messages = self._messages
        if self._aliased:
            # A snapshot put one message object at several places; the reference acts on the first.
            for position, candidate in enumerate(messages):
                if candidate is message:
                    return position
            raise LookupError
        # Searching from the end: the message a new event refers to is almost always a recent one.
        for position in range(len(messages) - 1, -1, -1):
            if messages[position] is message:
                return position
        raise LookupError

    def _assistant_holding(self, tool_call_id: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The first assistant message holding a tool call with this id, and that tool call."""
        found = self._tool_calls.get(tool_call_id)
        if found is None:
            return None
        if found[0].get("role") == "assistant":
            return found
        for message in self._messages:
            if (
                type(message) is dict
                and message.get("role") == "assistant"
                and type(message.get("toolCalls")) is list
            ):
                for tool_call in message["toolCalls"]:
                    if type(tool_call) is dict and tool_call.get("id") == tool_call_id:
                        return message, tool_call
        return None

    # -- text and reasoning messages ----------------------------------------------------------------------------

    def _collides_with_activity(self, event: dict[str, Any], index: int, target: Any) -> bool:
        if target is None or target.get("role") != "activity":
            return False
        if self._report is not None:
            self._report(
                index,
                "activity-id-collision",
                f"message {event.get('messageId')!r} is an activity message; the event is dropped",
            )
        return True

    def _text_start(self, event: dict[str, Any], index: int) -> None:
        self._open_message(event, index, event.get("role", "assistant"), named=True)

    def _reasoning_start(self, event: dict[str, Any], index: int) -> None:
        self._open_message(event, index, "reasoning", named=False)

    def _open_message(self, event: dict[str, Any], index: int, role: Any, *, named: bool) -> None:
        """Start (or continue) the message ``event`` names, and fold in its metadata."""
        message_id = event.get("messageId")
        existing = self._by_id.get(message_id)
        if self._collides_with_activity(event, index, existing):
            return
        target = existing
        if target is None:
            target = {"id": message_id, "role": role, "content": ""}
            if named and "name" in event:
                target["name"] = event["name"]
            if event.get("subagentRunId") is not None:
                target["subagentRunId"] = event["subagentRunId"]
            self._append(target)
        if "metadata" in event:
            _fold_metadata(target, event)

    def _text_content(self, event: dict[str, Any], index: int) -> None:
        message_id = event.get("messageId")
        target = self._by_id.get(message_id)
        if target is None or self._collides_with_activity(event, index, target):
            return
        buffer = self._text.get(message_id)
        if buffer is None or buffer[0] is not target:
            if buffer is not None:
                target_before = buffer[0]
                target_before["content"] = js_concat(buffer[1:])
            content = target.get("content")
            buffer = [target, content if type(content) is str else ""]
            self._text[message_id] = buffer
        buffer.append(event.get("delta"))
        if "metadata" in event:
            _fold_metadata(target, event)

    def _text_end(self, event: dict[str, Any], index: int) -> None:
        target = self._by_id.get(event.get("messageId"))
        if target is None or self._collides_with_activity(event, index, target):
            return
        if "metadata" in event:
            _fold_metadata(target, event)

    # -- tool calls ---------------------------------------------------------------------------------------------

    def _tool_start(self, event: dict[str, Any], index: int) -> None:
        tool_call_id = event.get("toolCallId")
        tool_name = event.get("toolCallName")
        if tool_call_id not in self._run_tool_call_set:
            self._run_tool_call_set.add(tool_call_id)
            self._run_tool_call_ids.append(tool_call_id)
        found = self._tool_calls.get(tool_call_id)
        if found is not None:
            # Replayed start: update the call already held instead of adding a second copy.
            tool_call = found[1]
            tool_call["function"]["name"] = tool_name
            if "metadata" in event:
                _fold_metadata(tool_call, event)
            return
        parent_id = event.get("parentMessageId")
        created = False
        if parent_id:
            target = self._by_id.get(parent_id)
            if target is None or target.get("role") != "assistant":
                target = {
                    "id": tool_call_id if target is not None else parent_id,
                    "role": "assistant",
                    "toolCalls": [],
                }
                created = True
        else:
            target = {"id": tool_call_id, "role": "assistant", "toolCalls": []}
            created = True
        if created:
            if event.get("subagentRunId") is not None:
                target["subagentRunId"] = event["subagentRunId"]
            self._append(target)
        if target.get("toolCalls") is None:
            target["toolCalls"] = []
        tool_call = {"id": tool_call_id, "type": "function", "function": {"name": tool_name, "arguments": ""}}
        target["toolCalls"].append(tool_call)
        self._tool_calls[tool_call_id] = (target, tool_call)
        if "metadata" in event:
            _fold_metadata(tool_call, event)

    def _tool_args(self, event: dict[str, Any], index: int) -> None:
        tool_call_id = event.get("toolCallId")
        found = self._tool_calls.get(tool_call_id)
        if found is None:
            return
        tool_call = found[1]
        buffer = self._args.get(tool_call_id)
        if buffer is None or buffer[0] is not tool_call:
            buffer = [tool_call, tool_call["function"].get("arguments", "undefined")]
            self._args[tool_call_id] = buffer
        buffer.append(event.get("delta"))
        if "metadata" in event:
            _fold_metadata(tool_call, event)

    def _tool_end(self, event: dict[str, Any], index: int) -> None:
        tool_call_id = event.get("toolCallId")
        found = self._tool_calls.get(tool_call_id)
        if found is None:
            return
        if "metadata" in event:
            _fold_metadata(found[1], event)
        if self._report is not None:
            buffer = self._args.pop(tool_call_id, None)
            function = found[1]["function"]
            if buffer is not None:
                function["arguments"] = js_concat(buffer[1:])
            arguments = function.get("arguments")
            if isinstance(arguments, str) and arguments.strip():
                try:
                    decode_json(arguments)  # as the client's JSON.parse reads them: 1e400 is fine
                except JSONDecodeError as exc:
                    self._report(
                        index,
                        "invalid-tool-arguments",
                        f"arguments of tool call {tool_call_id!r} are not JSON ({exc.msg})",
                    )

    def _tool_result(self, event: dict[str, Any], index: int) -> None:
        tool_call_id = event.get("toolCallId")
        self._answered.add(tool_call_id)
        message: dict[str, Any] = {
            "id": event.get("messageId"),
            "toolCallId": tool_call_id,
            "role": event.get("role") or "tool",
            "content": event.get("content"),
        }
        if event.get("subagentRunId") is not None:
            message["subagentRunId"] = event["subagentRunId"]
        if "metadata" in event:
            _fold_metadata(message, event)
        owner = self._assistant_holding(tool_call_id)
        if owner is None:
            self._append(message)
            return
        messages = self._messages
        position = self._position(owner[0]) + 1
        while position < len(messages) and messages[position].get("role") == "tool":
            position += 1
        messages.insert(position, message)
        message_id = message["id"]
        if message_id in self._by_id:
            # Two messages share the id: which one comes first now depends on where this one went.
            self._reindex()
        else:
            self._by_id[message_id] = message

    # -- state --------------------------------------------------------------------------------------------------

    def _state_snapshot(self, event: dict[str, Any], index: int) -> None:
        if "snapshot" in event:
            self.state = event["snapshot"]
            self._state_unset = False
        else:
            # The client's working state becomes undefined, which it does not count as a state change: the
            # state shown stays, and the next patch applies to nothing.
            self._state_unset = True

    def _state_delta(self, event: dict[str, Any], index: int) -> None:
        try:
            self.state = apply_json_patch(None if self._state_unset else self.state, event.get("delta"))
            self._state_unset = False
        except JsonPatchError as exc:
            # The reference keeps the previous state when a patch does not apply.
            if self._report is not None:
                self._report(index, "state-patch-failed", f"state patch does not apply: {exc}")

    # -- snapshots and activities -------------------------------------------------------------------------------

    def _messages_snapshot(self, event: dict[str, Any], index: int) -> None:
        incoming = event.get("messages")
        if type(incoming) is not list:
            return
        self._flush()
        snapshot = [_own_message(upgrade_inbound_message(m)) for m in incoming]
        by_id = {}
        for message in snapshot:
            message_id = message.get("id") if type(message) is dict else None
            if _hashable(message_id):
                by_id[message_id] = message
        owned_types = _authoritative_activity_types(event)
        has_activity = any(type(m) is dict and m.get("role") == "activity" for m in snapshot)
        has_reasoning = any(type(m) is dict and m.get("role") == "reasoning" for m in snapshot)

        def kept_locally(message: Any) -> bool:
            if type(message) is not dict:
                return False
            role = message.get("role")
            if role == "activity":
                if type(owned_types) is list:
                    return message.get("activityType") not in owned_types
                return owned_types is not _ALL and not has_activity
            return role == "reasoning" and not has_reasoning

        merged = []
        reused: set[int] = set()
        self._aliased = False
        for message in self._messages:
            message_id = message.get("id") if type(message) is dict else None
            if _hashable(message_id) and message_id in by_id:
                replacement = by_id[message_id]
                if id(replacement) in reused:
                    self._aliased = True
                reused.add(id(replacement))
                merged.append(replacement)
            elif kept_locally(message):
                merged.append(message)
        present = {key for key in map(_message_key, merged) if _hashable(key)}
        for message in snapshot:
            key = _message_key(message)
            if not _hashable(key) or key not in present:
                merged.append(message)
        self._messages = merged
        self._reindex()

    def _activity_snapshot(self, event: dict[str, Any], index: int) -> None:
        message_id = event.get("messageId")
        existing = self._by_id.get(message_id)
        replace = event.get("replace")
        replace = True if replace is None else _js_truthy(replace)
        target = None
        if existing is None or existing.get("role") != "activity":
            if existing is not None and not replace:
                return
            target = {
                "id": message_id,
                "role": "activity",
                "activityType": event.get("activityType"),
                "content": event.get("content"),
            }
            if event.get("subagentRunId") is not None:
                target["subagentRunId"] = event["subagentRunId"]
            if existing is None:
                self._append(target)
            else:
                self._messages[self._position(existing)] = target
                self._reindex()
        else:
            target = existing
            if replace:
                target["activityType"] = event.get("activityType")
                target["content"] = event.get("content")
                if event.get("subagentRunId") is not None:
                    target["subagentRunId"] = event["subagentRunId"]
                else:
                    target.pop("subagentRunId", None)
        if "metadata" in event:
            _fold_metadata(target, event)

    def _activity_delta(self, event: dict[str, Any], index: int) -> None:
        message_id = event.get("messageId")
        target = self._by_id.get(message_id)
        if target is None or target.get("role") != "activity":
            if self._report is not None:
                what = "no message" if target is None else f"a {target.get('role')} message"
                self._report(
                    index,
                    "activity-delta-unknown-message",
                    f"{message_id!r} is {what}, not an activity; the delta is dropped",
                )
            return
        if "metadata" in event:
            _fold_metadata(target, event)
        content = target.get("content")
        patch = event.get("patch")
        try:
            target["content"] = apply_json_patch(
                {} if content is None else content, [] if patch is None else patch
            )
        except JsonPatchError as exc:
            if self._report is not None:
                self._report(
                    index, "activity-patch-failed", f"activity patch for {message_id!r} does not apply: {exc}"
                )
            return
        target["activityType"] = event.get("activityType")

    def _encrypted_value(self, event: dict[str, Any], index: int) -> None:
        entity_id = event.get("entityId")
        value = event.get("encryptedValue")
        if event.get("subtype") == "tool-call":
            found = self._assistant_holding(entity_id)
            if found is not None:
                found[1]["encryptedValue"] = value
            elif self._report is not None:
                self._report(index, "unknown-entity", f"no assistant message holds tool call {entity_id!r}")
            return
        target = self._by_id.get(entity_id)
        if target is not None and target.get("role") != "activity":
            target["encryptedValue"] = value
        elif self._report is not None:
            self._report(index, "unknown-entity", f"no message {entity_id!r} can hold an encrypted value")

    # -- runs, steps, subagents ---------------------------------------------------------------------------------

    def _run_started(self, event: dict[str, Any], index: int) -> None:
        self._run_tool_call_ids = []
        self._run_tool_call_set = set()
        self._answered = set()
        run = RunInfo(
            thread_id=event.get("threadId"),
            run_id=event.get("runId"),
            start_index=index,
            started_at=event.get("timestamp"),
            parent_run_id=event.get("parentRunId"),
        )
        self.runs.append(run)
        self._run = run
        run_input = event.get("input")
        messages = run_input.get("messages") if type(run_input) is dict else None
        if type(messages) is list:
            for message in messages:
                message = upgrade_inbound_message(message)
                if message.get("id") not in self._by_id:
                    self._append(_own_message(message))

    def _current_run(self, event: dict[str, Any], index: int) -> RunInfo:
        run = self._run
        if run is None or run.outcome is not None:
            # A terminal event with no open run still gets a record, so nothing it says is lost.
            run = RunInfo(
                thread_id=event.get("threadId"), run_id=event.get("runId"), start_index=index, started_at=None
            )
            self.runs.append(run)
            self._run = run
        return run

    def _run_finished(self, event: dict[str, Any], index: int) -> None:
        run = self._current_run(event, index)
        outcome: JSON = event.get("outcome")
        kind = outcome.get("type") if type(outcome) is dict else None
        if kind == "interrupt":
            interrupts = outcome.get("interrupts") or []
            self._interrupts = [
                {k: v for k, v in i.items() if k != "subagentRunId"}
                if type(i) is dict and i.get("subagentRunId", 0) is None
                else i
                for i in interrupts
            ]
            run.outcome = "interrupt"
            run.interrupts = list(self._interrupts)
        else:
            self._interrupts = []
            run.outcome = "cancelled" if kind == "cancelled" else "success"
            if run.outcome == "success":
                run.result = event.get("result")
                named = outcome.get("pendingToolCallIds") if kind == "success" else None
                if named:
                    run.pending_tool_call_ids = list(named)
                else:
                    answered = self._answered
                    run.pending_tool_call_ids = [i for i in self._run_tool_call_ids if i not in answered]
        run.usage = list(event.get("usage") or ())
        run.end_index = index
        run.finished_at = event.get("timestamp")

    def _run_error(self, event: dict[str, Any], index: int) -> None:
        run = self._current_run(event, index)
        run.outcome = "error"
        run.error = event.get("message")
        run.error_code = event.get("code")
        run.usage = list(event.get("usage") or ())
        run.end_index = index
        run.finished_at = event.get("timestamp")

    def _step_started(self, event: dict[str, Any], index: int) -> None:
        run = self._run
        if run is not None:
            name: JSON = event.get(
                "stepName"
            )  # a string in a valid stream; kept as it is in a lenient replay
            run.steps.append(StepInfo(name, event.get("subagentRunId"), index, event.get("timestamp")))

    def _step_finished(self, event: dict[str, Any], index: int) -> None:
        run = self._run
        if run is None:
            return
        name, owner = event.get("stepName"), event.get("subagentRunId")
        for step in reversed(run.steps):
            if step.name == name and step.subagent_run_id == owner and step.end_index is None:
                step.end_index = index
                step.finished_at = event.get("timestamp")
                return

    def _subagent_started(self, event: dict[str, Any], index: int) -> None:
        run = self._run
        if run is not None:
            subagent_run_id: JSON = event.get(
                "subagentRunId"
            )  # a string in a valid stream, as StepInfo's name
            run.subagents.append(
                SubagentInfo(
                    subagent_run_id=subagent_run_id,
                    name=event.get("name"),
                    start_index=index,
                    started_at=event.get("timestamp"),
                    parent_subagent_run_id=event.get("parentSubagentRunId"),
                    parent_tool_call_id=event.get("parentToolCallId"),
                    parent_message_id=event.get("parentMessageId"),
                )
            )

    def _subagent_finished(self, event: dict[str, Any], index: int) -> None:
        run = self._run
        if run is None:
            return
        owner = event.get("subagentRunId")
        for subagent in reversed(run.subagents):
            if subagent.subagent_run_id == owner and subagent.end_index is None:
                if event.get("type") == "SUBAGENT_ERROR":
                    subagent.outcome = "error"
                    subagent.error = event.get("message")
                else:
                    outcome = event.get("outcome")
                    subagent.outcome = outcome.get("type") if type(outcome) is dict else "success"
                    subagent.result = event.get("result")
                subagent.end_index = index
                subagent.finished_at = event.get("timestamp")
                return
