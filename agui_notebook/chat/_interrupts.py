"""Interrupts in the chat: every one a run ends with is shown, answered, and resumed with the others.

An interrupt a tool card answers (``agui._interrupts.is_tool_approval``, on a tool call the message shows) stays
the tool part's approval. Every other one becomes a ``data-interrupt`` part at the end of the interrupted
assistant message, where the front end draws its card (``js/src/interrupts.js``: the message, a form generated
from its ``responseSchema``, the ``expiresAt`` countdown). The part is the record of the question and its
answer, so it survives ``save``/``load`` and the saved notebook::

    {"type": "data-interrupt", "id": <interrupt id>,
     "data": {"interrupt": {<the AG-UI Interrupt, wire form>},
              "status": "open" | "resolved" | "cancelled",
              "payload": <the answer, when resolved with one>,
              "cancelledBy": "user" | "new-message"}}

Like every ``data-*`` part it stays on the client: the run input leaves activity messages out, and the answer
travels as the run input's ``resume`` entries instead.

>>> messages = [{"id": "a", "role": "assistant", "parts": [], "metadata": {"ag-ui": {"outcome": {
...     "type": "interrupt", "interrupts": [{"id": "i1", "reason": "input", "message": "Which city?"}]}}}}]
>>> [change.kind for change in show_interrupts(messages)]
['part']
>>> pending_interrupts(messages)
['i1']
>>> _ = answer_interrupt(messages, "i1", "Oslo")
>>> interrupt_resume_entries(messages)
[{'interruptId': 'i1', 'status': 'resolved', 'payload': 'Oslo'}]
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from agui_notebook._errors import InterruptPayloadError, MessageNotFoundError
from agui_notebook._types import JSON
from agui_notebook.agui._interrupts import build_resume_entries, is_interrupt_expired, payload_problems
from agui_notebook.ui._changes import MessageChange

__all__ = [
    "INTERRUPT_PART",
    "answer_interrupt",
    "cancel_open_interrupts",
    "interrupt_resume_entries",
    "is_approval_id",
    "pending_interrupts",
    "resend_interrupt",
    "show_interrupts",
]

INTERRUPT_PART = "data-interrupt"
"""The part type of an interrupt no tool card answers."""


def _last_assistant(messages: list[dict[str, JSON]]) -> int | None:
    if messages and messages[-1].get("role") == "assistant":
        return len(messages) - 1
    return None


def _outcome_interrupts(message: Mapping[str, Any]) -> list[dict[str, JSON]]:
    metadata = message.get("metadata")
    ours = metadata.get("ag-ui") if isinstance(metadata, Mapping) else None
    outcome = ours.get("outcome") if isinstance(ours, Mapping) else None
    if not isinstance(outcome, Mapping) or outcome.get("type") != "interrupt":
        return []
    listed = outcome.get("interrupts")
    return (
        [i for i in listed if isinstance(i, dict) and isinstance(i.get("id"), str)]
        if isinstance(listed, list)
        else []
    )


def _is_interrupt_part(part: Any) -> bool:
    return (
        isinstance(part, dict) and part.get("type") == INTERRUPT_PART and isinstance(part.get("data"), dict)
    )


def show_interrupts(messages: list[dict[str, JSON]]) -> list[MessageChange]:
    """Give every interrupt the last answer ended with that no tool card shows a ``data-interrupt`` part (once)."""
    index = _last_assistant(messages)
    if index is None:
        return []
    message = messages[index]
    parts = message.setdefault("parts", [])
    shown = {
        part["approval"].get("id")
        for part in parts
        if isinstance(part, dict) and isinstance(part.get("approval"), dict)
    }
    shown |= {
        part.get("id") for part in parts if _is_interrupt_part(part) and part["data"].get("status") == "open"
    }
    changes = []
    for interrupt in _outcome_interrupts(message):
        if interrupt["id"] in shown:
            continue
        shown.add(interrupt["id"])
        parts.append(
            {
                "type": INTERRUPT_PART,
                "id": interrupt["id"],
                "data": {"interrupt": dict(interrupt), "status": "open"},
            }
        )
        changes.append(MessageChange("part", index, len(parts) - 1))
    return changes


def _open_parts(messages: list[dict[str, JSON]]) -> list[tuple[int, int, dict[str, JSON]]]:
    """``(message index, part index, part)`` of every open interrupt part, in order."""
    found = []
    for mi, message in enumerate(messages):
        for pi, part in enumerate(message.get("parts") or ()):
            if _is_interrupt_part(part) and part["data"].get("status") == "open":
                found.append((mi, pi, part))
    return found


def is_approval_id(messages: list[dict[str, JSON]], interrupt_id: str) -> bool:
    """Whether ``interrupt_id`` is shown as a tool part's approval (answered with Approve/Deny) rather than a card."""
    return any(
        isinstance(part, dict)
        and isinstance(part.get("approval"), dict)
        and part["approval"].get("id") == interrupt_id
        for message in messages
        for part in message.get("parts") or ()
    )


def pending_interrupts(messages: list[dict[str, JSON]]) -> list[str]:
    """Ids of the interrupts of the last assistant message still waiting for an answer (expired ones too: they
    wait to be cancelled)."""
    last = _last_assistant(messages)
    return [part["id"] for mi, _, part in _open_parts(messages) if mi == last]


