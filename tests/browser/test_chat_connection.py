"""A view whose kernel is gone (js/src/connection.js): it says so, sends nothing and keeps what was typed."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Widget

pytestmark = pytest.mark.browser

NOT_CONNECTED = "Not connected — run the cell again"


def _disconnect(chat, widget) -> None:
    """What ipywidgets does to a view whose comm is no longer live (after a kernel restart, or saved state)."""
    chat.evaluate("(v) => window.agui.host(v).classList.add('jupyter-widgets-disconnected')", widget.view)


def test_enter_without_a_kernel_keeps_the_text_and_says_why(chat):
    widget = chat.open()
    _disconnect(chat, widget)
    box = widget.locator("[data-agui=input]")
    box.fill("Are you there?")
    box.press("Enter")
    chat.frames()
    assert widget.sent() == []
    assert box.input_value() == "Are you there?"
    assert widget.locator("[data-agui=status]").inner_text() == NOT_CONNECTED
    assert widget.locator("[data-agui=notice]").inner_text() == "Not sent: your text is kept."
    assert widget.root.get_attribute("data-connection") == "lost"
    assert widget.root.get_attribute("data-status") == "ready"  # the kernel's last word, kept as it was


def test_a_connected_view_sends_as_before(chat):
    widget = chat.open()
    assert widget.root.get_attribute("data-connection") == "live"
    assert widget.locator("[data-agui=status]").inner_text() == "Ready"
    box = widget.locator("[data-agui=input]")
    box.fill("Hello")
    box.press("Enter")
    assert widget.sent() == [{"kind": "send", "text": "Hello", "files": []}]
    assert box.input_value() == ""


def test_the_static_copy_beside_a_live_view_is_hidden(chat):
    """The rule a live view adds to the page: the saved copy in the next output of the same cell goes."""
    chat.evaluate(
        """() => {
          const area = document.createElement('div');
          area.innerHTML = `
            <div class="jp-OutputArea-child" id="widget-output"></div>
            <div class="jp-OutputArea-child" id="copy-output"><div class="agui-static">saved copy</div></div>
            <div class="jp-OutputArea-child" id="other-copy"><div class="agui-static">another chat</div></div>`;
          document.getElementById('root').append(area);
        }"""
    )
    assert chat.page.locator("#copy-output").is_visible()
    # Mounted first, then moved where JupyterLab puts it (the output before the copy).
    view = chat.evaluate("() => window.agui.mount(window.agui.create({}), {})")
    chat.evaluate("(v) => document.getElementById('widget-output').append(window.agui.host(v))", view)
    chat.frames()
    assert not chat.page.locator("#copy-output").is_visible()
    assert chat.page.locator("#other-copy").is_visible()  # not the copy beside this view
    # A view that cannot reach its kernel has no conversation to show (it comes only from the kernel): the copy
    # shows beside it again.
    chat.evaluate("(v) => window.agui.host(v).classList.add('jupyter-widgets-disconnected')", view)
    chat.evaluate("() => window.agui.deliver(0, {do: 'nothing'})")  # any message: the view looks again
    chat.evaluate("() => window.agui.model(0).emit('comm_live_update')")
    chat.frames()
    assert chat.page.locator("#copy-output").is_visible()


def test_a_view_mounted_without_its_kernel_asks_for_the_conversation_once_connected(chat):
    model = chat.new_model(messages=[{"id": "u", "role": "user", "parts": [{"type": "text", "text": "Hi"}]}])
    view = chat.evaluate("(m) => window.agui.mount(m, {disconnected: true})", model)
    chat.settle()
    widget = Widget(chat, model, view)
    assert widget.resyncs() == 0  # nothing could be sent
    assert widget.locator(".agui-message").count() == 0
    assert not widget.locator("[data-agui=loading]").is_visible()  # the status line says why instead
    assert widget.locator("[data-agui=status]").inner_text() == NOT_CONNECTED
    chat.evaluate("(v) => window.agui.host(v).classList.remove('jupyter-widgets-disconnected')", view)
    chat.evaluate("(m) => window.agui.model(m).emit('comm_live_update')", model)
    chat.settle()
    assert widget.resyncs() == 1
    assert widget.locator(".agui-message").inner_text() == "Hi"
