"""The input area: keyboard behaviour, refusals while busy, Stop, Regenerate, Copy and file attachments."""

from __future__ import annotations

import base64

import pytest

from tests.browser.chat_samples import conversation

pytestmark = pytest.mark.browser

# JupyterLab and Notebook 7 read shortcuts from keydown on the document, in the bubbling phase.
COUNT_DOCUMENT_KEYS = """() => {
  window.__documentKeys = [];
  if (window.__countingKeys) return;  // pages are reused between tests: one set of listeners
  window.__countingKeys = true;
  for (const type of ['keydown', 'keyup', 'keypress']) {
    document.addEventListener(type, (event) => {
      const mods = ['ctrlKey', 'metaKey', 'altKey', 'shiftKey'].filter((m) => event[m]).map((m) => m[0]).join('');
      window.__documentKeys.push(type + ':' + (mods ? mods + '+' : '') + event.key);
    });
  }
}"""


def document_keydowns(chat) -> list[str]:
    keys = chat.evaluate("() => window.__documentKeys.splice(0)")
    return [key.split(":", 1)[1] for key in keys if key.startswith("keydown:")]


def test_enter_sends_and_shift_enter_breaks_the_line(chat):
    widget = chat.open()
    box = widget.locator("[data-agui=input]")
    box.click()
    chat.page.keyboard.type("line one")
    chat.page.keyboard.press("Shift+Enter")
    chat.page.keyboard.type("line two")
    assert widget.sent() == []
    assert box.input_value() == "line one\nline two"
    chat.page.keyboard.press("Enter")
    assert widget.sent() == [{"kind": "send", "text": "line one\nline two", "files": []}]
    assert box.input_value() == ""
    chat.page.keyboard.press("Enter")  # nothing to send
    widget.locator("[data-agui=send]").click()
    assert len(widget.sent()) == 1


def test_enter_while_composing_does_not_send(chat):
    widget = chat.open()
    box = widget.locator("[data-agui=input]")
    box.fill("にほんご")
    box.dispatch_event("keydown", {"key": "Enter", "isComposing": True, "bubbles": True, "cancelable": True})
    assert widget.sent() == []
    widget.locator("[data-agui=send]").click()
    assert widget.sent() == [{"kind": "send", "text": "にほんご", "files": []}]


def test_typing_never_reaches_notebook_shortcuts(chat):
    widget = chat.open(messages=conversation())
    chat.evaluate(COUNT_DOCUMENT_KEYS)
    # Lumino skips every shortcut under this attribute, Ctrl+S too: the widget does not set it.
    assert widget.root.get_attribute("data-lm-suppress-shortcuts") is None
    widget.locator("[data-agui=input]").click()
    chat.page.keyboard.type("aA 1")
    for key in ("Escape", "Enter", "Shift+Enter", "ArrowUp", "Shift+A", "Tab"):
        widget.locator("[data-agui=input]").focus()
        chat.page.keyboard.press(key)
    widget.locator("[data-agui=approval-reason]:visible").click()
    chat.page.keyboard.type("dd")
    widget.message(1).locator("summary").first.focus()  # not a field: letters still stay in the widget
    chat.page.keyboard.type("ab")
    assert chat.evaluate("() => window.__documentKeys") == []
    # Outside the widget the document still hears keys (the listener works).
    chat.evaluate("() => document.activeElement.blur()")
    chat.page.keyboard.press("x")
    assert chat.evaluate("() => window.__documentKeys") == ["keydown:x", "keypress:x", "keyup:x"]


def test_shortcuts_with_ctrl_or_cmd_reach_jupyterlab_but_text_editing_does_not(chat):
    widget = chat.open(messages=conversation())
    chat.evaluate(COUNT_DOCUMENT_KEYS)
    box = widget.locator("[data-agui=input]")
    box.click()
    chat.page.keyboard.type("some text")
    for key in ("Control+s", "Meta+s", "Control+Shift+c", "Control+Shift+Enter", "Alt+w"):
        chat.page.keyboard.press(key)
    assert document_keydowns(chat) == ["c+s", "m+s", "cs+c", "cs+Enter", "a+w"]
    # Editing the text is the field's: select all, copy, paste, cut, undo, redo, word moves.
    for key in (
        "Control+a",
        "Control+c",
        "Control+v",
        "Control+x",
        "Control+z",
        "Control+y",
        "Control+Shift+z",
    ):
        chat.page.keyboard.press(key)
    for key in ("Meta+a", "Meta+c", "Meta+z", "Control+ArrowLeft", "Control+Backspace", "Alt+ArrowLeft"):
        chat.page.keyboard.press(key)
    assert document_keydowns(chat) == []
    # In the reason field of an approval too; Ctrl+S still saves from there.
    widget.locator("[data-agui=approval-reason]:visible").click()
    chat.page.keyboard.press("Control+c")
    chat.page.keyboard.press("Control+s")
    assert document_keydowns(chat) == ["c+s"]
    # Outside a field, Ctrl+C copies what is selected in the widget; with nothing selected it goes on.
    widget.message(1).locator("summary").first.focus()
    chat.page.keyboard.press("Control+c")
    assert document_keydowns(chat) == ["c+c"]
    chat.evaluate(
        """(el) => { const range = document.createRange(); range.selectNodeContents(el);
           const s = getSelection(); s.removeAllRanges(); s.addRange(range); }""",
        widget.message(2).element_handle(),
    )
    chat.page.keyboard.press("Control+c")
    assert document_keydowns(chat) == []


