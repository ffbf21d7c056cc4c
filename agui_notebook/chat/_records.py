"""What a chat writes in its log besides the agent's events: its own records, as AG-UI CUSTOM events.

A chat's log is a recorder log (``{"received_ns", "event"}`` lines, ``_recorder.py``), so ``load_events``,
``inspect``, ``diff_runs`` and ``expect`` read it as it is. Everything the user did is a CUSTOM event named
``agui-notebook/<what>`` whose ``value`` says exactly enough to do it again: opening the log replays the records
in order (``_thread.py``), so the conversation it rebuilds is the one that was shown, branches, state, feedback,
pending approvals and all.

==================  ===========================================================================================
``thread``          ``{"action": "new" | "switch" | "continue" | "rename", "threadId", "title"?, "version"?}``: the
                    records after a ``new``, ``switch`` or ``continue`` belong to that thread (``continue``: a
                    thread not shown writes, ``_store.py``); a deleted thread's lines are removed from the file;
                    ``new`` carries the log format's ``version``
``send``            ``{"message"}``: the user's turn (open approvals and interrupts are cancelled first)
``append``          ``{"messages"}``: messages put at the end as they are (an edit's new question, a fork's path)
``cut``             ``{"at"}``: the conversation stops before its message ``at``; the rest stays as a branch
``select``          ``{"at", "index"}``: alternative ``index`` of the fork at message ``at`` is shown
``replace``         ``{"messages"}``: the conversation set from Python (its branches go)
``state``           ``{"state"}``: the shared state set from Python
``run-start``       ``{"runId", "resume", "continues", "input"?, "messages"?}``: a run begins; ``input`` is the
                    ``RunAgentInput`` the agent got, its ``messages`` written as a change of the thread's previous
                    input (``"messages": {"from": <its run id or null>, "keep": n, "add": [...]}``), so a long
                    conversation is not written again at every turn
``run-end``         ``{"runId", "outcome", "error"?, "code"?, "details"?, "warnings"?}``: the run ended (what the
                    client then closes follows it: a RUN_ERROR, an abort chunk); ``outcome`` is one of
                    ``RUN_END_OUTCOMES``, ``error`` and ``code`` those of a failed run (the agent's RUN_ERROR or
                    the exception that ended it), ``details`` the traceback shown, ``warnings`` the problems the
                    run survived
``tool``            ``{"toolCallId", "part"}``: a frontend tool's call as the chat left it (result, error, denial,
                    approval asked)
``approval``        ``{"approvalId", "approved", "reason"?}``: the user's answer to an approval
``interrupt``       ``{"interruptId", "payload"?, "cancel"}``: the user's answer to an interrupt
``feedback``        ``{"messageId", "messageIds", "rating", "comment", "at"}``: a rating (``messages_df`` reads it)
==================  ===========================================================================================

>>> record = chat_record("send", {"message": {"id": "u1", "role": "user", "parts": []}})
>>> record["name"], record_kind(record)
('agui-notebook/send', 'send')
>>> record_kind({"type": "TEXT_MESSAGE_CONTENT"}) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from agui_notebook._types import JSON
from agui_notebook.bridge._conversation import RunOutcome
from agui_notebook.wire._records import CHAT_RECORD_PREFIX, RUN_START_RECORD, RunInputDecoder

__all__ = [
    "CHAT_RECORD_PREFIX",
    "FEEDBACK_EVENT_NAME",
    "LOG_VERSION",
    "RECORD_KINDS",
    "RUN_END_OUTCOMES",
    "RUN_START",
    "RunEnd",
    "chat_record",
    "decode_run_inputs",
    "encode_run_input",
    "feedback_event",
    "record_kind",
]

RECORD_KINDS = frozenset(
    {
        "thread",
        "send",
        "append",
        "cut",
        "select",
        "replace",
        "state",
        "run-start",
        "run-end",
        "tool",
        "approval",
        "interrupt",
        "feedback",
    }
)
"""Every kind of record a chat writes (the table in the module docstring)."""

LOG_VERSION = 1
"""The version of the chat log format, written in each thread's ``new`` record."""

RUN_START = RUN_START_RECORD

RunEndOutcome = Literal["success", "error", "interrupt", "cancelled", "stopped"]
RUN_END_OUTCOMES: tuple[RunEndOutcome, ...] = ("success", "error", "interrupt", "cancelled", "stopped")
"""How a ``run-end`` record says the run ended: finished; failed (the agent's RUN_ERROR or error chunk, an
exception, a malformed stream); finished with an interrupt (AG-UI ``outcome.type == "interrupt"``, or approvals
left waiting); cancelled (the agent's ``outcome.type == "cancelled"``, a task cancelled from outside the chat, or
the kernel stopped before the run ended); stopped by the user (``stop()``, the Stop button, interrupting the
kernel). ``send_message`` resolves to the same outcome, ``"cancelled"`` for a stop."""


