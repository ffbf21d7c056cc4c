"""One conversation of a chat: its message tree, state and records, changed only by the operations here.

Every change to a conversation is one of the operations of :class:`ChatThread` (send, cut, append, select,
replace, set_state, a run's start, items and end, a frontend tool's part, an approval, an interrupt answer, a
rating). Live, each writes its record (``_records.py``) to the thread's log as it happens; opening a log replays the
records through the same operations (``replay``), so what a reopened chat shows is exactly what was shown.

A run is replayed from its ``run-end`` record, which holds the messages the run changed as they ended: the agent's
events stay in the log for the tables, and reopening a long conversation does not stream every delta again. A run
with no ``run-end`` (the kernel died mid-stream) is replayed from its events, then ended as stopped.

>>> thread = ChatThread("t1")
>>> changes, _ = thread.send({"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Hi"}]})
>>> thread.begin_run("r1")
>>> _ = thread.push("Hello")
>>> _ = thread.end_run("success")
>>> [m["role"] for m in thread.messages], [r["event"]["name"][14:] for r in thread.records if r["event"]["type"] == "CUSTOM"]
(['user', 'assistant'], ['send', 'run-start', 'run-end'])
>>> again = ChatThread.replay("t1", thread.records)
>>> again.messages == thread.messages
True
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from agui_notebook._errors import MessageNotFoundError
from agui_notebook._types import JSON
from agui_notebook.bridge._conversation import ConversationReducer, RunOutcome
from agui_notebook.bridge._messages import to_agui_messages_wire
from agui_notebook.chat._agents import reported_traceback
from agui_notebook.chat._branches import PREVIEW_CHARS, MessageTree
from agui_notebook.chat._feedback import agui_message_ids, feedback_entry, iso_utc, with_feedback
from agui_notebook.chat._frontend_tools import cancel_waiting_approvals
from agui_notebook.chat._interrupts import answer_interrupt, cancel_open_interrupts, show_interrupts
from agui_notebook.chat._recorder import RecordedEvent
from agui_notebook.chat._records import (
    RunEnd,
    chat_record,
    decode_run_inputs,
    encode_run_input,
    feedback_event,
    record_kind,
)
from agui_notebook.ui._changes import MessageChange
from agui_notebook.wire._json import copy_json

__all__ = ["UNTITLED", "ChatThread", "RunInputs", "ThreadChange", "thread_title"]

UNTITLED = "New chat"
"""The title of a thread with no message yet and no title of its own."""

RunInputs = list[tuple[int, dict[str, JSON]]]
"""A thread's run inputs: (records up to and including the run's ``run-start``, the ``RunAgentInput`` wire)."""

Write = Callable[[RecordedEvent, bool], list[RecordedEvent]]
"""Where a thread's new records go (its log), and whether the record may wait for the next one (a thread's
opening records: a chat nobody used leaves no file); it returns the records the log put before it (``continue``),
which the thread keeps in ``records`` with its own, so they are the thread's lines of the log."""

STOPPED_BY_EXIT = "the kernel stopped before the run ended"
"""The error of a run the log shows begun and never ended (the kernel was killed mid-stream)."""

UNTERMINATED = "the agent's stream ended without RUN_FINISHED or RUN_ERROR; the run is closed as finished"
"""The warning on a run whose agent sent RUN_STARTED and then stopped streaming without saying how it ended."""

_RUN_BOUNDS = frozenset({"RUN_STARTED", "RUN_FINISHED", "RUN_ERROR"})


@dataclass
class ThreadChange:
    """What an operation changed: message changes for live views, or ``reset`` when the whole path changed."""

    changes: list[MessageChange] = field(default_factory=list)
    reset: bool = False


def thread_title(messages: Iterable[Any]) -> str:
    """A thread's title made from its first user message's text (``UNTITLED`` when it has none)."""
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        texts = [
            p["text"]
            for p in message.get("parts") or ()
            if isinstance(p, dict) and p.get("type") == "text" and type(p.get("text")) is str
        ]
        text = " ".join(" ".join(texts).split())
        if text:
            limit = PREVIEW_CHARS // 2
            return text if len(text) <= limit else text[: limit - 1] + "…"
    return UNTITLED


