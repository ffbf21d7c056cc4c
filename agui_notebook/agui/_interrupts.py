"""Answering the interrupts a run ended with: resume entries for the next run, and expiry.

Mirrors @ag-ui/client's ``buildResumeArray`` and ``isInterruptExpired``.

>>> answers = {"i1": approval_response(False, "not now")}
>>> build_resume_entries([{"id": "i1", "reason": "tool_approval"}], answers)
[{'interruptId': 'i1', 'status': 'resolved', 'payload': {'approved': False, 'reason': 'not now'}}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

from ag_ui.core import Interrupt

from agui_notebook._types import JSON

__all__ = ["approval_response", "build_resume_entries", "is_interrupt_expired"]

_STATUSES = ("resolved", "cancelled")


def _field(interrupt: Any, wire: str, attribute: str) -> Any:
    if isinstance(interrupt, Mapping):
        return interrupt.get(wire)
    return getattr(interrupt, attribute, None)


def approval_response(approved: bool, reason: str | None = None) -> dict[str, JSON]:
    """The response to a tool-approval interrupt: resolved, with ``{"approved", "reason"}`` as its payload.

    >>> approval_response(True)
    {'status': 'resolved', 'payload': {'approved': True}}
    """
    payload: dict[str, JSON] = {"approved": bool(approved)}
    if reason is not None:
        payload["reason"] = reason
    return {"status": "resolved", "payload": payload}


def build_resume_entries(
    interrupts: Iterable[Interrupt | Mapping[str, Any]], responses: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, JSON]]:
    """One resume entry per open interrupt, in their order, from ``{interrupt id: response}``: wire dicts.

    A response is ``{"status": "resolved", "payload": ..., "metadata": {...}}`` or ``{"status": "cancelled"}``.
    The entries are what ``RunAgentInput.resume`` carries: the payload of a resolved answer only, and no
    ``null`` payload (an ``ag_ui.core.ResumeEntry`` leaves it out). Every open interrupt needs a response and
    every response an open interrupt, and a status is one of the two, else ``ValueError``.
    """
    interrupts = list(interrupts)
    open_ids = [_field(i, "id", "id") for i in interrupts]
    missing = [i for i in dict.fromkeys(open_ids) if i not in responses]
    if missing:
        raise ValueError(f"missing responses for open interrupts: {', '.join(map(str, missing))}")
    unknown = [i for i in responses if i not in set(open_ids)]
    if unknown:
        raise ValueError(f"responses reference unknown interrupt ids: {', '.join(unknown)}")
    entries = []
    for interrupt_id in open_ids:
        response = responses[interrupt_id]
        status = response["status"]
        if status not in _STATUSES:
            raise ValueError(
                f"interrupt {interrupt_id!r}: status must be 'resolved' or 'cancelled', got {status!r}"
            )
        entry: dict[str, JSON] = {"interruptId": interrupt_id, "status": status}
        if status == "resolved" and response.get("payload") is not None:
            entry["payload"] = response["payload"]
        if response.get("metadata") is not None:
            entry["metadata"] = response["metadata"]
        entries.append(entry)
    return entries


def is_interrupt_expired(interrupt: Interrupt | Mapping[str, Any], now: datetime | None = None) -> bool:
    """Whether the interrupt's ``expiresAt`` (ISO 8601) has passed; no or unreadable ``expiresAt`` never expires."""
    expires_at = _field(interrupt, "expiresAt", "expires_at")
    if not isinstance(expires_at, str):
        return False
    try:
        moment = datetime.fromisoformat(expires_at.replace("Z", "+00:00"))
    except ValueError:
        return False
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment <= (now or datetime.now(timezone.utc))