@dataclass
class RunEnd:
    """How a run ended, as its ``run-end`` record tells it (and a chat opened on the log shows it again).

    >>> end = RunEnd("error", error="rate limited", code="429")
    >>> end.value()
    {'outcome': 'error', 'error': 'rate limited', 'code': '429'}
    >>> RunEnd.read(end.value()) == end, RunEnd("stopped").run_outcome
    (True, 'cancelled')
    """

    outcome: RunEndOutcome
    error: str = ""
    code: str | None = None
    details: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def run_outcome(self) -> RunOutcome:
        """What ``send_message`` resolves to for this run (a stop is ``"cancelled"``)."""
        return "cancelled" if self.outcome == "stopped" else self.outcome

    def value(self) -> dict[str, JSON]:
        """The record's fields that tell the outcome (the ``run-end`` value adds the run id and messages)."""
        value: dict[str, JSON] = {"outcome": self.outcome}
        if self.error:
            value["error"] = self.error
        if self.code:
            value["code"] = self.code
        if self.details:
            value["details"] = self.details
        if self.warnings:
            value["warnings"] = list(self.warnings)
        return value

    @classmethod
    def read(cls, value: Mapping[str, Any]) -> RunEnd | None:
        """The end a ``run-end`` value tells (None when its outcome is not one of ``RUN_END_OUTCOMES``)."""
        outcome = value.get("outcome")
        if outcome not in RUN_END_OUTCOMES:
            return None
        error, code, details = value.get("error"), value.get("code"), value.get("details")
        warnings = value.get("warnings")
        return cls(
            outcome,
            error if type(error) is str else "",
            code if type(code) is str else None,
            details if type(details) is str else "",
            [w for w in warnings if type(w) is str] if type(warnings) is list else [],
        )


FEEDBACK_EVENT_NAME = CHAT_RECORD_PREFIX + "feedback"
"""The ``name`` of the record of the user's rating of an answer. Its ``value``: ``messageId`` (the UIMessage),
``messageIds`` (the AG-UI text and reasoning messages it holds, which ``messages_df`` joins the rating to),
``rating`` (``"up"``, ``"down"`` or ``None`` when the rating was taken back), ``comment`` (text or ``None``) and
``at`` (ISO 8601, UTC)."""


def chat_record(kind: str, value: Mapping[str, Any]) -> dict[str, JSON]:
    """The CUSTOM event of a chat record of ``kind`` (one of ``RECORD_KINDS``)."""
    return {"type": "CUSTOM", "name": CHAT_RECORD_PREFIX + kind, "value": dict(value)}


def record_kind(event: Any) -> str | None:
    """The kind of chat record ``event`` is (``"send"``, ``"run-start"`` ...), or None for anything else."""
    if type(event) is not dict or event.get("type") != "CUSTOM":
        return None
    name = event.get("name")
    if type(name) is not str or not name.startswith(CHAT_RECORD_PREFIX):
        return None
    kind = name[len(CHAT_RECORD_PREFIX) :]
    return kind if kind in RECORD_KINDS and type(event.get("value")) is dict else None


def feedback_event(
    message_id: str,
    rating: str | None,
    *,
    comment: str | None = None,
    at: str,
    message_ids: list[str] | None = None,
) -> dict[str, JSON]:
    """The record of the user's rating of an answer (``FEEDBACK_EVENT_NAME``).

    >>> feedback_event("run-1", "down", comment="too long", at="2026-12-01T12:00:00.000Z")["value"]["rating"]
    'down'
    """
    value = {
        "messageId": message_id,
        "messageIds": list(message_ids or []),
        "rating": rating,
        "comment": comment,
        "at": at,
    }
    return chat_record("feedback", value)


# -- run inputs ------------------------------------------------------------------------------------------------


def encode_run_input(
    run_input: dict[str, JSON], previous: tuple[str, list[JSON]] | None
) -> tuple[dict[str, JSON], dict[str, JSON]]:
    """``run_input`` (AG-UI wire) without its messages, and those messages as a change of ``previous`` (the run id
    and messages of the thread's previous input): ``{"from", "keep", "add"}``, where the messages are the first
    ``keep`` of the previous input's, then ``add``.

    >>> first = {"runId": "r1", "messages": [{"id": "u1"}]}
    >>> encode_run_input(first, None)[1]
    {'from': None, 'keep': 0, 'add': [{'id': 'u1'}]}
    >>> second = {"runId": "r2", "messages": [{"id": "u1"}, {"id": "a1"}, {"id": "u2"}]}
    >>> encode_run_input(second, ("r1", first["messages"]))[1]
    {'from': 'r1', 'keep': 1, 'add': [{'id': 'a1'}, {'id': 'u2'}]}
    """
    messages = run_input.get("messages")
    messages = messages if type(messages) is list else []
    rest = {k: v for k, v in run_input.items() if k != "messages"}
    if previous is None:
        return rest, {"from": None, "keep": 0, "add": list(messages)}
    base_id, base = previous
    keep = 0
    for old, new in zip(base, messages, strict=False):
        if old != new:
            break
        keep += 1
    return rest, {"from": base_id, "keep": keep, "add": messages[keep:]}


def decode_run_inputs(values: Iterable[Any]) -> list[dict[str, JSON] | None]:
    """The ``RunAgentInput`` wire dicts of ``run-start`` record values in log order (None where a run had no
    input: a played stream, or a value that is not as a chat writes it).

    Each input's messages are rebuilt from the input it names; the messages are shared with that input's, not
    copied, so a long conversation costs one list per run.

    >>> values = [{"runId": "r1", "input": {"runId": "r1"}, "messages": {"from": None, "keep": 0, "add": [{"id": "u1"}]}},
    ...           {"runId": "r2", "input": {"runId": "r2"}, "messages": {"from": "r1", "keep": 1, "add": [{"id": "u2"}]}}]
    >>> [[m["id"] for m in i["messages"]] for i in decode_run_inputs(values)]
    [['u1'], ['u1', 'u2']]
    """
    decoder = RunInputDecoder()
    return [decoder.decode(value) for value in values]