class _RunLog:
    """The conversation's recorder while a run streams: every item it records becomes a record of the thread."""

    def __init__(self, thread: ChatThread) -> None:
        self.thread = thread

    def add(self, item: dict[str, JSON]) -> None:
        thread = self.thread
        if item.get("type") in _RUN_BOUNDS:  # how the agent itself opened and ended the run (``end_run``)
            if item["type"] == "RUN_STARTED":
                thread._agent_started = True
            else:
                thread._agent_terminal = item
        thread._write(item, thread.conversation.clock())


class ChatThread:
    """One conversation: the path shown (``messages``), its branches (``tree``), state and records.

    ``write`` receives each new record (the chat's log); ``records`` keeps them all, oldest first (what
    ``load_events`` reads for this thread). An operation returns what it changed for the views.
    """

    def __init__(
        self,
        thread_id: str,
        *,
        messages: Iterable[dict[str, JSON]] = (),
        state: JSON = None,
        write: Write | None = None,
    ) -> None:
        self.id = thread_id
        self.records: list[RecordedEvent] = []
        self.write = write
        self.title: str | None = None
        """The title given by ``rename`` (None: the first question's text names it)."""
        self.conversation = ConversationReducer(list(messages), state=state, recorder=_RunLog(self))
        self.tree = MessageTree(self.conversation.messages)
        self.run_inputs: RunInputs = []
        self._previous_input: tuple[str, list[JSON]] | None = None
        self._run_id: str | None = None
        self._run_changed: set[int] = set()
        self._run_state = False  # the state changed during the run
        self._agent_started = False  # the agent sent the run's RUN_STARTED ...
        self._agent_terminal: dict[str, JSON] | None = None  # ... and this RUN_FINISHED / RUN_ERROR
        self.ended: RunEnd | None = None
        """How the thread's last run ended (None before its first, and while a run streams)."""
        self._replaying = False
        self._cut_run: tuple[dict[str, Any], list[tuple[int | None, Any]]] | None = None

    # ------------------------------------------------------------------------------------------ reading
    @property
    def messages(self) -> list[dict[str, JSON]]:
        """The path shown: the live list runs stream into."""
        return self.conversation.messages

    @property
    def state(self) -> JSON:
        return self.conversation.state

    @property
    def running(self) -> bool:
        """Whether a run has begun and not ended."""
        return self._run_id is not None

    @property
    def shown_title(self) -> str:
        return self.title or thread_title(self.tree_messages())

    def tree_messages(self) -> list[dict[str, JSON]]:
        """The path brought up to date with the live messages (the tree reads them)."""
        self.tree.sync(self.conversation.messages)
        return self.tree.messages

    def turns(self) -> int:
        """How many times the user sent a message in this thread."""
        return sum(1 for r in self.records if record_kind(r["event"]) == "send")

    # ------------------------------------------------------------------------------------------ writing
    def _write(
        self, event: dict[str, JSON], received_ns: int | None = None, *, deferred: bool = False
    ) -> None:
        if self._replaying:
            return
        entry: RecordedEvent = {"received_ns": received_ns or time.time_ns(), "event": event}
        if self.write is not None:
            self.records.extend(self.write(entry, deferred))  # what the log wrote before it (a ``continue``)
        self.records.append(entry)

    def _record(self, kind: str, value: dict[str, Any], *, deferred: bool = False) -> None:
        if self._replaying:
            return
        # A copy: the messages a record names go on changing in the conversation; the record keeps them as they were.
        self._write(chat_record(kind, copy_json(value)), deferred=deferred)

    def open(self, *, version: int, switch: bool = False) -> None:
        """Write the thread's ``thread`` record: ``new`` (with the log format's version and the conversation it
        starts from, all deferred until something happens in it), or ``switch`` when it is shown again."""
        if switch:
            self._record("thread", {"action": "switch", "threadId": self.id})
            return
        self._record("thread", {"action": "new", "threadId": self.id, "version": version}, deferred=True)
        if self.conversation.messages:
            self._record("replace", {"messages": self.conversation.messages}, deferred=True)
        if self.conversation.state is not None:
            self._record("state", {"state": self.conversation.state}, deferred=True)

    def _changed(self, changes: list[MessageChange]) -> list[MessageChange]:
        """Note which messages a run changed (its ``run-end`` holds them as they end)."""
        if self._run_id is not None:
            for change in changes:
                self._run_changed.add(change.message_index if change.kind != "length" else -1)
        return changes

    # ------------------------------------------------------------------------------------------ the user's turns
    def send(self, message: dict[str, JSON]) -> tuple[ThreadChange, list[dict[str, JSON]]]:
        """The user's message: what still waited for an answer is cancelled, then it is appended. Returns the
        changes and the ``cancelled`` resume entries the next run carries."""
        self._record("send", {"message": message})
        messages = self.conversation.messages
        changes = cancel_waiting_approvals(messages)
        more, cancelled = self.conversation.cancel_approvals()
        changes += more
        more, cancelled_interrupts = cancel_open_interrupts(messages)
        changes += more
        changes += self.conversation.append(message)
        return ThreadChange(changes), cancelled + cancelled_interrupts

    def append(self, messages: list[dict[str, JSON]]) -> ThreadChange:
        """Put ``messages`` at the end as they are (an edit's new question, a fork's messages)."""
        self._record("append", {"messages": messages})
        changes: list[MessageChange] = []
        for message in messages:
            changes += self.conversation.append(message)
        return ThreadChange(changes)

    def cut(self, at: int) -> ThreadChange:
        """Stop the conversation before message ``at`` to run again from there; the rest stays as a branch."""
        self._record("cut", {"at": at})
        self.tree_messages()
        self.tree.cut(at)
        self.conversation.truncate(at)
        return ThreadChange([MessageChange("length", at)])

    def select(self, at: int, index: int) -> ThreadChange:
        """Show alternative ``index`` of the fork at message ``at``."""
        self.tree_messages()
        path = self.tree.select(at, index)
        self._record("select", {"at": at, "index": index})
        self.conversation.replace_all(path)
        return ThreadChange(reset=True)

    def reveal(self, message_id: str) -> tuple[int, ThreadChange]:
        """The place of message ``message_id`` on the path; a message on another branch is brought onto the path
        first, by the ``select`` operations that lead there (so a replay takes the same way)."""
        self.tree_messages()
        node = self.tree.find(message_id)
        if self.tree.on_path(node):
            return self.tree.place(node), ThreadChange()
        for at, (child, index) in enumerate(self.tree.lineage(node)):
            if self.tree.place(child) != at:
                self.select(at, index)
        return self.tree.place(node), ThreadChange(reset=True)

    def replace(
        self, messages: list[dict[str, JSON]], branches: dict[str, JSON] | None = None
    ) -> ThreadChange:
        """The conversation set from Python: these messages, with the branches of a saved conversation
        (``MessageTree.to_saved``) or none."""
        value: dict[str, Any] = {"messages": messages}
        if branches is not None:
            value["branches"] = branches
        self._record("replace", value)
        self.conversation.replace_all(messages)
        self.tree = (
            MessageTree.from_saved(self.conversation.messages, branches, f"thread {self.id}")
            if branches is not None
            else MessageTree(self.conversation.messages)
        )
        if branches is not None:
            self._settle()
        return ThreadChange(reset=True)

    def set_state(self, state: JSON) -> None:
        """The shared state set from Python."""
        self._record("state", {"state": state})
        self.conversation.state = copy_json(state)
        self.conversation.state_updates.clear()

    def rename(self, title: str) -> None:
        """Give the thread a title of its own (``""``: named by its first question again)."""
        self._record("thread", {"action": "rename", "threadId": self.id, "title": title})
        self.title = title or None

    # ------------------------------------------------------------------------------------------ runs
    def begin_run(
        self,
        run_id: str,
        *,
        resume: list[dict[str, JSON]] | None = None,
        continues: bool = True,
        run_input: dict[str, JSON] | None = None,
    ) -> None:
        """Start a run (``run_input``: the ``RunAgentInput`` wire the agent gets; None for a played stream)."""
        resume = list(resume or [])
        value: dict[str, Any] = {"runId": run_id, "resume": resume, "continues": continues}
        if run_input is not None:
            value["input"], value["messages"] = encode_run_input(run_input, self._previous_input)
        self._record("run-start", value)
        if run_input is not None:
            self._previous_input = (run_id, list(run_input.get("messages") or []))
            self.run_inputs.append((len(self.records), run_input))
        self.conversation.begin_run(run_id=run_id, thread_id=self.id, resume=resume if continues else [])
        self._run_id = run_id
        self._run_changed = set()
        self._run_state = False
        self._agent_started, self._agent_terminal, self.ended = False, None, None

    def push(self, item: Any, received_ns: int | None = None) -> ThreadChange:
        """One item the agent streamed (recorded by the conversation as it arrives)."""
        changes = self.conversation.push(item, received_ns)
        if self.conversation.state_updates:
            self._run_state = True
        return ThreadChange(self._changed(changes))

    def end_run(
        self,
        outcome: RunOutcome,
        error: str = "",
        code: str | None = None,
        *,
        stopped: bool = False,
        details: str = "",
        warnings: Iterable[str] = (),
    ) -> ThreadChange:
        """End the run: the conversation closes what the stream left open, the interrupts it ended with get their
        cards, and the ``run-end`` record keeps the messages it changed and how the run ended (``ended``); a
        regeneration that produced nothing gets the old answer back.

        ``outcome`` is how the client saw the run end (``stopped``: by the user); the agent's own word is read
        here: a RUN_ERROR (or an error chunk) makes it ``error``, an interrupt ``interrupt``, a RUN_FINISHED
        cancelled ``cancelled``. ``details`` (the traceback) and ``warnings`` are recorded with it."""
        run_id = self._run_id
        terminal = self._agent_terminal
        said = terminal.get("outcome") if terminal is not None else None
        if outcome == "success" and type(said) is dict and said.get("type") == "cancelled":
            outcome = "cancelled"  # closed as the client closes a cancelled run (nothing left streaming)
        unterminated = outcome == "success" and self._agent_started and terminal is None
        changes = self.conversation.end_run(outcome, error, code)
        changes += show_interrupts(self.conversation.messages)
        self._changed(changes)
        ended = self._run_end(outcome, error, code, stopped=stopped, terminal=terminal)
        if ended.outcome != "error" or details:  # else the traceback the agent reported, if it sent one
            ended.details = details if ended.outcome == "error" else ""
        ended.warnings = [*warnings, UNTERMINATED] if unterminated else list(warnings)
        messages = self.conversation.messages
        changed = self._run_changed
        if -1 in changed:  # messages were dropped (a MESSAGES_SNAPSHOT): the run's end holds the whole path
            changed = set(range(len(messages)))
        value: dict[str, Any] = {"runId": run_id, **ended.value()}
        value["length"] = len(messages)
        value["messages"] = {str(i): messages[i] for i in sorted(changed) if 0 <= i < len(messages)}
        if self._run_state:
            value["state"] = self.conversation.state
        self._run_id = None
        self._record("run-end", value)
        self.ended = ended
        return ThreadChange(changes, reset=self._settle())

    def _run_end(
        self,
        outcome: RunOutcome,
        error: str,
        code: str | None,
        *,
        stopped: bool,
        terminal: dict[str, JSON] | None,
    ) -> RunEnd:
        """How the run ended, with what the agent said about it (read once the conversation closed the run)."""
        if outcome == "cancelled":
            return RunEnd("stopped" if stopped else "cancelled", error, code)
        last = self.conversation.last_run
        if outcome == "success" and last is not None and last.errors:
            # The agent reported the failure (RUN_ERROR, an error chunk), or its stream could not be closed.
            said = "; ".join(e for e in last.errors if e) or "the agent reported an error"
            given = terminal.get("code") if terminal is not None and terminal["type"] == "RUN_ERROR" else None
            code = given if type(given) is str and given else None
            return RunEnd("error", said, code, details=reported_traceback(terminal))
        if outcome == "success" and last is not None and last.interrupted:
            return RunEnd("interrupt")
        return RunEnd(outcome, error if outcome == "error" else "", code if outcome == "error" else None)

    def _settle(self) -> bool:
        """After a run: a regeneration that produced no message gives the old answer back (True: path changed)."""
        self.tree_messages()
        if self.tree.settle():
            self.conversation.replace_all(self.tree.messages)
            return True
        return False

    # ------------------------------------------------------------------------------------------ answers
    def set_tool_part(self, call_id: str, part: dict[str, JSON]) -> ThreadChange:
        """A frontend tool's call as the chat leaves it: its part (the newest with this call id) replaced."""
        self._record("tool", {"toolCallId": call_id, "part": part})
        return ThreadChange(self._set_tool_part(call_id, part))

    def tool_part(self, call_id: str) -> dict[str, JSON] | None:
        """The part of tool call ``call_id`` (the newest one), or None."""
        for message in reversed(self.conversation.messages):
            for part in reversed(message.get("parts") or []):
                kind = str(part.get("type", ""))
                if part.get("toolCallId") == call_id and kind.startswith(("tool-", "dynamic-tool")):
                    return part
        return None

    def _set_tool_part(self, call_id: str, part: dict[str, JSON]) -> list[MessageChange]:
        messages = self.conversation.messages
        for mi in range(len(messages) - 1, -1, -1):
            parts = messages[mi].get("parts") or []
            for pi in range(len(parts) - 1, -1, -1):
                kind = str(parts[pi].get("type", ""))
                if parts[pi].get("toolCallId") == call_id and kind.startswith(("tool-", "dynamic-tool")):
                    parts[pi] = part
                    return [MessageChange("part", mi, pi)]
        return []

    def answer_approval(self, approval_id: str, approved: bool, reason: str | None = None) -> ThreadChange:
        """The user's answer to a tool call's approval (``MessageNotFoundError`` when none waits with this id)."""
        try:
            changes = self.conversation.answer_approval(approval_id, approved, reason)
        except KeyError as exc:
            raise MessageNotFoundError(str(exc.args[0])) from None
        value: dict[str, Any] = {"approvalId": approval_id, "approved": bool(approved)}
        if reason is not None:
            value["reason"] = reason
        self._record("approval", value)
        return ThreadChange(changes)

    def answer_interrupt(
        self, interrupt_id: str, payload: JSON = None, *, cancel: bool = False, check: bool = True
    ) -> ThreadChange:
        """The user's answer to an interrupt (checked against its schema unless ``check`` is false: a replayed
        answer was checked when it was given)."""
        try:
            changes = answer_interrupt(
                self.conversation.messages, interrupt_id, payload, cancel=cancel, check=check
            )
        except KeyError as exc:
            raise MessageNotFoundError(str(exc.args[0])) from None
        value: dict[str, Any] = {"interruptId": interrupt_id, "cancel": cancel}
        if payload is not None and not cancel:
            value["payload"] = payload
        self._record("interrupt", value)
        return ThreadChange(changes)

    def feedback(
        self, message_id: str, rating: str | None, comment: str | None, at_ns: int
    ) -> tuple[dict[str, JSON], ThreadChange]:
        """Rate an assistant message (any message of the tree, by id); returns the message and what changed."""
        self.tree_messages()
        node = self.tree.find(message_id)
        message = node.message
        comment = comment or None
        metadata = with_feedback(
            message.get("metadata"), None if rating is None else feedback_entry(rating, comment, at_ns)
        )
        if metadata:
            message["metadata"] = metadata
        else:
            message.pop("metadata", None)
        self._write(
            feedback_event(
                message_id, rating, comment=comment, at=iso_utc(at_ns), message_ids=agui_message_ids(message)
            ),
            at_ns,
        )
        messages = self.conversation.messages
        index = next((i for i, m in enumerate(messages) if m is message), None)
        return message, ThreadChange([MessageChange("metadata", index)] if index is not None else [])

    def run_input_messages(self) -> list[JSON]:
        """The path as AG-UI messages for the next run's input (activity messages stay on the client, as
        ``@ag-ui/client``'s run input leaves them out)."""
        return [m for m in to_agui_messages_wire(self.conversation.messages) if m["role"] != "activity"]

    # ------------------------------------------------------------------------------------------ replay
    @classmethod
    def replay(
        cls, thread_id: str, records: list[RecordedEvent], *, write: Write | None = None
    ) -> ChatThread:
        """The thread these records (its lines of a chat log, in order) describe. A run they leave open (the
        kernel died mid-stream) waits for ``finish_replay``, which ends it and writes that end to ``write``."""
        thread = cls(thread_id, write=write)
        thread._replaying = True
        pending: list[tuple[int | None, Any]] = []  # the items of a run not (yet) ended
        open_run: dict[str, Any] | None = None
        starts: list[dict[str, Any]] = []
        try:
            for record in records:
                event = record["event"]
                kind = record_kind(event)
                if kind is None:
                    if open_run is None and not _is_chat_noise(event):
                        open_run = {"played": True}  # a stream recorded without a chat around it
                    if open_run is not None:
                        pending.append((record.get("received_ns"), event))
                    continue
                value = event["value"]
                if kind == "run-start":
                    if open_run is not None:
                        thread._replay_events(open_run, pending)
                    open_run, pending = value, []
                    starts.append(value)
                elif kind == "run-end":
                    thread._replay_end(value)
                    open_run, pending = None, []
                else:
                    if open_run is not None and open_run.get("played"):
                        thread._replay_events(open_run, pending)
                        open_run, pending = None, []
                    thread._replay_op(kind, value, record)
        finally:
            thread._replaying = False
        thread.records = list(records)
        thread._rebuild_run_inputs(starts)
        thread.conversation.replace_all(list(thread.conversation.messages))
        thread._cut_run = (open_run, pending) if open_run is not None else None
        return thread

    def finish_replay(self) -> bool:
        """End the run the log left open (True when there was one): a played stream as it was; a run of the
        agent streamed again from its events, then ended as stopped, with its end written to the log."""
        if self._cut_run is None:
            return False
        run, items = self._cut_run
        self._cut_run = None
        if run.get("played"):
            self._replaying = True
            try:
                self._replay_events(run, items)
            finally:
                self._replaying = False
            return True
        run_id = given if isinstance(given := run.get("runId"), str) else f"run-{len(self.records)}"
        resume = asked if isinstance(asked := run.get("resume"), list) else []
        continues = run.get("continues") is not False
        self.conversation.begin_run(run_id=run_id, thread_id=self.id, resume=resume if continues else [])
        self._run_id, self._run_changed, self._run_state = run_id, set(), False
        self._agent_started, self._agent_terminal = False, None
        self._replaying = True
        try:
            for received_ns, item in items:
                try:
                    self.push(item, received_ns)
                except Exception:  # the run broke here when it was live, too: what was shown stays
                    break
        finally:
            self._replaying = False
        self.end_run("cancelled", STOPPED_BY_EXIT, "INTERRUPTED")
        return True

    def _rebuild_run_inputs(self, starts: list[dict[str, Any]]) -> None:
        decoded = iter(decode_run_inputs(starts))
        self.run_inputs = []
        for count, record in enumerate(self.records, start=1):
            if record_kind(record["event"]) == "run-start":
                wire = next(decoded, None)
                if wire is not None:
                    self.run_inputs.append((count, wire))
        if self.run_inputs:
            last = self.run_inputs[-1][1]
            self._previous_input = (str(last.get("runId")), list(last.get("messages") or []))

    def _replay_op(self, kind: str, value: dict[str, Any], record: RecordedEvent) -> None:
        """One recorded operation done again (on a copy: the conversation changes what it takes in, the record
        stays as it was); a record this conversation cannot take changes nothing."""
        with contextlib.suppress(MessageNotFoundError, IndexError, KeyError, ValueError, TypeError):
            self._apply_op(kind, copy_json(value), record)

    def _apply_op(self, kind: str, value: dict[str, Any], record: RecordedEvent) -> None:
        if kind == "send" and isinstance(value.get("message"), dict):
            self.send(value["message"])
        elif kind == "append" and isinstance(value.get("messages"), list):
            self.append([m for m in value["messages"] if isinstance(m, dict)])
        elif kind == "cut" and type(value.get("at")) is int:
            if 0 <= value["at"] <= len(self.tree_messages()):
                self.cut(value["at"])
        elif kind == "select" and type(value.get("at")) is int and type(value.get("index")) is int:
            self.select(value["at"], value["index"])
        elif kind == "replace" and isinstance(value.get("messages"), list):
            branches = value.get("branches") if isinstance(value.get("branches"), dict) else None
            self.replace([m for m in value["messages"] if isinstance(m, dict)], branches)
        elif kind == "state":
            self.set_state(value.get("state"))
        elif kind == "thread" and value.get("action") == "rename":
            title = value.get("title")
            self.rename(title if isinstance(title, str) else "")
        elif (
            kind == "tool"
            and isinstance(value.get("part"), dict)
            and isinstance(value.get("toolCallId"), str)
        ):
            self._set_tool_part(value["toolCallId"], value["part"])
        elif kind == "approval" and isinstance(value.get("approvalId"), str):
            reason = value.get("reason")
            self.answer_approval(
                value["approvalId"],
                value.get("approved") is True,
                reason if isinstance(reason, str) else None,
            )
        elif kind == "interrupt" and isinstance(value.get("interruptId"), str):
            self.answer_interrupt(
                value["interruptId"], value.get("payload"), cancel=value.get("cancel") is True, check=False
            )
        elif kind == "feedback" and isinstance(value.get("messageId"), str):
            rating = value.get("rating") if value.get("rating") in ("up", "down") else None
            comment = value.get("comment") if isinstance(value.get("comment"), str) else None
            self.feedback(value["messageId"], rating, comment, record.get("received_ns") or time.time_ns())

    def _replay_end(self, value: dict[str, Any]) -> None:
        """A run as its ``run-end`` left the messages (its events are not streamed again)."""
        messages = self.conversation.messages
        length = value.get("length")
        changed = stored if isinstance(stored := value.get("messages"), dict) else {}
        if type(length) is int and length >= 0:
            places = sorted(
                (int(k), copy_json(m)) for k, m in changed.items() if k.isdigit() and isinstance(m, dict)
            )
            for at, message in places:
                if at < len(messages):
                    messages[at] = message
                elif at == len(messages):
                    messages.append(message)
            del messages[length:]
        if "state" in value:
            self.conversation.state = copy_json(value["state"])
        self._run_id = None
        self.ended = RunEnd.read(value)
        self._settle()

    def _replay_events(self, run: dict[str, Any], items: list[tuple[int | None, Any]]) -> None:
        """A stream recorded without a chat (or a played one never ended): its events streamed again."""
        run_id = given if isinstance(given := run.get("runId"), str) else f"run-{len(self.records)}"
        resume = asked if isinstance(asked := run.get("resume"), list) else []
        self.conversation.begin_run(run_id=run_id, thread_id=self.id, resume=resume)
        for received_ns, item in items:
            try:
                self.conversation.push(item, received_ns)
            except Exception:  # the run broke here when it was live, too: what was shown stays
                break
        self.conversation.end_run("success")
        show_interrupts(self.conversation.messages)
        self._run_id = None
        self._settle()


def _is_chat_noise(event: Any) -> bool:
    """Lines outside runs that are no stream: CUSTOM events of other tools, anything that is not an object."""
    return type(event) is not dict or event.get("type") == "CUSTOM"
