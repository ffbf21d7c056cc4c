"""AG-UI events to AI SDK UI-message chunks: the mapping rules of docs/mapping.md, one event at a time.

The translator is a plain state machine over wire dicts. It emits *routed* chunks: each says which assistant
UIMessage it belongs to, because one AG-UI event stream holds many runs (one assistant UIMessage each) and can
also carry user, system and developer messages, which are not part of any chunk stream and travel as whole
UIMessages instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from agui_notebook._errors import internal_failure
from agui_notebook._types import JSON
from agui_notebook.agui._interrupts import approval_fields, is_tool_approval
from agui_notebook.agui._metadata import spread_merge_metadata
from agui_notebook.agui._patch import apply_json_patch
from agui_notebook.agui._tool_outcome import ERROR_OUTCOMES, claimed_outcome
from agui_notebook.bridge._messages import (
    AGUI_KEY,
    UI_PART_ACTIVITY,
    _ui_part_from_activity,
    to_ui_messages,
    tool_result_fields,
)
from agui_notebook.wire._json import decode_json, encode_json, js_concat
from agui_notebook.wire._records import RUN_START_RECORD, RunInputDecoder, is_chat_record
from agui_notebook.wire._values import is_plain_json, json_error, json_form_problem


@dataclass(slots=True)
class RoutedChunk:
    """An AI SDK chunk for the assistant UIMessage ``message_id``."""

    message_id: str
    chunk: dict[str, JSON]


@dataclass(slots=True)
class WholeMessage:
    """A UIMessage that does not come from a chunk stream (user/system messages, history).

    ``before`` names the UIMessage it belongs in front of (history that precedes what was streamed), or None to
    append it.
    """

    message: dict[str, JSON]
    before: str | None = None


@dataclass(slots=True)
class TextAppend:
    """Text appended to the last text part of a streamed non-assistant message, or (``text_id``) to the text part
    of AG-UI text message ``text_id`` that a snapshot rebuilt while it streamed."""

    message_id: str
    delta: str
    text_id: str | None = None


@dataclass(slots=True)
class MessageInfo:
    """``metadata["ag-ui"]`` facts for a whole (non-chunk) UIMessage: merged into what it holds."""

    message_id: str
    info: dict[str, JSON]


@dataclass(slots=True)
class PartInfo:
    """``providerMetadata["ag-ui"]`` of the data part ``(part_type, part_id)`` of an assistant UIMessage.

    An AI SDK ``data-*`` chunk for a part already shown only replaces its ``data``, so AG-UI metadata that changes
    later (an ``ACTIVITY_DELTA``'s) reaches the part this way.
    """

    message_id: str
    part_type: str
    part_id: str
    info: dict[str, JSON]


@dataclass(slots=True)
class MessagesSnapshot:
    """A ``MESSAGES_SNAPSHOT``: the assembler replaces its messages with it as ``@ag-ui/client`` does."""

    event: dict[str, JSON]


Routed = RoutedChunk | WholeMessage | TextAppend | MessageInfo | PartInfo | MessagesSnapshot


def _with_metadata(target: dict[str, JSON], event: dict[str, JSON]) -> bool:
    """Fold ``event``'s ``metadata`` into ``target["metadata"]`` (AG-UI ``mergeMetadata``); False if it has none."""
    if "metadata" not in event:
        return False
    target["metadata"] = spread_merge_metadata(target.get("metadata"), event["metadata"])
    return True


# UIMessage parts that have an AI SDK chunk of the same shape, carried by "ui-part" activities.
_PART_CHUNKS = frozenset({"source-url", "source-document", "file", "reasoning-file", "custom"})


@dataclass(slots=True)
class _ToolCall:
    name: str
    message_id: str
    args: list[str] = field(default_factory=list)
    ended: bool = False
    has_output: bool = False
    denied: bool = False  # the run input answered its approval with a denial: its result is the denial
    info: dict[str, JSON] = field(default_factory=dict)  # its callProviderMetadata["ag-ui"]
    restream: bool = False  # a snapshot rebuilt its part mid-arguments: the next delta restarts it


def _result_content(content: JSON, metadata: JSON) -> JSON:
    """A tool result's ``content``, checked where it enters: the result is held for one event (an outcome claim
    may follow), so a content with no JSON form would otherwise fail at the next event, blamed on it."""
    problem = None if is_plain_json(content) else json_form_problem(content, ".content")
    if problem is not None:
        raise json_error("", *problem)
    try:  # what the held result will be made into (its output, or its error text): it can be written as JSON
        tool_result_fields(content, metadata)
        if not isinstance(content, str):
            encode_json(content)
    except Exception as exc:
        raise json_error(
            "", ".content", f"no JSON text can be written for it ({internal_failure(exc)})"
        ) from None
    return content


@dataclass(slots=True)
class _PendingResult:
    """A tool result held back for one event: an outcome claim may follow it."""

    tool_call_id: str
    result_message_id: str
    content: JSON
    encrypted_value: str | None = None
    metadata: JSON = None  # the tool message's metadata (AG-UI ``mergeMetadata`` of the event's)


@dataclass(slots=True)
class _Run:
    thread_id: str | None
    run_id: str | None
    message_id: str | None = None
    started_at: int | None = None
    step_open: bool = False
    need_step: bool = True
    interrupted: bool = False
    sequence: int = 0
    moved_from: str | None = None  # its message before a snapshot put messages after it: where its end goes


class EventChunkTranslator:
    """Translate AG-UI wire events into routed AI SDK chunks and whole UIMessages.

    >>> translator = EventChunkTranslator()
    >>> routed = translator.push({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})
    >>> [r.chunk["type"] for r in routed]
    ['start']
    """

    def __init__(self, known_message_ids: set[str] | None = None) -> None:
        self._run: _Run | None = None
        self._known: set[str] = set(known_message_ids or ())
        self._texts: dict[str, str | None] = {}  # AG-UI text message id -> UIMessage id once its part exists
        self._appended: set[str] = set()  # text messages a snapshot rebuilt while they streamed: appended to
        self._dropped: set[str] = set()  # ... and those it removed: @ag-ui/client drops what they stream next
        self._text_info: dict[str, dict[str, JSON]] = {}  # AG-UI text message id -> its part's "ag-ui" facts
        self._streamed_other: set[str] = set()  # non-assistant text messages being streamed
        self._other_info: dict[str, dict[str, JSON]] = {}  # ... and their metadata
        self._reasoning_open: dict[str, str] = {}  # reasoning message id -> UIMessage id
        self._reasoning_ending: dict[str, str] = {}  # ended, awaiting a possible encrypted value
        self._reasoning_info: dict[str, dict[str, JSON]] = {}  # reasoning message id -> its "ag-ui" facts
        self._tools: dict[str, _ToolCall] = {}
        self._pending_result: _PendingResult | None = None
        self._activities: dict[
            str, tuple[str, str, dict[str, JSON]]
        ] = {}  # id -> (UIMessage id, type, content)
        self._activity_info: dict[str, dict[str, JSON]] = {}  # activity id -> its part's "ag-ui" facts
        self._last_assistant_id: str | None = None
        self._pending_interrupts: dict[
            str, str | None
        ] = {}  # interrupt id -> tool call id (None: not a tool's)
        self._owner: dict[str, str] = {}  # AG-UI message id -> id of the UIMessage that shows it
        self._customs: dict[str, list[dict[str, JSON]]] = {}  # UIMessage id -> its CUSTOM events
        self._chat_inputs = RunInputDecoder()  # a chat's log: the run inputs its run-start records hold
        self._chat_input: dict[str, JSON] | None = None  # ... the one for the RUN_STARTED that follows

    # ------------------------------------------------------------------ public
    def push(self, event: dict[str, JSON]) -> list[Routed]:
        """Translate one wire event; returns what it produced, in order."""
        out: list[Routed] = []
        kind = event.get("type")
        if self._pending_result is not None and not self._claims_pending_result(event):
            self._flush_result(out)
        if self._reasoning_ending and not (kind == "REASONING_ENCRYPTED_VALUE" or kind == "REASONING_END"):
            self._flush_reasoning_ends(out)
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, event, out)
        return out

    def close(self) -> list[Routed]:
        """Flush what is held back at the end of the stream (a result awaiting a claim, reasoning ends)."""
        out: list[Routed] = []
        if self._pending_result is not None:
            self._flush_result(out)
        if self._reasoning_ending:
            self._flush_reasoning_ends(out)
        return out

    def continue_from(self, ui_messages: list[dict[str, JSON]]) -> None:
        """Know an existing conversation: its message ids, its tool calls and its pending approvals.

        So a run that resumes an interrupt, or a tool result for an earlier call, lands on the right part even when
        the events that created them were not seen (a conversation loaded from a notebook or a file).
        """
        for message in ui_messages:
            self._owner[message["id"]] = message["id"]
            self._known.add(message["id"])
            if message.get("role") == "assistant":
                self._last_assistant_id = message["id"]
                # The interrupts its run ended with: a run answering them continues this message.
                outcome = ((message.get("metadata") or {}).get(AGUI_KEY) or {}).get("outcome")
                if isinstance(outcome, dict) and outcome.get("type") == "interrupt":
                    for interrupt in outcome.get("interrupts") or ():
                        if isinstance(interrupt, dict) and isinstance(interrupt.get("id"), str):
                            self._pending_interrupts.setdefault(interrupt["id"], None)
            for part in message.get("parts") or ():
                part_type = part.get("type", "")
                for key in ("providerMetadata", "callProviderMetadata", "resultProviderMetadata"):
                    info = (part.get(key) or {}).get(AGUI_KEY) or {}
                    for id_key in ("messageId", "parentMessageId"):
                        if isinstance(info.get(id_key), str):
                            self._known.add(info[id_key])
                            self._owner[info[id_key]] = message["id"]
                if part_type.startswith("data-") and isinstance(part.get("id"), str):
                    self._known.add(part["id"])
                    self._owner[part["id"]] = message["id"]
                if not (part_type.startswith("tool-") or part_type == "dynamic-tool"):
                    continue
                call_id = part.get("toolCallId")
                if not isinstance(call_id, str):
                    continue
                if "parentMessageId" not in ((part.get("callProviderMetadata") or {}).get(AGUI_KEY) or {}):
                    # As @ag-ui/client names the message of a call streamed without a parent (_on_tool_start).
                    self._known.add(call_id)
                    self._owner.setdefault(call_id, message["id"])
                name = part.get("toolName", "") if part_type == "dynamic-tool" else part_type[5:]
                state = part.get("state")
                approval = part.get("approval") or {}
                self._tools[call_id] = _ToolCall(
                    name=name,
                    message_id=message["id"],
                    ended=state != "input-streaming",
                    has_output=state in ("output-available", "output-error", "output-denied"),
                    denied=state == "output-denied"
                    or (state == "approval-responded" and approval.get("approved") is False),
                )
                if state in ("approval-requested", "approval-responded") and isinstance(
                    approval.get("id"), str
                ):
                    self._pending_interrupts[approval["id"]] = call_id

    @property
    def run_message_id(self) -> str | None:
        """The assistant UIMessage the open run's output goes to (None before its first output or between runs)."""
        return self._run.message_id if self._run is not None else None

    # ------------------------------------------------------------------ helpers
    def _assistant(self, out: list[Routed], *, step: bool) -> str:
        """The UIMessage id of the current assistant message, opening one (and a step) when needed."""
        run = self._run
        if run is None:
            run = self._run = _Run(thread_id=None, run_id=None)
        if run.message_id is None:
            run.sequence += 1
            base = run.run_id or "run"
            run.message_id = base if run.sequence == 1 else f"{base}-{run.sequence}"
            start: dict[str, JSON] = {"type": "start", "messageId": run.message_id}
            info: dict[str, JSON] = {
                k: v for k, v in (("threadId", run.thread_id), ("runId", run.run_id)) if v is not None
            }
            if run.started_at is not None:
                info["startedAt"] = run.started_at
            if info:
                start["messageMetadata"] = {AGUI_KEY: info}
            out.append(RoutedChunk(run.message_id, start))
            run.step_open = False
            run.need_step = True
            self._last_assistant_id = run.message_id
        if step and run.need_step:
            if run.step_open:
                out.append(RoutedChunk(run.message_id, {"type": "finish-step"}))
            out.append(RoutedChunk(run.message_id, {"type": "start-step"}))
            run.step_open = True
            run.need_step = False
        return run.message_id

    def _emit(self, out: list[Routed], message_id: str, chunk: dict[str, JSON]) -> None:
        out.append(RoutedChunk(message_id, chunk))

    def _metadata(self, out: list[Routed], message_id: str, info: dict[str, JSON]) -> None:
        out.append(RoutedChunk(message_id, {"type": "message-metadata", "messageMetadata": {AGUI_KEY: info}}))

    def _add_history(self, messages: list[dict[str, JSON]], out: list[Routed]) -> None:
        """Add AG-UI messages not seen yet as whole UIMessages, in front of the first later one already shown.

        A tool message for a call already shown (a front-end tool the client ran between runs) is not history:
        its result lands on that call's part.
        """
        fresh = [m for m in messages if m.get("id") not in self._known]
        if not fresh:
            return
        # An assistant message of calls already shown, under the id a client gave the message that holds them
        # (a call streamed without a parent has none of its own), is not history.
        shown_calls = [
            m
            for m in fresh
            if m.get("role") == "assistant"
            and m.get("toolCalls")
            and not m.get("content")
            and all(c.get("id") in self._tools for c in m["toolCalls"])
        ]
        for message in shown_calls:
            self._known.add(message["id"])
            self._owner[message["id"]] = self._tools[message["toolCalls"][0]["id"]].message_id
        if shown_calls:
            fresh = [m for m in fresh if m["id"] not in self._known]
        fresh_calls = {call["id"] for m in fresh for call in m.get("toolCalls") or ()}
        history: list[dict[str, JSON]] = []
        for message in fresh:
            self._known.add(message["id"])
            call_id = message.get("toolCallId")
            if message.get("role") == "tool" and call_id in self._tools and call_id not in fresh_calls:
                self._pending_result = _PendingResult(
                    call_id, message["id"], message.get("content"), metadata=message.get("metadata")
                )
                self._owner[message["id"]] = self._tools[call_id].message_id
                self._flush_result(out, error=message.get("error"))
            else:
                history.append(message)
        if not history:
            return
        history_ids = {m["id"] for m in history}
        last = max(i for i, m in enumerate(messages) if m.get("id") in history_ids)
        before: str | None = None
        for later in messages[last + 1 :]:
            before = self._owner.get(later.get("id", ""))
            if before is not None:
                break
        ui_messages = to_ui_messages(history)
        out.extend(WholeMessage(ui_message, before) for ui_message in ui_messages)
        self.continue_from(ui_messages)

    # ------------------------------------------------------------------ lifecycle
    def _on_run_started(self, event: dict[str, JSON], out: list[Routed]) -> None:
        self._close_run(out)
        run_input = event.get("input") or self._chat_input or {}
        self._chat_input = None
        self._add_history(run_input.get("messages") or [], out)
        run = _Run(
            thread_id=event.get("threadId"), run_id=event.get("runId"), started_at=event.get("timestamp")
        )
        resume = [
            entry
            for entry in run_input.get("resume") or ()
            if entry.get("interruptId") in self._pending_interrupts
        ]
        self._run = run
        if resume and self._last_assistant_id is not None:
            # Answering an interrupt continues the interrupted assistant message, as the AI SDK continues
            # the last assistant message after a tool approval.
            run.message_id = self._last_assistant_id
            run.need_step = True
            start: dict[str, JSON] = {"type": "start", "messageId": run.message_id}
            out.append(RoutedChunk(run.message_id, start))
            # The resumed run's outcome replaces the interrupt (metadata merges deeply, so clear it first).
            info = {"runId": run.run_id, "outcome": None, "resumedAt": run.started_at}
            self._metadata(out, run.message_id, info)
            for entry in resume:
                interrupt_id = entry["interruptId"]
                call_id = self._pending_interrupts.pop(interrupt_id, None)
                if call_id is None:
                    continue  # not a tool's approval: the answer is the run input's, no part changes
                payload = entry.get("payload") if isinstance(entry.get("payload"), dict) else {}
                approved = entry.get("status") == "resolved" and bool(payload.get("approved", False))
                if not approved and call_id in self._tools:
                    self._tools[call_id].denied = True
                response: dict[str, JSON] = {
                    "type": "tool-approval-response",
                    "approvalId": interrupt_id,
                    "approved": approved,
                }
                reason = payload.get("reason") if entry.get("status") == "resolved" else "cancelled"
                if isinstance(reason, str):
                    response["reason"] = reason
                out.append(RoutedChunk(run.message_id, response))
        else:
            self._assistant(out, step=False)

    def _close_run(self, out: list[Routed]) -> None:
        """Finish the open run's message if the stream moved on without a terminal event."""
        run = self._run
        if run is not None and run.message_id is not None and run.step_open:
            self._emit(out, run.message_id, {"type": "finish-step"})
            run.step_open = False
        self._run = None

    def _closing_message(self, out: list[Routed]) -> str:
        """The message a run's end goes to: its message, or the one a snapshot moved it on from (a run that
        showed nothing since opens no message only to end it)."""
        run = self._run
        if run is not None and run.message_id is None and run.sequence > 0:
            # A snapshot dropped the run's message: its end goes to the conversation's last answer.
            closing = run.moved_from or self._last_assistant_id
            if closing is not None:
                return closing
        return self._assistant(out, step=False)

    def _on_run_finished(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = self._closing_message(out)
        run = self._run
        assert run is not None
        info: dict[str, JSON] = {}
        outcome = event.get("outcome")
        if outcome is not None:
            info["outcome"] = outcome
        if event.get("usage") is not None:
            info["usage"] = event["usage"]
        if event.get("result") is not None:
            info["result"] = event["result"]
        if event.get("timestamp") is not None:
            info["finishedAt"] = event["timestamp"]
        if info:
            self._metadata(out, message_id, info)
        if isinstance(outcome, dict) and outcome.get("type") == "interrupt":
            for interrupt in outcome.get("interrupts") or ():
                call_id = interrupt.get("toolCallId")
                if call_id not in self._tools or not is_tool_approval(interrupt):
                    if isinstance(interrupt.get("id"), str):
                        self._pending_interrupts[interrupt["id"]] = (
                            None  # answered with a form (the widget's)
                        )
                    continue
                self._pending_interrupts[interrupt["id"]] = call_id
                request: dict[str, JSON] = {
                    "type": "tool-approval-request",
                    "approvalId": interrupt["id"],
                    "toolCallId": call_id,
                }
                if interrupt.get("message"):
                    request["reason"] = interrupt["message"]
                request.update(approval_fields(interrupt.get("metadata")))
                self._emit(out, self._tools[call_id].message_id or message_id, request)
        if run.step_open:
            self._emit(out, message_id, {"type": "finish-step"})
            run.step_open = False
        if isinstance(outcome, dict) and outcome.get("type") == "cancelled":
            self._emit(out, message_id, {"type": "abort", "reason": "cancelled"})
        else:
            self._emit(out, message_id, {"type": "finish"})
        self._run = None

    def _on_run_error(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = self._closing_message(out)
        run = self._run
        assert run is not None
        error = {k: event[k] for k in ("message", "code") if event.get(k) is not None}
        info: dict[str, JSON] = {"error": error}
        if event.get("usage") is not None:
            info["usage"] = event["usage"]
        if event.get("timestamp") is not None:
            info["finishedAt"] = event["timestamp"]
        self._metadata(out, message_id, info)
        self._emit(out, message_id, {"type": "error", "errorText": event.get("message", "")})
        if run.step_open:
            self._emit(out, message_id, {"type": "finish-step"})
            run.step_open = False
        self._emit(out, message_id, {"type": "finish", "finishReason": "error"})
        self._run = None

    # ------------------------------------------------------------------ text
    def _on_text_start(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = event["messageId"]
        role = event.get("role") or "assistant"
        if message_id in self._streamed_other:
            if "metadata" in event:
                self._other_metadata(message_id, event, out)
            return
        if role == "assistant":
            if message_id not in self._texts:
                self._texts[message_id] = None
                self._text_info[message_id] = {"messageId": message_id}
            self._text_metadata(message_id, event, out)
            return
        self._streamed_other.add(message_id)
        self._known.add(message_id)
        self._owner[message_id] = message_id
        ui_role = "system" if role == "developer" else role
        message: dict[str, JSON] = {
            "id": message_id,
            "role": ui_role,
            "parts": [{"type": "text", "text": ""}],
        }
        info: dict[str, JSON] = {"role": "developer"} if role == "developer" else {}
        if _with_metadata(info, event):
            self._other_info[message_id] = {"metadata": info["metadata"]}
        if info:
            message["metadata"] = {AGUI_KEY: info}
        out.append(WholeMessage(message))
        run = self._run
        if run is not None:
            # Assistant output after this message must come after it, in a new assistant UIMessage.
            if run.message_id is not None:
                run.moved_from = run.message_id
            run.message_id = None

    def _on_text_content(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = event["messageId"]
        delta = event.get("delta", "")
        if message_id in self._streamed_other:
            out.append(TextAppend(message_id, delta))
            if "metadata" in event:
                self._other_metadata(message_id, event, out)
            return
        if message_id in self._dropped:
            return
        owner = self._texts.get(message_id)
        if owner is not None and message_id in self._appended:
            out.append(TextAppend(owner, delta, message_id))
            return
        changed = "metadata" in event and _with_metadata(self._text_facts(message_id), event)
        if owner is None:
            if not delta:
                return
            owner = self._assistant(out, step=True)
            self._texts[message_id] = owner
            self._known.add(message_id)
            self._owner[message_id] = owner
            self._emit(
                out,
                owner,
                {
                    "type": "text-start",
                    "id": message_id,
                    "providerMetadata": {AGUI_KEY: dict(self._text_facts(message_id))},
                },
            )
            changed = False
        chunk: dict[str, JSON] = {"type": "text-delta", "id": message_id, "delta": delta}
        if changed:
            chunk["providerMetadata"] = {AGUI_KEY: dict(self._text_info[message_id])}
        self._emit(out, owner, chunk)

    def _text_facts(self, message_id: str) -> dict[str, JSON]:
        info = self._text_info.get(message_id)
        if info is None:
            info = self._text_info[message_id] = {"messageId": message_id}
        return info

    def _on_text_end(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = event["messageId"]
        if message_id in self._streamed_other:
            self._streamed_other.discard(message_id)
            if "metadata" in event:
                self._other_metadata(message_id, event, out)
            self._other_info.pop(message_id, None)
            return
        owner = self._texts.pop(message_id, None)
        info = self._text_info.pop(message_id, None)
        self._dropped.discard(message_id)
        if message_id in self._appended:
            self._appended.discard(message_id)  # the snapshot's part is done already
        elif owner is not None:
            chunk: dict[str, JSON] = {"type": "text-end", "id": message_id}
            if info is not None and _with_metadata(info, event):
                chunk["providerMetadata"] = {AGUI_KEY: info}
            self._emit(out, owner, chunk)

    def _text_metadata(self, message_id: str, event: dict[str, JSON], out: list[Routed]) -> None:
        """Fold a START event's metadata into an assistant text message (its part shows it once it exists)."""
        info = self._text_info[message_id]
        owner = self._texts.get(message_id)
        if _with_metadata(info, event) and owner is not None:
            self._emit(
                out,
                owner,
                {
                    "type": "text-delta",
                    "id": message_id,
                    "delta": "",
                    "providerMetadata": {AGUI_KEY: dict(info)},
                },
            )

    def _other_metadata(self, message_id: str, event: dict[str, JSON], out: list[Routed]) -> None:
        info = self._other_info.setdefault(message_id, {})
        _with_metadata(info, event)
        out.append(MessageInfo(message_id, {"metadata": info["metadata"]}))

    # ------------------------------------------------------------------ reasoning
    def _on_reasoning_message_start(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = event["messageId"]
        owner = self._assistant(out, step=True)
        self._reasoning_open[message_id] = owner
        self._known.add(message_id)
        self._owner[message_id] = owner
        info: dict[str, JSON] = {"messageId": message_id}
        _with_metadata(info, event)
        self._reasoning_info[message_id] = info
        self._emit(
            out,
            owner,
            {"type": "reasoning-start", "id": message_id, "providerMetadata": {AGUI_KEY: dict(info)}},
        )

    def _on_reasoning_content(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = event["messageId"]
        owner = self._reasoning_open.get(message_id)
        if owner is None:
            self._on_reasoning_message_start(event, out)
            owner = self._reasoning_open[message_id]
            event = {k: v for k, v in event.items() if k != "metadata"}  # already folded in by the start
        chunk: dict[str, JSON] = {
            "type": "reasoning-delta",
            "id": message_id,
            "delta": event.get("delta", ""),
        }
        if "metadata" in event:
            info = self._reasoning_info.setdefault(message_id, {"messageId": message_id})
            _with_metadata(info, event)
            chunk["providerMetadata"] = {AGUI_KEY: dict(info)}
        self._emit(out, owner, chunk)

    def _on_reasoning_message_end(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = event["messageId"]
        owner = self._reasoning_open.pop(message_id, None)
        if owner is not None:
            self._reasoning_ending[message_id] = owner
            _with_metadata(self._reasoning_info.setdefault(message_id, {"messageId": message_id}), event)

    def _on_reasoning_end(self, event: dict[str, JSON], out: list[Routed]) -> None:
        self._flush_reasoning_ends(out)

    def _flush_reasoning_ends(self, out: list[Routed]) -> None:
        for message_id, owner in self._reasoning_ending.items():
            chunk: dict[str, JSON] = {"type": "reasoning-end", "id": message_id}
            info = self._reasoning_info.pop(message_id, None)
            if info is not None and len(info) > 1:
                chunk["providerMetadata"] = {AGUI_KEY: info}
            self._emit(out, owner, chunk)
        self._reasoning_ending.clear()

    def _on_encrypted_value(self, event: dict[str, JSON], out: list[Routed]) -> None:
        entity_id = event.get("entityId", "")
        value = event.get("encryptedValue", "")
        if event.get("subtype") == "tool-call":
            call = self._tools.get(entity_id)
            if call is not None and not call.has_output:
                call.info["encryptedValue"] = value
                if call.ended:
                    self._emit_input_available(out, entity_id, call)
                return
        else:
            if entity_id in self._reasoning_open or entity_id in self._reasoning_ending:
                self._reasoning_info.setdefault(entity_id, {"messageId": entity_id})["encryptedValue"] = value
                return
            pending = self._pending_result
            if pending is not None and pending.result_message_id == entity_id:
                pending.encrypted_value = value
                return
        # Nothing open to carry it: keep it on the message so that it is not lost.
        owner = self._last_assistant_id
        if owner is not None:
            self._metadata(out, owner, {"encryptedValues": {entity_id: value}})

    # ------------------------------------------------------------------ tools
    def _on_tool_start(self, event: dict[str, JSON], out: list[Routed]) -> None:
        call_id = event["toolCallId"]
        run = self._run
        parent_owner = self._owner.get(event.get("parentMessageId") or "")
        if run is not None and run.message_id is None and run.sequence > 0 and parent_owner is not None:
            # After a snapshot moved the run on, a call of a message it shows joins that message (as
            # @ag-ui/client adds it to the message's calls).
            owner = parent_owner
        else:
            owner = self._assistant(out, step=True)
        call = _ToolCall(name=event.get("toolCallName", ""), message_id=owner)
        self._tools[call_id] = call
        chunk: dict[str, JSON] = {"type": "tool-input-start", "toolCallId": call_id, "toolName": call.name}
        if event.get("parentMessageId"):
            self._owner[event["parentMessageId"]] = owner
            self._known.add(event["parentMessageId"])
            call.info["parentMessageId"] = event["parentMessageId"]
        else:
            # @ag-ui/client holds a call streamed without a parent as an assistant message named by the call's
            # id, and a chat sends it back so: that message is this call, not history.
            self._owner.setdefault(call_id, owner)
            self._known.add(call_id)
        _with_metadata(call.info, event)
        if call.info:
            chunk["providerMetadata"] = {AGUI_KEY: dict(call.info)}
        self._emit(out, owner, chunk)

    def _on_tool_args(self, event: dict[str, JSON], out: list[Routed]) -> None:
        call = self._tools.get(event["toolCallId"])
        if call is None or call.ended:
            return
        delta = event.get("delta", "")
        call.args.append(delta)
        if "metadata" in event:
            _with_metadata(call.info, event)  # shown with the input (an AI SDK input delta has no metadata)
        if call.restream:
            # The part a snapshot rebuilt takes the arguments again from the start, this delta included.
            call.restream = False
            self._emit(
                out,
                call.message_id,
                {"type": "tool-input-start", "toolCallId": event["toolCallId"], "toolName": call.name},
            )
            delta = js_concat(call.args)
        self._emit(
            out,
            call.message_id,
            {"type": "tool-input-delta", "toolCallId": event["toolCallId"], "inputTextDelta": delta},
        )

    def _on_tool_end(self, event: dict[str, JSON], out: list[Routed]) -> None:
        call_id = event["toolCallId"]
        call = self._tools.get(call_id)
        if call is None or call.ended:
            return
        call.ended = True
        _with_metadata(call.info, event)
        self._emit_input_available(out, call_id, call)

    def _emit_input_available(self, out: list[Routed], call_id: str, call: _ToolCall) -> None:
        text = js_concat(call.args)
        try:
            tool_input = decode_json(text) if text.strip() else {}
        except orjson.JSONDecodeError as error:
            chunk: dict[str, JSON] = {
                "type": "tool-input-error",
                "toolCallId": call_id,
                "toolName": call.name,
                "input": text,
                "errorText": f"tool call arguments are not valid JSON: {error}",
            }
        else:
            chunk = {
                "type": "tool-input-available",
                "toolCallId": call_id,
                "toolName": call.name,
                "input": tool_input,
            }
        if call.info:
            chunk["providerMetadata"] = {AGUI_KEY: dict(call.info)}
        self._emit(out, call.message_id, chunk)

    def _on_tool_result(self, event: dict[str, JSON], out: list[Routed]) -> None:
        call_id = event["toolCallId"]
        if call_id not in self._tools:
            # A result for a call this stream never showed: keep it visible as a dynamic tool part.
            owner = self._assistant(out, step=False)
            self._tools[call_id] = _ToolCall(name="unknown", message_id=owner, ended=True)
            self._emit(
                out,
                owner,
                {
                    "type": "tool-input-available",
                    "toolCallId": call_id,
                    "toolName": "unknown",
                    "input": None,
                    "dynamic": True,
                },
            )
        call = self._tools[call_id]
        if not call.ended:
            # A result before its TOOL_CALL_END (Langroid sends them so): the call's input is what streamed so
            # far, and the END that follows changes nothing (@ag-ui/client's END does not touch messages).
            call.ended = True
            self._emit_input_available(out, call_id, call)
        self._known.add(event.get("messageId", ""))
        self._owner[event.get("messageId", "")] = self._tools[call_id].message_id
        metadata = spread_merge_metadata(None, event["metadata"]) if "metadata" in event else None
        self._pending_result = _PendingResult(
            call_id,
            event.get("messageId", ""),
            _result_content(event.get("content"), metadata),
            metadata=metadata,
        )
        if self._run is not None:
            self._run.need_step = True

    def _claims_pending_result(self, event: dict[str, JSON]) -> bool:
        pending = self._pending_result
        return (
            pending is not None
            and event.get("type") == "REASONING_ENCRYPTED_VALUE"
            and event.get("subtype") == "message"
            and event.get("entityId") == pending.result_message_id
        )

    def _flush_result(self, out: list[Routed], *, error: str | None = None) -> None:
        """Emit the held tool result; ``error`` is a tool message's ``error`` (results from history have one)."""
        pending = self._pending_result
        assert pending is not None
        self._pending_result = None
        call = self._tools[pending.tool_call_id]
        call.has_output = True
        metadata: dict[str, JSON] = {"messageId": pending.result_message_id}
        if pending.encrypted_value is not None:
            metadata["encryptedValue"] = pending.encrypted_value
        outcome = claimed_outcome(pending.encrypted_value)
        chunk: dict[str, JSON]
        if (
            outcome != "denied"
            and (error is not None or outcome in ERROR_OUTCOMES)
            and pending.metadata is not None
        ):
            metadata["metadata"] = pending.metadata
        if outcome == "denied" or call.denied:
            # A denied call did not run, whatever the agent reports for it (the AI SDK's output-denied).
            chunk = {"type": "tool-output-denied", "toolCallId": pending.tool_call_id}
        elif error is not None:
            metadata["content"] = pending.content
            chunk = {
                "type": "tool-output-error",
                "toolCallId": pending.tool_call_id,
                "errorText": error,
                "providerMetadata": {AGUI_KEY: metadata},
            }
        elif outcome in ERROR_OUTCOMES:
            content = pending.content
            error_text = content if isinstance(content, str) else encode_json(content)
            chunk = {
                "type": "tool-output-error",
                "toolCallId": pending.tool_call_id,
                "errorText": error_text,
                "providerMetadata": {AGUI_KEY: metadata},
            }
        else:
            output, kept = tool_result_fields(pending.content, pending.metadata)
            metadata.update(kept)
            chunk = {
                "type": "tool-output-available",
                "toolCallId": pending.tool_call_id,
                "output": output,
                "providerMetadata": {AGUI_KEY: metadata},
            }
        self._emit(out, call.message_id, chunk)

    # ------------------------------------------------------------------ activity, snapshots, custom
    def _on_activity_snapshot(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = event["messageId"]
        known = self._activities.get(message_id)
        if known is not None and event.get("replace") is False:
            return
        owner = known[0] if known is not None else self._assistant(out, step=False)
        content = event.get("content") or {}
        if (
            event["activityType"] == UI_PART_ACTIVITY
            and content.get("type") in _PART_CHUNKS
            and known is None
        ):
            # agui-notebook's carrier for parts AG-UI has no event for (sources, files): the part itself.
            self._known.add(message_id)
            self._owner[message_id] = owner
            self._emit(out, owner, _ui_part_from_activity({"id": message_id, "content": content}))
            return
        self._activities[message_id] = (owner, event["activityType"], content)
        self._known.add(message_id)
        self._owner[message_id] = owner
        chunk: dict[str, JSON] = {"type": f"data-{event['activityType']}", "id": message_id, "data": content}
        info = self._activity_info.setdefault(message_id, {}) if known is None else None
        if info is not None and _with_metadata(info, event):
            chunk["providerMetadata"] = {AGUI_KEY: dict(info)}
        self._emit(out, owner, chunk)
        if known is not None:
            self._activity_metadata(out, message_id, f"data-{event['activityType']}", event)

    def _on_activity_delta(self, event: dict[str, JSON], out: list[Routed]) -> None:
        message_id = event["messageId"]
        known = self._activities.get(message_id)
        if known is None:
            return
        owner, _, content = known
        try:
            content = apply_json_patch(content, event.get("patch") or [])
        except ValueError:
            # The reference reducer keeps the previous content when a patch does not apply (not the metadata).
            self._activity_metadata(out, message_id, f"data-{known[1]}", event)
            return
        activity_type = event.get("activityType") or known[1]
        self._activities[message_id] = (owner, activity_type, content)
        self._emit(out, owner, {"type": f"data-{activity_type}", "id": message_id, "data": content})
        self._activity_metadata(out, message_id, f"data-{activity_type}", event)

    def _activity_metadata(
        self, out: list[Routed], message_id: str, part_type: str, event: dict[str, JSON]
    ) -> None:
        info = self._activity_info.setdefault(message_id, {})
        if _with_metadata(info, event):
            out.append(PartInfo(self._activities[message_id][0], part_type, message_id, dict(info)))

    def _on_messages_snapshot(self, event: dict[str, JSON], out: list[Routed]) -> None:
        out.append(MessagesSnapshot(event))

    def after_snapshot(
        self, messages: list[dict[str, JSON]], rebuilt: set[str], *, run_holder: str | None
    ) -> None:
        """Know the conversation a ``MESSAGES_SNAPSHOT`` left: ``rebuilt`` names the UIMessages it replaced.

        A text still streaming goes on in the snapshot's copy of it (or is dropped when the snapshot removed it),
        a call's arguments in its rebuilt part, and calls the snapshot removed are forgotten. ``run_holder``: the UIMessage that shows the open run's output
        now. The run's later output goes on in it while it is the last message; when messages follow it, the output
        opens a new assistant message after them (as after a streamed user message) and the run's end goes to it.
        """
        shown = {m["id"] for m in messages}
        self._owner = {k: v for k, v in self._owner.items() if v in shown}
        streaming = {call_id: call for call_id, call in self._tools.items() if not call.ended}
        fresh = [m for m in messages if m["id"] in rebuilt]
        self.continue_from(fresh)
        for message_id, owner in list(self._texts.items()):
            if owner is not None and (owner in rebuilt or owner not in shown):
                # A text that goes on after the snapshot continues the snapshot's copy of it, wherever that is
                # (@ag-ui/client appends to the snapshot's message), else it starts a new part.
                holder = _text_holder(messages, message_id)
                self._texts[message_id] = holder
                if holder is not None:
                    self._appended.add(message_id)
                else:
                    self._dropped.add(message_id)
        for message_id, owner in list(self._reasoning_open.items()):
            if owner in rebuilt:
                del self._reasoning_open[message_id]
        holders = {
            part.get("toolCallId"): m["id"]
            for m in messages
            for part in m.get("parts") or ()
            if "toolCallId" in part
        }
        for call_id, call in list(self._tools.items()):
            if call_id not in holders:
                del self._tools[call_id]
            elif call_id in streaming and (
                holders[call_id] in rebuilt or holders[call_id] != streaming[call_id].message_id
            ):
                # Its arguments still stream: they go on in the part the snapshot rebuilt.
                kept = self._tools[call_id] = streaming[call_id]
                kept.message_id = holders[call_id]
                kept.restream = True
            elif call.message_id in rebuilt:
                call.ended = True
        for message in messages:
            if message.get("role") == "assistant":
                self._last_assistant_id = message["id"]
        run = self._run
        if run is None:
            return
        last = messages[-1]["id"] if messages else None
        if run.message_id is not None:
            if run_holder is not None and run_holder == last:
                run.message_id = run_holder
            else:
                run.moved_from = run_holder
                run.message_id = None
        elif run.moved_from is not None and all(m["id"] != run.moved_from for m in messages):
            run.moved_from = None

    def forget(self, message_id: str, messages: list[dict[str, JSON]]) -> None:
        """Forget UIMessage ``message_id``, removed from ``messages`` (a finished run's message that showed nothing)."""
        self._owner = {k: v for k, v in self._owner.items() if v != message_id}
        self._customs.pop(message_id, None)
        if self._last_assistant_id == message_id:
            self._last_assistant_id = next(
                (m["id"] for m in reversed(messages) if m.get("role") == "assistant"), None
            )

    def _on_custom(self, event: dict[str, JSON], out: list[Routed]) -> None:
        if is_chat_record(event):
            # What the user did, recorded in a chat's log: not part of any message. The input a run began
            # with is what the agent's RUN_STARTED would carry: the user's messages come from it.
            if event.get("name") == RUN_START_RECORD:
                self._chat_input = self._chat_inputs.decode(event.get("value"))
            return
        owner = self._assistant(out, step=False)
        customs = self._customs.setdefault(owner, [])
        customs.append({"name": event.get("name"), "value": event.get("value")})
        # Metadata merges replace arrays, so the whole list goes out each time.
        self._metadata(out, owner, {"custom": list(customs)})


def _text_holder(messages: list[dict[str, JSON]], text_id: str) -> str | None:
    """The UIMessage that shows the text part of AG-UI text message ``text_id``, if any."""
    for message in reversed(messages):
        for part in message.get("parts") or ():
            if part.get("type") == "text":
                info = (part.get("providerMetadata") or {}).get(AGUI_KEY) or {}
                if info.get("messageId") == text_id:
                    return str(message["id"])
    return None


_HANDLERS: dict[JSON, Any] = {
    "RUN_STARTED": EventChunkTranslator._on_run_started,
    "RUN_FINISHED": EventChunkTranslator._on_run_finished,
    "RUN_ERROR": EventChunkTranslator._on_run_error,
    "TEXT_MESSAGE_START": EventChunkTranslator._on_text_start,
    "TEXT_MESSAGE_CONTENT": EventChunkTranslator._on_text_content,
    "TEXT_MESSAGE_END": EventChunkTranslator._on_text_end,
    "REASONING_MESSAGE_START": EventChunkTranslator._on_reasoning_message_start,
    "REASONING_MESSAGE_CONTENT": EventChunkTranslator._on_reasoning_content,
    "REASONING_MESSAGE_END": EventChunkTranslator._on_reasoning_message_end,
    "REASONING_END": EventChunkTranslator._on_reasoning_end,
    "REASONING_ENCRYPTED_VALUE": EventChunkTranslator._on_encrypted_value,
    "TOOL_CALL_START": EventChunkTranslator._on_tool_start,
    "TOOL_CALL_ARGS": EventChunkTranslator._on_tool_args,
    "TOOL_CALL_END": EventChunkTranslator._on_tool_end,
    "TOOL_CALL_RESULT": EventChunkTranslator._on_tool_result,
    "ACTIVITY_SNAPSHOT": EventChunkTranslator._on_activity_snapshot,
    "ACTIVITY_DELTA": EventChunkTranslator._on_activity_delta,
    "MESSAGES_SNAPSHOT": EventChunkTranslator._on_messages_snapshot,
    "CUSTOM": EventChunkTranslator._on_custom,
}


def iter_routed(
    events: Iterator[dict[str, JSON]], translator: EventChunkTranslator | None = None
) -> Iterator[Routed]:
    """Translate a whole stream, flushing what is held back at its end."""
    translator = translator or EventChunkTranslator()
    for event in events:
        yield from translator.push(event)
    yield from translator.close()
