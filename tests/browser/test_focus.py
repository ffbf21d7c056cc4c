"""Where the focus goes after each action in the widget (document.activeElement, as a keyboard user lands)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def user(mid: str, text: str) -> dict:
    return {"id": mid, "role": "user", "parts": [{"type": "text", "text": text}]}


def call(cid: str, approval: str) -> dict:
    return {
        "type": "tool-delete_files",
        "toolCallId": cid,
        "state": "approval-requested",
        "input": {"path": f"/tmp/{cid}"},
        "approval": {"id": approval},
    }


FORM = {
    "type": "data-interrupt",
    "id": "trip",
    "data": {
        "interrupt": {
            "id": "trip",
            "message": "Where to?",
            "responseSchema": {"type": "object", "properties": {"city": {"type": "string", "title": "City"}}},
        },
        "status": "open",
    },
}


def test_approve_and_deny_move_to_the_next_card_waiting_then_to_the_input(chat):
    answer = {"id": "a1", "role": "assistant", "parts": [call("c1", "ap1"), call("c2", "ap2"), FORM]}
    widget = chat.open(messages=[user("u1", "clean up"), answer])
    cards = widget.locator("[data-tool-state=approval-requested]")
    cards.nth(0).locator("[data-agui=approve]").click()
    assert widget.focused() == "approval-reason"  # the next card's first control
    assert cards.nth(1).locator("[data-agui=approval-reason]").evaluate("(e) => e === document.activeElement")
    chat.page.keyboard.press("Tab")
    chat.page.keyboard.press("Enter")  # Deny, from the keyboard
    assert widget.sent()[-1] == {"kind": "approval", "approvalId": "ap2", "approved": False}
    assert widget.locator("[data-agui=interrupt-form] input").evaluate("(e) => e === document.activeElement")
    chat.page.keyboard.type("Oslo")
    chat.page.keyboard.press("Enter")  # Submit
    assert widget.sent()[-1] == {
        "kind": "interrupt",
        "interruptId": "trip",
        "status": "resolved",
        "payload": {"city": "Oslo"},
    }
    assert widget.focused() == "input"  # nothing else waits


def test_stop_puts_the_focus_in_the_input(chat):
    widget = chat.open(messages=[user("u1", "hi")], status="streaming")
    widget.locator("[data-agui=stop]").focus()
    chat.page.keyboard.press("Enter")
    assert widget.sent() == [{"kind": "stop"}]
    assert widget.focused() == "input"
    widget.set("status", "ready")
    assert widget.focused() == "input"


def test_retry_puts_the_focus_in_the_input(chat):
    failed = {"id": "a1", "role": "assistant", "parts": [{"type": "text", "text": "Sorry"}]}
    widget = chat.open(messages=[user("u1", "hi"), failed], status="error", error="model overloaded")
    widget.locator("[data-agui=retry]").click()
    assert widget.sent() == [{"kind": "regenerate"}]
    assert widget.focused() == "input"
