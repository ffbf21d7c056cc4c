"""Checks an AG-UI event stream and lists every problem, with where it is; never raises on bad input.

Covers the ordering rules @ag-ui/client's ``verifyEvents`` enforces (run lifecycle, start/content/end
pairing, steps, subagents, attribution), what its enforcement stage rejects (unknown event types, schema
violations, ``null`` optionals), chunk expansion failures, patches that do not apply, and more that the
client lets through (tool results for unknown calls, reused ids, runs left open, ...). :data:`RULES` lists them.
``verify_events(..., rules="spec")`` checks the AG-UI spec's own rules instead, as the conformance validator
ag-ui-validate does (:data:`~agui_notebook.agui._spec_rules.SPEC_RULES`).

>>> [p.rule for p in verify_events([{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "x"}])]
['first-event', 'text-not-open']
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Literal

from ag_ui.core import Event
from pydantic import BaseModel, ValidationError

from agui_notebook._errors import OptionError, internal_failure, no_unraisable_reports
from agui_notebook._options import keyword_options
from agui_notebook._shown import shown
from agui_notebook._types import JSON, EventSource
from agui_notebook.wire._records import is_chat_record

from ._compat import LegacyEventUpgrader
from ._expand import CHUNK_TYPES, ChunkExpander, ChunkExpansionError
from ._intake import EVENT_TYPES, EventRecord, _event_adapter, aiter_event_records, iter_event_records
from ._problem import Problem, Severity
from ._reducer import EventReducer
from ._spec_rules import SpecChecker

__all__ = ["RULES", "EventChecker", "RuleLevel", "averify_events", "verify_events"]

RuleLevel = Literal["client", "spec"]
"""Which rules ``verify_events`` checks: ``"client"`` (what ``@ag-ui/client`` rejects) or ``"spec"``."""

RULES: dict[str, tuple[Severity, str]] = {
    # bad input
    "invalid-json": ("error", "a line or SSE data field is not valid JSON"),
    "not-an-event": ("error", "a JSON value that is not an object with a string 'type'"),
    "unknown-format": ("error", "the input is not JSON, JSONL or SSE"),
    "unknown-event-type": ("error", "a 'type' AG-UI 1.0 does not define (the client drops the event)"),
    "schema": ("error", "the event does not match its ag_ui.core model"),
    "null-field": ("error", "an optional field sent as null instead of left out"),
    "unknown-field": ("warning", "a field the event does not define (the client strips it)"),
    "deprecated-shape": (
        "warning",
        "a pre-1.0 shape the client upgrades (THINKING_* events, legacy nulls, binary parts)",
    ),
    "chunk-expansion": ("error", "a *_CHUNK event that cannot be expanded"),
    "malformed-event": (
        "error",
        "an event that cannot be applied (a value of the wrong type, nested too deeply, ...); it is skipped",
    ),
    # run lifecycle
    "first-event": ("error", "the stream does not start with RUN_STARTED (or RUN_ERROR)"),
    "run-already-active": ("error", "RUN_STARTED while a run is still active"),
    "after-run-finished": ("error", "an event after RUN_FINISHED other than RUN_STARTED or RUN_ERROR"),
    "after-run-error": ("error", "an event after RUN_ERROR other than RUN_STARTED"),
    "run-finished-while-open": (
        "error",
        "RUN_FINISHED while messages, tool calls, reasoning, steps or subagents are open",
    ),
    "run-not-finished": ("warning", "the stream ends inside a run"),
    # start/content/end pairing
    "text-already-open": ("error", "TEXT_MESSAGE_START for a message already open"),
    "text-not-open": ("error", "TEXT_MESSAGE_CONTENT/END for no open message"),
    "tool-call-already-open": ("error", "TOOL_CALL_START for a tool call already open"),
    "tool-call-not-open": ("error", "TOOL_CALL_ARGS/END for no open tool call"),
    "reasoning-already-open": ("error", "REASONING_START/REASONING_MESSAGE_START for one already open"),
    "reasoning-not-open": ("error", "a reasoning continuation or end for nothing open"),
    # ids
    "reused-message-id": (
        "warning",
        "TEXT/REASONING_MESSAGE_START reuses the id of a finished message (content is appended to it)",
    ),
    "reused-tool-call-id": ("warning", "TOOL_CALL_START reuses the id of a finished tool call"),
    "unknown-tool-call": ("warning", "TOOL_CALL_RESULT for a tool call the thread never made"),
    "duplicate-tool-result": ("warning", "a second TOOL_CALL_RESULT for the same tool call"),
    "result-before-tool-call-end": (
        "warning",
        "TOOL_CALL_RESULT while the tool call's arguments are still streaming",
    ),
    "invalid-tool-arguments": ("warning", "a finished tool call's arguments are not JSON"),
    "activity-id-collision": (
        "warning",
        "a text or reasoning event names an activity message (the client drops it)",
    ),
    "unknown-entity": ("warning", "REASONING_ENCRYPTED_VALUE for nothing that can hold it"),
    # attribution, steps, subagents
    "null-subagent-run-id": ("error", "subagentRunId: null on an event, message or interrupt"),
    "attribution-mismatch": (
        "error",
        "subagentRunId disagrees with the owner of the message, tool call or activity",
    ),
    "step-already-active": ("error", "STEP_STARTED for a step already active"),
    "step-not-started": ("error", "STEP_FINISHED for a step that was not started"),
    "step-wrong-owner": ("error", "STEP_FINISHED for a step open under another owner"),
    "subagent-already-active": ("error", "SUBAGENT_STARTED for a subagent already active"),
    "subagent-id-reused": ("error", "SUBAGENT_STARTED for a subagent run id already finished in this run"),
    "subagent-unknown-parent": (
        "error",
        "SUBAGENT_STARTED names a parentSubagentRunId not started in this run",
    ),
    "subagent-not-active": ("error", "SUBAGENT_FINISHED/ERROR for no active subagent"),
    # state and activities
    "state-patch-failed": ("error", "a STATE_DELTA patch does not apply (the client keeps the old state)"),
    "activity-patch-failed": (
        "error",
        "an ACTIVITY_DELTA patch does not apply (the client keeps the old content)",
    ),
    "activity-delta-unknown-message": (
        "warning",
        "ACTIVITY_DELTA for no activity message (the client drops it)",
    ),
}
"""Every rule: its stable id -> (severity, what it means)."""


@lru_cache(maxsize=1)
def _defaulted_fields_by_type() -> dict[str, frozenset[str]]:
    """Per event type, the wire names of fields the Python model defaults but the client's schema requires
    (``role`` of REASONING_MESSAGE_START)."""
    union = typing.get_args(Event)[0]
    return {
        model.model_fields["type"].default.value: frozenset(
            f.alias or n
            for n, f in model.model_fields.items()
            if n != "type" and not f.is_required() and f.default is not None
        )
        for model in typing.get_args(union)
    }


@lru_cache(maxsize=1)
def _optional_fields_by_type() -> dict[str, frozenset[str]]:
    """Per event type, the wire names of its optional fields (the ones a producer leaves out, never nulls)."""
    union = typing.get_args(Event)[0]
    return {
        model.model_fields["type"].default.value: frozenset(
            f.alias or n for n, f in model.model_fields.items() if not f.is_required() and f.default is None
        )
        for model in typing.get_args(union)
    }


_RECORD_ERROR_RULES = (
    ("invalid JSON", "invalid-json"),
    ("not JSON, JSONL or SSE", "unknown-format"),
)
_PARENT = "(the parent agent)"


def _named(entity_id: Any) -> str:
    return entity_id if type(entity_id) is str else shown(entity_id)


def _hashable(value: Any) -> bool:
    return value is None or type(value) in (str, int, float, bool)


def _owner_name(owner: Any) -> str:
    return _PARENT if owner is None else repr(owner)


class EventChecker:
    """Checks events one at a time, keeping what the rules need; also replays them into a reducer.

    Feed :class:`~agui_notebook.agui._intake.EventRecord` s read without chunk expansion or legacy upgrade
    (the checker does both, to report on them) to :meth:`check_record`, then call :meth:`finish`.
    """

    def __init__(self, *, messages: Any = None, state: Any = None, validate: bool = True) -> None:
        self.problems: list[Problem] = []
        self._validate = validate
        self._record: EventRecord | None = None
        self._event_type: str | None = None
        self.reducer = EventReducer(messages=messages, state=state, report=self._reducer_problem)
        self._upgrader = LegacyEventUpgrader()
        self._expander = ChunkExpander()
        self._optional = _optional_fields_by_type()
        self._defaulted = _defaulted_fields_by_type()
        # Run-scoped state, as in the reference verifier.
        self._first_seen = False
        self._run_started = False
        self._run_finished = False
        self._run_errored = False
        self._after_terminal_reported = False
        self._active_messages: dict[Any, int] = {}
        self._active_tool_calls: dict[Any, int] = {}
        self._active_spans: dict[Any, int] = {}
        self._active_reasoning: dict[Any, int] = {}
        self._owners: dict[str, dict[Any, Any]] = {
            "message": {},
            "toolCall": {},
            "activity": {},
            "reasoning": {},
        }
        self._active_steps: dict[Any, dict[Any, int]] = {}
        self._active_subagents: dict[Any, int] = {}
        self._closed_subagents: set[Any] = set()
        # Thread-scoped knowledge for the extra rules.
        self._known_tool_calls: set[Any] = set()
        self._finished_tool_calls: set[Any] = set()
        self._answered_tool_calls: set[Any] = set()
        self._finished_messages: set[Any] = set()
        for message in messages or ():
            if isinstance(message, BaseModel):
                message = message.model_dump(mode="json", by_alias=True)
            if isinstance(message, dict):
                self._learn_tool_calls(message)

    # -- reporting --------------------------------------------------------------------------------------------

    def _add(self, rule: str, message: str, index: int | None = None) -> None:
        record = self._record
        if index is None:
            index = record.index if record is not None else -1
        if rule == "malformed-event" and any(
            p.index == index and p.severity == "error" for p in self.problems[-3:]
        ):
            return  # the event's error already says what is wrong with it (most often its schema)
        located = record if index >= 0 else None
        self.problems.append(
            Problem(
                index=index,
                rule=rule,
                severity=RULES[rule][0],
                message=message,
                event_type=self._event_type if index >= 0 else None,
                source=located.source if located is not None else None,
                line=located.line if located is not None else None,
            )
        )

    def _reducer_problem(self, index: int, rule: str, message: str) -> None:
        self._add(rule, message, index)

    # -- intake -------------------------------------------------------------------------------------------------

    def check_record(self, record: EventRecord) -> list[dict[str, Any]]:
        """Check one raw record; returns the (upgraded, expanded) events it stands for, already applied.

        Never raises on bad input: an event the checks cannot process is a ``malformed-event`` problem.
        """
        try:
            return self._check_record(record)
        except Exception as exc:
            self._add("malformed-event", f"the event cannot be checked ({internal_failure(exc)})")
            return []

    def _check_record(self, record: EventRecord) -> list[dict[str, Any]]:
        self._record = record
        self._event_type = None
        if record.error is not None:
            rule = next(
                (r for prefix, r in _RECORD_ERROR_RULES if record.error.startswith(prefix)), "not-an-event"
            )
            self._add(rule, record.error)
            return []
        event = record.event
        assert event is not None
        if is_chat_record(event):
            return []  # a chat's own record in its log: what the user did, not the agent's stream
        self._event_type = event.get("type")
        upgraded = self._upgrader.upgrade(event)
        if upgraded is not event:
            what = event["type"] if event["type"] != upgraded["type"] else "legacy null or binary content"
            self._add("deprecated-shape", f"pre-1.0 shape ({what}) upgraded to its 1.0 form")
            event = upgraded
            self._event_type = event.get("type")
        if event["type"] not in EVENT_TYPES:
            self._add("unknown-event-type", f"unknown event type {event['type']!r}; the event is ignored")
            return []
        self._check_shape(event)
        try:
            expanded = (
                self._expander.feed(event)
                if (self._expander.has_open_streams or event["type"] in CHUNK_TYPES)
                else [event]
            )
        except ChunkExpansionError as exc:
            self._add("chunk-expansion", str(exc))
            return []
        for item in expanded:
            self._event_type = item.get("type")
            try:
                self._check_sequence(item)
            except Exception as exc:
                self._add("malformed-event", f"the event cannot be checked ({internal_failure(exc)})")
            self.reducer.feed_all((item,), start=record.index)
        return expanded

    def _check_shape(self, event: dict[str, Any]) -> None:
        optional = self._optional.get(event["type"], frozenset())
        # A null subagentRunId has a rule of its own (null-subagent-run-id).
        nulls = [key for key in optional if key in event and event[key] is None and key != "subagentRunId"]
        if nulls:
            self._add(
                "null-field", f"{', '.join(sorted(nulls))}: null; an optional field is left out, never null"
            )
        if not self._validate:
            return
        missing = [key for key in self._defaulted.get(event["type"], ()) if key not in event]
        if missing:
            self._add("schema", f"{', '.join(sorted(missing))}: Field required")
        try:
            with no_unraisable_reports():
                model = _event_adapter().validate_python(event)
        except ValidationError as exc:
            for error in exc.errors(include_url=False)[:3]:
                path = ".".join(str(part) for part in error["loc"][1:])
                if error["type"] == "none_required" or (
                    error.get("input") is None and path.split(".")[-1] in optional
                ):
                    continue
                self._add("schema", f"{path}: {error['msg']}" if path else error["msg"])
            return
        extra = model.__pydantic_extra__
        if extra:
            self._add("unknown-field", f"unknown field(s) {', '.join(sorted(extra))}")

    # -- sequence rules ----------------------------------------------------------------------------------------

    def _reset_run(self) -> None:
        self._active_messages.clear()
        self._active_tool_calls.clear()
        self._active_spans.clear()
        self._active_reasoning.clear()
        for owners in self._owners.values():
            owners.clear()
        self._active_steps.clear()
        self._active_subagents.clear()
        self._closed_subagents.clear()
        self._run_finished = False
        self._run_errored = False
        self._run_started = True
        self._after_terminal_reported = False

    def _tag_disagrees(self, event: dict[str, Any], owner: Any, kind: str, entity_id: Any) -> bool:
        """The continuation rule: a present tag must match the recorded owner (absent always agrees)."""
        tag = event.get("subagentRunId")
        if tag is None or owner is None or owner[0] == tag:
            return False
        self._add(
            "attribution-mismatch",
            f"subagentRunId {tag!r} does not match the {kind} {entity_id!r} owner {_owner_name(owner[0])}",
        )
        return True

    def _seed_owners(self, messages: Any, authoritative: bool) -> None:
        if not isinstance(messages, list):
            return
        for message in messages:
            if not isinstance(message, dict) or not isinstance(message.get("id"), str):
                continue
            if "subagentRunId" in message and message["subagentRunId"] is None:
                self._add(
                    "null-subagent-run-id", f"message {message['id']!r} has subagentRunId: null; leave it out"
                )
            self._learn_tool_calls(message)
            role = message.get("role")
            bucket = self._owners[
                "reasoning" if role == "reasoning" else "activity" if role == "activity" else "message"
            ]
            owner = (message.get("subagentRunId"),)
            if authoritative or message["id"] not in bucket:
                bucket[message["id"]] = owner
            tool_calls = message.get("toolCalls")
            for tool_call in tool_calls if type(tool_calls) is list else ():
                if (
                    isinstance(tool_call, dict)
                    and isinstance(tool_call.get("id"), str)
                    and (authoritative or tool_call["id"] not in self._owners["toolCall"])
                ):
                    self._owners["toolCall"][tool_call["id"]] = owner

    def _learn_tool_calls(self, message: dict[str, Any]) -> None:
        tool_calls = message.get("toolCalls")
        for tool_call in tool_calls if type(tool_calls) is list else ():
            if isinstance(tool_call, dict) and _hashable(tool_call.get("id")):
                self._known_tool_calls.add(tool_call.get("id"))
                self._finished_tool_calls.add(tool_call.get("id"))
        if message.get("role") == "tool" and _hashable(message.get("toolCallId")):
            self._answered_tool_calls.add(message.get("toolCallId"))

    def _check_sequence(self, event: dict[str, Any]) -> None:
        event_type = event["type"]
        index = self._record.index if self._record is not None else -1

        if not self._after_terminal_reported:
            if self._run_errored and event_type != "RUN_STARTED":
                self._add(
                    "after-run-error", "the run already ended with RUN_ERROR; only RUN_STARTED may follow"
                )
                self._after_terminal_reported = True
            elif self._run_finished and event_type not in ("RUN_ERROR", "RUN_STARTED"):
                self._add("after-run-finished", "the run already finished; start a new run with RUN_STARTED")
                self._after_terminal_reported = True

        if not self._first_seen:
            self._first_seen = True
            if event_type not in ("RUN_STARTED", "RUN_ERROR"):
                self._add("first-event", "the first event must be RUN_STARTED")
        elif event_type == "RUN_STARTED":
            if self._run_started and not self._run_finished and not self._run_errored:
                self._add(
                    "run-already-active",
                    "RUN_STARTED while a run is still active; finish it with RUN_FINISHED first",
                )
            elif self._run_finished or self._run_errored:
                self._reset_run()

        if "subagentRunId" in event and event["subagentRunId"] is None:
            self._add("null-subagent-run-id", "subagentRunId: null; leave it out")

        handler = getattr(self, "_on_" + event_type.lower(), None)
        if handler is not None:
            handler(event, index)

    # text messages

    def _on_text_message_start(self, event: dict[str, Any], index: int) -> None:
        message_id = event.get("messageId")
        if message_id in self._active_messages:
            self._add(
                "text-already-open", f"text message {message_id!r} is already in progress; end it first"
            )
            return
        owner = self._owners["message"].get(message_id)
        if owner is not None and self._tag_disagrees(event, owner, "message", message_id):
            return
        if message_id in self._finished_messages:
            self._add(
                "reused-message-id", f"message id {message_id!r} was already used; its content is appended to"
            )
        self._active_messages[message_id] = index
        if owner is None:
            self._owners["message"][message_id] = (event.get("subagentRunId"),)

    def _on_text_message_content(self, event: dict[str, Any], index: int) -> None:
        message_id = event.get("messageId")
        if message_id not in self._active_messages:
            self._add(
                "text-not-open", f"no active text message {message_id!r}; send TEXT_MESSAGE_START first"
            )
            return
        self._tag_disagrees(event, self._owners["message"].get(message_id), "message", message_id)

    def _on_text_message_end(self, event: dict[str, Any], index: int) -> None:
        message_id = event.get("messageId")
        if message_id not in self._active_messages:
            self._add(
                "text-not-open", f"no active text message {message_id!r}; send TEXT_MESSAGE_START first"
            )
            return
        if self._tag_disagrees(event, self._owners["message"].get(message_id), "message", message_id):
            return
        del self._active_messages[message_id]
        self._finished_messages.add(message_id)

    # tool calls

    def _on_tool_call_start(self, event: dict[str, Any], index: int) -> None:
        tool_call_id = event.get("toolCallId")
        if tool_call_id in self._active_tool_calls:
            self._add(
                "tool-call-already-open", f"tool call {tool_call_id!r} is already in progress; end it first"
            )
            return
        tag = event.get("subagentRunId")
        parent_id = event.get("parentMessageId")
        inherited = None
        if parent_id is not None:
            parent_owner = self._owners["message"].get(parent_id)
            if parent_owner is not None:
                if tag is not None and tag != parent_owner[0]:
                    self._add(
                        "attribution-mismatch",
                        f"subagentRunId {tag!r} does not match its parent message {parent_id!r} owner "
                        f"{_owner_name(parent_owner[0])}",
                    )
                    return
                inherited = parent_owner
        existing = self._owners["toolCall"].get(tool_call_id)
        if existing is not None:
            if self._tag_disagrees(event, existing, "tool call", tool_call_id):
                return
            if tag is None and inherited is not None and inherited[0] != existing[0]:
                self._add(
                    "attribution-mismatch",
                    f"tool call {tool_call_id!r} is owned by {_owner_name(existing[0])} but its parent message "
                    f"{parent_id!r} by {_owner_name(inherited[0])}",
                )
                return
        if tool_call_id in self._finished_tool_calls:
            self._add("reused-tool-call-id", f"tool call id {tool_call_id!r} was already used")
        self._active_tool_calls[tool_call_id] = index
        self._known_tool_calls.add(tool_call_id)
        if existing is None:
            self._owners["toolCall"][tool_call_id] = (tag,) if tag is not None else inherited or (None,)

    def _on_tool_call_args(self, event: dict[str, Any], index: int) -> None:
        tool_call_id = event.get("toolCallId")
        if tool_call_id not in self._active_tool_calls:
            self._add(
                "tool-call-not-open", f"no active tool call {tool_call_id!r}; send TOOL_CALL_START first"
            )
            return
        self._tag_disagrees(event, self._owners["toolCall"].get(tool_call_id), "tool call", tool_call_id)

    def _on_tool_call_end(self, event: dict[str, Any], index: int) -> None:
        tool_call_id = event.get("toolCallId")
        if tool_call_id not in self._active_tool_calls:
            self._add(
                "tool-call-not-open", f"no active tool call {tool_call_id!r}; send TOOL_CALL_START first"
            )
            return
        if self._tag_disagrees(event, self._owners["toolCall"].get(tool_call_id), "tool call", tool_call_id):
            return
        del self._active_tool_calls[tool_call_id]
        self._finished_tool_calls.add(tool_call_id)

    def _on_tool_call_result(self, event: dict[str, Any], index: int) -> None:
        tool_call_id = event.get("toolCallId")
        message_id = event.get("messageId")
        if isinstance(message_id, str):
            self._owners["message"][message_id] = (event.get("subagentRunId"),)
        if tool_call_id not in self._known_tool_calls:
            self._add(
                "unknown-tool-call", f"result for tool call {tool_call_id!r}, which the thread never made"
            )
        elif tool_call_id in self._active_tool_calls:
            self._add(
                "result-before-tool-call-end",
                f"result for tool call {tool_call_id!r} before its TOOL_CALL_END",
            )
        if tool_call_id in self._answered_tool_calls:
            self._add("duplicate-tool-result", f"tool call {tool_call_id!r} already has a result")
        self._answered_tool_calls.add(tool_call_id)

    # reasoning

    def _reasoning_open(self, event: dict[str, Any], spans: bool) -> None:
        message_id = event.get("messageId")
        active = self._active_spans if spans else self._active_reasoning
        if message_id in active:
            what = "reasoning span" if spans else "reasoning message"
            self._add("reasoning-already-open", f"{what} {message_id!r} is already in progress")
            return
        owner = self._owners["reasoning"].get(message_id)
        if owner is not None and self._tag_disagrees(event, owner, "reasoning message", message_id):
            return
        if not spans and message_id in self._finished_messages:
            self._add(
                "reused-message-id", f"message id {message_id!r} was already used; its content is appended to"
            )
        active[message_id] = self._record.index if self._record is not None else -1
        if owner is None:
            self._owners["reasoning"][message_id] = (event.get("subagentRunId"),)

    def _reasoning_continue(self, event: dict[str, Any], spans: bool, closes: bool) -> None:
        message_id = event.get("messageId")
        active = self._active_spans if spans else self._active_reasoning
        if message_id not in active:
            what = "reasoning span" if spans else "reasoning message"
            self._add("reasoning-not-open", f"no active {what} {message_id!r}")
            return
        if self._tag_disagrees(
            event, self._owners["reasoning"].get(message_id), "reasoning message", message_id
        ):
            return
        if closes:
            del active[message_id]
            if not spans:
                self._finished_messages.add(message_id)

    def _on_reasoning_start(self, event: dict[str, Any], index: int) -> None:
        self._reasoning_open(event, spans=True)

    def _on_reasoning_message_start(self, event: dict[str, Any], index: int) -> None:
        self._reasoning_open(event, spans=False)

    def _on_reasoning_message_content(self, event: dict[str, Any], index: int) -> None:
        self._reasoning_continue(event, spans=False, closes=False)

    def _on_reasoning_message_end(self, event: dict[str, Any], index: int) -> None:
        self._reasoning_continue(event, spans=False, closes=True)

    def _on_reasoning_end(self, event: dict[str, Any], index: int) -> None:
        self._reasoning_continue(event, spans=True, closes=True)

    def _on_reasoning_encrypted_value(self, event: dict[str, Any], index: int) -> None:
        entity_id = event.get("entityId")
        subtype = event.get("subtype")
        if subtype == "tool-call":
            owner, kind = self._owners["toolCall"].get(entity_id), "tool call"
        elif subtype == "message":
            owner = self._owners["message"].get(entity_id) or self._owners["reasoning"].get(entity_id)
            kind = "message"
        else:
            owner, kind = self._owners["reasoning"].get(entity_id), "reasoning message"
        self._tag_disagrees(event, owner, kind, entity_id)

    # activities and snapshots

    def _on_activity_snapshot(self, event: dict[str, Any], index: int) -> None:
        message_id = event.get("messageId")
        owners = self._owners["activity"]
        if message_id not in owners or event.get("replace") is not False:
            owners[message_id] = (event.get("subagentRunId"),)

    def _on_activity_delta(self, event: dict[str, Any], index: int) -> None:
        message_id = event.get("messageId")
        self._tag_disagrees(event, self._owners["activity"].get(message_id), "activity", message_id)

    def _on_messages_snapshot(self, event: dict[str, Any], index: int) -> None:
        self._seed_owners(event.get("messages"), authoritative=True)

    # steps

    def _on_step_started(self, event: dict[str, Any], index: int) -> None:
        name, owner = event.get("stepName"), event.get("subagentRunId")
        steps = self._active_steps.setdefault(owner, {})
        if name in steps:
            where = f" in subagent {owner!r}" if owner is not None else ""
            self._add("step-already-active", f"step {name!r} is already active{where}")
            return
        steps[name] = index

    def _on_step_finished(self, event: dict[str, Any], index: int) -> None:
        name, owner = event.get("stepName"), event.get("subagentRunId")
        steps = self._active_steps.get(owner, {})
        if name in steps:
            del steps[name]
            return
        for other, names in self._active_steps.items():
            if other != owner and name in names:
                self._add(
                    "step-wrong-owner",
                    f"step {name!r} is open under {_owner_name(other)}, not {_owner_name(owner)}; whoever starts a "
                    "step finishes it",
                )
                return
        self._add("step-not-started", f"step {name!r} was not started")

    # subagents

    def _on_subagent_started(self, event: dict[str, Any], index: int) -> None:
        run_id = event.get("subagentRunId")
        if not isinstance(run_id, str):
            return  # the schema check reports it
        parent = event.get("parentSubagentRunId")
        if run_id in self._active_subagents:
            self._add("subagent-already-active", f"subagent {run_id!r} is already active")
        elif run_id in self._closed_subagents:
            self._add(
                "subagent-id-reused",
                f"subagent {run_id!r} already finished in this run; ids are per invocation",
            )
        elif (
            parent is not None
            and parent not in self._active_subagents
            and parent not in self._closed_subagents
        ):
            self._add(
                "subagent-unknown-parent", f"parentSubagentRunId {parent!r} has not been started in this run"
            )
        else:
            self._active_subagents[run_id] = index

    def _on_subagent_finished(self, event: dict[str, Any], index: int) -> None:
        run_id = event.get("subagentRunId")
        if not isinstance(run_id, str):
            return
        if run_id not in self._active_subagents:
            self._add("subagent-not-active", f"no active subagent {run_id!r}; send SUBAGENT_STARTED first")
            return
        del self._active_subagents[run_id]
        self._closed_subagents.add(run_id)

    _on_subagent_error = _on_subagent_finished

    # runs

    def _on_run_started(self, event: dict[str, Any], index: int) -> None:
        self._run_started = True
        run_input = event.get("input")
        self._seed_owners(
            run_input.get("messages") if isinstance(run_input, dict) else None, authoritative=False
        )

    def _open_things(self) -> list[str]:
        parts = []
        steps = [
            _named(name) if owner is None else f"{_named(name)} (subagent {shown(owner)})"
            for owner, names in self._active_steps.items()
            for name in names
        ]
        for label, ids in (
            ("steps", steps),
            ("text messages", list(self._active_messages)),
            ("reasoning messages", list(self._active_reasoning)),
            ("reasoning spans", list(self._active_spans)),
            ("tool calls", list(self._active_tool_calls)),
            ("subagents", list(self._active_subagents)),
        ):
            if ids:
                parts.append(f"{label} {', '.join(map(_named, ids))}")
        return parts

    def _on_run_finished(self, event: dict[str, Any], index: int) -> None:
        outcome = event.get("outcome")
        if isinstance(outcome, dict) and outcome.get("type") == "interrupt":
            for interrupt in outcome.get("interrupts") or ():
                if (
                    isinstance(interrupt, dict)
                    and "subagentRunId" in interrupt
                    and interrupt["subagentRunId"] is None
                ):
                    self._add(
                        "null-subagent-run-id", f"interrupt {interrupt.get('id')!r} has subagentRunId: null"
                    )
        open_things = self._open_things()
        if open_things:
            self._add("run-finished-while-open", f"RUN_FINISHED while still open: {'; '.join(open_things)}")
        self._run_finished = True

    def _on_run_error(self, event: dict[str, Any], index: int) -> None:
        self._run_errored = True

    # -- end of stream ------------------------------------------------------------------------------------------

    def source_failed(self, exc: BaseException) -> None:
        """Report that reading the source failed after the events seen so far (it ends the stream there)."""
        self._record = None
        self._event_type = None
        self._add("unknown-format", f"the input cannot be read further ({internal_failure(exc)})", -1)

    def finish(self) -> list[Problem]:
        """Report what the end of the stream leaves unfinished; returns every problem found."""
        self._record = None
        self._event_type = None
        if self._run_started and not self._run_finished and not self._run_errored:
            open_things = self._open_things()
            detail = f" (open: {'; '.join(open_things)})" if open_things else ""
            self._add("run-not-finished", f"the stream ends inside a run{detail}", -1)
        return self.problems


def _source_failed(checker: EventChecker | SpecChecker, exc: BaseException) -> None:
    """Report that reading the source failed after the events seen so far (the stream ends there)."""
    if isinstance(checker, EventChecker):
        checker.source_failed(exc)
    else:
        message = f"the input cannot be read further ({internal_failure(exc)})"
        checker.problems.append(Problem(index=-1, rule="invalid-json", severity="error", message=message))


def _checker(
    rules: RuleLevel, messages: Iterable[Any] | None, state: JSON, validate: bool
) -> EventChecker | SpecChecker:
    if rules == "client":
        return EventChecker(messages=messages, state=state, validate=validate)
    if rules != "spec":
        raise OptionError(f"rules must be 'client' or 'spec', not {shown(rules)}")
    if messages is not None or state is not None:
        raise OptionError("rules='spec' judges the stream alone; messages= and state= go with rules='client'")
    return SpecChecker(validate=validate)


@keyword_options
def verify_events(
    events: EventSource,
    *,
    messages: Iterable[Any] | None = None,
    state: JSON = None,
    validate: bool = True,
    rules: RuleLevel = "client",
) -> list[Problem]:
    """Check an AG-UI stream (anything the intake reads) and return every problem found, in stream order.

    ``rules`` picks the rule level:

    - ``"client"`` (the default): what ``@ag-ui/client`` rejects is an error (:data:`RULES`), what it lets
      through but loses or misreads a warning. ``messages``/``state`` are what the thread held before the
      stream (tool calls there count as known).
    - ``"spec"``: the AG-UI spec's own rules, as the conformance validator ag-ui-validate checks them
      (:data:`~agui_notebook.agui._spec_rules.SPEC_RULES`, each naming the ag-ui-validate rule it matches):
      stricter about lifecycles (a run left open, RUN_ERROR after RUN_FINISHED, ids reused within a run, a
      result for a call the run never made are errors), plus ``"info"`` hints. Each run is judged alone.

    ``validate=False`` skips the per-event field checks (the slowest check). Problems carry a ``code`` to
    filter on:

    >>> stream = [
    ...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    ...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ...     {"type": "RUN_ERROR", "message": "late"},
    ... ]
    >>> verify_events(stream)
    []
    >>> [(p.index, p.code, p.severity) for p in verify_events(stream, rules="spec")]
    [(2, 'finished-and-errored', 'error'), (-1, 'no-timestamps', 'info')]
    """
    checker = _checker(rules, messages, state, validate)
    try:
        for record in iter_event_records(events, expand_chunks=False, upgrade_legacy=False):
            checker.check_record(record)
    except Exception as exc:  # the source itself cannot be read (a missing file, a failing iterator, ...)
        _source_failed(checker, exc)
    return checker.finish()


@keyword_options
async def averify_events(
    events: EventSource,
    *,
    messages: Iterable[Any] | None = None,
    state: JSON = None,
    validate: bool = True,
    rules: RuleLevel = "client",
) -> list[Problem]:
    """Async :func:`verify_events`, for async iterables as well."""
    checker = _checker(rules, messages, state, validate)
    try:
        async for record in aiter_event_records(events, expand_chunks=False, upgrade_legacy=False):
            checker.check_record(record)
    except Exception as exc:
        _source_failed(checker, exc)
    return checker.finish()