def answer_interrupt(
    messages: list[dict[str, JSON]],
    interrupt_id: str,
    payload: JSON = None,
    *,
    cancel: bool = False,
    now: datetime | None = None,
    check: bool = True,
) -> list[MessageChange]:
    """Record the answer on the interrupt's part: resolved with ``payload`` (checked against its
    ``responseSchema``), or cancelled.

    Raises :class:`InterruptPayloadError` naming the field the schema refuses, or when the interrupt has expired
    (it can only be cancelled then, as @ag-ui/client refuses to resume it); ``KeyError`` when no open interrupt
    of the last answer has that id. ``check=False`` takes ``payload`` as it is (an answer replayed from the log
    was checked when it was given).
    """
    for mi in range(len(messages) - 1, -1, -1):
        parts = messages[mi].get("parts") or []
        for pi in range(len(parts) - 1, -1, -1):
            part = parts[pi]
            if not _is_interrupt_part(part) or part.get("id") != interrupt_id:
                continue
            data = part["data"]
            status = data.get("status")
            if status != "open":
                how = (
                    "cancelled: a new message was sent before it"
                    if data.get("cancelledBy") == "new-message"
                    else f"already answered ({status})"
                )
                raise MessageNotFoundError(f"interrupt {interrupt_id!r} was {how}")
            if mi != _last_assistant(messages):
                raise MessageNotFoundError(
                    f"interrupt {interrupt_id!r} belongs to an earlier answer, not the last one"
                )
            interrupt = data.get("interrupt") if isinstance(data.get("interrupt"), dict) else {}
            answer: dict[str, JSON] = {**data}
            if cancel:
                answer["status"], answer["cancelledBy"] = "cancelled", "user"
                answer.pop("payload", None)
            else:
                if check:
                    _check_answer(interrupt_id, interrupt, payload, now)
                answer["status"] = "resolved"
                if payload is not None:
                    answer["payload"] = payload
            parts[pi] = {**part, "data": answer}
            return [MessageChange("part", mi, pi)]
    raise MessageNotFoundError(f"no interrupt is waiting with id {interrupt_id!r}")


def resend_interrupt(messages: list[dict[str, JSON]], interrupt_id: str) -> list[MessageChange]:
    """The part of ``interrupt_id`` sent again as it is: a view that sent a refused answer gets its buttons back."""
    for mi in range(len(messages) - 1, -1, -1):
        parts = messages[mi].get("parts") or []
        for pi in range(len(parts) - 1, -1, -1):
            if _is_interrupt_part(parts[pi]) and parts[pi].get("id") == interrupt_id:
                parts[pi] = {**parts[pi]}  # a new object: the view redraws the card
                return [MessageChange("part", mi, pi)]
    return []


def _check_answer(
    interrupt_id: str, interrupt: Mapping[str, Any], payload: JSON, now: datetime | None
) -> None:
    if is_interrupt_expired(interrupt, now):
        raise InterruptPayloadError(
            f"interrupt {interrupt_id!r} expired at {interrupt.get('expiresAt')} and can no longer be answered; "
            "cancel it to continue",
            interrupt_id=interrupt_id,
        )
    schema = interrupt.get("responseSchema")
    if not isinstance(schema, Mapping):
        return  # no schema: any answer (the form offers a reply text, or none)
    if payload is None:
        raise InterruptPayloadError(
            f"interrupt {interrupt_id!r}: payload: is required (its responseSchema asks for one)",
            interrupt_id=interrupt_id,
            path="payload",
        )
    problems = payload_problems(schema, payload)
    if problems:
        path, message = problems[0]
        more = (
            f" (and {len(problems) - 1} more: {'; '.join(f'{p}: {m}' for p, m in problems[1:4])})"
            if len(problems) > 1
            else ""
        )
        raise InterruptPayloadError(
            f"interrupt {interrupt_id!r}: {path}: {message}{more}", interrupt_id=interrupt_id, path=path
        )


def interrupt_resume_entries(messages: list[dict[str, JSON]]) -> list[dict[str, JSON]]:
    """Resume entries for the answered interrupt parts of the last assistant message (those of its run's end)."""
    index = _last_assistant(messages)
    if index is None:
        return []
    outcome_ids = {i["id"] for i in _outcome_interrupts(messages[index])}
    answered = [
        part["data"]
        for part in messages[index].get("parts") or ()
        if _is_interrupt_part(part)
        and part["data"].get("status") in ("resolved", "cancelled")
        and part.get("id") in outcome_ids
    ]
    responses = {}
    for data in answered:
        response: dict[str, JSON] = {"status": data["status"]}
        if "payload" in data:
            response["payload"] = data["payload"]
        responses[data["interrupt"]["id"]] = response
    return build_resume_entries([d["interrupt"] for d in answered], responses)


def cancel_open_interrupts(
    messages: list[dict[str, JSON]],
) -> tuple[list[MessageChange], list[dict[str, JSON]]]:
    """Cancel every open interrupt (a new message moves on): what changed, and the ``cancelled`` resume entries the
    next run carries for those of the last assistant message."""
    last = _last_assistant(messages)
    changes, ids = [], []
    for mi, pi, part in _open_parts(messages):
        if mi == last:
            ids.append(part["id"])
        messages[mi]["parts"][pi] = {
            **part,
            "data": {**part["data"], "status": "cancelled", "cancelledBy": "new-message"},
        }
        changes.append(MessageChange("part", mi, pi))
    return changes, build_resume_entries([{"id": i} for i in ids], {i: {"status": "cancelled"} for i in ids})
