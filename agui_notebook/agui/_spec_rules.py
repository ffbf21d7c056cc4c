"""The ``spec`` rules of :func:`~agui_notebook.verify_events`: what the AG-UI spec requires of a stream.

``rules="client"`` (the default) reports what ``@ag-ui/client`` rejects; ``rules="spec"`` judges the stream by
the spec's own wording, as the conformance validator ag-ui-validate does: every run must end with RUN_FINISHED
or RUN_ERROR (never both), every START its END within the run, ids are unique per run, tool arguments parse as
JSON, results answer a call of the run, deltas apply to a snapshot. :data:`SPEC_RULES` lists the rules, each
with the ag-ui-validate rule it matches (tests/agui/test_spec_rules.py runs that validator on its fixture corpus
and compares).

Runs are judged one at a time: ids, tool calls, steps and state start afresh with each RUN_STARTED. A run left
open where the stream ends is reported at index ``-1``, with whatever it left open; after RUN_ERROR what is
open is the failure's debris and is not reported. A ``*_CHUNK`` stream needs no END: it closes at the next event
of another type, at a chunk naming another id, or at the end of the input (where @ag-ui/client keeps one
stream per subagent open until an event of its own lane or of the run).

>>> stream = [
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 1},
...     {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
...     {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{oops"},
...     {"type": "TOOL_CALL_END", "toolCallId": "c1"},
... ]
>>> from agui_notebook import verify_events
>>> [(p.index, p.code) for p in verify_events(stream, rules="spec")]
[(3, 'invalid-tool-arguments'), (-1, 'run-not-terminated')]
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from ag_ui.core import Event
from pydantic import BaseModel

from agui_notebook._shown import json_kind
from agui_notebook.wire._json import JSONDecodeError, decode_json

from ._compat import LEGACY_EVENT_TYPES
from ._intake import EVENT_TYPES, EventRecord
from ._patch import JsonPatchError, apply_json_patch
from ._problem import Problem, Severity

__all__ = ["DRAFT_EVENT_TYPES", "SPEC_RULES", "SpecChecker"]

SPEC_RULES: dict[str, tuple[Severity, str, str]] = {
    # reading
    "invalid-json": ("error", "a line or SSE data field is not a JSON object", "AGUI502"),
    "unknown-event-type": (
        "error",
        "a 'type' AG-UI does not define (RAW and CUSTOM carry other events)",
        "AGUI503",
    ),
    "draft-event-type": (
        "info",
        "a draft event type the spec documents but the SDK does not define yet",
        "AGUI503",
    ),
    "schema": (
        "error",
        "a required field missing, or a field of the wrong JSON kind for the event's type",
        "AGUI504",
    ),
    # run lifecycle
    "first-event": ("error", "the stream does not start with RUN_STARTED", "AGUI001"),
    "run-already-active": ("error", "RUN_STARTED while a run is still active", "AGUI002"),
    "run-not-terminated": ("error", "a run ends without RUN_FINISHED or RUN_ERROR", "AGUI003"),
    "event-after-run-end": ("error", "an event after the run's RUN_FINISHED or RUN_ERROR", "AGUI004"),
    "finished-and-errored": (
        "error",
        "RUN_ERROR after RUN_FINISHED, or RUN_FINISHED after RUN_ERROR",
        "AGUI005",
    ),
    "run-id-mismatch": (
        "warning",
        "RUN_FINISHED names another threadId or runId than its RUN_STARTED",
        "AGUI008",
    ),
    # steps
    "step-not-started": ("error", "STEP_FINISHED for a step that is not open", "AGUI006"),
    "step-not-finished": ("error", "a step still open when its run ends", "AGUI007"),
    # text messages
    "text-content-not-open": ("error", "TEXT_MESSAGE_CONTENT for no open message", "AGUI101"),
    "text-end-not-open": ("error", "TEXT_MESSAGE_END for no open message", "AGUI102"),
    "text-not-ended": ("error", "a text message still open when its run ends", "AGUI103"),
    "reused-message-id": (
        "error",
        "TEXT_MESSAGE_START reuses the id of a finished message of the run",
        "AGUI104",
    ),
    "empty-text-delta": (
        "warning",
        "TEXT_MESSAGE_CONTENT with an empty delta (the spec says non-empty)",
        "AGUI105",
    ),
    "text-already-open": ("error", "TEXT_MESSAGE_START for a message already open", "AGUI106"),
    # tool calls
    "tool-args-not-open": ("error", "TOOL_CALL_ARGS for no open tool call", "AGUI201"),
    "tool-end-not-open": ("error", "TOOL_CALL_END for no open tool call", "AGUI202"),
    "tool-call-not-ended": ("error", "a tool call still open when its run ends", "AGUI203"),
    "invalid-tool-arguments": ("error", "a tool call's joined TOOL_CALL_ARGS are not JSON", "AGUI204"),
    "reused-tool-call-id": ("error", "TOOL_CALL_START reuses a tool call id of the run", "AGUI205"),
    "result-before-tool-call-end": ("warning", "TOOL_CALL_RESULT while its call is still open", "AGUI206"),
    "unknown-tool-call": ("error", "TOOL_CALL_RESULT for a tool call the run never made", "AGUI207"),
    "unknown-parent-message": (
        "info",
        "TOOL_CALL_START's parentMessageId names no message of the run",
        "AGUI208",
    ),
    # state
    "delta-before-snapshot": ("info", "STATE_DELTA before any STATE_SNAPSHOT of the run", "AGUI301"),
    "state-patch-failed": ("error", "a STATE_DELTA patch does not apply to the state", "AGUI302"),
    "invalid-state-patch": ("error", "a STATE_DELTA that is not an RFC 6902 patch document", "AGUI303"),
    "snapshot-discards-deltas": ("info", "a STATE_SNAPSHOT replaces state built from deltas", "AGUI304"),
    # reasoning
    "reasoning-content-not-open": (
        "error",
        "REASONING_MESSAGE_CONTENT for no open reasoning message",
        "AGUI401",
    ),
    "reasoning-not-ended": (
        "warning",
        "reasoning (a span or a message) still open when its run ends",
        "AGUI402",
    ),
    # subagents
    "subagent-already-started": (
        "error",
        "SUBAGENT_STARTED for a subagent run id already used in the run",
        "AGUI601",
    ),
    "subagent-finished-not-started": ("error", "SUBAGENT_FINISHED for no open subagent", "AGUI602"),
    "subagent-error-not-started": ("error", "SUBAGENT_ERROR for no open subagent", "AGUI603"),
    "subagent-not-ended": ("error", "a subagent still open when its run ends", "AGUI604"),
    "subagent-unknown-parent": ("warning", "parentSubagentRunId names no subagent of the run", "AGUI605"),
    "attribution-mismatch": (
        "warning",
        "a text, tool call or step continuation's subagentRunId differs from the one it was opened under",
        "AGUI606",
    ),
    # style
    "raw-wraps-typed-event": ("info", "a RAW event wraps an event AG-UI has a type for", "AGUI901"),
    "no-timestamps": ("info", "no event carries the optional timestamp", "AGUI902"),
    "custom-name-not-namespaced": ("info", "a CUSTOM name without a namespace ('vendor.event')", "AGUI903"),
}
"""Every ``spec`` rule: its code -> (severity, what it means, the ag-ui-validate rule it matches)."""

DRAFT_EVENT_TYPES = frozenset({"META"})
"""Event types the spec documents as drafts (https://docs.ag-ui.com/drafts/meta-events), not yet in the SDK."""

_KNOWN_TYPES = EVENT_TYPES | LEGACY_EVENT_TYPES
# "runStarted" and "run-started" are RUN_STARTED written in another case: worth a hint.
_BY_SQUASHED = {t.replace("_", "").lower(): t for t in _KNOWN_TYPES}
_NAMESPACE_MARKS = (".", ":", "/")
_PATCH_OPS = frozenset({"add", "remove", "replace", "move", "copy", "test"})
_RUN_PARENT = "the run"
_MISSING: Any = object()
# The field that names what an event opens, continues or closes.
_NAMED_BY = {
    **dict.fromkeys(("TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"), "messageId"),
    **dict.fromkeys(("TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT"), "toolCallId"),
    **dict.fromkeys(("STEP_STARTED", "STEP_FINISHED"), "stepName"),
    **dict.fromkeys(
        (
            "REASONING_START",
            "REASONING_END",
            "REASONING_MESSAGE_START",
            "REASONING_MESSAGE_CONTENT",
            "REASONING_MESSAGE_END",
        ),
        "messageId",
    ),
    **dict.fromkeys(("SUBAGENT_STARTED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR"), "subagentRunId"),
}

FieldKind = Literal["string", "number", "boolean", "array", "object", "any"]
_CHECKS: dict[str, Any] = {
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _kinds_of(annotation: Any) -> tuple[frozenset[FieldKind], tuple[str, ...] | None]:
    """The JSON kinds an ``ag_ui.core`` field annotation takes (and its allowed strings, for a Literal)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _kinds_of(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        members = [_kinds_of(a) for a in typing.get_args(annotation) if a is not type(None)]
        kinds = frozenset().union(*(k for k, _ in members))
        allowed = members[0][1] if len(members) == 1 else None
        return (frozenset({"any"}) if "any" in kinds else kinds), allowed
    if origin is Literal:
        values = typing.get_args(annotation)
        if all(isinstance(v, str) for v in values):
            return frozenset({"string"}), tuple(values)
        return frozenset({"any"}), None
    if annotation is str:
        return frozenset({"string"}), None
    if annotation is bool:
        return frozenset({"boolean"}), None
    if annotation in (int, float):
        return frozenset({"number"}), None
    if annotation is list or origin is list:
        return frozenset({"array"}), None
    if (
        annotation is dict
        or origin is dict
        or (isinstance(annotation, type) and issubclass(annotation, BaseModel))
    ):
        return frozenset({"object"}), None
    return frozenset({"any"}), None


# A null timestamp passes as no timestamp (ag-ui-validate's reading; every other optional field must be left out).
_NULLABLE = frozenset({"timestamp"})
# The Python models give these a default; the spec (and the TypeScript SDK, so @ag-ui/client) require them.
_REQUIRED_BY_SPEC = frozenset({("REASONING_MESSAGE_START", "role")})


@dataclass(frozen=True, slots=True)
class _FieldRule:
    """What one field of one event type must be."""

    required: bool
    kinds: frozenset[FieldKind]
    allowed: tuple[str, ...] | None  # the strings a Literal field takes

    def kind_error(self, value: Any) -> str | None:
        if "any" in self.kinds:
            return None
        if not any(_CHECKS[kind](value) for kind in self.kinds):
            wanted = " or ".join(("an " if k[0] in "aeiou" else "a ") + k for k in sorted(self.kinds))
            return f"expected {wanted}, got {json_kind(value)}"
        if self.allowed is not None and value not in self.allowed:
            return f"{value!r} is not one of {', '.join(map(repr, self.allowed))}"
        return None


@lru_cache(maxsize=1)
def _field_rules() -> dict[str, dict[str, _FieldRule]]:
    """Per event type, each wire field and what it must be, read from the ``ag_ui.core`` models."""
    union = typing.get_args(Event)[0]
    table: dict[str, dict[str, _FieldRule]] = {}
    for model in typing.get_args(union):
        event_type = model.model_fields["type"].default.value
        fields = {}
        for name, field in model.model_fields.items():
            if name == "type":
                continue
            kinds, allowed = _kinds_of(field.annotation)
            wire_name = field.alias or name
            required = field.is_required() or (event_type, wire_name) in _REQUIRED_BY_SPEC
            fields[wire_name] = _FieldRule(required, kinds, allowed)
        table[event_type] = fields
    return table


def _patch_shape_error(operations: list[Any]) -> str | None:
    """Why a patch is not an RFC 6902 document (before any operation is tried), or ``None``."""
    for index, operation in enumerate(operations):
        if not isinstance(operation, dict):
            return f"operation {index} is not an object"
        op = operation.get("op")
        if op not in _PATCH_OPS:
            return f"operation {index} has op {op!r}, not one of {', '.join(sorted(_PATCH_OPS))}"
        path = operation.get("path")
        if not isinstance(path, str) or (path and not path.startswith("/")):
            return f"operation {index} ({op}): path {path!r} is not a JSON pointer"
        if op in ("move", "copy") and not isinstance(operation.get("from"), str):
            return f"operation {index} ({op}): 'from' is missing or not a string"
        if op in ("add", "replace", "test") and "value" not in operation:
            return f"operation {index} ({op}): 'value' is missing"
    return None


@dataclass(slots=True)
class _Chunk:
    """The chunk stream being read: its chunk type, the id it continues, whether it opened that id itself."""

    chunk_type: str
    entity_id: str
    owned: bool


def _text(event: dict[str, Any], key: str) -> str | None:
    """A field that names something (an id, a step): only a string does (the field check reports the rest)."""
    value = event.get(key)
    return value if isinstance(value, str) else None


class _Run:
    """What the rules remember about one run: what is open, what was used, the state."""

    def __init__(self, run_id: str | None, thread_id: str | None, implicit: bool) -> None:
        self.run_id = run_id
        self.thread_id = thread_id
        self.implicit = implicit
        self.terminal: str | None = None  # RUN_FINISHED or RUN_ERROR, once the run has ended
        # Ids are None where the event names none (a missing or non-string id, which the field check reports):
        # such events still open and close, under the id None.
        self.open_text: dict[
            str | None, str | None
        ] = {}  # message id -> the subagentRunId it was opened under
        self.ended_text: set[str | None] = set()
        self.message_ids: set[str | None] = set()  # what a parentMessageId may name
        # id -> (subagentRunId, argument deltas)
        self.open_tools: dict[str | None, tuple[str | None, list[str]]] = {}
        self.tool_ids: set[str | None] = set()  # started in this run
        self.known_tool_ids: set[str | None] = (
            set()
        )  # what a result may answer: started, or in a MESSAGES_SNAPSHOT
        # step name -> [the subagentRunId it was first opened under, how many STEP_STARTED are still open]
        self.open_steps: dict[str | None, list[Any]] = {}
        self.open_spans: dict[
            str | None, None
        ] = {}  # dicts as ordered sets: open things are reported in order
        self.open_reasoning: dict[str | None, None] = {}
        self.open_subagents: dict[str | None, None] = {}
        self.subagent_ids: set[str | None] = set()
        self.has_snapshot = False
        self.state: Any = None
        self.deltas_since_snapshot = 0
        self.reported_delta_before_snapshot = False


class SpecChecker:
    """Checks records one at a time against :data:`SPEC_RULES`; call :meth:`finish` at the end of the stream.

    Feed :class:`~agui_notebook.agui._intake.EventRecord` s read without chunk expansion or legacy upgrade.
    """

    def __init__(self, *, validate: bool = True) -> None:
        self.problems: list[Problem] = []
        self._validate = validate
        self._record: EventRecord | None = None
        self._event_type: str | None = None
        self._run: _Run | None = None
        self._chunk: _Chunk | None = None
        self._event_count = 0
        self._timestamped = False

    # -- reporting ----------------------------------------------------------------------------------------------

    def _add(self, code: str, message: str, *, at_end: bool = False) -> None:
        record = None if at_end else self._record
        self.problems.append(
            Problem(
                index=record.index if record is not None else -1,
                rule=code,
                severity=SPEC_RULES[code][0],
                message=message,
                event_type=self._event_type if record is not None else None,
                source=record.source if record is not None else None,
                line=record.line if record is not None else None,
            )
        )

    # -- intake -------------------------------------------------------------------------------------------------

    def check_record(self, record: EventRecord) -> None:
        """Check one raw record."""
        self._record = record
        self._event_type = None
        self._event_count += 1
        if record.error is not None:
            if record.error.startswith("event has no string 'type'"):
                self._add("schema", "the event has no string 'type'")
            else:
                self._add("invalid-json", record.error)
            return
        event = record.event
        assert event is not None
        event_type = self._event_type = event["type"]
        timestamp = event.get("timestamp")
        if isinstance(timestamp, (int, float)) and not isinstance(timestamp, bool):
            self._timestamped = True
        if event_type not in _KNOWN_TYPES:
            self._unknown_type(event_type)
            return
        if self._validate:
            self._check_fields(event)
        if self._chunk is not None and event_type != self._chunk.chunk_type:
            self._close_chunk()
        self._check_sequence(event)

    def _unknown_type(self, event_type: str) -> None:
        if event_type in DRAFT_EVENT_TYPES:
            self._add(
                "draft-event-type", f"{event_type} is a draft event type the AG-UI SDK does not define yet"
            )
            return
        message = f"unknown event type {event_type!r}; the event is ignored"
        known = _BY_SQUASHED.get(event_type.replace("_", "").replace("-", "").replace(" ", "").lower())
        if known is not None:
            message += f" (did you mean {known!r}? event types are SCREAMING_SNAKE_CASE)"
        self._add("unknown-event-type", message)

    def _check_fields(self, event: dict[str, Any]) -> None:
        """Report missing and mistyped fields (the rules then skip what names no entity by a string id)."""
        rules = _field_rules().get(event["type"])
        if rules is None:  # a legacy THINKING_* event: no model to check against
            return
        for name, rule in rules.items():
            if name not in event:
                if rule.required:
                    self._add("schema", f"missing required field {name!r}")
            elif event[name] is not None or name not in _NULLABLE:
                error = rule.kind_error(event[name])
                if error is not None:
                    self._add("schema", f"{name}: {error}")

    # -- runs ---------------------------------------------------------------------------------------------------

    def _check_sequence(self, event: dict[str, Any]) -> None:
        event_type = event["type"]
        run = self._run
        if run is None:
            if event_type == "RUN_STARTED":
                self._run = _Run(_text(event, "runId"), _text(event, "threadId"), implicit=False)
                return
            self._add("first-event", f"the first event is {event_type}; a stream starts with RUN_STARTED")
            run = self._run = _Run(None, None, implicit=True)
        elif run.terminal is not None:
            if event_type == "RUN_STARTED":
                self._run = _Run(_text(event, "runId"), _text(event, "threadId"), implicit=False)
            elif event_type in ("RUN_FINISHED", "RUN_ERROR") and event_type != run.terminal:
                self._add(
                    "finished-and-errored", f"{event_type} after the run already ended with {run.terminal}"
                )
            else:
                self._add("event-after-run-end", f"{event_type} after the run ended with {run.terminal}")
            return
        elif event_type == "RUN_STARTED":
            if run.implicit:  # the run the stream was already in gets its ids
                run.run_id, run.thread_id, run.implicit = (
                    _text(event, "runId"),
                    _text(event, "threadId"),
                    False,
                )
            else:
                self._add(
                    "run-already-active",
                    f"RUN_STARTED (runId {_text(event, 'runId')!r}) while run {run.run_id!r} is still active",
                )
            return
        key = _NAMED_BY.get(event_type)
        if key is not None and not isinstance(event.get(key), str):
            return  # it names nothing the rules can follow; the field check reported it
        handler = getattr(self, "_on_" + event_type.lower(), None)
        if handler is not None:
            handler(run, event)

    def _on_run_finished(self, run: _Run, event: dict[str, Any]) -> None:
        if not run.implicit:
            for field, expected in (("threadId", run.thread_id), ("runId", run.run_id)):
                actual = _text(event, field)
                if actual is not None and expected is not None and actual != expected:
                    self._add(
                        "run-id-mismatch", f"{field} {actual!r} is not the {expected!r} its RUN_STARTED named"
                    )
        self._report_open(run, at_end=False)
        run.terminal = "RUN_FINISHED"

    def _on_run_error(self, run: _Run, event: dict[str, Any]) -> None:
        run.terminal = "RUN_ERROR"

    def _report_open(self, run: _Run, *, at_end: bool) -> None:
        """What a run that ends cleanly (RUN_FINISHED, or the input's end) still has open."""
        for message_id in run.open_text:
            self._add("text-not-ended", f"text message {message_id!r} was never ended", at_end=at_end)
        for tool_call_id in run.open_tools:
            self._add("tool-call-not-ended", f"tool call {tool_call_id!r} was never ended", at_end=at_end)
        for name in run.open_steps:
            self._add("step-not-finished", f"step {name!r} was never finished", at_end=at_end)
        for message_id in run.open_spans:
            self._add("reasoning-not-ended", f"REASONING_START {message_id!r} was never ended", at_end=at_end)
        for message_id in run.open_reasoning:
            self._add(
                "reasoning-not-ended", f"reasoning message {message_id!r} was never ended", at_end=at_end
            )
        for subagent_id in run.open_subagents:
            self._add(
                "subagent-not-ended",
                f"subagent {subagent_id!r} never ended with SUBAGENT_FINISHED or SUBAGENT_ERROR",
                at_end=at_end,
            )

    # -- text messages ------------------------------------------------------------------------------------------

    def _owner_disagrees(self, event: dict[str, Any], owner: Any, entity: str, entity_id: Any) -> None:
        tag = _text(event, "subagentRunId")
        if tag is not None and tag != owner:
            opened = _RUN_PARENT if owner is None else f"subagent {owner!r}"
            self._add(
                "attribution-mismatch",
                f"subagentRunId {tag!r}, but {entity} {entity_id!r} was opened by {opened}",
            )

    def _on_text_message_start(self, run: _Run, event: dict[str, Any]) -> None:
        message_id = _text(event, "messageId")
        if message_id in run.open_text:
            self._add("text-already-open", f"text message {message_id!r} is already open")
        elif message_id in run.ended_text:
            self._add(
                "reused-message-id", f"message id {message_id!r} was already used by a finished message"
            )
        else:
            run.open_text[message_id] = _text(event, "subagentRunId")
            run.message_ids.add(message_id)

    def _on_text_message_content(self, run: _Run, event: dict[str, Any]) -> None:
        message_id = _text(event, "messageId")
        if message_id not in run.open_text:
            self._add("text-content-not-open", f"no open text message {message_id!r}")
            return
        if event.get("delta") == "":
            self._add("empty-text-delta", f"empty delta for text message {message_id!r}")
        self._owner_disagrees(event, run.open_text[message_id], "text message", message_id)

    def _on_text_message_end(self, run: _Run, event: dict[str, Any]) -> None:
        message_id = _text(event, "messageId")
        if message_id not in run.open_text:
            self._add("text-end-not-open", f"no open text message {message_id!r}")
            return
        self._owner_disagrees(event, run.open_text.pop(message_id), "text message", message_id)
        run.ended_text.add(message_id)

    # -- tool calls ---------------------------------------------------------------------------------------------

    def _on_tool_call_start(self, run: _Run, event: dict[str, Any]) -> None:
        tool_call_id = _text(event, "toolCallId")
        if tool_call_id in run.tool_ids:
            self._add("reused-tool-call-id", f"tool call id {tool_call_id!r} was already used in this run")
            return
        parent = _text(event, "parentMessageId")
        if parent is not None and parent not in run.message_ids:
            self._add("unknown-parent-message", f"parentMessageId {parent!r} names no message of this run")
        run.tool_ids.add(tool_call_id)
        run.known_tool_ids.add(tool_call_id)
        run.open_tools[tool_call_id] = (_text(event, "subagentRunId"), [])

    def _on_tool_call_args(self, run: _Run, event: dict[str, Any]) -> None:
        tool_call_id = _text(event, "toolCallId")
        if tool_call_id not in run.open_tools:
            self._add("tool-args-not-open", f"no open tool call {tool_call_id!r}")
            return
        owner, deltas = run.open_tools[tool_call_id]
        self._owner_disagrees(event, owner, "tool call", tool_call_id)
        delta = event.get("delta")
        if isinstance(delta, str):
            deltas.append(delta)

    def _on_tool_call_end(self, run: _Run, event: dict[str, Any]) -> None:
        tool_call_id = _text(event, "toolCallId")
        if tool_call_id not in run.open_tools:
            self._add("tool-end-not-open", f"no open tool call {tool_call_id!r}")
            return
        self._owner_disagrees(event, run.open_tools[tool_call_id][0], "tool call", tool_call_id)
        self._end_tool_call(run, tool_call_id)

    def _end_tool_call(self, run: _Run, tool_call_id: str | None, *, at_end: bool = False) -> None:
        _, deltas = run.open_tools.pop(tool_call_id)
        arguments = "".join(deltas)
        if arguments:  # no arguments at all is no arguments, not bad JSON
            try:
                decode_json(arguments)
            except JSONDecodeError as exc:
                self._add(
                    "invalid-tool-arguments",
                    f"the arguments of tool call {tool_call_id!r} are not JSON ({exc.msg} at column {exc.colno})",
                    at_end=at_end,
                )

    def _on_tool_call_result(self, run: _Run, event: dict[str, Any]) -> None:
        tool_call_id = _text(event, "toolCallId")
        if tool_call_id in run.open_tools:
            self._add(
                "result-before-tool-call-end",
                f"result for tool call {tool_call_id!r} before its TOOL_CALL_END",
            )
        elif tool_call_id not in run.known_tool_ids:
            self._add(
                "unknown-tool-call", f"result for tool call {tool_call_id!r}, which this run never started"
            )
        message_id = _text(event, "messageId")
        if message_id is not None:
            run.message_ids.add(message_id)

    def _on_messages_snapshot(self, run: _Run, event: dict[str, Any]) -> None:
        messages = event.get("messages")
        for message in messages if isinstance(messages, list) else ():
            if not isinstance(message, dict):
                continue
            if isinstance(message.get("id"), str):
                run.message_ids.add(message["id"])
            tool_calls = message.get("toolCalls")
            for tool_call in tool_calls if isinstance(tool_calls, list) else ():
                if isinstance(tool_call, dict) and isinstance(tool_call.get("id"), str):
                    run.known_tool_ids.add(tool_call["id"])

    # -- steps and reasoning ------------------------------------------------------------------------------------

    def _on_step_started(self, run: _Run, event: dict[str, Any]) -> None:
        name = event["stepName"]
        if name in run.open_steps:
            run.open_steps[name][1] += 1
        else:
            run.open_steps[name] = [_text(event, "subagentRunId"), 1]

    def _on_step_finished(self, run: _Run, event: dict[str, Any]) -> None:
        name = event["stepName"]
        if name not in run.open_steps:
            self._add("step-not-started", f"step {name!r} is not open")
            return
        opened = run.open_steps[name]
        self._owner_disagrees(event, opened[0], "step", name)
        opened[1] -= 1
        if not opened[1]:
            del run.open_steps[name]

    def _on_reasoning_start(self, run: _Run, event: dict[str, Any]) -> None:
        run.open_spans[_text(event, "messageId")] = None

    def _on_reasoning_end(self, run: _Run, event: dict[str, Any]) -> None:
        run.open_spans.pop(_text(event, "messageId"), None)

    def _on_reasoning_message_start(self, run: _Run, event: dict[str, Any]) -> None:
        run.open_reasoning[_text(event, "messageId")] = None

    def _on_reasoning_message_content(self, run: _Run, event: dict[str, Any]) -> None:
        message_id = _text(event, "messageId")
        if message_id not in run.open_reasoning:
            self._add("reasoning-content-not-open", f"no open reasoning message {message_id!r}")

    def _on_reasoning_message_end(self, run: _Run, event: dict[str, Any]) -> None:
        run.open_reasoning.pop(_text(event, "messageId"), None)

    # -- state --------------------------------------------------------------------------------------------------

    def _on_state_snapshot(self, run: _Run, event: dict[str, Any]) -> None:
        if run.deltas_since_snapshot:
            self._add(
                "snapshot-discards-deltas",
                f"the snapshot replaces state built from {run.deltas_since_snapshot} delta(s)",
            )
        run.has_snapshot, run.state, run.deltas_since_snapshot = True, event.get("snapshot"), 0

    def _on_state_delta(self, run: _Run, event: dict[str, Any]) -> None:
        operations = event.get("delta")
        if not isinstance(operations, list):
            return  # the field check reports it
        shape_error = _patch_shape_error(operations)
        if shape_error is not None:
            self._add("invalid-state-patch", f"not an RFC 6902 patch: {shape_error}")
            return
        run.deltas_since_snapshot += 1
        if not run.has_snapshot:
            if not run.reported_delta_before_snapshot:
                run.reported_delta_before_snapshot = True
                self._add(
                    "delta-before-snapshot",
                    "STATE_DELTA before any STATE_SNAPSHOT in this run; its base is unknown",
                )
            return
        try:
            run.state = apply_json_patch(run.state, operations)
        except JsonPatchError as exc:
            self._add("state-patch-failed", f"the patch does not apply: {exc}")

    # -- subagents ----------------------------------------------------------------------------------------------

    def _on_subagent_started(self, run: _Run, event: dict[str, Any]) -> None:
        subagent_id = _text(event, "subagentRunId")
        if subagent_id in run.subagent_ids:
            self._add(
                "subagent-already-started", f"subagent run id {subagent_id!r} was already used in this run"
            )
            return
        run.subagent_ids.add(subagent_id)
        parent = _text(event, "parentSubagentRunId")
        if parent is not None and parent not in run.subagent_ids:
            self._add(
                "subagent-unknown-parent", f"parentSubagentRunId {parent!r} names no subagent of this run"
            )
        run.open_subagents[subagent_id] = None

    def _on_subagent_finished(self, run: _Run, event: dict[str, Any]) -> None:
        self._close_subagent(run, event, "subagent-finished-not-started")

    def _on_subagent_error(self, run: _Run, event: dict[str, Any]) -> None:
        self._close_subagent(run, event, "subagent-error-not-started")

    def _close_subagent(self, run: _Run, event: dict[str, Any], code: str) -> None:
        subagent_id = _text(event, "subagentRunId")
        if subagent_id not in run.open_subagents:
            self._add(code, f"no open subagent {subagent_id!r}")
            return
        del run.open_subagents[subagent_id]

    # -- chunks -------------------------------------------------------------------------------------------------
    # A chunk opens its message or tool call (or continues one already open); the chunk stream closes at the
    # next event of another type, at a chunk naming another id, or where the input ends.

    def _on_text_message_chunk(self, run: _Run, event: dict[str, Any]) -> None:
        message_id = self._chunk_target(event, "messageId", run.open_text)
        if message_id is None:
            return
        if message_id in run.ended_text:
            self._add(
                "reused-message-id", f"message id {message_id!r} was already used by a finished message"
            )
        else:
            run.open_text[message_id] = _text(event, "subagentRunId")
            run.message_ids.add(message_id)
            self._chunk = _Chunk(event["type"], message_id, owned=True)

    def _on_reasoning_message_chunk(self, run: _Run, event: dict[str, Any]) -> None:
        message_id = self._chunk_target(event, "messageId", run.open_reasoning)
        if message_id is None:
            return
        run.open_reasoning[message_id] = None
        self._chunk = _Chunk(event["type"], message_id, owned=True)

    def _on_tool_call_chunk(self, run: _Run, event: dict[str, Any]) -> None:
        delta = event.get("delta")
        tool_call_id = self._chunk_target(event, "toolCallId", run.open_tools)
        if tool_call_id is None:
            continued = _text(event, "toolCallId") or (
                self._chunk.entity_id if self._chunk is not None else None
            )
            if continued in run.open_tools and isinstance(delta, str):
                run.open_tools[continued][1].append(delta)
            return
        if tool_call_id in run.tool_ids:
            self._add("reused-tool-call-id", f"tool call id {tool_call_id!r} was already used in this run")
            return
        if not isinstance(event.get("toolCallName"), str):  # a problem of its own; the call is still made
            self._add("schema", "the first TOOL_CALL_CHUNK of a tool call needs a toolCallName")
        run.tool_ids.add(tool_call_id)
        run.known_tool_ids.add(tool_call_id)
        run.open_tools[tool_call_id] = (
            _text(event, "subagentRunId"),
            [delta] if isinstance(delta, str) else [],
        )
        self._chunk = _Chunk(event["type"], tool_call_id, owned=True)

    def _chunk_target(self, event: dict[str, Any], key: str, open_ids: dict[Any, Any]) -> str | None:
        """The id a chunk opens; ``None`` when it continues the current chunk stream or an id already open."""
        entity_id = _text(event, key)
        current = self._chunk
        if current is not None and entity_id in (None, current.entity_id):
            return None
        if entity_id is not None and entity_id in open_ids:  # opened by a START: the chunk continues it
            if current is None:
                self._chunk = _Chunk(event["type"], entity_id, owned=False)
            return None
        if current is not None:
            self._close_chunk()
        if entity_id is None:
            self._add("schema", f"the first {event['type']} of a stream needs a {key}")
        return entity_id

    def _close_chunk(self, *, at_end: bool = False) -> None:
        chunk, self._chunk = self._chunk, None
        run = self._run
        if chunk is None or not chunk.owned or run is None:
            return
        if chunk.chunk_type == "TEXT_MESSAGE_CHUNK":
            if run.open_text.pop(chunk.entity_id, _MISSING) is not _MISSING:
                run.ended_text.add(chunk.entity_id)
        elif chunk.chunk_type == "REASONING_MESSAGE_CHUNK":
            run.open_reasoning.pop(chunk.entity_id, None)
        elif chunk.entity_id in run.open_tools:
            self._end_tool_call(run, chunk.entity_id, at_end=at_end)

    # -- raw and custom -----------------------------------------------------------------------------------------

    def _on_raw(self, run: _Run, event: dict[str, Any]) -> None:
        wrapped = event.get("event")
        wrapped_type = wrapped.get("type") if isinstance(wrapped, dict) else None
        if isinstance(wrapped_type, str) and wrapped_type in EVENT_TYPES:
            self._add("raw-wraps-typed-event", f"RAW wraps a {wrapped_type} event; send it as that type")

    def _on_custom(self, run: _Run, event: dict[str, Any]) -> None:
        name = event.get("name")
        if isinstance(name, str) and not any(mark in name for mark in _NAMESPACE_MARKS):
            self._add(
                "custom-name-not-namespaced", f"CUSTOM name {name!r} has no namespace (e.g. 'vendor.event')"
            )

    # -- end of stream ------------------------------------------------------------------------------------------

    def finish(self) -> list[Problem]:
        """Report what the end of the stream leaves unfinished; returns every problem found."""
        self._record = None
        self._event_type = None
        self._close_chunk(at_end=True)
        run = self._run
        if run is not None and run.terminal is None:
            name = "(unknown)" if run.run_id is None else repr(run.run_id)
            self._add("run-not-terminated", f"run {name} ends without RUN_FINISHED or RUN_ERROR", at_end=True)
            self._report_open(run, at_end=True)
        if self._event_count and not self._timestamped:
            self._add(
                "no-timestamps", f"none of the {self._event_count} events carries a timestamp", at_end=True
            )
        return self.problems
