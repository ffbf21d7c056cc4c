"""Resume entries and interrupt expiry, as @ag-ui/client's buildResumeArray and isInterruptExpired."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from ag_ui.core import Interrupt, ResumeEntry

from agui_notebook.agui._interrupts import approval_response, build_resume_entries, is_interrupt_expired

INTERRUPTS = [Interrupt(id="i1", reason="tool_approval", tool_call_id="c1"), {"id": "i2", "reason": "input"}]


def test_entries_follow_the_interrupts_order_and_keep_only_what_applies() -> None:
    entries = build_resume_entries(
        INTERRUPTS,
        {
            "i2": {"status": "cancelled", "payload": "ignored", "metadata": {"by": "ann"}},
            "i1": {"status": "resolved", "payload": None},
        },
    )
    assert entries == [
        # As an ag_ui.core ResumeEntry leaves a None optional out on the wire, a null payload is not sent.
        {"interruptId": "i1", "status": "resolved"},
        {"interruptId": "i2", "status": "cancelled", "metadata": {"by": "ann"}},
    ]
    assert [ResumeEntry.model_validate(e).model_dump(by_alias=True) for e in entries] == entries


def test_an_approval_answer_is_a_resolved_entry_with_its_reason() -> None:
    interrupts = [{"id": "a1", "reason": "tool_approval"}, {"id": "a2", "reason": "tool_approval"}]
    responses = {"a2": approval_response(False, "keep it"), "a1": approval_response(True)}
    assert build_resume_entries(interrupts, responses) == [
        {"interruptId": "a1", "status": "resolved", "payload": {"approved": True}},
        {"interruptId": "a2", "status": "resolved", "payload": {"approved": False, "reason": "keep it"}},
    ]


def test_every_open_interrupt_needs_a_response_and_no_more() -> None:
    with pytest.raises(ValueError, match=r"^missing responses for open interrupts: i2$"):
        build_resume_entries(INTERRUPTS, {"i1": {"status": "cancelled"}})
    with pytest.raises(ValueError, match=r"^responses reference unknown interrupt ids: i9$"):
        build_resume_entries(
            INTERRUPTS,
            {"i1": {"status": "cancelled"}, "i2": {"status": "cancelled"}, "i9": {"status": "cancelled"}},
        )
    with pytest.raises(
        ValueError, match=r"^interrupt 'i1': status must be 'resolved' or 'cancelled', got 'ok'$"
    ):
        build_resume_entries(INTERRUPTS[:1], {"i1": {"status": "ok"}})


def test_expiry() -> None:
    now = datetime(2026, 1, 1, 12, tzinfo=timezone.utc)
    assert is_interrupt_expired({"id": "i", "reason": "r", "expiresAt": "2026-01-01T11:59:59Z"}, now)
    assert is_interrupt_expired(Interrupt(id="i", reason="r", expires_at="2026-01-01T12:00:00+00:00"), now)
    assert not is_interrupt_expired(
        {"id": "i", "reason": "r", "expiresAt": "2026-01-01T13:00:00+01:00Z"}, now
    )
    assert not is_interrupt_expired({"id": "i", "reason": "r", "expiresAt": "2026-01-02T00:00:00Z"}, now)
    assert not is_interrupt_expired({"id": "i", "reason": "r", "expiresAt": "tomorrow"}, now)
    assert not is_interrupt_expired({"id": "i", "reason": "r"}, now)
