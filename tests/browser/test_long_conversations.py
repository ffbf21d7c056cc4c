"""A long conversation costs a streamed delta no more than a short one: messages come in groups the browser skips
while off screen, a delta re-renders only its message, and the list still scrolls, reveals and truncates right.
(bench/bench_chat_page.py measures the per-delta cost from 10 to 5,000 messages.)"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def conversation(length: int) -> list[dict]:
    return [
        {
            "id": f"m{i}",
            "role": "user" if i % 2 == 0 else "assistant",
            "parts": [{"type": "text", "text": f"Message {i}\n\nwith a second paragraph", "state": "done"}],
        }
        for i in range(length)
    ]


def groups(widget) -> list[list]:
    return widget.locator(".agui-message-group").evaluate_all(
        """(gs) => gs.map((g) => [g.childElementCount, g.dataset.sealed, getComputedStyle(g).contentVisibility])"""
    )


def test_messages_come_in_groups_and_all_but_the_newest_two_are_skipped_off_screen(chat):
    widget = chat.open(messages=conversation(260), height=400)
    assert groups(widget) == [
        [50, "true", "auto"],
        [50, "true", "auto"],
        [50, "true", "auto"],
        [50, "true", "auto"],
        [50, "false", "visible"],
        [10, "false", "visible"],
    ]
    # The newest message is in view (the list opens at its end), an old one reached by scrolling is drawn.
    at_bottom = widget.locator("[data-agui=messages]").evaluate(
        "(e) => e.scrollHeight - e.scrollTop - e.clientHeight < 2"
    )
    assert at_bottom
    old = widget.message(3)
    old.scroll_into_view_if_needed()
    chat.frames(3)
    assert old.bounding_box()["height"] > 30
    assert old.inner_text().startswith("Message 3")
    # Truncating the conversation drops the groups left empty; the newest two are never skipped.
    widget.deliver({"kind": "patch", "seq": 1, "ops": [["len", 120]]})
    assert groups(widget) == [[50, "true", "auto"], [50, "false", "visible"], [20, "false", "visible"]]
    widget.deliver({"kind": "patch", "seq": 2, "ops": [["len", 60]]})
    assert groups(widget) == [[50, "false", "visible"], [10, "false", "visible"]]


def test_a_delta_touches_only_its_message_however_long_the_conversation(chat):
    messages = conversation(400)
    messages.append(
        {"id": "live", "role": "assistant", "parts": [{"type": "text", "text": "", "state": "streaming"}]}
    )
    widget = chat.open(messages=messages, height=400)
    chat.evaluate(
        """() => { window.__touched = new Set();
        new MutationObserver((records) => { for (const r of records) {
          const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
          window.__touched.add(node.closest('[data-message-id]')?.dataset.messageId ?? node.className); } })
          .observe(document.querySelector('.agui-messages'),
                   {subtree: true, childList: true, characterData: true, attributes: true}); }"""
    )
    for seq in range(1, 30):
        widget.deliver({"kind": "patch", "seq": seq, "ops": [["t", 400, 0, f"word {seq} "]]})
    assert chat.evaluate("() => [...window.__touched]") == ["live"]
    assert widget.message(400).inner_text().startswith("word 1 word 2")


def test_a_focus_ring_at_the_edge_of_a_skipped_group_is_not_clipped(chat):
    widget = chat.open(messages=conversation(120), height=400)
    sealed = widget.locator(".agui-message-group[data-sealed=true]").first
    assert sealed.evaluate("(g) => getComputedStyle(g).overflowClipMargin") == "8px"
