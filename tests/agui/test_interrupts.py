"""Resume entries and interrupt expiry, as @ag-ui/client's buildResumeArray and isInterruptExpired."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from ag_ui.core import Interrupt

from agui_notebook.agui._interrupts import build_resume_entries, is_interrupt_expired

INTERRUPTS = [Interrupt(id="i1", reason="tool_approval", tool_call_id="c1"), {"id": "i2", "reason": "input"}]


def test_entries_follow_the_interrupts_order_and_keep_only_what_applies() -> None:
    entries = build_resume_entries(
        INTERRUPTS,
        {
            "i2": {"status": "cancelled", "payload": "ignored", "metadata": {"by": "ann"}},
            "i1": {"status": "resolved", "payload": None},
        },
    )
    assert [e.model_dump(by_alias=True, exclude_none=False) for e in entries] == [
        # ag_ui.core models leave a None optional out on the wire, so a null payload is not sent.
        {"interruptId": "i1", "status": "resolved"},
        {"interruptId": "i2", "status": "cancelled", "metadata": {"by": "ann"}},
    ]


def test_every_open_interrupt_needs_a_response_and_no_more() -> None:
    with pytest.raises(ValueError, match=r"^missing responses for open interrupts: i2$"):
        build_resume_entries(INTERRUPTS, {"i1": {"status": "cancelled"}})
    with pytest.raises(ValueError, match=r"^responses reference unknown interrupt ids: i9$"):
        build_resume_entries(
            INTERRUPTS,
            {"i1": {"status": "cancelled"}, "i2": {"status": "cancelled"}, "i9": {"status": "cancelled"}},
        )


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
