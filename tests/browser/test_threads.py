"""Durable conversations in the widget: the thread menu (switch, rename, delete), New chat that keeps the old
conversation, the question asked before either stops an answer, and where the focus goes after each."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.browser.chat_samples import conversation

pytestmark = pytest.mark.browser


def ago(**delta: float) -> str:
    return (datetime.now(UTC) - timedelta(**delta)).isoformat().replace("+00:00", "Z")


def threads() -> list[dict[str, Any]]:
    return [
        {"id": "t3", "title": "Paris weather", "updated": ago(minutes=2), "turns": 5, "bytes": 12_800},
        {"id": "t2", "title": "Trip to Rome", "updated": ago(hours=3), "turns": 1, "bytes": 900},
        {"id": "t1", "title": "", "updated": ago(days=40), "turns": 0, "bytes": 0},
    ]


FILE_STORE = {"kind": "file", "path": ".agui-chats/quickstart.ipynb/3f2a.jsonl", "readOnly": False}


def open_threads(chat, **state: Any):
    return chat.open(
        messages=conversation(),
        threads=threads(),
        thread_id="t3",
        store=FILE_STORE,
        **state,
    )


def rows(widget) -> list[list[str]]:
    return widget.locator("[data-agui=thread]").evaluate_all(
        """(rows) => rows.map((row) => [row.dataset.threadId, row.querySelector('.agui-thread-title').textContent,
             row.querySelector('time').textContent, row.querySelector('.agui-thread-turns').textContent,
             row.dataset.current])"""
    )


def test_the_menu_lists_the_threads_and_marks_the_current_one(chat):
    widget = open_threads(chat)
    button = widget.locator("[data-agui=thread-menu]")
    assert button.inner_text() == "Paris weather"
    assert button.get_attribute("aria-expanded") == "false"
    assert button.get_attribute("aria-haspopup") == "dialog"
    button.click()
    panel = widget.locator("[data-agui=thread-panel]")
    assert panel.is_visible() and panel.get_attribute("role") == "dialog"
    assert button.get_attribute("aria-expanded") == "true"
    listed = rows(widget)
    assert [row[:2] for row in listed] == [
        ["t3", "Paris weather"],
        ["t2", "Trip to Rome"],
        ["t1", "New chat"],
    ]
    assert [row[2] for row in listed[:2]] == ["2 min ago", "3 h ago"]
    assert listed[2][2] != "" and "ago" not in listed[2][2]  # a date
    assert [row[3] for row in listed] == ["5 turns", "1 turn", "No messages"]
    assert [row[4] for row in listed] == ["true", "false", "false"]
    current = widget.locator("[data-thread-id=t3] [data-agui=thread-open]")
    assert current.get_attribute("aria-current") == "true"
    assert current.evaluate("(e) => e.innerText.replace(/\\s+/g, ' ')") == "Paris weather 2 min ago · 5 turns"
    assert widget.locator("[data-thread-id=t3] time").get_attribute("title").count(":") >= 1  # the full date
    assert widget.locator("[data-thread-id=t3] .agui-thread-turns").get_attribute("title") == (
        "5 turns, 13 kB in the log"
    )
    store = widget.locator("[data-agui=thread-store]")
    assert store.inner_text() == "Saved in .agui-chats/quickstart.ipynb/3f2a.jsonl"
    # The focus is on the current thread; arrows move, Escape closes and gives the focus back.
    assert widget.focused() == "thread-open" and current.evaluate("(e) => e === document.activeElement")
    chat.page.keyboard.press("ArrowDown")
    assert widget.locator("[data-thread-id=t2] [data-agui=thread-open]").evaluate(
        "(e) => e === document.activeElement"
    )
    chat.page.keyboard.press("ArrowRight")
    assert widget.focused() == "thread-rename"
    chat.page.keyboard.press("ArrowRight")
    assert widget.focused() == "thread-delete"
    chat.page.keyboard.press("End")
    assert widget.locator("[data-thread-id=t1] [data-agui=thread-open]").evaluate(
        "(e) => e === document.activeElement"
    )
    chat.page.keyboard.press("Home")
    chat.page.keyboard.press("ArrowUp")
    assert widget.focused() == "thread-new"
    chat.page.keyboard.press("Escape")
    assert panel.is_hidden()
    assert button.get_attribute("aria-expanded") == "false"
    assert widget.focused() == "thread-menu"
    assert widget.sent() == []


def test_a_click_outside_closes_the_menu(chat):
    widget = open_threads(chat)
    widget.locator("[data-agui=thread-menu]").click()
    widget.message(0).click()
    assert widget.locator("[data-agui=thread-panel]").is_hidden()


def test_choosing_a_thread_switches_and_the_focus_goes_to_the_input(chat):
    widget = open_threads(chat)
    widget.locator("[data-agui=thread-menu]").click()
    widget.locator("[data-thread-id=t2] [data-agui=thread-open]").click()
    assert widget.sent() == [{"kind": "switch_thread", "threadId": "t2"}]
    assert widget.locator("[data-agui=thread-panel]").is_hidden()
    assert widget.focused() == "input"
    # The kernel switches: the other conversation, from its end.
    rome = [
        {
            "id": f"r{i}",
            "role": "user" if i % 2 == 0 else "assistant",
            "parts": [{"type": "text", "text": "x\n" * 30}],
        }
        for i in range(12)
    ]
    widget.set("thread_id", "t2")
    widget.deliver(
        {"kind": "snapshot", "seq": 4, "messages": rome, "status": "ready", "error": "", "threadId": "t2"}
    )
    assert widget.locator(".agui-message").count() == 12
    assert widget.locator("[data-agui=thread-menu]").inner_text() == "Trip to Rome"
    at_bottom = widget.locator("[data-agui=messages]").evaluate(
        "(e) => e.scrollHeight - e.scrollTop - e.clientHeight < 2"
    )
    assert at_bottom
    # The current thread again just closes the menu.
    widget.locator("[data-agui=thread-menu]").click()
    widget.locator("[data-thread-id=t2] [data-agui=thread-open]").click()
    assert len(widget.sent()) == 1
    assert widget.focused() == "input"


def test_rename_in_place_enter_saves_and_escape_cancels(chat):
    widget = open_threads(chat)
    widget.locator("[data-agui=thread-menu]").click()
    widget.locator("[data-thread-id=t2] [data-agui=thread-rename]").click()
    field = widget.locator("[data-agui=thread-title-input]")
    assert widget.focused() == "thread-title-input"
    assert field.input_value() == "Trip to Rome"
    chat.page.keyboard.type("Weekend in Rome")  # the old title is selected: typing replaces it
    chat.page.keyboard.press("Escape")
    assert field.count() == 0
    assert widget.locator("[data-agui=thread-panel]").is_visible()  # Escape leaves the rename, not the menu
    assert widget.focused() == "thread-rename"
    assert widget.sent() == []
    chat.page.keyboard.press("Enter")
    chat.page.keyboard.type("Weekend in Rome")
    chat.page.keyboard.press("Enter")
    assert widget.sent() == [{"kind": "rename_thread", "threadId": "t2", "title": "Weekend in Rome"}]
    assert widget.locator("[data-thread-id=t2] .agui-thread-title").inner_text() == "Weekend in Rome"
    assert widget.focused() == "thread-open"


def test_delete_asks_in_place_first(chat):
    widget = open_threads(chat)
    widget.locator("[data-agui=thread-menu]").click()
    widget.locator("[data-thread-id=t2] [data-agui=thread-delete]").click()
    question = widget.locator("[data-thread-id=t2] [data-agui=thread-delete-question]")
    assert question.locator(".agui-confirm-text").inner_text() == (
        "Delete “Trip to Rome”? Its messages and events are removed from the log."
    )
    assert widget.focused() == "thread-delete-question-cancel"
    chat.page.keyboard.press("Enter")  # Cancel
    assert question.count() == 0
    assert widget.focused() == "thread-delete"
    assert widget.sent() == []
    chat.page.keyboard.press("Enter")
    widget.locator("[data-agui=thread-delete-question-confirm]").click()
    assert widget.sent() == [{"kind": "delete_thread", "threadId": "t2"}]
    assert widget.locator("[data-agui=thread-panel]").is_hidden()
    assert widget.focused() == "thread-menu"
    widget.set("threads", [t for t in threads() if t["id"] != "t2"])
    widget.locator("[data-agui=thread-menu]").click()
    assert [row[0] for row in rows(widget)] == ["t3", "t1"]


def test_the_store_line_says_where_the_log_is(chat):
    widget = open_threads(chat)
    widget.locator("[data-agui=thread-menu]").click()
    store = widget.locator("[data-agui=thread-store]")
    widget.set("store", {"kind": "memory", "path": None, "readOnly": False})
    assert store.inner_text() == "Kept in this kernel's memory only"
    widget.set("store", {**FILE_STORE, "readOnly": True})
    assert store.inner_text() == (
        "Saved in .agui-chats/quickstart.ipynb/3f2a.jsonl\nRead-only: open in another kernel"
    )
    # A log another kernel writes cannot be renamed or deleted from here.
    assert widget.locator("[data-agui=thread-rename]:visible, [data-agui=thread-delete]:visible").count() == 0


def test_new_chat_starts_a_thread_and_the_old_one_is_kept(chat):
    widget = open_threads(chat, replay_only=False)
    new_chat = widget.locator("[data-agui=new-chat]")
    assert new_chat.is_visible() and new_chat.inner_text() == "New chat"
    assert new_chat.get_attribute("aria-label") == "Start a new chat (this one is kept)"
    new_chat.click()
    assert widget.sent() == [{"kind": "new_thread"}]
    assert widget.focused() == "input"
    widget.set("thread_id", "t4")
    widget.deliver(
        {"kind": "snapshot", "seq": 2, "messages": [], "status": "ready", "error": "", "threadId": "t4"}
    )
    assert new_chat.is_hidden()
    assert widget.locator("[data-agui=empty-state]").is_visible()
    assert widget.locator("[data-agui=thread-menu]").inner_text() == "New chat"
    # From the menu too.
    widget.set("thread_id", "t3")
    widget.locator("[data-agui=thread-menu]").click()
    widget.locator("[data-agui=thread-new]").click()
    assert widget.sent()[-1] == {"kind": "new_thread"}
    assert widget.focused() == "input"


def test_new_chat_while_the_agent_answers_asks_before_it_stops_the_answer(chat):
    widget = open_threads(chat, status="streaming")
    widget.locator("[data-agui=new-chat]").click()
    question = widget.locator(".agui-composer [data-agui=stop-question]")
    assert question.locator(".agui-confirm-text").inner_text() == "Stop the answer and start a new chat?"
    assert question.locator("button").all_inner_texts() == ["Cancel", "Stop and start"]
    assert widget.focused() == "stop-question-confirm"
    chat.page.keyboard.press("Escape")
    assert question.count() == 0
    assert widget.focused() == "new-chat"
    assert widget.sent() == []
    widget.locator("[data-agui=new-chat]").click()
    widget.locator("[data-agui=stop-question-confirm]").click()
    assert widget.sent() == [{"kind": "new_thread", "stop": True}]
    assert widget.focused() == "input"
    # The answer ending on its own takes the question away.
    widget.locator("[data-agui=new-chat]").click()
    widget.set("status", "ready")
    assert question.count() == 0


def test_switching_while_the_agent_answers_asks_in_the_row(chat):
    widget = open_threads(chat, status="streaming")
    widget.locator("[data-agui=thread-menu]").click()
    widget.locator("[data-thread-id=t2] [data-agui=thread-open]").click()
    question = widget.locator("[data-thread-id=t2] [data-agui=stop-question]")
    assert question.locator(".agui-confirm-text").inner_text() == "Stop the answer and open “Trip to Rome”?"
    assert widget.sent() == []
    question.locator("[data-agui=stop-question-confirm]").click()
    assert widget.sent() == [{"kind": "switch_thread", "threadId": "t2", "stop": True}]
    assert widget.focused() == "input"
    # New chat from the menu asks in the menu's head.
    widget.locator("[data-agui=thread-menu]").click()
    widget.locator("[data-agui=thread-new]").click()
    head = widget.locator(".agui-thread-head [data-agui=stop-question]")
    assert head.locator(".agui-confirm-text").inner_text() == "Stop the answer and start a new chat?"
    head.locator("[data-agui=stop-question-cancel]").click()
    assert widget.focused() == "thread-new"
    assert len(widget.sent()) == 1


def test_a_replay_only_view_lists_the_threads_to_read_them(chat):
    widget = open_threads(chat, replay_only=True)
    widget.locator("[data-agui=thread-menu]").click()
    assert len(rows(widget)) == 3
    hooks = ("thread-new", "thread-rename", "thread-delete", "new-chat")
    assert widget.locator(", ".join(f"[data-agui={hook}]:visible" for hook in hooks)).count() == 0
    widget.locator("[data-thread-id=t2] [data-agui=thread-open]").click()
    assert widget.sent() == [{"kind": "switch_thread", "threadId": "t2"}]
    assert widget.focused() == "thread-menu"  # no input in a replay


def test_no_menu_without_threads(chat):
    widget = chat.open(messages=conversation())
    assert widget.locator("[data-agui=thread-menu]").is_hidden()
    assert widget.locator(".agui-header").is_hidden()
    widget.set("title", "Weather desk")
    assert widget.locator(".agui-header").is_visible()


def test_focus_and_blur_from_python_move_the_focus(chat):
    widget = open_threads(chat)
    widget.deliver({"do": "focus"})
    assert widget.focused() == "input"
    widget.deliver({"do": "blur"})
    assert widget.focused() == "body"
    replay = chat.open(messages=conversation(), replay_only=True)
    replay.deliver({"do": "focus"})
    assert replay.focused() == "body"
    assert widget.sent() == [] and replay.sent() == []


@pytest.mark.parametrize(("theme", "width"), [("light", 760), ("dark", 760), ("light", 360)])
def test_thread_menu_screenshots(open_chat, artifacts_dir, theme, width):
    chat = open_chat(theme, width=width + 40)
    widget = open_threads(chat, title="Weather desk" if width > 400 else "")
    widget.locator("[data-agui=thread-menu]").click()
    widget.locator("[data-thread-id=t2] [data-agui=thread-delete]").click()
    chat.frames()
    widget.root.screenshot(path=str(artifacts_dir / f"threads-{theme}-{width}.png"), animations="disabled")
    assert widget.overflowing() == []
    box = widget.locator("[data-agui=thread-panel]").bounding_box()
    root = widget.root.bounding_box()
    assert box is not None and root is not None
    assert root["x"] <= box["x"] and box["x"] + box["width"] <= root["x"] + root["width"]
    assert box["y"] + box["height"] <= root["y"] + root["height"]


@pytest.mark.parametrize(("theme", "width"), [("light", 760), ("dark", 360)])
def test_stop_question_screenshots(open_chat, artifacts_dir, theme, width):
    chat = open_chat(theme, width=width + 40)
    widget = open_threads(chat, status="streaming")
    widget.locator("[data-agui=new-chat]").click()
    widget.locator(".agui-composer").screenshot(
        path=str(artifacts_dir / f"threads-stop-question-{theme}-{width}.png"), animations="disabled"
    )
    assert widget.overflowing() == []