def test_keys_the_widget_acts_on_stay_in_it(chat):
    widget = chat.open(messages=conversation())
    chat.evaluate(
        """() => { window.__reached = [];
           document.querySelector('[data-agui=input]').addEventListener('keydown', (e) => {
             if (e.key === 'k' && e.ctrlKey) e.preventDefault(); });
           document.addEventListener('keydown', (e) => window.__reached.push(e.key)); }"""
    )
    widget.locator("[data-agui=input]").click()
    chat.page.keyboard.press("Control+k")  # handled (preventDefault) inside: not the page's
    chat.page.keyboard.press("Control+j")
    assert chat.evaluate("() => window.__reached") == ["j"]


@pytest.mark.parametrize("status", ["submitted", "streaming"])
def test_sending_while_busy_is_refused_with_a_reason(chat, status):
    widget = chat.open(messages=conversation(), status=status)
    box = widget.locator("[data-agui=input]")
    box.fill("one more thing")
    box.press("Enter")
    notice = widget.locator("[data-agui=notice]")
    assert notice.is_visible()
    assert notice.inner_text() == "The agent is still answering. Wait for it to finish or press Stop."
    assert widget.locator("[data-agui=send]").get_attribute("aria-disabled") == "true"
    assert box.input_value() == "one more thing"
    assert widget.sent() == []
    widget.set("status", "ready")
    assert not notice.is_visible()
    box.press("Enter")
    assert widget.sent() == [{"kind": "send", "text": "one more thing", "files": []}]


def test_stop_while_streaming(chat):
    widget = chat.open(messages=conversation())
    stop = widget.locator("[data-agui=stop]")
    assert not stop.is_visible()
    widget.deliver({"kind": "patch", "seq": 1, "ops": [["status", "streaming", ""]]})
    stop.click()
    assert widget.sent() == [{"kind": "stop"}]
    assert stop.is_disabled()
    widget.deliver({"kind": "patch", "seq": 2, "ops": [["status", "ready", ""]]})
    assert not stop.is_visible()


def test_regenerate_the_last_answer(chat):
    widget = chat.open(messages=conversation())
    # Every answer can be regenerated (tests/browser/test_branches.py); the last one's button shows at rest.
    regenerate = widget.locator(".agui-message[data-last=true] [data-agui=regenerate]:visible")
    assert regenerate.count() == 1
    regenerate.click()
    assert widget.sent() == [{"kind": "regenerate", "messageId": "a2", "at": 3}]
    widget.deliver({"kind": "patch", "seq": 1, "ops": [["status", "submitted", ""]]})
    assert widget.locator("[data-agui=regenerate]:visible").count() == 0
    widget.deliver({"kind": "patch", "seq": 2, "ops": [["status", "ready", ""], ["len", 3]]})
    # The last message is now the user's: nothing to regenerate there.
    assert widget.locator(".agui-message[data-last=true] [data-agui=regenerate]:visible").count() == 0


def test_copy_a_message(chat):
    widget = chat.open(messages=conversation())
    widget.message(0).hover()
    widget.message(0).locator("[data-agui=copy]").click()
    assert chat.evaluate("() => navigator.clipboard.readText()") == (
        "What's the weather in Paris today? Here is the chart from this morning."
    )
    assert widget.sent() == []  # copying is local


def test_attachments_are_sent_as_data_urls(chat):
    widget = chat.open()
    with chat.page.expect_file_chooser() as chooser:
        widget.locator("[data-agui=attach]").click()
    chooser.value.set_files(
        [
            {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hello notes"},
            {"name": "drop.bin", "mimeType": "application/octet-stream", "buffer": b"\x00\x01"},
        ]
    )
    chips = widget.locator("[data-agui=attachment]")
    chips.nth(1).locator("[data-agui=remove-attachment]").click()
    chat.page.wait_for_function(
        "() => document.querySelector('[data-agui=attachment]').dataset.ready === 'true'"
    )
    assert chips.count() == 1
    widget.locator("[data-agui=input]").press("Enter")  # files alone can be sent
    encoded = base64.b64encode(b"hello notes").decode()
    assert widget.sent() == [
        {
            "kind": "send",
            "text": "",
            "files": [
                {
                    "mediaType": "text/plain",
                    "filename": "notes.txt",
                    "url": f"data:text/plain;base64,{encoded}",
                }
            ],
        }
    ]
    assert chips.count() == 0


def test_image_attachment_shows_a_thumbnail_and_large_files_are_refused(chat):
    widget = chat.open()
    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    file_input = widget.locator("[data-agui=file-input]")
    file_input.set_input_files([{"name": "dot.png", "mimeType": "image/png", "buffer": png}])
    chat.page.wait_for_function("() => document.querySelector('.agui-attachment-thumb') !== null")
    assert widget.locator(".agui-attachment-thumb").get_attribute("src").startswith("data:image/png;base64,")
    # Dropped on the widget (the file is made in the page: 6 MB through the test driver would be slow). With the
    # image already attached, it would take the message over the 6 MB limit.
    widget.root.evaluate(
        """(root) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(6 * 1024 * 1024)], 'huge.bin'));
        transfer.items.add(new File(['a,b'], 'table.csv', {type: 'text/csv'}));
        root.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
      }"""
    )
    assert (
        widget.locator("[data-agui=notice]").inner_text()
        == "huge.bin is too large to attach (6 MB in all per message)."
    )
    assert widget.locator("[data-agui=attachment]").all_inner_texts() == ["dot.png", "table.csv"]
