"""Answering the interrupts a run ended with: resume entries for the next run, and expiry.

Mirrors @ag-ui/client's ``buildResumeArray`` and ``isInterruptExpired``.

>>> entries = build_resume_entries([{"id": "i1", "reason": "tool_approval"}], {"i1": {"status": "resolved", "payload": True}})
>>> [e.model_dump(by_alias=True) for e in entries]
[{'interruptId': 'i1', 'status': 'resolved', 'payload': True}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

from ag_ui.core import Interrupt, ResumeEntry

__all__ = ["build_resume_entries", "is_interrupt_expired"]


def _field(interrupt: Any, wire: str, attribute: str) -> Any:
    if isinstance(interrupt, Mapping):
        return interrupt.get(wire)
    return getattr(interrupt, attribute, None)


def build_resume_entries(
    interrupts: Iterable[Interrupt | Mapping[str, Any]], responses: Mapping[str, Mapping[str, Any]]
) -> list[ResumeEntry]:
    """One ``ResumeEntry`` per open interrupt, in their order, from ``{interrupt id: response}``.

    A response is ``{"status": "resolved", "payload": ..., "metadata": {...}}`` or ``{"status": "cancelled"}``.
    Every open interrupt needs a response and every response an open interrupt, else ``ValueError``.
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
        entry: dict[str, Any] = {"interruptId": interrupt_id, "status": response["status"]}
        if response["status"] == "resolved" and "payload" in response:
            entry["payload"] = response["payload"]
        if "metadata" in response:
            entry["metadata"] = response["metadata"]
        entries.append(ResumeEntry.model_validate(entry))
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
