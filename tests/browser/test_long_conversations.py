"""A long conversation costs a streamed delta no more than a short one: messages come in groups the browser skips
while off screen, groups far above the view are taken out of layout, a delta re-renders only its message, and the
list still scrolls, reveals and truncates right. (bench/bench_long_chat.py measures the per-delta cost from 10 to
5,000 messages.)"""

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


def parked(widget) -> list[bool]:
    return widget.locator(".agui-message-group").evaluate_all(
        "(gs) => gs.map((g) => getComputedStyle(g).display === 'none')"
    )


def assert_spacer_holds_the_parked_groups(widget) -> None:
    """The list's height with the groups parked, and with every group drawn instead of the spacer."""
    heights = widget.locator("[data-agui=messages]").evaluate(
        """(e) => { const parkedHeight = e.scrollHeight;
                    const space = e.querySelector('.agui-parked-space'), spaceHeight = space.style.height;
                    const groups = [...e.querySelectorAll('.agui-message-group[data-parked]')];
                    for (const g of groups) g.removeAttribute('data-parked');
                    space.style.height = '0px';
                    const whole = e.scrollHeight;
                    for (const g of groups) g.dataset.parked = 'true';
                    space.style.height = spaceHeight;
                    return [parkedHeight, whole, groups.length]; }"""
    )
    assert heights[2] > 0 and abs(heights[0] - heights[1]) <= 2, heights


def set_status(chat, widget, seq: int, status: str) -> None:
    widget.deliver({"kind": "patch", "seq": seq, "ops": [["status", status, ""]]})
    chat.frames(3)


def scroll_to(chat, widget, where: str) -> None:
    widget.locator("[data-agui=messages]").evaluate(f"(e) => {{ e.scrollTop = {where}; }}")
    chat.frames(3)


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
    # The newest message is in view (the list opens at its end).
    list_ = widget.locator("[data-agui=messages]")
    assert list_.evaluate("(e) => e.scrollHeight - e.scrollTop - e.clientHeight < 2")
    # While an answer streams, the oldest groups, far above, are out of layout.
    assert not any(parked(widget))
    set_status(chat, widget, 1, "streaming")
    assert parked(widget)[:2] == [True, True]
    assert parked(widget)[-3:] == [False, False, False]
    # Scrolled to the top, they are back, and an old message is drawn.
    scroll_to(chat, widget, "0")
    assert parked(widget) == [False] * 6
    old = widget.message(3)
    assert old.bounding_box()["height"] > 30
    assert old.inner_text().startswith("Message 3")
    # Truncating the conversation drops the groups left empty; the newest two are never skipped.
    scroll_to(chat, widget, "e.scrollHeight")
    assert parked(widget)[:2] == [True, True]
    widget.deliver({"kind": "patch", "seq": 2, "ops": [["len", 120]]})
    assert groups(widget) == [[50, "true", "auto"], [50, "false", "visible"], [20, "false", "visible"]]
    widget.deliver({"kind": "patch", "seq": 3, "ops": [["len", 60]]})
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


def test_parked_groups_keep_the_list_where_it_was_and_come_back_as_it_scrolls(chat):
    widget = chat.open(messages=conversation(600), height=400)
    set_status(chat, widget, 1, "streaming")
    before = parked(widget)
    assert sum(before) >= 5 and not any(before[-3:])
    # The list is as tall as if nothing were parked: the spacer holds what the parked groups took.
    assert_spacer_holds_the_parked_groups(widget)
    # Scrolling up step by step, groups come back before they are reached, and what is in view stays put.
    list_ = widget.locator("[data-agui=messages]")
    at_top = """(e) => { const top = e.getBoundingClientRect().top;
                         const m = [...e.querySelectorAll('.agui-message')].find(
                           (m) => m.getClientRects().length && m.getBoundingClientRect().bottom > top);
                         return [m?.dataset.messageId, m?.getBoundingClientRect().top]; }"""
    for _ in range(80):
        if list_.evaluate("(e) => e.scrollTop") == 0:
            break
        list_.evaluate("(e) => { e.scrollTop -= 1500; }")
        chat.frames(3)
        seen = list_.evaluate(at_top)
        chat.frames(3)
        assert seen[0] is not None and list_.evaluate(at_top) == seen
    assert list_.evaluate("(e) => e.scrollTop") == 0
    assert not any(parked(widget))
    assert widget.message(0).inner_text().startswith("Message 0")
    # Parked again at the end; the answer over, every group is back (for screen readers and find-in-page).
    scroll_to(chat, widget, "e.scrollHeight")
    assert parked(widget) == before
    set_status(chat, widget, 2, "ready")
    assert not any(parked(widget))


def test_a_change_to_a_message_in_a_parked_group_is_drawn(chat):
    widget = chat.open(messages=conversation(300), height=400)
    set_status(chat, widget, 1, "streaming")
    assert parked(widget)[0]
    longer = " and an edit" + "\n\nanother paragraph" * 30
    widget.deliver({"kind": "patch", "seq": 2, "ops": [["t", 2, 0, longer]]})
    chat.frames(2)
    scroll_to(chat, widget, "0")
    assert "and an edit" in widget.message(2).inner_text()


def test_a_group_holding_the_focus_is_not_parked(chat):
    widget = chat.open(messages=conversation(300), height=400)
    scroll_to(chat, widget, "0")
    copy = widget.message(1).locator("button:visible").first
    copy.focus()
    scroll_to(chat, widget, "e.scrollHeight")
    set_status(chat, widget, 1, "streaming")
    assert parked(widget)[0] is False  # (parked groups are the oldest ones in a row: none here)
    assert copy.evaluate("(b) => b === document.activeElement")


ANIMATIONS = """(root) => document.getAnimations()
    .filter((a) => a instanceof CSSAnimation && a.playState === 'running' && root.contains(a.effect.target))
    .map((a) => [a.animationName, a.effect.target.className, a.effect.pseudoElement])"""


def test_nothing_animates_while_an_answer_streams_and_the_dot_pulses_before_it_starts(chat):
    # A running animation adds a style pass to every frame that draws a delta (bench_long_chat: a third of a
    # delta's layout and style, growing with the conversation), so the cues are still while deltas arrive.
    widget = chat.open(messages=conversation(4), height=400)
    root = widget.root
    set_status(chat, widget, 1, "submitted")
    assert root.evaluate(ANIMATIONS) == [["agui-pulse", "agui-status", "::before"]]
    live = {
        "id": "live",
        "role": "assistant",
        "parts": [{"type": "text", "text": "Rain", "state": "streaming"}],
    }
    widget.deliver({"kind": "patch", "seq": 2, "ops": [["m", 4, live]]})
    set_status(chat, widget, 3, "streaming")
    for seq in range(4, 10):
        widget.deliver({"kind": "patch", "seq": seq, "ops": [["t", 4, 0, f" and sun {seq}"]]})
    chat.frames(3)
    assert root.evaluate(ANIMATIONS) == []
    # The caret and the dot are there, solid.
    caret = widget.locator(".agui-md-live > :last-child").evaluate(
        "(e) => { const s = getComputedStyle(e, '::after'); return [s.display, s.visibility, s.opacity]; }"
    )
    assert caret == ["inline-block", "visible", "1"]
    dot = widget.locator(".agui-status").evaluate(
        "(e) => { const s = getComputedStyle(e, '::before'); return [s.content, s.opacity]; }"
    )
    assert dot[1] == "1" and dot[0] != "none"
