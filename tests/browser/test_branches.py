"""Edit and branches in the browser: the pencil's inline editor, Regenerate on any answer, the ‹ 1/2 › picker.

The view only asks (the `edit`, `regenerate` and `select_branch` requests) and shows what the kernel syncs (the
`messages` and `branch_points` traits), so each test checks the request a click or key sends and what a given
state looks like; tests/widget/test_branches.py checks the kernel's side.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def text_message(message_id: str, role: str, text: str) -> dict[str, Any]:
    parts = [{"type": "text", "text": text, **({"state": "done"} if role == "assistant" else {})}]
    return {"id": message_id, "role": role, "parts": parts}


def two_turns(second_question: str = "And tomorrow?") -> list[dict[str, Any]]:
    return [
        text_message("u1", "user", "What's the weather in Paris?"),
        text_message("a1", "assistant", "It is **18 °C** and cloudy."),
        text_message("u2", "user", second_question),
        text_message("a2", "assistant", "Sunny, 21 °C."),
    ]


def open_editor(widget: Any, index: int) -> Any:
    message = widget.message(index)
    message.hover()
    message.locator("[data-agui=edit]").click()
    return message.locator("[data-agui=edit-input]")


def test_the_pencil_edits_in_place_and_enter_sends_the_edit(chat):
    widget = chat.open(messages=two_turns())
    assert widget.locator("[data-agui=edit]:visible").count() == 2  # user messages only
    assert widget.message(1).locator("[data-agui=edit]:visible").count() == 0
    box = open_editor(widget, 2)
    assert box.input_value() == "And tomorrow?"
    assert box.evaluate("(el) => el === document.activeElement")
    assert widget.message(2).locator(".agui-message-body").is_hidden()  # the editor replaces the bubble
    box.press("End")
    chat.page.keyboard.type(" And the day after?")
    chat.page.keyboard.press("Shift+Enter")
    chat.page.keyboard.type("Thanks")
    assert widget.sent() == []
    chat.page.keyboard.press("Enter")
    assert widget.sent() == [
        {"kind": "edit", "messageId": "u2", "at": 2, "text": "And tomorrow? And the day after?\nThanks"}
    ]
    assert widget.locator("[data-agui=editor]").count() == 0
    assert widget.message(2).locator(".agui-message-body").is_visible()


def test_escape_and_cancel_close_the_editor_without_sending(chat):
    widget = chat.open(messages=two_turns())
    box = open_editor(widget, 0)
    box.fill("never sent")
    box.press("Escape")
    assert widget.locator("[data-agui=editor]").count() == 0
    assert widget.message(0).locator(".agui-message-body").inner_text() == "What's the weather in Paris?"
    assert chat.evaluate("() => document.activeElement.dataset.agui") == "edit"  # focus back on the pencil
    chat.page.keyboard.press("Enter")  # the pencil is a button: the keyboard opens the editor again
    box = widget.message(0).locator("[data-agui=edit-input]")
    assert box.input_value() == "What's the weather in Paris?"  # the old text, not the abandoned edit
    widget.message(0).locator("[data-agui=edit-cancel]").click()
    assert widget.locator("[data-agui=editor]").count() == 0
    assert widget.sent() == []


def test_the_editor_keeps_attachments_and_refuses_nothing_to_send(chat):
    image = {
        "type": "file",
        "mediaType": "image/png",
        "filename": "a.png",
        "url": "data:image/png;base64,AAAA",
    }
    messages = [
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Just words"}]},
        {"id": "u2", "role": "user", "parts": [image, {"type": "text", "text": "A picture"}]},
    ]
    widget = chat.open(messages=messages)
    box = open_editor(widget, 0)
    save = widget.message(0).locator("[data-agui=edit-save]")
    box.fill("   ")
    assert save.is_disabled()
    box.press("Enter")
    assert widget.sent() == []
    box.press("Escape")
    box = open_editor(widget, 1)
    box.fill("")
    widget.message(1).locator("[data-agui=edit-save]").click()  # the picture alone is still a message
    assert widget.sent() == [{"kind": "edit", "messageId": "u2", "at": 1, "text": ""}]


def test_the_editor_is_disabled_while_the_agent_answers(chat):
    widget = chat.open(messages=two_turns())
    box = open_editor(widget, 0)
    save = widget.message(0).locator("[data-agui=edit-save]")
    widget.deliver({"kind": "patch", "seq": 1, "ops": [["status", "streaming", ""]]})
    assert save.is_disabled() and save.get_attribute("aria-disabled") == "true"
    assert widget.locator("[data-agui=edit]:visible").count() == 0  # no new editors while busy
    box.press("Enter")
    assert widget.sent() == []
    widget.deliver({"kind": "patch", "seq": 2, "ops": [["status", "ready", ""]]})
    assert not save.is_disabled()
    box.press("Enter")
    assert widget.sent() == [
        {"kind": "edit", "messageId": "u1", "at": 0, "text": "What's the weather in Paris?"}
    ]


def test_a_replay_has_no_pencil(chat):
    widget = chat.open(messages=two_turns(), replay_only=True)
    assert widget.locator("[data-agui=edit]:visible").count() == 0


def test_regenerate_an_older_answer(chat):
    widget = chat.open(messages=two_turns())
    older = widget.message(1)
    older.hover()
    older.locator("[data-agui=regenerate]").click()
    assert widget.sent() == [{"kind": "regenerate", "messageId": "a1", "at": 1}]
    widget.message(3).locator("[data-agui=regenerate]").click()
    assert widget.sent()[-1] == {"kind": "regenerate", "messageId": "a2", "at": 3}


def disabled(picker_button) -> bool:
    """A picker button at an end (or while busy) is aria-disabled: it keeps the focus, and a press does nothing."""
    return picker_button.get_attribute("aria-disabled") == "true"


def test_the_picker_switches_to_the_other_branch(chat):
    edited = two_turns("And on Sunday?")
    widget = chat.open(messages=edited, branch_points=[{"at": 2, "index": 1, "count": 2}])
    pickers = widget.locator("[data-agui=branch-picker]:visible")
    assert pickers.count() == 1
    picker = widget.message(2).locator("[data-agui=branch-picker]")
    assert picker.get_attribute("role") == "group"
    assert picker.get_attribute("aria-label") == "Version 2 of 2"
    assert picker.locator("[data-agui=branch-count]").inner_text() == "2/2"
    previous, following = (
        picker.locator("[data-agui=branch-previous]"),
        picker.locator("[data-agui=branch-next]"),
    )
    assert previous.get_attribute("aria-label") == "Previous version"
    assert disabled(following) and not disabled(previous)
    previous.click()
    assert widget.sent() == [{"kind": "select_branch", "messageId": "u2", "at": 2, "index": 0}]
    # The kernel switches: new messages, new branch points.
    widget.set("messages", two_turns())
    widget.set("branch_points", [{"at": 2, "index": 0, "count": 2}])
    assert widget.message(2).inner_text().startswith("And tomorrow?")
    assert picker.get_attribute("aria-label") == "Version 1 of 2"
    assert disabled(previous) and not disabled(following)
    following.focus()
    chat.page.keyboard.press("Enter")
    assert widget.sent()[-1] == {"kind": "select_branch", "messageId": "u2", "at": 2, "index": 1}
    # The switch re-renders the message: the focus stays on the button pressed, now at its end.
    widget.set("messages", edited)
    widget.set("branch_points", [{"at": 2, "index": 1, "count": 2}])
    assert widget.focused() == "branch-next"
    assert disabled(following)
    chat.page.keyboard.press("Enter")  # at the end: nothing is sent
    assert widget.sent()[-1]["index"] == 1 and len(widget.sent()) == 2


def test_a_regenerated_answer_shows_its_picker_as_it_streams_and_switches_only_at_rest(chat):
    messages = two_turns()[:3]
    widget = chat.open(
        messages=messages, branch_points=[{"at": 3, "index": 1, "count": 2}], status="streaming"
    )
    widget.deliver({"kind": "snapshot", "seq": 1, "messages": messages, "status": "streaming", "error": ""})
    assert widget.locator("[data-agui=branch-picker]:visible").count() == 0  # no message there yet
    answer = {
        "id": "a3",
        "role": "assistant",
        "parts": [{"type": "text", "text": "Rain", "state": "streaming"}],
    }
    widget.deliver({"kind": "patch", "seq": 2, "ops": [["m", 3, answer]]})
    picker = widget.message(3).locator("[data-agui=branch-picker]")
    assert picker.locator("[data-agui=branch-count]").inner_text() == "2/2"
    assert disabled(picker.locator("[data-agui=branch-previous]"))  # busy
    widget.deliver({"kind": "patch", "seq": 3, "ops": [["status", "ready", ""]]})
    picker.locator("[data-agui=branch-previous]").click()
    assert widget.sent()[-1] == {"kind": "select_branch", "messageId": "a3", "at": 3, "index": 0}


def test_malformed_branch_points_show_no_picker(chat):
    widget = chat.open(
        messages=two_turns(),
        branch_points=[{"at": 1, "index": 2, "count": 2}, {"at": "0", "index": 0, "count": 2}, None, 5],
    )
    assert widget.locator("[data-agui=branch-picker]:visible").count() == 0


@pytest.mark.parametrize(("theme", "width"), [("light", 760), ("dark", 760), ("light", 360), ("dark", 360)])
def test_branches_screenshots(open_chat, artifacts_dir, theme, width):
    """Screenshots to look at (tests/artifacts/branches-*.png): pickers on an edit and a regenerate, the editor."""
    chat = open_chat(theme, width=width + 40, height=1200)
    widget = chat.open(
        messages=two_turns(),
        branch_points=[{"at": 1, "index": 2, "count": 3}, {"at": 2, "index": 0, "count": 2}],
        title="Weather agent",
        height="auto",
    )
    widget.locator(".agui-title").hover()  # the pointer away from the messages: what a reader sees at rest
    chat.frames()
    widget.root.screenshot(
        path=str(artifacts_dir / f"branches-{theme}-{width}-pickers.png"), animations="disabled"
    )
    open_editor(widget, 2)
    assert widget.message(2).locator("[data-agui=edit]:visible").count() == 0  # no second editor
    chat.page.keyboard.type(" And on Sunday, if it rains, what should I visit instead?")
    widget.locator(".agui-title").hover()
    chat.frames()
    widget.root.screenshot(
        path=str(artifacts_dir / f"branches-{theme}-{width}-editor.png"), animations="disabled"
    )
    box = widget.message(1).locator("[data-agui=branch-picker]").bounding_box()
    assert box is not None and box["height"] <= 26
    bubble = widget.message(2).locator("[data-agui=editor]").bounding_box()
    assert bubble is not None and bubble["width"] <= width  # no overflow at 360 px


def test_the_picker_drives_a_real_widget_loaded_with_branches(chat, tmp_path):
    """The front end and the kernel together: a ChatWidget loaded from a saved file with an edit, its comm wired
    to the page; a click on ‹ switches the kernel's conversation and the view shows what the kernel synced."""
    import orjson

    from agui_notebook.chat._branches import MessageTree
    from agui_notebook.chat._saved import SavedConversation
    from agui_notebook.widget._chat import ChatWidget

    tree = MessageTree(two_turns())
    tree.cut(2)
    tree.sync(
        [
            *tree.messages,
            text_message("u2b", "user", "And on Sunday?"),
            text_message("a2b", "assistant", "Rain."),
        ]
    )
    SavedConversation("t1", tree.messages, None, [], tree.to_saved()).write(tmp_path / "chat.json")
    kernel = ChatWidget.load(tmp_path / "chat.json")
    state = {k: v for k, v in kernel.get_state().items() if k in ("branch_points", "status", "replay_only")}
    widget = chat.open(**state, messages=kernel.messages)  # the harness answers the view's resync with them

    def to_page(data=None, metadata=None, buffers=None):
        data = orjson.loads(orjson.dumps(data))
        if data["method"] == "update":
            for name, value in data["state"].items():
                widget.set(name, value)
        elif data["method"] == "custom":
            widget.deliver(data["content"])

    kernel.comm.send = to_page

    def to_kernel():
        for content in widget.sent():
            kernel._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
        widget.clear_sent()

    picker = widget.message(2).locator("[data-agui=branch-picker]")
    assert picker.get_attribute("aria-label") == "Version 2 of 2"
    assert widget.locator("[data-agui=edit]:visible").count() == 0  # no agent: the picker, not the pencil
    picker.locator("[data-agui=branch-previous]").click()
    to_kernel()
    assert [m["id"] for m in kernel.messages] == ["u1", "a1", "u2", "a2"]
    assert widget.message(2).inner_text().startswith("And tomorrow?")
    assert widget.message(3).inner_text().startswith("Sunny, 21 °C.")
    assert picker.get_attribute("aria-label") == "Version 1 of 2"
    picker.locator("[data-agui=branch-next]").click()
    to_kernel()
    assert [m["id"] for m in kernel.messages] == ["u1", "a1", "u2b", "a2b"]
    assert widget.message(3).inner_text().startswith("Rain.")
    assert kernel.error == ""
