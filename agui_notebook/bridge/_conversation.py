"""A conversation's UIMessages and AG-UI state, advanced by runs whose items may be of any stream kind.

A run streams AG-UI events (``ag_ui.core`` models or wire dicts), AI SDK UI-message chunks (dicts such as
``{"type": "text-delta", ...}``) or plain ``str`` text deltas; the ``type`` tells events and chunks apart
(``ui/_chunk_types.py``). :class:`ConversationReducer` routes each item to the matching reducer (a
:class:`UIMessageAssembler` for events, a :class:`StreamedMessage` for chunks and text), checks events against
@ag-ui/client's rules, keeps the AG-UI shared state, records what arrived, and reports every change as
:class:`MessageChange` records with absolute message indexes, ready for the live-patch batcher.

>>> conversation = ConversationReducer()
>>> conversation.begin_run(run_id="r1", thread_id="t1")
>>> changes = conversation.push("Hello") + conversation.push(", world")
>>> changes += conversation.end_run("success")
>>> conversation.messages[0]["parts"]
[{'type': 'step-start'}, {'type': 'text', 'text': 'Hello, world', 'state': 'done'}]
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel

from agui_notebook._errors import (
    ChatStateError,
    MessageNotFoundError,
    RunStreamError,
    StateUpdateWarning,
    UIMessageStreamError,
    UIMessageStreamErrorChunk,
    warn,
)
from agui_notebook._types import JSON
from agui_notebook.agui._intake import EventRecord, to_wire_event
from agui_notebook.agui._interrupts import approval_response, build_resume_entries
from agui_notebook.agui._patch import JsonPatchError, apply_json_patch
from agui_notebook.agui._verify import EventChecker
from agui_notebook.bridge._assemble import StreamedMessage, UIMessageAssembler, ended_as, tool_call_ended
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._chunk_types import classify_type

__all__ = [
    "ConversationReducer",
    "RunOutcome",
    "RunStreamError",
    "StateUpdateWarning",
    "classify_item",
    "ended_as",
    "tool_call_ended",
]

RunOutcome = Literal["success", "interrupt", "cancelled", "error"]
"""How a run ended: finished, stopped for the user (approvals), stopped by ``stop()``, or failed."""

ItemKind = Literal["event", "chunk", "text"]
_TEXT_PART_ID = "text"
_STREAM_SOURCE = "<stream>"
# Problems @ag-ui/client survives (it keeps the old value or drops the event); every other error ends the run.
_TOLERATED_RULES = frozenset({"state-patch-failed", "activity-patch-failed", "unknown-event-type"})


def classify_item(item: Any) -> tuple[ItemKind, JSON]:
    """Tell what a stream item is and return it in wire form: an AG-UI event, an AI SDK chunk or text.

    >>> classify_item({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "a"})[0]
    'event'
    >>> classify_item({"type": "text-delta", "id": "t", "delta": "a"})[0]
    'chunk'
    >>> classify_item("a")
    ('text', 'a')
    """
    if type(item) is str:
        return "text", item
    if isinstance(item, BaseModel):
        if type(item).__module__.startswith("ag_ui."):
            return "event", to_wire_event(item)
        # Other protocol models (pydantic-ai's AI SDK chunks) share the camelCase-without-nulls wire form.
        wire = item.model_dump(mode="json", by_alias=True, exclude_none=True)
        item = wire
    if isinstance(item, Mapping):
        kind = item.get("type")
        if isinstance(kind, Enum):
            return "event", to_wire_event(dict(item))
        if type(kind) is str and kind:
            return classify_type(kind), item if type(item) is dict else dict(item)
        raise TypeError(f"a stream item needs a string 'type', got {item.get('type')!r}")
    if isinstance(item, str):
        return "text", str(item)
    raise TypeError(f"expected an AG-UI event, an AI SDK chunk (dict) or str text, got {type(item).__name__}")


@dataclass
class _Run:
    """What one run has done so far."""

    run_id: str
    thread_id: str
    resume: list[dict[str, JSON]]
    checker: EventChecker
    items: int = 0
    event_started: bool = False  # an AG-UI RUN_STARTED (received or synthesized) went to the assembler
    event_open: bool = False  # ... and no RUN_FINISHED/RUN_ERROR yet
    chunk_stream: StreamedMessage | None = None  # the message AI SDK chunks and text build
    chunk_started: bool = False  # the text path synthesized ``start``/``start-step``
    text_open: bool = False
    text_parts: int = 0
    interrupted: bool = False
    errors: list[str] = field(default_factory=list)
    run_error: str | None = None  # the message of the RUN_ERROR the agent sent
    agent_run: tuple[str, str] | None = None  # (threadId, runId) of the agent's RUN_STARTED


class ConversationReducer:
    """The UIMessages (AI SDK JSON dicts) and AG-UI state of one conversation, advanced run by run.

    ``begin_run``, then ``push`` every item the agent streams, then ``end_run``. ``recorder`` (an
    :class:`~agui_notebook.chat._recorder.EventRecorder`, optional) gets every item as it arrived, with its
    receive time; plain text deltas are recorded in their AI SDK chunk form.
    """

    def __init__(self, messages: Iterable[Any] = (), *, state: JSON = None, recorder: Any = None) -> None:
        dicts = [m if isinstance(m, dict) else m.model_dump(mode="json", exclude_none=True) for m in messages]
        self._assembler = UIMessageAssembler(dicts, defer_tool_input=True)
        self._messages: list[dict[str, JSON]] = self._assembler.messages
        self.state: JSON = state
        self.state_updates: list[dict[str, JSON]] = []
        """The STATE_SNAPSHOT / STATE_DELTA events applied since the owner last emptied this list (the widget
        shows what they changed)."""
        self.recorder = recorder
        self._run: _Run | None = None
        # Cancelled approvals wait to end output-denied with the run (given messages may hold some: look once).
        self._cancelled_pending = True
        self.last_run: _Run | None = None
        """The run that ended last: its ``errors`` and whether it was ``interrupted``."""
        self._received_ns = 0

    @property
    def run(self) -> _Run | None:
        """The run in progress (``None`` between runs): what its checker found so far is ``run.checker.problems``."""
        return self._run

    @property
    def messages(self) -> list[dict[str, JSON]]:
        """The conversation's UIMessages: the live list, with every streamed tool input parsed."""
        self.settle()
        return self._messages

    def settle(self) -> None:
        """Parse the tool inputs streamed since the last read (they are parsed when read, not per delta)."""
        self._assembler.settle()
        run = self._run
        if run is not None and run.chunk_stream is not None:
            run.chunk_stream.reducer.settle()

    # ------------------------------------------------------------------------------------------ conversation
    def append(self, message: dict[str, JSON]) -> list[MessageChange]:
        """Append a whole UIMessage (the user's turn)."""
        self._messages.append(message)
        return [MessageChange("message", len(self._messages) - 1)]

    def truncate(self, length: int) -> None:
        """Drop every message from ``length`` on (the caller sends the matching ``len`` op)."""
        del self._messages[length:]

    def replace_all(self, messages: Iterable[dict[str, JSON]]) -> None:
        """Start over from ``messages`` (a cleared or replaced conversation); a run in progress is abandoned."""
        self._assembler = UIMessageAssembler(list(messages), defer_tool_input=True)
        self._messages = self._assembler.messages
        self._run = None
        self.last_run = None
        self._cancelled_pending = True

    def answer_approval(
        self, approval_id: str, approved: bool, reason: str | None = None
    ) -> list[MessageChange]:
        """Record the user's answer on the tool part that asked (state ``approval-responded``).

        Raises ``KeyError`` when no tool part is waiting for ``approval_id``.
        """
        self.settle()
        for mi in range(len(self._messages) - 1, -1, -1):
            parts = self._messages[mi].get("parts") or []
            for pi, part in enumerate(parts):
                approval = part.get("approval")
                if type(approval) is not dict or approval.get("id") != approval_id:
                    continue
                if tool_call_ended(part) == "cancelled":
                    raise MessageNotFoundError(
                        f"approval {approval_id!r} was cancelled: a new message was sent before it"
                    )
                if part.get("state") != "approval-requested":
                    raise MessageNotFoundError(
                        f"approval {approval_id!r} was already answered (state {part.get('state')!r})"
                    )
                if mi != len(self._messages) - 1:
                    raise MessageNotFoundError(
                        f"approval {approval_id!r} belongs to an earlier answer, not the last one"
                    )
                answer = {**approval, "approved": bool(approved)}
                if reason is not None:
                    answer["reason"] = reason
                # A new dict in the same list: a reducer continuing this message sees it, earlier copies do not.
                parts[pi] = {**part, "state": "approval-responded", "approval": answer}
                return [MessageChange("part", mi, pi)]
        raise MessageNotFoundError(f"no tool call is waiting for approval {approval_id!r}")

    def cancel_approvals(self) -> tuple[list[MessageChange], list[dict[str, JSON]]]:
        """Cancel every approval still waiting (the user moved on: a new message): what changed, and the AG-UI
        ``cancelled`` resume entries the next run carries for the open ones (those of the last assistant message).

        A cancelled part is ``approval-responded`` with ``approved: false`` and ``callProviderMetadata["ag-ui"]
        ["ended"] == "cancelled"``; once the run that carried the entries ends it is ``output-denied``.
        """
        self.settle()
        changes: list[MessageChange] = []
        open_ids: list[str] = []
        last = len(self._messages) - 1
        for mi, message in enumerate(self._messages):
            parts = message.get("parts") or []
            for pi, part in enumerate(parts):
                approval = part.get("approval")
                if part.get("state") != "approval-requested" or type(approval) is not dict:
                    continue
                if mi == last and message.get("role") == "assistant" and type(approval.get("id")) is str:
                    open_ids.append(approval["id"])
                parts[pi] = ended_as(
                    {**part, "state": "approval-responded", "approval": {**approval, "approved": False}},
                    "cancelled",
                )
                changes.append(MessageChange("part", mi, pi))
        self._cancelled_pending = self._cancelled_pending or bool(changes)
        cancelled: dict[str, dict[str, JSON]] = {i: {"status": "cancelled"} for i in open_ids}
        return changes, build_resume_entries([{"id": i} for i in open_ids], cancelled)

    def pending_approvals(self) -> list[str]:
        """Approval ids of the last assistant message still waiting for the user."""
        return [
            part["approval"].get("id")
            for part in self._last_assistant_parts()
            if part.get("state") == "approval-requested" and type(part.get("approval")) is dict
        ]

    def resume_entries(self) -> list[dict[str, JSON]]:
        """AG-UI resume entries (wire dicts) for the answered approvals of the last assistant message."""
        answered = [
            part["approval"]
            for part in self._last_assistant_parts()
            if part.get("state") == "approval-responded" and type(part.get("approval")) is dict
        ]
        answers = {a.get("id"): approval_response(a.get("approved"), a.get("reason")) for a in answered}
        return build_resume_entries(answered, answers)

    def _last_assistant_parts(self) -> list[dict[str, JSON]]:
        self.settle()
        if self._messages and self._messages[-1].get("role") == "assistant":
            return self._messages[-1].get("parts") or []
        return []

    # ------------------------------------------------------------------------------------------ runs
    def begin_run(self, *, run_id: str, thread_id: str, resume: Iterable[dict[str, JSON]] = ()) -> None:
        """Start a run. A run that resumes an interrupt continues the interrupted assistant message."""
        resume = list(resume)
        self.settle()
        if not resume:
            # A fresh assembler knows every message shown so far (history it must not add again).
            self._assembler = UIMessageAssembler(self._messages, defer_tool_input=True)
            self._messages = self._assembler.messages
        # The checker applies @ag-ui/client's ordering and schema rules to every event before it is shown.
        checker = EventChecker(state=self.state)
        self._run = _Run(run_id=run_id, thread_id=thread_id, resume=resume, checker=checker)

    def push(self, item: Any, received_ns: int | None = None) -> list[MessageChange]:
        """Apply one streamed item; returns what changed. A malformed item raises :class:`RunStreamError`."""
        run = self._run
        if run is None:
            raise ChatStateError("push() outside a run: call begin_run() first")
        index = run.items
        run.items += 1
        self._received_ns = received_ns if received_ns is not None else time.time_ns()
        try:
            kind, wire = classify_item(item)
        except TypeError as exc:
            raise RunStreamError(f"item {index}: {exc}", index=index) from None
        if kind == "event":
            self._record(wire)
            return self._push_event(run, wire, index)
        if run.text_open and kind == "chunk":
            changes = self._chunk(run, {"type": "text-end", "id": self._text_id(run)}, index)
            run.text_open = False
            return changes + self._chunk(run, wire, index)
        if kind == "chunk":
            return self._chunk(run, wire, index)
        return self._push_text(run, wire, index)

    def end_run(self, outcome: RunOutcome, error: str = "", code: str | None = None) -> list[MessageChange]:
        """Close the run: finish what the stream left open, mark errors and cancellations on the message.

        ``error`` (with ``outcome="error"``) is shown like a RUN_ERROR: ``metadata["ag-ui"]["error"]``.
        """
        run = self._run
        if run is None:
            return []
        changes: list[MessageChange] = []
        self.settle()
        self._received_ns = time.time_ns()
        index = run.items
        try:
            if run.text_open:
                changes += self._chunk(run, {"type": "text-end", "id": self._text_id(run)}, index)
                run.text_open = False
            if run.chunk_stream is not None:
                changes += self._end_chunks(run, outcome, error, code, index)
            nothing_shown = not run.event_started and run.chunk_stream is None
            if run.event_open or (outcome == "error" and nothing_shown):
                changes += self._end_events(run, outcome, error, code, index)
            changes += self._assembler.close()
        except (RunStreamError, UIMessageStreamError, KeyError, ValueError, TypeError) as exc:
            # Closing a stream that already broke: keep what was rendered.
            run.errors.append(str(exc))
        finally:
            self._run = None
            self.last_run = run
        if outcome in ("cancelled", "error"):
            changes += self._close_open_parts()
        changes += self._settle_cancelled_approvals()
        run.interrupted = run.interrupted or bool(self.pending_approvals())
        return changes

    def _close_open_parts(self) -> list[MessageChange]:
        """Finish what a stopped or failed run left streaming, so nothing looks busy once it is over: text and
        reasoning are done (whole markdown, no cursor); a tool call still taking its arguments or running is an
        ``output-error`` marked ``ended: "stopped"``. (A run that succeeded is left as the reference reducers
        leave it: a client tool legitimately waits ``input-available``.)"""
        self.settle()
        changes: list[MessageChange] = []
        for mi, message in enumerate(self._messages):
            parts = message.get("parts") or []
            for pi, part in enumerate(parts):
                kind, state = part.get("type"), part.get("state")
                if state == "streaming" and kind in ("text", "reasoning"):
                    parts[pi] = {**part, "state": "done"}
                elif state in ("input-streaming", "input-available"):
                    text = (
                        "Stopped before its arguments were complete"
                        if state == "input-streaming"
                        else "Stopped before it returned a result"
                    )
                    parts[pi] = ended_as({**part, "state": "output-error", "errorText": text}, "stopped")
                else:
                    continue
                changes.append(MessageChange("part", mi, pi))
        return changes

    def _settle_cancelled_approvals(self) -> list[MessageChange]:
        """Cancelled approvals the agent did not answer with a result end ``output-denied`` now the run is over
        (the next run's input then carries a tool result for them, as every finished call has)."""
        if not self._cancelled_pending:
            return []
        self._cancelled_pending = False
        changes: list[MessageChange] = []
        for mi, message in enumerate(self._messages):
            parts = message.get("parts") or []
            for pi, part in enumerate(parts):
                if part.get("state") == "approval-responded" and tool_call_ended(part) == "cancelled":
                    parts[pi] = {**part, "state": "output-denied"}
                    changes.append(MessageChange("part", mi, pi))
        return changes

    # ------------------------------------------------------------------------------------------ AG-UI events
    def _push_event(self, run: _Run, event: dict[str, JSON], index: int) -> list[MessageChange]:
        changes: list[MessageChange] = []
        if not run.event_started and event.get("type") != "RUN_STARTED":
            # Hand-written agents often stream bare messages: the conversation opens the run for them.
            changes += self._apply_event(run, self._checked(run, self._run_started(run), index)[0], index)
        for checked in self._checked(run, event, index):
            changes += self._apply_event(run, checked, index)
        return changes

    def _checked(self, run: _Run, event: dict[str, JSON], index: int) -> list[dict[str, JSON]]:
        """The events ``event`` stands for (legacy shapes upgraded, chunks expanded), once they pass the checks."""
        checker = run.checker
        known = len(checker.problems)
        events = checker.check_record(EventRecord(index, _STREAM_SOURCE, None, event, None))
        for problem in checker.problems[known:]:
            if problem.severity == "error" and problem.rule not in _TOLERATED_RULES:
                raise RunStreamError(problem.describe(), index=index)
        return events

    def _apply_event(self, run: _Run, event: dict[str, JSON], index: int) -> list[MessageChange]:
        kind = event.get("type")
        if kind == "RUN_STARTED":
            live = dict(event) if run.event_started else self._run_started(run, event)
            run.event_started = run.event_open = True
            if isinstance(event.get("runId"), str):  # the run the client's own ending closes
                run.agent_run = (str(event.get("threadId", run.thread_id)), str(event["runId"]))
            return self._assemble(live, index)
        if kind == "STATE_SNAPSHOT":
            self.state = event.get("snapshot")
            self.state_updates.append(event)
        elif kind == "STATE_DELTA":
            try:
                self.state = apply_json_patch(self.state, event.get("delta"))
                self.state_updates.append(event)
            except JsonPatchError as exc:
                warn(f"item {index} (STATE_DELTA): {exc}; the state is unchanged", StateUpdateWarning)
        elif kind == "RUN_FINISHED":
            run.event_open = False
            outcome = event.get("outcome")
            if isinstance(outcome, dict) and outcome.get("type") == "interrupt":
                run.interrupted = True
        elif kind == "RUN_ERROR":
            run.event_open = False
            run.errors.append(str(event.get("message", "")))
            run.run_error = str(event.get("message", ""))
        return self._assemble(event, index)

    def _run_started(self, run: _Run, received: dict[str, JSON] | None = None) -> dict[str, JSON]:
        """The RUN_STARTED that opens ``run`` for the assembler: a copy of ``received``, else one made up."""
        event: dict[str, JSON] = (
            dict(received)
            if received is not None
            else {"type": "RUN_STARTED", "threadId": run.thread_id, "runId": run.run_id}
        )
        if run.resume and "input" not in event:
            # The translator continues the interrupted message when the run input answers it; the messages
            # are already shown, so the input it sees carries none.
            event["input"] = {
                "threadId": event.get("threadId", run.thread_id),
                "runId": event.get("runId", run.run_id),
                "messages": [],
                "resume": run.resume,
            }
        run_input = event.get("input")
        if not run.resume and type(run_input) is dict and run_input.get("resume"):
            # Entries this run was not begun with (the cancelled ones a new message sends, already shown on the
            # cards): the answer is a new message, not the continuation of the interrupted one.
            event["input"] = {k: v for k, v in run_input.items() if k != "resume"}
        if not run.resume and any(m.get("id") == event.get("runId") for m in self._messages):
            # A producer that reuses its run id would otherwise continue an old answer.
            event["runId"] = run.run_id
        return event

    def _assemble(self, event: dict[str, JSON], index: int) -> list[MessageChange]:
        try:
            return self._assembler.push(event)
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise RunStreamError(f"item {index} ({event.get('type')}): {what}", index=index) from None

    def _end_events(
        self, run: _Run, outcome: RunOutcome, error: str, code: str | None, index: int
    ) -> list[MessageChange]:
        changes: list[MessageChange] = []
        if not run.event_started:
            changes += self._assemble(self._run_started(run), index)
            run.event_started = True
        terminal: dict[str, JSON]
        if outcome == "error":
            terminal = {"type": "RUN_ERROR", "message": error}
            if code:
                terminal["code"] = code
        else:
            thread_id, run_id = run.agent_run or (run.thread_id, run.run_id)
            terminal = {"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id}
            if outcome == "cancelled":
                terminal["outcome"] = {"type": "cancelled"}
        if outcome in ("error", "cancelled"):
            # The client ended the run: the log says so, as it would have had the agent said it.
            self._record(terminal)
        run.event_open = False
        return changes + self._assemble(terminal, index)

    # ------------------------------------------------------------------------------------------ AI SDK chunks
    def _chunk(self, run: _Run, chunk: dict[str, JSON], index: int) -> list[MessageChange]:
        self._record(chunk)
        changes: list[MessageChange] = []
        stream = run.chunk_stream
        if stream is None:
            stream = self._open_chunk_message(run, changes)
        try:
            changes += stream.push(chunk)
        except UIMessageStreamError as exc:
            raise RunStreamError(f"item {index} ({exc.chunk_type}): {exc.reason}", index=index) from None
        return changes

    def _open_chunk_message(self, run: _Run, changes: list[MessageChange]) -> StreamedMessage:
        def on_error(error: UIMessageStreamErrorChunk) -> None:
            run.errors.append(error.error_text)

        index = self._resumed_index(run)
        if index is None:
            self._messages.append({"id": run.run_id, "role": "assistant", "parts": []})
            index = len(self._messages) - 1
            changes.append(MessageChange("message", index))
        run.chunk_stream = StreamedMessage(self._messages, index, on_error=on_error, defer_tool_input=True)
        return run.chunk_stream

    def _resumed_index(self, run: _Run) -> int | None:
        """The assistant message a resumed run continues (the one that asked), as the AI SDK chat does."""
        if run.resume and self._messages and self._messages[-1].get("role") == "assistant":
            return len(self._messages) - 1
        return None

    def _end_chunks(
        self, run: _Run, outcome: RunOutcome, error: str, code: str | None, index: int
    ) -> list[MessageChange]:
        changes: list[MessageChange] = []
        closing: list[dict[str, JSON]] = []
        if outcome == "error":
            info = {"message": error, **({"code": code} if code else {})}
            closing.append({"type": "message-metadata", "messageMetadata": {"ag-ui": {"error": info}}})
            closing.append({"type": "error", "errorText": error})
        if outcome == "cancelled":
            closing.append({"type": "abort", "reason": "cancelled"})
        elif run.chunk_started:
            closing += [{"type": "finish-step"}, {"type": "finish"}]
        for chunk in closing:
            changes += self._chunk(run, chunk, index)
        return changes

    # ------------------------------------------------------------------------------------------ plain text
    def _text_id(self, run: _Run) -> str:
        return _TEXT_PART_ID if run.text_parts <= 1 else f"{_TEXT_PART_ID}-{run.text_parts}"

    def _push_text(self, run: _Run, text: str, index: int) -> list[MessageChange]:
        changes: list[MessageChange] = []
        if run.chunk_stream is None:
            run.chunk_started = True
            changes += self._chunk(run, {"type": "start", "messageId": self._text_message_id(run)}, index)
            changes += self._chunk(run, {"type": "start-step"}, index)
        if not run.text_open:
            run.text_parts += 1
            run.text_open = True
            changes += self._chunk(run, {"type": "text-start", "id": self._text_id(run)}, index)
        return changes + self._chunk(
            run, {"type": "text-delta", "id": self._text_id(run), "delta": text}, index
        )

    def _text_message_id(self, run: _Run) -> str:
        index = self._resumed_index(run)
        return run.run_id if index is None else self._messages[index]["id"]

    # ------------------------------------------------------------------------------------------ recording
    def _record(self, wire: dict[str, JSON]) -> None:
        if self.recorder is not None:
            self.recorder.add(wire)

    def clock(self) -> int:
        """The receive time of the item being applied (the recorder's clock)."""
        return self._received_ns or time.time_ns()
